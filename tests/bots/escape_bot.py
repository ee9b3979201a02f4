"""A hostile bot for tests/test_terminal_escapes.py: everything it controls
that an operator may read carries terminal escape sequences.

Its Hello name holds a title change, rich markup (a stray `[/]` that makes rich
raise, a style), an emoji code and a bidi override; on stdout and stderr it
prints a window title change, a screen clear, an OSC 52 clipboard write, an
8-bit CSI, a bidi override and a carriage-return overwrite, at startup, at the
start of every game and with its first decision of each game. It plays the
first legal action. It writes no file: it only prints.

With the argument `fail` it only writes a title change and "boom" to stderr and
exits with code 3 before connecting, so that its launch error quotes them.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from referee.sdk import Bot, run
from referee.v1 import referee_pb2 as pb

# Each attack, as the bot prints it.
ATTACKS = (
    "\x1b]0;pwned\x07",  # set the window title
    "\x1b[2J\x1b[H",  # clear the screen, cursor home
    "\x1b]52;c;ZWNobyBwd25lZA==\x07",  # write "echo pwned" to the clipboard
    "\x9b31mred",  # 8-bit CSI: red text
    "\u202edetfel",  # bidi override: reads "left" backwards
    "safe\rEVIL",  # carriage return overwrites "safe"
    "ok\b\bXX",  # backspaces overwrite "ok"
    "[bold red]markup[/] :zap:",  # rich markup and an emoji code
)
NAME = "\x1b]0;t\x07[/][red]:zap:esc\u202ebot"


def shout(where: str) -> None:
    """Every attack on stdout and on stderr."""
    for attack in ATTACKS:
        print(f"{where}: {attack}", flush=True)
        print(f"{where} (stderr): {attack}", file=sys.stderr, flush=True)


class EscapeBot(Bot):
    name = NAME

    def __init__(self) -> None:
        self.shouted = False

    def on_game_start(self, start: pb.GameStart) -> None:
        shout("game start")
        self.shouted = False

    def choose(self, observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
        if not self.shouted:
            self.shouted = True
            shout("choose")
        return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["fail"]:
        sys.stderr.write("\x1b]0;pwned\x07boom")
        sys.exit(3)
    shout("startup")
    run(EscapeBot())
