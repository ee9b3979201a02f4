"""The `referee` command line, run as a user runs it: a subprocess."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PY_RANDOM = "python sample_bots/python/random_bot.py"
JS_RANDOM = "node sample_bots/js/random_bot.js"
THIEF_BOT = "python sample_bots/python/thief_bot.py"
needs_node = pytest.mark.skipif(
    shutil.which("node") is None or not (ROOT / "sample_bots/js/node_modules").is_dir(),
    reason="node and sample_bots/js/node_modules (npm ci) are needed for the JS bot",
)


def referee(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_games_lists_thief_with_its_seats() -> None:
    out = referee("games")
    assert out.returncode == 0, out.stderr
    assert "thief" in out.stdout and "2-6" in out.stdout


def test_rules_shows_summary_and_rulings() -> None:
    out = referee("rules", "thief")
    assert out.returncode == 0, out.stderr
    assert "Rulings" in out.stdout
    assert "re-capture" in out.stdout.lower()


@needs_node
def test_play_is_reproducible_with_python_js_and_heuristic_bots(tmp_path: Path) -> None:
    logs = []
    for run in range(2):
        log = tmp_path / f"game{run}.jsonl"
        out = referee(
            "play",
            "thief",
            "--seed",
            "7",
            "--bot",
            PY_RANDOM,
            "--bot",
            JS_RANDOM,
            "--bot",
            THIEF_BOT,
            "--log",
            str(log),
        )
        assert out.returncode == 0, out.stderr
        assert "place" in out.stdout and "score" in out.stdout
        logs.append(log.read_text())
    assert logs[0] == logs[1], "the same seed and bots must give the same log"
    entries = [json.loads(line) for line in logs[0].splitlines()]
    assert entries[0]["seats"] == ["random", "js-random", "thief-heuristic"]
    assert entries[-1]["type"] == "result" and entries[-1]["faults"] == [{}, {}, {}]
    assert not [e for e in entries if e.get("fault")]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "chess", "--bot", PY_RANDOM], "unknown game 'chess'"),
        (["play", "thief", "--bot", PY_RANDOM], "thief is played by 2-6 players, not 1"),
        (
            ["play", "thief", "--bot", "no-such-command-xyz", "--bot", PY_RANDOM],
            "command 'no-such-command-xyz' not found",
        ),
        (
            [
                "play",
                "thief",
                "--bot",
                "python tests/bots/odd_bot.py exit_start",
                "--bot",
                PY_RANDOM,
            ],
            "exited with code 5 before connecting: odd_bot: told to exit at start",
        ),
        (
            ["play", "thief", "--bot", "python -c 'import sys; sys.exit(4)'", "--bot", PY_RANDOM],
            "cannot tell which file is the bot",
        ),
        (
            ["play", "thief?colour=red", "--bot", PY_RANDOM, "--bot", PY_RANDOM],
            "thief has no option 'colour'",
        ),
        (["rules", "nope"], "unknown game 'nope'"),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_code_2(args: list[str], message: str) -> None:
    out = referee(*args)
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert message in out.stderr
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
