"""Terminal escapes: nothing a bot controls may act on the operator's terminal.

The hostile bot (tests/bots/escape_bot.py) puts a window-title change, a
screen clear, an OSC 52 clipboard write, an 8-bit CSI, a bidi override,
carriage-return and backspace overwrites, rich markup and an emoji code in
its Hello name, its stdout and its stderr. `referee play`, `referee run`,
`referee replay` and `referee standings` must print none of these raw, and
`replay` must still show what the bot printed, neutralised into visible
escapes. A bot that dies at startup after writing escapes to stderr must get
an error line that quotes it harmlessly. Unit tests of referee.terminal
cover every class of character it neutralises.
"""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata
from io import StringIO
from pathlib import Path
from types import SimpleNamespace

import pytest
from rich.console import Console

from referee.log import EventEntry
from referee.terminal import safe, safe_line, safe_markup

ROOT = Path(__file__).resolve().parent.parent
ESCAPE_BOT = "python tests/bots/escape_bot.py"
RANDOM_BOT = "python sample_bots/python/random_bot.py"
# Writes a title change and "boom" to stderr, exits before connecting.
BROKEN_BOT = "python tests/bots/escape_bot.py fail"
# Raw characters that must never reach the terminal from a bot.
RAW = {
    "ESC": "\x1b",
    "BEL": "\x07",
    "BS": "\x08",
    "CR": "\r",
    "8-bit CSI": "\x9b",
    "bidi override": "\u202e",
}
UNSAFE_CATEGORIES = {"Cc", "Cf", "Cs", "Zl", "Zp"}

TOURNAMENT = r"""
name = "escapes"
root = "{root}"
ruleset = "thief"
seats = 2
deals = 1
deal_key = "00112233445566778899aabbccddeeff"
parallel = 1

[time_control]
startup_seconds = 30.0

[[bots]]
name = "escape"
command = "python tests/bots/escape_bot.py"

[[bots]]
name = "random"
command = "python sample_bots/python/random_bot.py"

[[bots]]
name = "broken"
command = "python tests/bots/escape_bot.py fail"

[output]
database = "{database}"
bot_logs = "{bot_logs}"
"""


# -- referee.terminal ------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07"),  # C0: ESC, BEL
        ("\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"),
        ("safe\rEVIL", "safe\\rEVIL"),  # C0: CR
        ("ok\b\bXX", "ok\\x08\\x08XX"),  # C0: BS
        ("\x00\x0b\x0c\x1f", "\\x00\\x0b\\x0c\\x1f"),  # NUL, VT, FF, US
        ("a\x7fb", "a\\x7fb"),  # DEL
        ("\x9b31m", "\\x9b31m"),  # C1: 8-bit CSI
        ("\x85\x90\x9d\x9f", "\\x85\\x90\\x9d\\x9f"),  # C1: NEL, DCS, OSC, APC
        ("\u202edetfel", "\\u202edetfel"),  # bidi override
        ("\u202a\u202b\u202c\u202d", "\\u202a\\u202b\\u202c\\u202d"),  # embeddings
        ("\u2066\u2067\u2068\u2069", "\\u2066\\u2067\\u2068\\u2069"),  # isolates
        ("\u200e\u200f\u061c", "\\u200e\\u200f\\u061c"),  # direction marks
        ("a\u200bb\u200dc\ufeff", "a\\u200bb\\u200dc\\ufeff"),  # zero-width, BOM
        ("\u2028\u2029", "\\u2028\\u2029"),  # line and paragraph separators
        ("\U000e0041\U000e007f", "\\U000e0041\\U000e007f"),  # tag characters
        ("\ud800", "\\ud800"),  # a lone surrogate
    ],
)
def test_safe_shows_each_unsafe_character_as_an_escape(raw: str, shown: str) -> None:
    assert safe(raw) == shown
    assert safe_line(raw) == shown


def test_newlines_and_tabs_are_kept_except_on_one_line() -> None:
    text = "one\n\ttwo\n"
    assert safe(text) == text
    assert safe_line(text) == "one\\n\\ttwo\\n"
    assert safe(text, one_line=True) == safe_line(text)


def test_plain_text_is_unchanged() -> None:
    for text in ("", "plain ASCII [with] {braces} and C:\\back\\slashes", "Ghârat ♠♥ 手牌 😀 ÷"):
        assert safe(text) == text
        assert safe_line(text) == text


def test_safe_is_idempotent() -> None:
    hostile = "\x1b]0;x\x07\r\n\t\x9b\u202e\ud800\U000e0041\\x1b"
    assert safe(safe(hostile)) == safe(hostile)
    assert safe_line(safe_line(hostile)) == safe_line(hostile)


