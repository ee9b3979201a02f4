"""The adversarial suite: one hostile bot per attack, each against a random
bot, through real endpoints and real processes, confined exactly as a
tournament confines them. Each test asserts that the defence held (the
attack's own report says what it could do, and the test checks the world
after it), the other seat was unaffected, the game finished with a result,
and no process was left behind. Every attack is bounded (this runs as root
on a shared machine): see tests/bots/hostile_bot.py.

Attacks that need no sandbox to be stopped (uids, cgroups, environment)
are also run with the sandbox off, with small stdlib-only attackers started
by the same launcher (tests/bots/shell_attacks.py).
"""

from __future__ import annotations

import asyncio
import os
import re
import resource
import socket
import sys
import threading
from pathlib import Path

import pytest

from referee import cgroups, sandbox
from referee.bots import BotLaunchError, BotSpec, marked_processes
from referee.games import parse_ruleset
from referee.log import ResultEntry
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
needs_root = pytest.mark.skipif(not probe().uids_work, reason="bots get their own uid as root")
confined = pytest.mark.skipif(
    not (probe().sandbox_works or probe().uids_work), reason="needs the sandbox or root"
)
needs_cgroups = pytest.mark.skipif(
    probe().cgroups is None, reason=f"cgroups are needed: {probe().cgroups_error}"
)


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Outcome:
    def __init__(
        self, result: MatchResult, markers: list[str], log_dir: Path, uids: list[int | None]
    ) -> None:
        self.result = result
        self.markers = markers
        self.log_dir = log_dir
        self.uids = uids

    @property
    def hostile(self):  # type: ignore[no-untyped-def]
        return self.result.seats[0]

    @property
    def other(self):  # type: ignore[no-untyped-def]
        return self.result.seats[1]

    def report(self) -> str:
        return self.read_report(self.log_dir)

    @staticmethod
    def read_report(log_dir: Path) -> str:
        """The hostile bot's REPORT lines, over all its processes."""
        lines = []
        for path in sorted(log_dir.glob("bot0-*.log")):
            for line in path.read_text(errors="replace").splitlines():
                if line.startswith("REPORT "):
                    lines.append(line.removeprefix("REPORT "))
        return "\n".join(lines)


def attack(
    tmp_path: Path,
    name: str,
    arg: str = "",
    sandbox_mode: str = "auto",
    limits: Limits | None = None,
    hidden: list[Path] | None = None,
    time_control: TimeControl = FAST,
    other: BotSpec | None = None,
    check_other: bool = True,
    extra_args: str = "",
    hostile: Path = HOSTILE,
) -> Outcome:
    specs = [
        BotSpec(
            f"python {hostile} {extra_args}".strip(),
            name=f"hostile-{name}",
            env=(("BOT_ATTACK", name), ("BOT_ARG", arg)),
            base=ROOT,
        ),
        other or BotSpec(f"python {RANDOM}", name="random", base=ROOT),
    ]
    confinement = Confinement(sandbox_mode, limits or Limits())
    log_dir = tmp_path / "logs"

    async def go() -> Outcome:
        session = Session(
            specs,
            time_control=time_control,
            confinement=confinement,
            penalties=Penalties(stall_after=2),
            log_dir=log_dir,
        )
        session.pool.hidden = list(hidden or [])
        async with session:
            markers = [p.marker for p in session.processes]
            uids = [p.uid for p in session.processes]
            result = await session.play(THIEF, seed=5)
        return Outcome(result, markers, log_dir, uids)

    outcome = asyncio.run(go())
    assert isinstance(outcome.result.log[-1], ResultEntry), "the game must finish"
    if check_other:
        assert not outcome.other.faults, "the other seat must be unaffected"
    for marker in outcome.markers:
        assert marked_processes(marker) == [], f"a process of {marker} outlived the game"
    return outcome


def faults(outcome: Outcome) -> dict[str, int]:
    counts: dict[str, int] = outcome.hostile.fault_counts()
    return counts


# -- time and liveness -----------------------------------------------------------------


def test_busy_loop_times_out_then_stalls(tmp_path: Path) -> None:
    outcome = attack(tmp_path, "busy")
    assert faults(outcome) == {"timeout": 2, "stalled": 1}


def test_sleeping_forever_times_out_then_stalls(tmp_path: Path) -> None:
    assert faults(attack(tmp_path, "sleep")) == {"timeout": 2, "stalled": 1}


