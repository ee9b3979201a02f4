"""The adversarial suite: one hostile bot per attack, each against a random
bot, through the real server and real processes. Each test asserts the
outcome: the fault recorded against the hostile seat, the other seat
unaffected, the game finished with a result, no process left behind and,
for floods, the referee's memory flat. Every attack is bounded (this runs
as root on a shared machine): see tests/bots/hostile_bot.py.
"""

from __future__ import annotations

import asyncio
import resource
import socket
import sys
import threading
from pathlib import Path

import pytest

from referee.bots import BotLaunchError, BotSpec, marked_processes
from referee.games import parse_ruleset
from referee.match import MatchResult, Penalties, TimeControl
from referee.sandbox import Confinement, Limits, probe
from referee.session import Session

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "bots" / "hostile_bot.py"
RANDOM = ROOT / "sample_bots" / "python" / "random_bot.py"
THIEF = parse_ruleset("thief")
FAST = TimeControl(move_seconds=0.5, bank_seconds=0.5, startup_seconds=20)
needs_sandbox = pytest.mark.skipif(
    not probe().sandbox_works, reason=f"bubblewrap is needed: {probe().bwrap_error}"
)


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Outcome:
    def __init__(self, result: MatchResult, markers: list[str], hostile_dir: Path) -> None:
        self.result = result
        self.markers = markers
        self.hostile_dir = hostile_dir

    @property
    def hostile(self):  # type: ignore[no-untyped-def]
        return self.result.seats[0]

    @property
    def other(self):  # type: ignore[no-untyped-def]
        return self.result.seats[1]

    def report(self) -> str:
        path = self.hostile_dir / "report.txt"
        return path.read_text() if path.exists() else ""


def attack(
    tmp_path: Path,
    name: str,
    arg: str = "",
    sandbox: str = "auto",
    limits: Limits | None = None,
    hidden: list[Path] | None = None,
) -> Outcome:
    hostile_dir = tmp_path / "hostile"
    other_dir = tmp_path / "other"
    hostile_dir.mkdir()
    other_dir.mkdir()
    (other_dir / "secret.txt").write_text("the other bot's file")
    specs = [
        BotSpec(
            f"env BOT_ATTACK={name} BOT_ARG={arg} {sys.executable} {HOSTILE}",
            name=f"hostile-{name}",
            cwd=hostile_dir,
        ),
        BotSpec(f"{sys.executable} {RANDOM}", name="random", cwd=other_dir),
    ]
    confinement = Confinement(sandbox, limits or Limits())

    async def go() -> Outcome:
        session = Session(
            specs,
            time_control=FAST,
            confinement=confinement,
            penalties=Penalties(stall_after=2),
            log_dir=tmp_path / "logs",
        )
        session.pool.hidden = [other_dir, *(hidden or [])]
        async with session:
            markers = [p.marker for p in session.processes]
            result = await session.play(THIEF, seed=5)
        return Outcome(result, markers, hostile_dir)

    outcome = asyncio.run(go())
    assert outcome.result.log[-1]["type"] == "result", "the game must finish"
    assert not outcome.other.faults, "the other seat must be unaffected"
    for marker in outcome.markers:
        assert marked_processes(marker) == [], f"a process of {marker} outlived the game"
    return outcome


def faults(outcome: Outcome) -> dict[str, int]:
    return outcome.hostile.fault_counts()


def test_busy_loop_times_out_then_stalls(tmp_path: Path) -> None:
    outcome = attack(tmp_path, "busy")
    assert faults(outcome) == {"timeout": 2, "stalled": 1}


def test_sleeping_forever_times_out_then_stalls(tmp_path: Path) -> None:
    assert faults(attack(tmp_path, "sleep")) == {"timeout": 2, "stalled": 1}


def test_sigstop_on_itself_stalls_and_is_still_killed(tmp_path: Path) -> None:
    assert faults(attack(tmp_path, "sigstop")) == {"timeout": 2, "stalled": 1}


def test_fork_bomb_children_are_all_killed(tmp_path: Path) -> None:
    outcome = attack(tmp_path, "forkbomb", "40")
    assert "forked" in outcome.report()
    assert not outcome.hostile.faults


@pytest.mark.parametrize("sandbox", ["auto", "off"])
def test_setsid_double_fork_escape_is_killed(tmp_path: Path, sandbox: str) -> None:
    outcome = attack(tmp_path, "escape", sandbox=sandbox)
    assert (outcome.hostile_dir / "escaped.pid").exists(), "the grandchild did start"
    assert not outcome.hostile.faults  # the marker check in attack() proves it is gone


def test_memory_bomb_is_stopped_by_the_limit(tmp_path: Path) -> None:
    outcome = attack(tmp_path, "membomb", limits=Limits(memory_mb=1024))
    assert "MemoryError" in outcome.report()
    assert not outcome.hostile.faults, "it survived its MemoryError and played on"