def _every_character(categories: set[str], exclude: bool = False) -> str:
    return "".join(
        chr(code)
        for code in range(sys.maxunicode + 1)
        if (unicodedata.category(chr(code)) in categories) != exclude
    )


def test_every_control_format_and_separator_character_is_neutralised() -> None:
    unsafe = _every_character(UNSAFE_CATEGORIES)
    shown = safe_line(unsafe)
    assert shown.isascii() and shown.isprintable()
    kept = safe(unsafe)
    assert set(kept) - set(shown) == {"\n", "\t"}


def test_every_other_assigned_character_is_left_alone() -> None:
    others = _every_character(UNSAFE_CATEGORIES | {"Cn"}, exclude=True)
    assert safe_line(others) == others


def test_safe_markup_shows_markup_and_emoji_codes_as_text() -> None:
    text = "[bold red]x[/] [/] :zap: \x1b[31m \\"
    out = StringIO()
    console = Console(file=out, width=200, color_system=None)
    console.print(f"[dim]{safe_markup(text)}[/dim]", emoji=False, highlight=False)
    assert out.getvalue() == "[bold red]x[/] [/] :zap: \\x1b[31m \\\n"


def test_event_lines_show_hostile_names_as_text() -> None:
    from referee.cli import _event_line

    names = ["[/]\x1b]0;t\x07:zap:\u202e", "random"]
    entry = EventEntry(1, "steal", "seat 0 steals [x] from seat 1", 0, (), (0,))
    line = _event_line(entry, names, "full")
    assert line is not None
    out = StringIO()
    Console(file=out, width=200, color_system=None).print(line, emoji=False, highlight=False)
    shown = out.getvalue()
    assert_clean(shown, "event line")
    assert "to [/]\\x1b]0;t\\x07:zap:\\u202e:" in shown
    assert "[/]\\x1b]0;t\\x07:zap:\\u202e[0] steals [x] from random[1]" in shown


HOSTILE_NAME = "[/]\x1b]0;t\x07:zap:\u202e"
HOSTILE_SHOWN = "[/]\\x1b]0;t\\x07:zap:\\u202e"


def rendered(renderable: object) -> str:
    out = StringIO()
    Console(file=out, width=250, color_system=None).print(renderable)
    return out.getvalue()


def test_standings_tables_show_hostile_names_as_text() -> None:
    from referee.ratings import BotStanding, HeadToHead
    from referee.report.standings import EventStandings, render, to_csv

    rows = [BotStanding(HOSTILE_NAME, rank=1, games=1), BotStanding("random", rank=2, games=1)]
    event = EventStandings(
        event="thief",
        ruleset="thief",
        seats=2,
        games=1,
        scheduled=1,
        rows=rows,
        head_to_head={
            (HOSTILE_NAME, "random"): HeadToHead(1, 0, 0),
            ("random", HOSTILE_NAME): HeadToHead(0, 0, 1),
        },
    )
    shown = rendered(render([event]))
    assert_clean(shown, "standings")
    assert shown.count(HOSTILE_SHOWN) == 3, "in the standings, a column and a row of head to head"
    assert_clean(to_csv([event]), "standings as CSV")


def test_the_leader_board_shows_hostile_names_as_text() -> None:
    from referee.report.progress import Leaderboard

    board = Leaderboard()
    seats = [SimpleNamespace(bot=HOSTILE_NAME, score=1.0, place=1)]
    board.add(SimpleNamespace(key="thief/x/d0/r0", seats=seats))  # type: ignore[arg-type]
    shown = rendered(board.table())
    assert_clean(shown, "leader board")
    assert HOSTILE_SHOWN in shown


# -- the commands, with real bot processes -----------------------------------------


def assert_clean(text: str, where: str) -> None:
    for name, char in RAW.items():
        assert char not in text, f"{where}: raw {name} reached the terminal"


def referee(*args: str, colour: bool = False) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "NO_COLOR")
    }
    env["COLUMNS"] = "200"
    if colour:
        env["FORCE_COLOR"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "referee.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="surrogateescape",
        timeout=600,
        env=env,
    )


def test_play_shows_no_raw_escapes() -> None:
    done = referee("play", "thief", "--seed", "3", "--bot", ESCAPE_BOT, "--bot", RANDOM_BOT)
    assert done.returncode == 0, done.stderr
    assert_clean(done.stdout, "play stdout")
    assert_clean(done.stderr, "play stderr")
    # The name the bot chose is shown, markup and all, as text.
    assert "]0;t[/][red]:zap:escbot" in done.stdout


