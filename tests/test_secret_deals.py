"""A hostile bot tries to rebuild the deal from everything it is given.

tests/bots/seed_cracker.py takes the GameStart (ruleset, seats, seat,
game_id, seed), the events it saw and its hand, and replays candidate seeds
through the engine: the GameStart seed, the old public formula of deal seeds
and small integers. The controls show the attack works when seeds are public;
the tournament shows it finds nothing when they come from a secret key.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from referee import wire
from referee.bots import BotSpec
from referee.games import parse_ruleset
from referee.match import TimeControl
from referee.session import Session
from referee.v1 import referee_pb2 as pb

ROOT = Path(__file__).resolve().parent.parent
CRACKER = ROOT / "tests/bots/seed_cracker.py"
THIEF = parse_ruleset("thief")

TOURNAMENT = """
name = "crack"
root = "{root}"
ruleset = "thief"
seats = 2
deals = 2
parallel = 2

[time_control]
move_seconds = 60.0   # the cracker spends seconds on its first decision
startup_seconds = 30.0

[[bots]]
name = "cracker"
command = "python tests/bots/seed_cracker.py"
readable = ["referee"]  # it rebuilds deals with the engine

[[bots]]
name = "random"
command = "python sample_bots/python/random_bot.py"

[output]
database = "{database}"
bot_logs = "{bot_logs}"
"""


def cracker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("seed_cracker", CRACKER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_cracker_finds_a_deal_seeded_by_the_old_public_formula() -> None:
    sc = cracker()
    seed = sc.old_public_seed(17, "thief", 4)
    seat = 1
    state = THIEF.new_state(2, seed)
    seen = [
        sc.sighting(wire.event_message(i, e))
        for i, e in enumerate(state.opening_events())
        if e.visible_to(seat)
    ]
    hand = sc.hand_of(wire.observation_message(THIEF.game, state.observe(seat)))
    start = pb.GameStart(game_id="g", ruleset="thief", seat=seat, seats=2, seed=12345)
    found, tried = sc.crack("thief", 2, seat, seen, hand, sc.candidates(start))
    assert found == seed
    assert tried == 1 + 17 * 51 + 4 + 1, "the GameStart seed, then the old formula in order"
    other = THIEF.new_state(2, seed + 1)
    wrong = [
        sc.sighting(wire.event_message(i, e))
        for i, e in enumerate(other.opening_events())
        if e.visible_to(seat)
    ]
    assert sc.crack("thief", 2, seat, wrong, hand, [seed])[0] is None, "no false match"


def test_the_cracker_finds_a_public_play_seed_through_the_referee() -> None:
    """`referee play --seed N` is public on purpose: a small N is found."""

    async def go() -> str:
        specs = [
            BotSpec(f"{sys.executable} {CRACKER}", name="cracker", readable=(ROOT / "referee",)),
            BotSpec(f"{sys.executable} {ROOT / 'sample_bots/python/random_bot.py'}"),
        ]
        async with Session(specs, time_control=TimeControl(30.0, 30.0, 30.0)) as session:
            await session.play(THIEF, 42)
            return session.pool.game_output("bot0")

    assert "cracker: matched 42" in asyncio.run(go())


def test_no_bot_rebuilds_a_tournament_deal(tmp_path: Path) -> None:
    path = tmp_path / "crack.toml"
    database = tmp_path / "crack.sqlite"
    path.write_text(
        TOURNAMENT.format(root=ROOT, database=database, bot_logs=tmp_path / "crack-bots")
    )
    run = subprocess.run(
        [sys.executable, "-m", "referee.cli", "run", str(path), "--quiet"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT key, bot_output FROM games WHERE status = 'done'").fetchall()
    assert len(rows) == 4, "2 deals x 2 rotations"
    for key, output in rows:
        said = json.loads(output or "{}").get("cracker", "")
        assert "cracker: no match after" in said, (key, said)
        assert "matched" not in said.replace("no match", ""), (key, said)