def test_disk_fill_is_stopped_by_the_file_size_limit(tmp_path: Path) -> None:
    outcome = attack(tmp_path, "diskfill", limits=Limits(file_mb=16))
    assert (outcome.hostile_dir / "fill.bin").stat().st_size == 16 << 20
    # Python ignores SIGXFSZ, so the write fails (EFBIG) and the bot plays on.
    assert "disk write stopped at 16 MiB: [Errno 27] File too large" in outcome.report()
    assert not outcome.hostile.faults


def test_100_mb_to_stdout_neither_blocks_nor_fills_the_disk(tmp_path: Path) -> None:
    before = rss_mb()
    outcome = attack(tmp_path, "stdout", limits=Limits(output_kb=256))
    assert not outcome.hostile.faults, "drained output never blocks the bot"
    logs = list((tmp_path / "logs").glob("*.log"))
    assert logs and all(f.stat().st_size < 300 * 1024 for f in logs)
    assert "more bytes dropped" in "".join(f.read_text(errors="replace") for f in logs)
    assert rss_mb() - before < 64, "the referee's memory must stay flat"


@needs_sandbox
def test_network_is_cut_off_in_the_sandbox(tmp_path: Path) -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.1)
    accepted: list[object] = []

    def accept() -> None:
        for _ in range(100):
            try:
                accepted.append(listener.accept())
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    outcome = attack(tmp_path, "network", str(listener.getsockname()[1]))
    thread.join()
    listener.close()
    assert "network: refused" in outcome.report()
    assert accepted == []


@needs_sandbox
def test_results_and_other_bots_files_are_hidden(tmp_path: Path) -> None:
    results = tmp_path / "results"
    results.mkdir()
    (results / "t.sqlite").write_text("results")
    other = tmp_path / "other" / "secret.txt"
    outcome = attack(tmp_path, "snoop", f"{results / 't.sqlite'}:{other}", hidden=[results])
    report = outcome.report()
    assert f"could not read {results / 't.sqlite'}" in report
    assert f"could not read {other}" in report


def test_without_the_sandbox_doctor_says_what_is_unprotected() -> None:
    protections = Confinement("off").summary()
    assert protections["no network"] is False
    assert protections["results, logs, other bots hidden"] is False
    assert protections["capped output"] is True


def test_garbage_bytes_on_the_socket_hurt_nobody(tmp_path: Path) -> None:
    assert not attack(tmp_path, "garbage").hostile.faults


def test_a_10_mb_message_is_a_protocol_fault(tmp_path: Path) -> None:
    outcome = attack(tmp_path, "huge")
    assert "stream ended: RESOURCE_EXHAUSTED" in outcome.report()
    assert faults(outcome) == {"protocol": 1}
    assert outcome.hostile.crashed, "its stream is closed: default actions to the end"


def test_connecting_twice_is_refused(tmp_path: Path) -> None:
    outcome = attack(tmp_path, "twice")
    assert "second stream: ALREADY_EXISTS" in outcome.report()
    assert not outcome.hostile.faults


@needs_sandbox
def test_claiming_another_seats_secret_gets_nothing(tmp_path: Path) -> None:
    # Without the sandbox a bot of the same user can read another's environment
    # and race it for its seat; `referee doctor` says so. With it, it sees nothing.
    outcome = attack(tmp_path, "steal_secret")
    report = outcome.report()
    assert "found 0 other secrets" in report, "the sandbox hides other processes"
    assert "admitted" not in report
    assert not outcome.hostile.faults


def test_a_made_up_secret_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BotLaunchError, match=r"impostor.*exited with code 1 before connecting"):
        asyncio.run(_connect_with_secret("guess"))


async def _connect_with_secret(secret: str) -> None:
    spec = BotSpec(f"env REFEREE_SECRET={secret} {sys.executable} {RANDOM}", name="impostor")
    async with Session([spec, spec], time_control=TimeControl(startup_seconds=2.0)):
        pass


def test_a_flood_of_messages_is_cut_off(tmp_path: Path) -> None:
    before = rss_mb()
    outcome = attack(tmp_path, "flood")
    counts = faults(outcome)
    assert counts["protocol"] == 1 and counts["stale"] >= 99
    assert outcome.hostile.crashed
    assert rss_mb() - before < 64


def test_a_bot_that_never_connects_is_a_startup_error(tmp_path: Path) -> None:
    async def go() -> None:
        spec = BotSpec(f"{sys.executable} -c 'import time; time.sleep(60)'", name="mute")
        async with Session([spec, spec], time_control=TimeControl(startup_seconds=1.0)):
            pass

    with pytest.raises(BotLaunchError, match="did not connect within 1 s"):
        asyncio.run(go())
