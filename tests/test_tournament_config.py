"""Tournament files and schedules: bad files name the key, schedules are fair."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from referee.keys import new_key
from referee.sandbox import DEFAULT_UID_RANGE
from referee.tournament.config import ConfigError, load
from referee.tournament.schedule import base_name, schedule
from referee.tournament.worker import bot_homes

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


KEY = new_key()


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
        (
            'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 1\nseed = 7\n',
            "seed is no longer a key: deals now come from a secret key made when the "
            "tournament is first run and stored in its database",
        ),
        (
            'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 1\ndeal_key = "abc"\n',
            "deal_key must be at least 32 hex digits",
        ),
        (
            'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 1\ndeal_key = "' + "g" * 32 + '"\n',
            "deal_key must be at least 32 hex digits",
        ),
        (
            'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 1\nbot_uids = [500, 600]\n',
            "bot_uids must be [first, last], whole numbers with 1000 <= first <= last < 2**31",
        ),
        (
            'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 1\nbot_uids = [7000, 6000]\n',
            "bot_uids must be [first, last]",
        ),
        (
            'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 1\nbot_uids = [7000]\n',
            "bot_uids must be [first, last]",
        ),
        (
            'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 1\n[time_control]\nponder = 1\n',
            "time_control.ponder must be true or false, not 1",
        ),
        (
            'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 1\n[limits]\ndisk_mb = -1\n',
            "limits.disk_mb must be a whole number >= 0, not -1",
        ),
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
    bad_env = [
        ('env = { "1X" = "v" }', "bots[0].env: '1X' is not a variable name"),
        ('env = { "A-B" = "v" }', "bots[0].env: 'A-B' is not a variable name"),
        ('env = { REFEREE_SECRET = "v" }', "bots[0].env: 'REFEREE_SECRET' is reserved"),
        ('env = { referee_address = "v" }', "bots[0].env: 'referee_address' is reserved"),
        ("env = { N = 3 }", "bots[0].env.N must be a string, not 3"),
        ('env = "N=3"', "bots[0].env must be a table"),
        ('readable = ["nope"]', "bots[0].readable: "),
        ('readable = "data"', "bots[0].readable must be a list of strings"),
    ]
    for line, message in bad_env:
        with pytest.raises(ConfigError, match=re.escape(message)):
            config_from(tmp_path, head, f'[[bots]]\nname="a"\ncommand="x"\n{line}\n')


def test_bot_environment_readable_paths_and_folder(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "b.py").write_text("")
    bots = """
[[bots]]
name = "a"
command = "python a.py"
cwd = "data"
env = { MODEL = "small", THREADS = "1" }
readable = ["data", "bots/b.py"]
[[bots]]
name = "b"
command = "python bots/b.py --fast"
"""
    config = config_from(tmp_path, 'name = "t"\nruleset = "thief"\nseats = 2\ndeals = 1\n', bots)
    a, b = config.bots
    assert a.env == (("MODEL", "small"), ("THREADS", "1"))
    assert a.readable == (tmp_path / "data", tmp_path / "bots" / "b.py")
    assert a.cwd == tmp_path / "data"
    assert b.cwd is None, "no cwd: the folder of the bot's program"
    assert bot_homes(config) == {tmp_path / "data", tmp_path / "bots"}, "hidden from the others"
    assert b.env == () and b.readable == ()


def test_new_keys_have_defaults(tmp_path: Path) -> None:
    config = config_from(tmp_path, 'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 1\n')
    assert config.deal_key is None
    assert config.confinement.uid_range == DEFAULT_UID_RANGE == (60000, 60999)
    assert config.time_control.ponder is False
    head = (
        'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 1\ndeal_key = "'
        + "Ab" * 16
        + '"\nbot_uids = [70000, 70100]\n[time_control]\nponder = true\n'
        "[limits]\ndisk_mb = 10\nfiles = 99\n"
    )
    config = config_from(tmp_path, head)
    assert config.deal_key == bytes.fromhex("ab" * 16)
    assert config.confinement.uid_range == (70000, 70100)
    assert config.time_control.ponder is True
    assert (config.confinement.limits.disk_mb, config.confinement.limits.files) == (10, 99)


def test_round_robin_rotates_every_group_over_the_same_deals(tmp_path: Path) -> None:
    config = config_from(tmp_path, 'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 2\n')
    games = schedule(config, KEY)
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
    games = schedule(config, KEY)
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
    assert len(schedule(config, KEY)) == 3 * 2 + 1 * 2


def test_the_fingerprint_ignores_how_the_run_is_done(tmp_path: Path) -> None:
    head = 'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 2\n'
    base = config_from(tmp_path, head).fingerprint()
    assert config_from(tmp_path, head + "parallel = 7\n").fingerprint() == base
    assert config_from(tmp_path, head.replace("deals = 2", "deals = 3")).fingerprint() != base
    changes = [
        'deal_key = "' + "00" * 16 + '"\n',
        "bot_uids = [2000, 2999]\n",
        "[time_control]\nponder = true\n",
        "[limits]\ndisk_mb = 1\n",
        "[limits]\nfiles = 1\n",
    ]
    for change in changes:
        assert config_from(tmp_path, head + change).fingerprint() != base, change
    env = BOTS.replace('command = "python a.py"', 'command = "python a.py"\nenv = { X = "1" }')
    assert config_from(tmp_path, head, env).fingerprint() != base
    readable = BOTS.replace('command = "python a.py"', 'command = "python a.py"\nreadable = ["."]')
    assert config_from(tmp_path, head, readable).fingerprint() != base


def test_the_definition_tells_whether_there_is_a_deal_key_never_the_key(tmp_path: Path) -> None:
    head = 'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 2\n'
    one = config_from(tmp_path, head + 'deal_key = "' + "12" * 16 + '"\n')
    two = config_from(tmp_path, head + 'deal_key = "' + "34" * 16 + '"\n')
    assert one.definition()["deal_key"] is True
    assert "12" * 16 not in str(one.definition())
    assert one.fingerprint() == two.fingerprint(), "a different key is the store's to refuse"
    assert "seed" not in one.definition()


def test_games_go_group_by_group_with_every_rotation_of_a_deal_in_a_row(tmp_path: Path) -> None:
    config = config_from(tmp_path, 'name = "t"\nruleset = "thief"\nseats = 3\ndeals = 2\n')
    games = schedule(config, KEY)
    order = [(frozenset(g.seats), g.deal, g.rotation) for g in games]
    groups = list(dict.fromkeys(group for group, _, _ in order))
    expected = [(group, d, r) for group in groups for d in range(2) for r in range(3)]
    assert order == expected
    assert games[0].deal_id == "thief/d0" and games[3].deal_id == "thief/d1"
    assert all(len(g.bot_seeds) == 3 for g in games)