def test_a_bot_failing_at_startup_gets_a_harmless_error_line() -> None:
    done = referee("play", "thief", "--seed", "3", "--bot", BROKEN_BOT, "--bot", RANDOM_BOT)
    assert done.returncode == 2, done.stderr
    assert_clean(done.stdout, "play stdout")
    assert_clean(done.stderr, "play stderr")
    error = done.stderr.strip().splitlines()[-1]
    assert "exited with code 3 before connecting" in error
    assert error.endswith(": \\x1b]0;pwned\\x07boom"), error


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("escapes")
    database = tmp / "escapes.sqlite"
    path = tmp / "escapes.toml"
    path.write_text(
        TOURNAMENT.format(root=ROOT, database=database, bot_logs=tmp / "bot-logs"),
        encoding="utf-8",
    )
    done = referee("run", str(path), "--quiet")
    assert done.returncode == 0, done.stderr
    assert_clean(done.stdout, "run stdout")
    assert_clean(done.stderr, "run stderr")
    return database


@pytest.fixture(scope="module")
def games(tournament: Path) -> dict[str, str]:
    """Every game's key and its public replay (whose first line names the bots)."""
    listed = referee("replay", str(tournament))
    assert listed.returncode == 0, listed.stderr
    assert_clean(listed.stdout, "replay list")
    replays = {}
    for key in listed.stdout.split():
        shown = referee("replay", str(tournament), key, "--view", "public")
        assert shown.returncode == 0, shown.stderr
        replays[key] = shown.stdout
    return replays


def game_with(games: dict[str, str], bot: str) -> str:
    for key, shown in games.items():
        first = shown.strip().splitlines()[0]
        if f" {bot} vs " in first or first.endswith(f" vs {bot}"):
            return key
    raise AssertionError(f"no game of {bot} in {list(games)}")


@pytest.mark.parametrize("view", ["public", "full", "0", "1"])
def test_replay_shows_no_raw_escapes(tournament: Path, games: dict[str, str], view: str) -> None:
    for shown in games.values():
        assert_clean(shown, "replay --view public")
    done = referee("replay", str(tournament), game_with(games, "escape"), "--view", view)
    assert done.returncode == 0, done.stderr
    assert_clean(done.stdout, f"replay --view {view}")
    assert_clean(done.stderr, f"replay --view {view} stderr")


def test_replay_shows_what_the_bot_printed_neutralised(
    tournament: Path, games: dict[str, str]
) -> None:
    done = referee("replay", str(tournament), game_with(games, "escape"), "--view", "full")
    assert done.returncode == 0, done.stderr
    shown = done.stdout
    for visible in (
        "\\x1b]0;pwned\\x07",
        "\\x1b[2J\\x1b[H",
        "\\x1b]52;c;ZWNobyBwd25lZA==\\x07",
        "\\x9b31mred",
        "\\u202edetfel",
        "safe\\rEVIL",
        "ok\\x08\\x08XX",
        "[bold red]markup[/] :zap:",
    ):
        assert f"game start: {visible}" in shown, visible
        assert f"game start (stderr): {visible}" in shown, visible


def test_replay_on_a_colour_terminal_sends_no_bot_sequence(
    tournament: Path, games: dict[str, str]
) -> None:
    """With colour forced, rich's own ESC sequences are expected; none of the bot's."""
    key = game_with(games, "escape")
    done = referee("replay", str(tournament), key, "--view", "full", colour=True)
    assert done.returncode == 0, done.stderr
    for raw in ("\x1b]", "\x1b[2J", "\x1b[H", "\x07", "\x08", "\r", "\x9b", "\u202e"):
        assert raw not in done.stdout, repr(raw)
    assert "\\x1b]0;pwned\\x07" in done.stdout


def test_replay_shows_a_launch_error_harmlessly(tournament: Path, games: dict[str, str]) -> None:
    done = referee("replay", str(tournament), game_with(games, "broken"), "--view", "full")
    assert done.returncode == 0, done.stderr
    assert_clean(done.stdout, "replay of a launch error")
    assert "bot could not start" in done.stdout
    assert "\\x1b]0;pwned\\x07boom" in done.stdout


@pytest.mark.parametrize("form", [[], ["--csv"], ["--json"]])
def test_standings_show_no_raw_escapes(tournament: Path, form: list[str]) -> None:
    done = referee("standings", str(tournament), *form)
    assert done.returncode == 0, done.stderr
    assert_clean(done.stdout, f"standings {form}")
    assert "escape" in done.stdout
