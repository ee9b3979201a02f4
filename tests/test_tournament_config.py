"""Tournament files and schedules: bad files name the key, schedules are fair."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from referee.tournament.config import ConfigError, load
from referee.tournament.schedule import base_name, schedule

BOTS = """
[[bots]]
name = "a"
command = "python a.py"
[[bots]]
name = "b"
command = "python b.py"
[[bots]]
name = "c"
command = "python c.py"
[[bots]]
name = "d"
command = "python d.py"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(text)
    return path


def config_from(tmp_path: Path, head: str, bots: str = BOTS):  # type: ignore[no-untyped-def]
    return load(write(tmp_path, head + bots))


@pytest.mark.parametrize(
    ("head", "message"),
    [
        ('ruleset = "thief"\nseats = 3\ndeals = 1\n', "name is missing: expected a string"),
        ('name = "t"\nseats = 3\ndeals = 1\n', "ruleset is missing"),
        ('name = "t"\nruleset = "chess"\nseats = 3\ndeals = 1\n', "ruleset: unknown game 'chess'"),
        (
            'name = "t"\nruleset = "thief"\nseats = 9\ndeals = 1\n',
            "seats: thief is played by 2-6 players, not 9",
        ),
        (
            'name = "t"\nruleset = "thief"\nseats = 3\ndeals = "x"\n',
            "deals must be a whole number >= 1, not 'x'",
        ),
        ('name = "t"\nruleset = "thief"\nseats = 3\n', "deals is missing"),
        ('name = "t"\nruleset = "thief"\nseats = 3\ndeals = 1\ncolour = 2\n', "unknown key colour"),
        (
            'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 1\nformat = "swiss"\n',
            "format must be one of round-robin, not 'swiss'",
        ),
        (
            'name = "t"\nruleset = "thief?x=1"\nseats = 3\ndeals = 1\n',
            "ruleset: thief has no option 'x'",
        ),
        (
            'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 1\n[time_control]\nmove = 1\n',
            "unknown key time_control.move",
        ),
        (
            'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 1\n[time_control]\n'
            "move_seconds = -1\n",
            "time_control.move_seconds must be a number >= 0.001",
        ),
        (
            'name = "t"\nseats = 2\ndeals = 1\n[[events]]\nruleset = "thief"\nbots = ["a", "z"]\n',
            "events[0].bots: no bot named 'z'",
        ),
        (
            'name = "t"\nruleset = "thief"\nseats = 6\ndeals = 1\n',
            "needs 6 bots per game but only 4 play it; add bots or set self_play = true",
        ),
        (
            'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 1\nparallel = true\n',
            "parallel must be a whole number",
        ),
        ("name = [\n", "is not valid TOML"),
    ],
)
def test_a_malformed_file_names_the_key(tmp_path: Path, head: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        config_from(tmp_path, head)


def test_bot_entries_are_checked(tmp_path: Path) -> None:
    head = 'name = "t"\nruleset = "thief"\nseats = 2\ndeals = 1\n'
    with pytest.raises(ConfigError, match=r"bots\[1\].name: two bots are called 'a'"):
        two = '[[bots]]\nname="a"\ncommand="x"\n[[bots]]\nname="a"\ncommand="y"\n'
        config_from(tmp_path, head, two)
    with pytest.raises(ConfigError, match=r"bots\[0\].command is missing"):
        config_from(tmp_path, head, '[[bots]]\nname="a"\n')
    with pytest.raises(ConfigError, match=r"bots\[0\].cwd: .* is not a directory"):
        config_from(tmp_path, head, '[[bots]]\nname="a"\ncommand="x"\ncwd="nope"\n')
    with pytest.raises(ConfigError, match="must be letters, digits"):
        config_from(tmp_path, head, '[[bots]]\nname="a b#2"\ncommand="x"\n')


def test_round_robin_rotates_every_group_over_the_same_deals(tmp_path: Path) -> None:
    config = config_from(tmp_path, 'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 2\n')
    games = schedule(config)
    assert len(games) == 4 * 2 * 3  # C(4,3) groups x deals x rotations
    assert len({g.key for g in games}) == len(games)
    assert len({g.seed for g in games}) == 2, "every group plays the same deals"
    for group in {frozenset(g.seats) for g in games}:
        for deal_seed in {g.seed for g in games}:
            seatings = [
                g.seats for g in games if frozenset(g.seats) == group and g.seed == deal_seed
            ]
            for seat in range(3):
                assert {s[seat] for s in seatings} == group, "each bot holds each seat once"
    per_bot = Counter(name for g in games for name in g.seats)
    assert set(per_bot.values()) == {18}


def test_self_play_fills_groups_when_there_are_too_few_bots(tmp_path: Path) -> None:
    bots = '[[bots]]\nname="a"\ncommand="x"\n[[bots]]\nname="b"\ncommand="y"\n'
    config = config_from(
        tmp_path, 'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 1\nself_play = true\n', bots
    )
    games = schedule(config)
    groups = {tuple(sorted(g.seats)) for g in games}
    assert groups == {("a", "a#2", "b"), ("a", "b", "b#2")}
    assert {base_name(s) for g in games for s in g.seats} == {"a", "b"}


def test_events_choose_their_bots_by_game(tmp_path: Path) -> None:
    text = """
name = "t"
deals = 1
[[bots]]
name = "any"
command = "x"
[[bots]]
name = "other"
command = "x"
[[bots]]
name = "only-thief"
command = "x"
games = ["thief"]
[[events]]
ruleset = "thief"
seats = 2
[[events]]
name = "small"
ruleset = "thief"
seats = 2
bots = ["any", "other"]
"""
    config = load(write(tmp_path, text))
    assert [e.name for e in config.events] == ["thief", "small"]
    assert config.events[0].bots == ("any", "other", "only-thief")
    assert len(schedule(config)) == 3 * 2 + 1 * 2


def test_the_fingerprint_ignores_how_the_run_is_done(tmp_path: Path) -> None:
    head = 'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 2\n'
    base = config_from(tmp_path, head).fingerprint()
    assert config_from(tmp_path, head + "parallel = 7\n").fingerprint() == base
    assert config_from(tmp_path, head.replace("deals = 2", "deals = 3")).fingerprint() != base
