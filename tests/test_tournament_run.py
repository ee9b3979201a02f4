"""Tournaments end to end: the CLI, real workers, real bots, a real SQLite file.

The central promise: kill the runner with SIGKILL in the middle, rerun the
same file, and the results are exactly those of an uninterrupted run, with
no game lost, none played twice and no process left behind.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

TOURNAMENT = """
name = "kill-test"
root = "{root}"
ruleset = "thief"
seats = 2
deals = 4
parallel = 2

[[bots]]
name = "random"
command = "python sample_bots/python/random_bot.py"

[[bots]]
name = "heuristic"
command = "python sample_bots/python/thief_bot.py"

[[bots]]
name = "first"
command = "python tests/bots/odd_bot.py"

[output]
database = "{database}"
bot_logs = "{bot_logs}"
"""


# Two databases play the same deals only when given the same deal_key.
SAME_DEALS = {"parallel = ": f'deal_key = "{"5e" * 32}"\nparallel = '}


def write_file(tmp_path: Path, name: str, **changes: str) -> Path:
    path = tmp_path / f"{name}.toml"
    text = TOURNAMENT.format(
        root=ROOT, database=tmp_path / f"{name}.sqlite", bot_logs=tmp_path / f"{name}-logs"
    )
    for old, new in changes.items():
        text = text.replace(old, new)
    path.write_text(text)
    return path


def referee(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )


def results(database: Path) -> dict[str, tuple[str, str, str]]:
    with sqlite3.connect(database) as db:
        return {
            key: (seats, scores, places)
            for key, seats, scores, places in db.execute(
                "SELECT key, seats, scores, places FROM games WHERE status = 'done'"
            )
        }


def done_count(database: Path) -> int:
    try:
        with sqlite3.connect(database, timeout=1) as db:
            return int(db.execute("SELECT COUNT(*) FROM games WHERE status='done'").fetchone()[0])
    except sqlite3.Error:
        return 0


def processes_with(marker: str) -> list[int]:
    """PIDs of live processes whose environment carries `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            status = (entry / "status").read_text()
        except OSError:
            continue
        if marker.encode() in environ and "State:\tZ" not in status:
            found.append(int(entry.name))
    return found


def test_a_tournament_runs_and_prints_standings(tmp_path: Path) -> None:
    path = write_file(tmp_path, "plain", **SAME_DEALS)  # fixed deals: a fixed outcome
    out = referee("run", str(path), "--quiet")
    assert out.returncode == 0, out.stderr
    assert "24 games in 1 event(s); 0 already played, 24 to play on 2 worker(s)" in out.stdout
    assert "24/24 games" in out.stdout
    assert "Sorted by mean place" in out.stdout
    data = json.loads(referee("standings", str(tmp_path / "plain.sqlite"), "--json").stdout)
    rows = {r["bot"]: r for r in data[0]["standings"]}
    assert {b: r["games"] for b, r in rows.items()} == {"random": 16, "heuristic": 16, "first": 16}
    assert not any(r["faults"] for r in rows.values()), "every bot started and played"
    assert rows["heuristic"]["rank"] == 1
    assert sum(r["wins"] for r in rows.values()) == 24
    assert data[0]["head_to_head"], "2-seat events have a head-to-head table"
    csv = referee("standings", str(tmp_path / "plain.sqlite"), "--csv").stdout.splitlines()
    assert csv[0].startswith("event,ruleset,seats,rank,bot") and len(csv) == 4

    again = referee("run", str(path), "--quiet")
    assert again.returncode == 0
    assert "24 already played, nothing to play" in again.stdout

    changed = write_file(tmp_path, "plain", **SAME_DEALS, **{"deals = 4": "deals = 5"})
    refused = referee("run", str(changed), "--quiet")
    assert refused.returncode == 2
    assert "was defined differently (changed: events)" in refused.stderr
    assert done_count(tmp_path / "plain.sqlite") == 24

    games = referee("replay", str(tmp_path / "plain.sqlite")).stdout.split()
    assert len(games) == 24
    seat_view = referee("replay", str(tmp_path / "plain.sqlite"), games[0], "--view", "1")
    assert seat_view.returncode == 0, seat_view.stderr
    assert "to heuristic: you are dealt" in seat_view.stdout  # seat 1's own cards
    assert "to random" not in seat_view.stdout  # never seat 0's


def test_sigkill_then_resume_gives_the_uninterrupted_results(tmp_path: Path) -> None:
    reference = write_file(tmp_path, "reference", **SAME_DEALS)
    assert referee("run", str(reference), "--quiet").returncode == 0
    expected = results(tmp_path / "reference.sqlite")
    assert len(expected) == 24

    path = write_file(tmp_path, "killed", **SAME_DEALS)
    database = tmp_path / "killed.sqlite"
    marker = f"REFEREE_TEST_MARKER={uuid.uuid4().hex}"
    env = {**os.environ, marker.split("=")[0]: marker.split("=")[1]}
    runner = subprocess.Popen(
        [sys.executable, "-m", "referee.cli", "run", str(path), "--quiet"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while done_count(database) < 5 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_with(marker), "workers and bots carry the marker while it runs"
    runner.send_signal(signal.SIGKILL)
    runner.wait()
    interrupted_at = done_count(database)
    assert 5 <= interrupted_at < 24, "the kill must land in the middle"

    deadline = time.monotonic() + 10
    while processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_with(marker) == [], "no worker or bot may outlive the runner"

    resumed = referee("run", str(path), "--quiet", env=env)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{interrupted_at} already played, {24 - interrupted_at} to play" in resumed.stdout
    assert results(database) == expected
    with sqlite3.connect(database) as db:
        seat_rows = db.execute("SELECT COUNT(*) FROM seat_results").fetchone()[0]
    assert seat_rows == 24 * 2, "every game stored once, each with its two seats"
    assert processes_with(marker) == []


@pytest.mark.parametrize("fresh", [False, True])
def test_fresh_processes_give_the_same_results(tmp_path: Path, fresh: bool) -> None:
    extra = "fresh_process = true\n" if fresh else ""
    path = write_file(
        tmp_path, f"fresh{fresh}", **{"parallel = 2\n": f"parallel = 1\n{extra}"}, **SAME_DEALS
    )
    assert referee("run", str(path), "--quiet").returncode == 0
    reference = write_file(tmp_path, "base", **SAME_DEALS)
    assert referee("run", str(reference), "--quiet").returncode == 0
    ours = {k: v[1:] for k, v in results(tmp_path / f"fresh{fresh}.sqlite").items()}
    theirs = {k: v[1:] for k, v in results(tmp_path / "base.sqlite").items()}
    assert ours == theirs


def test_a_crashing_bot_is_restarted_and_a_faulty_one_disqualified(tmp_path: Path) -> None:
    path = write_file(
        tmp_path,
        "faulty",
        **{
            'command = "python tests/bots/odd_bot.py"': (
                'command = "python tests/bots/odd_bot.py die_after=3"\n'
                '[[bots]]\nname = "illegal"\ncommand = "python tests/bots/odd_bot.py illegal"'
            ),
            "parallel = 2\n": "parallel = 1\n[penalties]\ndisqualify_share = 0.5\n",
            "deals = 4": "deals = 1",
        },
    )
    out = referee("run", str(path), "--quiet")
    assert out.returncode == 0, out.stderr
    data = json.loads(referee("standings", str(tmp_path / "faulty.sqlite"), "--json").stdout)
    rows = {r["bot"]: r for r in data[0]["standings"]}
    crasher = rows["first"]
    assert crasher["faults"] == {"crashed": crasher["games"]}, "one crash per game"
    assert crasher["decisions"] >= 2 * crasher["games"], "restarted: it decided in every game"
    assert rows["illegal"]["disqualified"]
    assert rows["first"]["disqualified"], "crashes in every game are faults too"
    assert {rows["illegal"]["rank"], rows["first"]["rank"]} == {3, 4}, "listed last"
    assert not rows["random"]["disqualified"] and not rows["random"]["faults"]


def test_workers_play_the_parsed_file_not_the_file_on_disk(tmp_path: Path) -> None:
    """The runner hands its parsed tournament to the workers: a file edited or
    removed once the run has started cannot change what is played."""
    from rich.console import Console

    from referee.report.progress import QuietProgress
    from referee.store import Store
    from referee.tournament.config import load
    from referee.tournament.runner import run

    path = write_file(tmp_path, "parsed", **SAME_DEALS, **{"deals = 4": "deals = 1"})
    config = load(path)
    path.write_text("this is not TOML any more")
    store = Store(config.database)
    try:
        with open(os.devnull, "w") as quiet:
            plan = run(config, store, QuietProgress(Console(file=quiet)), workers=1)
        assert store.counts() == (plan.total, plan.total) == (6, 6)
    finally:
        store.close()
