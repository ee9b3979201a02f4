"""Text from bots made safe to show on the operator's terminal.

A bot is untrusted, and so is everything it chose: its name (from its Hello),
what it printed, the last line of its stderr in a launch error. Written raw to
a terminal, such text is not just text: ESC and the 8-bit CSI (U+009B) start
sequences that retitle the window, clear the screen, move the cursor, write
the clipboard (OSC 52) or, on some terminals, worse; BEL, backspace and
carriage return overwrite what was shown ("safe\\rEVIL" reads "EVIL"); and
Unicode bidi and format controls (U+202E, U+2066, zero-width spaces...)
reorder or hide text so that what the operator reads is not what was sent.

`safe` replaces every such character by a visible escape in Python's own
notation (`\\x1b`, `\\x9b`, `\\u202e`), so the operator sees exactly what the
bot sent and the terminal interprets none of it. Neutralised are all the
characters Unicode classes as controls (Cc: C0, DEL and C1), format
characters (Cf: bidi marks, embeddings, overrides and isolates, zero-width
characters, the BOM, tag characters), surrogates (Cs: a lone one cannot even
be encoded for output) and line and paragraph separators (Zl, Zp). Newline and
tab are kept, except by `safe_line`, for fields that must stay on one line
(names, one-line errors). Backslashes are left as they are: a bot that prints
the four characters `\\x1b` looks the same as one that sent ESC, and both are
harmless.

Text that goes into a string printed with rich markup needs `safe_markup`,
which also escapes markup, so that a bot's text cannot inject styles, links or
a stray `[/]` that makes rich raise; print such strings with `emoji=False`
so that `:name:` codes in a bot's text stay text as well.
"""

from __future__ import annotations

import re

from rich.markup import escape

# Every Cc, Cf, Cs, Zl and Zp character (Unicode 15.1; tests/test_terminal_escapes.py
# checks the list against the running Python's unicodedata), except tab and newline.
_UNSAFE_CLASS = (
    r"\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2"
    r"\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ud800-\udfff\ufeff"
    r"\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    r"\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)
_UNSAFE = re.compile(f"[{_UNSAFE_CLASS}]")
_UNSAFE_IN_LINE = re.compile(f"[\\t\\n{_UNSAFE_CLASS}]")
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _visible(match: re.Match[str]) -> str:
    """The escape for one character, as Python's repr would write it."""
    char = match.group()
    code = ord(char)
    if char in _SHORT:
        return _SHORT[char]
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def safe(text: str, *, one_line: bool = False) -> str:
    """`text` with every character a terminal would act on (or that hides or
    reorders text) replaced by a visible escape; newlines and tabs kept unless
    `one_line`. Text without such characters is returned unchanged."""
    return (_UNSAFE_IN_LINE if one_line else _UNSAFE).sub(_visible, text)


def safe_line(text: str) -> str:
    """`safe` for a field shown on one line: newlines and tabs escaped too."""
    return safe(text, one_line=True)


def safe_markup(text: str, *, one_line: bool = False) -> str:
    """`safe`, then escaped for rich markup: for a bot's text interpolated into
    a string that is printed with markup on (print it with `emoji=False`)."""
    return escape(safe(text, one_line=one_line))