def test_sigstop_on_itself_stalls_and_is_still_killed(tmp_path: Path) -> None:
    assert faults(attack(tmp_path, "sigstop")) == {"timeout": 2, "stalled": 1}


@needs_cgroups
def test_a_cpu_hog_with_setsid_children_never_costs_another_bot_its_time(
    tmp_path: Path,
) -> None:
    """8 setsid children spinning on a 2-core machine, and a spinning thread:
    frozen outside its turns, the hog takes no time from the other bot, which
    burns 60 ms of CPU per decision, and its cgroup gets almost no CPU."""
    worker = BotSpec(
        f"python {ROOT / 'tests/bots/odd_bot.py'}",
        name="worker",
        env=(("BOT_MODE", "burn=0.06"),),
        base=ROOT,
    )
    # The decisive check is the hog's CPU time below; the limit leaves room
    # for a loaded machine (other processes than the hog).
    tight = TimeControl(move_seconds=1.0, bank_seconds=0.0, startup_seconds=20)

    async def go() -> tuple[MatchResult, float]:
        session = Session(
            [
                BotSpec(f"python {HOSTILE}", name="hog", env=(("BOT_ATTACK", "hog"),), base=ROOT),
                worker,
            ],
            time_control=tight,
            log_dir=tmp_path / "logs",
        )
        async with session:
            hog = session.processes[0]
            result = await session.play(THIEF, seed=5)
            hog_cpu = hog.cpu_seconds()
        return result, hog_cpu

    result, hog_cpu = asyncio.run(go())
    worker_record = result.seats[1]
    assert worker_record.decisions > 10
    assert worker_record.fault_counts() == {}, "the well-behaved bot lost time to the hog"
    assert max(worker_record.round_trips) < 1.0
    # Frozen except while it decides (it answers at once): its children and its
    # thread got almost no CPU during the game, though they spin forever.
    hog_decisions = result.seats[0].time_used
    assert hog_cpu < 2 * hog_decisions + 3.0, f"the hog ran outside its turns ({hog_cpu:.1f} s)"


# -- processes and resources -------------------------------------------------------------


def test_fork_bomb_children_are_all_killed(tmp_path: Path) -> None:
    outcome = attack(tmp_path, "forkbomb", "40")
    assert "forked" in outcome.report()
    assert not outcome.hostile.faults


@needs_cgroups
def test_a_fork_bomb_stops_at_the_process_limit_also_for_root(tmp_path: Path) -> None:
    # 200 children against a limit of 40 tasks: fork fails (its own threads and
    # the sandbox's processes count too), and the bot cannot even start gRPC.
    with pytest.raises(BotLaunchError, match="hostile-forkbomb"):
        attack(tmp_path, "forkbomb", "200", limits=Limits(processes=40))
    report = Outcome.read_report(tmp_path / "logs")
    found = re.search(r"fork refused after (\d+) children", report)
    assert found and int(found.group(1)) < 40, report


def test_setsid_double_fork_escape_is_killed(tmp_path: Path) -> None:
    outcome = attack(tmp_path, "escape")
    assert "escaped pid" in outcome.report(), "the grandchild did start"
    assert not outcome.hostile.faults  # attack() proves nothing of it is left


def test_memory_bomb_is_stopped_by_the_limit(tmp_path: Path) -> None:
    if probe().cgroups is None:  # the address-space limit raises MemoryError
        outcome = attack(tmp_path, "membomb", limits=Limits(memory_mb=512))
        assert "MemoryError" in outcome.report()
        return
    # The memory cgroup kills the bot (SIGKILL) at 512 MiB, before it connects.
    with pytest.raises(BotLaunchError, match="exited with code 137"):
        attack(tmp_path, "membomb", limits=Limits(memory_mb=512))
    assert "allocated 3 GiB" not in Outcome.read_report(tmp_path / "logs")


def test_disk_fill_is_stopped_by_the_file_size_limit(tmp_path: Path) -> None:
    outcome = attack(tmp_path, "diskfill", limits=Limits(file_mb=16))
    # Python ignores SIGXFSZ, so the write fails (EFBIG) and the bot plays on.
    assert "disk write stopped at 16 MiB: [Errno 27] File too large" in outcome.report()
    assert not outcome.hostile.faults


