"""No memory across rotations: a hostile bot tries to remember each deal.

In a duplicate tournament every deal is played once per seat rotation, so a
bot that remembered its cards from one rotation would know an opponent's
cards in the next. tests/bots/hostile_bot.py (attack "remember") notes its
hand in every place it can write (HOME, TMPDIR, /tmp, /dev/shm, /var/tmp, its
own directory) and in its own memory (a per-process token), and at every
game reports its token and how many notes of other processes it found. The
test runs a real tournament and checks, from the database, that no process
played the same deal twice and that no note ever outlived its process.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TOURNAMENT = """
name = "memory"
root = "{root}"
ruleset = "thief"
seats = 2
deals = 3
parallel = {parallel}

[time_control]
startup_seconds = 30.0

[[bots]]
name = "rememberer"
command = "python tests/bots/hostile_bot.py"
env = {{ BOT_ATTACK = "remember" }}

[[bots]]
name = "random"
command = "python sample_bots/python/random_bot.py"

[[bots]]
name = "other"
command = "python tests/bots/odd_bot.py"

[output]
database = "{database}"
bot_logs = "{bot_logs}"
"""

REPORT = re.compile(r"REPORT game (\w+) process (\w+) notes from others (\d+)")


def run_tournament(tmp_path: Path, parallel: int) -> Path:
    database = tmp_path / "memory.sqlite"
    path = tmp_path / "memory.toml"
    path.write_text(
        TOURNAMENT.format(
            root=ROOT, database=database, bot_logs=tmp_path / "logs", parallel=parallel
        )
    )
    run = subprocess.run(
        [sys.executable, "-m", "referee.cli", "run", str(path), "--quiet"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    return database


def sightings(database: Path) -> list[tuple[str, str, int]]:
    """(deal, process token, notes found) for every game the rememberer played."""
    found = []
    with sqlite3.connect(database) as db:
        for event, deal, log, output in db.execute(
            "SELECT event, deal, log, bot_output FROM games WHERE status = 'done'"
        ):
            game_id = json.loads(zlib.decompress(log).decode().splitlines()[0])["game_id"]
            text = json.loads(output).get("rememberer", "")
            reports = [m for m in REPORT.finditer(text) if m.group(1) == game_id]
            if "rememberer" in text or reports:
                assert len(reports) == 1, text
                found.append((f"{event}/{deal}", reports[0].group(2), int(reports[0].group(3))))
    return found


def test_no_bot_process_plays_a_deal_twice_and_no_note_survives(tmp_path: Path) -> None:
    database = run_tournament(tmp_path, parallel=2)
    seen = sightings(database)
    # 2 groups with the rememberer x 3 deals x 2 rotations.
    assert len(seen) == 12
    per_process: dict[str, list[str]] = {}
    for deal, token, _ in seen:
        per_process.setdefault(token, []).append(deal)
    for token, deals in per_process.items():
        assert len(deals) == len(set(deals)), f"process {token} played a deal twice: {deals}"
    assert all(notes == 0 for _, _, notes in seen), "a note outlived the process that wrote it"
    # Processes are still reused across deals: a fresh process per game is not needed.
    assert len(per_process) < len(seen)