@needs_sandbox
@needs_root
def test_a_tmpfs_bomb_stops_at_the_disk_limit(tmp_path: Path) -> None:
    outcome = attack(tmp_path, "tmpfs_bomb", "512", limits=Limits(disk_mb=32))
    assert "/dev/shm: stopped after 3" in outcome.report()  # 31 or 32 MiB
    assert "No space left on device" in outcome.report()
    assert not outcome.hostile.faults


@needs_sandbox
@needs_cgroups
def test_tmpfs_pages_count_against_the_memory_limit(tmp_path: Path) -> None:
    """/dev/shm may hold 512 MiB, memory only 128 MiB: the memory cgroup kills
    the bot long before (tmpfs pages are charged to it)."""
    with pytest.raises(BotLaunchError, match="exited with code 137"):
        attack(tmp_path, "tmpfs_bomb", "400", limits=Limits(disk_mb=512, memory_mb=128))
    assert "wrote 400 MiB" not in Outcome.read_report(tmp_path / "logs")


@needs_sandbox
@needs_root
def test_an_inode_bomb_stops_at_the_file_count_limit(tmp_path: Path) -> None:
    outcome = attack(tmp_path, "inode_bomb", limits=Limits(files=2000))
    report = outcome.report()
    assert "files: stopped after" in report and "No space left on device" in report
    made = int(report.split("files: stopped after ")[1].split()[0])
    assert 1900 <= made <= 2000
    assert not outcome.hostile.faults


@needs_sandbox
@needs_root
def test_a_total_disk_bomb_is_bounded_and_touches_no_host_disk(tmp_path: Path) -> None:
    outcome = attack(tmp_path, "disk_bomb", limits=Limits(disk_mb=24, file_mb=64))
    report = outcome.report()
    total = int(report.split("disk total ")[1].split()[0])
    assert total <= 2 * 24, "HOME and /tmp share one bound; /dev/shm has its own"
    first, last = sandbox.DEFAULT_UID_RANGE
    for place in ("/tmp", "/var/tmp", "/dev/shm"):
        for entry in os.scandir(place):
            owner = entry.stat(follow_symlinks=False).st_uid
            assert not first <= owner <= last, f"{entry.path} was written by a bot"


def test_a_file_descriptor_bomb_stops_at_the_open_files_limit(tmp_path: Path) -> None:
    outcome = attack(tmp_path, "fd_bomb", limits=Limits(open_files=64))
    found = re.search(r"fds: stopped after (\d+) \(Too many open files\)", outcome.report())
    assert found and int(found.group(1)) < 64, outcome.report()
    assert not outcome.hostile.faults


@needs_cgroups
def test_cpu_time_counts_children_and_a_bot_past_its_limit_is_killed(tmp_path: Path) -> None:
    """Pondering allowed, so the hog's 8 setsid children spin between turns: the
    CPU time of its cgroup passes 3 s within seconds and the bot is killed."""
    pondering = TimeControl(move_seconds=0.5, bank_seconds=0.5, startup_seconds=20, ponder=True)

    async def go() -> tuple[MatchResult, list[str]]:
        session = Session(
            [
                BotSpec(f"python {HOSTILE}", name="hog", env=(("BOT_ATTACK", "hog"),), base=ROOT),
                BotSpec(
                    f"python {ROOT / 'tests/bots/odd_bot.py'}",
                    name="slow",
                    env=(("BOT_MODE", "sleep=0.2"),),
                    base=ROOT,
                ),
            ],
            time_control=pondering,
            confinement=Confinement(limits=Limits(cpu_seconds=3)),
            log_dir=tmp_path / "logs",
        )
        async with session:
            result = await session.play(THIEF, seed=5)
            return result, list(session.pool.cpu_killed)

    result, killed = asyncio.run(go())
    assert killed == ["hog"]
    assert result.seats[0].crashed and "crashed" in result.seats[0].fault_counts()
    assert not result.seats[1].faults


def test_100_mb_to_stdout_neither_blocks_nor_fills_the_disk(tmp_path: Path) -> None:
    before = rss_mb()
    outcome = attack(tmp_path, "stdout", limits=Limits(output_kb=256))
    assert not outcome.hostile.faults, "drained output never blocks the bot"
    logs = list((tmp_path / "logs").glob("*.log"))
    assert logs and all(f.stat().st_size < 300 * 1024 for f in logs)
    assert "more bytes dropped" in "".join(f.read_text(errors="replace") for f in logs)
    assert rss_mb() - before < 64, "the referee's memory must stay flat"


# -- privileges and the filesystem ---------------------------------------------------


@needs_sandbox
@needs_root
def test_no_capability_escape_from_the_sandbox(tmp_path: Path) -> None:
    results = tmp_path / "results"
    results.mkdir()
    (results / "t.sqlite").write_text("results")
    outcome = attack(tmp_path, "privileges", str(results), hidden=[results])
    report = outcome.report()
    uid = outcome.uids[0]
    assert uid is not None and uid >= sandbox.DEFAULT_UID_RANGE[0]
    assert f"uid {uid} euid {uid} groups [" in report
    assert "groups [0" not in report and "groups []" in report
    assert "CapEff 0000000000000000 CapBnd 0000000000000000" in report
    assert "NoNewPrivs 1" in report
    assert ": DONE" not in report, report
    for what in ("umount /tmp", "remount / read-write", "write /etc/pwned", "setuid 0"):
        assert f"{what}: refused" in report
    # From a new user namespace nothing hidden comes back either.
    assert "userns umount /tmp: DONE" not in report
    assert not Path("/etc/pwned").exists()


@needs_sandbox
def test_results_and_other_bots_files_are_hidden(tmp_path: Path) -> None:
    results = tmp_path / "results"
    results.mkdir()
    (results / "t.sqlite").write_text("results")
    referee_module = ROOT / "referee" / "store.py"
    other = ROOT / "sample_bots" / "js" / "random_bot.js"
    targets = [results / "t.sqlite", other, referee_module, ROOT / "pyproject.toml"]
    os.chmod(tmp_path, 0o755)
    outcome = attack(tmp_path, "snoop", ":".join(map(str, targets)), hidden=[results])
    report = outcome.report()
    for target in targets:
        assert f"could not read {target}" in report, report


@confined
def test_a_bot_writes_nowhere_but_its_scratch_space(tmp_path: Path) -> None:
    places = [ROOT / "referee", ROOT / "sample_bots" / "python", ROOT, Path(sys.prefix), Path("/")]
    outcome = attack(tmp_path, "write_into", ":".join(map(str, places)))
    report = outcome.report()
    assert ": DONE" not in report, report
    for place in [*places, HOSTILE.parent]:
        assert f"write into {place}: refused" in report
        assert not (place / "pwned.txt").exists()  # "/": the sandbox's own root is read-only


@needs_sandbox
def test_the_environment_is_minimal_and_host_sockets_are_unreachable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPERATOR_TOKEN", "do-not-leak")
    host_socket = tmp_path / "host.sock"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(host_socket))
    listener.listen()
    os.chmod(host_socket, 0o777)
    marker = Path("/tmp") / f"host-marker-{os.getpid()}"
    marker.write_text("host /tmp")
    try:
        outcome = attack(tmp_path, "environment", f"{host_socket}:/run/systemd/private")
    finally:
        listener.close()
        marker.unlink()
    report = outcome.report()
    names = eval(report.split("env names ")[1].splitlines()[0])
    allowed = {"PATH", "HOME", "TMPDIR", "LANG", "PWD", "BOT_ATTACK", "BOT_ARG"}
    assert set(names) - allowed <= {"REFEREE_ADDRESS", "REFEREE_SECRET", "REFEREE_BOT_MARKER"}
    assert "OPERATOR_TOKEN" not in names
    assert marker.name not in report, "the host's /tmp is not the bot's"
    visible = int(report.split("processes visible ")[1].split()[0])
    assert visible <= 4, "its own PID namespace: only its sandbox's processes"
    assert f"connect {host_socket}: refused" in report
    assert "connect /run/systemd/private: refused" in report


@needs_sandbox
def test_a_game_log_inside_the_bots_own_directory_is_hidden(tmp_path: Path) -> None:
    """`referee play --log` may write its record (every hidden card) anywhere,
    even into a bot's own folder: the bot still cannot read it."""
    folder = tmp_path / "bot"
    folder.mkdir()
    os.chmod(folder, 0o755)
    hostile = folder / "hostile_bot.py"
    hostile.write_text(HOSTILE.read_text())
    record = folder / "game.jsonl"
    record.write_text('{"every": "hidden card"}\n')
    outcome = attack(tmp_path, "snoop", str(record), hidden=[record], hostile=hostile)
    assert f"could not read {record}" in outcome.report()


@needs_sandbox
def test_a_tmp_path_on_the_command_line_does_not_open_the_hosts_tmp(tmp_path: Path) -> None:
    secret = Path("/tmp") / f"operator-secret-{os.getpid()}.txt"
    secret.write_text("secret")
    try:
        # Naming /tmp (or a file in it) on the command line shows nothing of it.
        outcome = attack(tmp_path, "snoop", str(secret), extra_args=f"/tmp {secret}")
    finally:
        secret.unlink()
    assert f"could not read {secret}" in outcome.report()


# -- endpoints -------------------------------------------------------------------------


@needs_root
def test_an_endpoint_cannot_be_hijacked_or_deleted(tmp_path: Path) -> None:
    outcome = attack(tmp_path, "hijack")
    report = outcome.report()
    assert ": DONE" not in report, report
    for what in ("rename endpoint", "delete endpoint", "create in endpoint dir"):
        assert f"{what}: refused" in report
    assert "listen beside endpoint: refused" in report
    # The runtime directory shows (at most) the bot's own endpoint directory.
    listing = re.search(r"runtime dir lists \[(.*)\]", report)
    assert "list runtime dir: refused" in report or (listing and "," not in listing.group(1))
    assert "other endpoints reached: 0" in report
    assert not outcome.hostile.faults


def test_connection_and_silent_stream_floods_starve_nobody(tmp_path: Path) -> None:
    fds: list[int] = []
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.05):
            fds.append(len(os.listdir("/proc/self/fd")))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    base = len(os.listdir("/proc/self/fd"))
    try:
        outcome = attack(tmp_path, "conn_flood")
    finally:
        done.set()
        sampler.join()
    report = outcome.report()
    found = re.search(r"raw: (\d+) connected, (\d+) closed", report)
    assert found, report
    connected, closed = int(found.group(1)), int(found.group(2))
    assert connected == 50
    assert closed >= 50 - 4, "the endpoint holds at most 4 connections"
    assert "raw after 7 s: 0 still open" in report, "connections that never speak are closed"
    assert "silent stream: DEADLINE_EXCEEDED" in report
    assert max(fds) - base < 40, "the referee's file descriptors stay bounded"
    assert not outcome.hostile.faults


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


@confined
def test_claiming_another_seats_secret_gets_nothing(tmp_path: Path) -> None:
    # Sandbox: other processes are not even visible. Without it (as root) other
    # bots run as other uids, whose environment is unreadable.
    outcome = attack(tmp_path, "steal_secret")
    report = outcome.report()
    assert "found 0 other secrets" in report
    assert "admitted" not in report
    assert not outcome.hostile.faults


def test_a_made_up_secret_is_refused() -> None:
    with pytest.raises(BotLaunchError, match=r"impostor.*exited with code 1 before connecting"):
        asyncio.run(_connect_with_secret("guess"))


async def _connect_with_secret(secret: str) -> None:
    # REFEREE_* from a tournament file never override the referee's own: the
    # bot overrides it itself, as an impostor would.
    spec = BotSpec(
        f"{sys.executable} -c \"import os, runpy; os.environ['REFEREE_SECRET']='{secret}'; "
        f"runpy.run_path('{RANDOM}', run_name='__main__')\"",
        name="impostor",
        cwd=RANDOM.parent,
    )
    async with Session([spec, spec], time_control=TimeControl(startup_seconds=5.0)):
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
        spec = BotSpec(
            f"{sys.executable} -c 'import time; time.sleep(60)'", name="mute", cwd=tmp_path
        )
        os.chmod(tmp_path, 0o755)
        async with Session([spec, spec], time_control=TimeControl(startup_seconds=1.0)):
            pass

    with pytest.raises(BotLaunchError, match="did not connect within 1 s"):
        asyncio.run(go())


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


def test_doctor_tells_what_is_active_here() -> None:
    protections = Confinement().summary()
    p = probe()
    assert protections["own unprivileged uid"] is p.uids_work
    assert protections["fair clocks"] is bool(p.cgroups and "freezer" in p.cgroups.controllers)
    off = Confinement("off").summary()
    assert off["no network"] is False
    assert off["results, logs, other bots, referee hidden"] is False
    assert off["capped output"] is True
    if p.cgroups is not None:
        assert cgroups.layout() is not None
