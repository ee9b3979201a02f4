"""The protections that hold with the sandbox off, when the referee is root:
each test starts a hostile process that attacks exactly one protection and
asserts that the defence held.

With the sandbox off, a bot runs as its own unprivileged uid and cannot read
the referee's interpreter (under /root), so the attackers are small
stdlib-only scripts for the system's /usr/bin/python3
(tests/bots/shell_attacks.py), started with `BotProcess.launch` directly,
from a copy in a fresh world-readable directory. Every attack is bounded
(forks, memory, time); the tests use a uid range of their own, so they never
meet the bots of other test runs on the same machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from referee import cgroups, runtime
from referee.bots import BOT_PATH, BotProcess, BotSpec
from referee.runtime import RuntimeDir, admit
from referee.sandbox import Confinement, Limits, probe
from referee.server import RefereeServer
from referee.uids import UidLease, processes_of

ATTACKS = Path(__file__).resolve().parent / "bots" / "shell_attacks.py"
SYSTEM_PYTHON = Path("/usr/bin/python3")
UIDS = (61500, 61599)  # not the default range: other test runs use that one
NO_ENDPOINT = "endpoint"  # a directory nobody listens in

pytestmark = pytest.mark.skipif(
    not probe().uids_work or not SYSTEM_PYTHON.is_file(),
    reason="bots get their own uid only as root with setpriv (and /usr/bin/python3)",
)
needs_cgroups = pytest.mark.skipif(
    probe().cgroups is None, reason=f"cgroups are needed: {probe().cgroups_error}"
)


def wait_for(condition: Callable[[], object], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds:g} s waiting for {what}")
        time.sleep(0.02)


def reports(bot: BotProcess) -> list[str]:
    try:
        text = bot.output.path.read_text(errors="replace")
    except OSError:
        return []
    return [
        line.removeprefix("REPORT ") for line in text.splitlines() if line.startswith("REPORT ")
    ]


def reported(bot: BotProcess, prefix: str) -> str | None:
    """The first report line starting with `prefix`, if any yet."""
    return next((line for line in reports(bot) if line.startswith(prefix)), None)


def process_state(pid: int) -> str | None:
    """The one-letter state of a process, None if there is none."""
    try:
        return Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[-1].split()[0].decode()
    except OSError:
        return None


def alive(pid: int) -> bool:
    return process_state(pid) not in (None, "Z", "X")


def own_cpu_seconds(pid: int) -> float:
    """CPU time of one process alone (utime + stime), children not included."""
    fields = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[-1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def oom_kills(bot: BotProcess) -> int:
    """How many processes the OOM killer of the bot's memory cgroup killed."""
    group = bot.resources.group
    assert group is not None
    if group.layout.version == 1:
        text = (group.dirs["memory"] / "memory.oom_control").read_text()
    else:
        text = (group.dirs["unified"] / "memory.events").read_text()
    found = re.search(r"^oom_kill (\d+)$", text, re.M)
    return int(found.group(1)) if found else 0


def owned_by(uid: int, place: Path) -> list[str]:
    found = []
    for entry in os.scandir(place):
        with contextlib.suppress(OSError):
            if entry.stat(follow_symlinks=False).st_uid == uid:
                found.append(entry.path)
    return found


class Arena:
    """A world-readable copy of the attacks, a log directory, and every bot
    launched from it (all killed at the end)."""

    def __init__(self, log_dir: Path) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="shell-attacks-", dir="/tmp"))
        os.chmod(self.base, 0o755)
        self.script = self.base / ATTACKS.name
        shutil.copyfile(ATTACKS, self.script)
        os.chmod(self.script, 0o644)
        (self.base / NO_ENDPOINT).mkdir(mode=0o700)
        self.logs = log_dir
        layout = probe().cgroups
        self.tree = cgroups.Tree(layout) if layout is not None else None
        self.bots: list[BotProcess] = []

    def launch(
        self,
        attack: str | None,
        *,
        limits: Limits = Limits(),  # noqa: B008 - frozen
        env: Sequence[tuple[str, str]] = (),
        address: str | None = None,
        secret: str = "",
        command: str | None = None,
    ) -> BotProcess:
        spec = BotSpec(
            command or f"{SYSTEM_PYTHON} {self.script} {attack}",
            cwd=self.base,
            env=tuple(env),
        )
        bot = BotProcess.launch(
            spec,
            address or f"unix://{self.base / NO_ENDPOINT}/referee.sock",
            secret or secrets.token_urlsafe(16),
            self.logs,
            f"{attack or 'bot'}-{len(self.bots)}",
            Confinement("off", limits, uid_range=UIDS),
            hidden=(),
            workdir=self.base,
            tree=self.tree,
            marker_prefix="shell-attacks-",
        )
        self.bots.append(bot)
        return bot

    def close(self) -> None:
        for bot in self.bots:
            bot.kill()
        if self.tree is not None:
            self.tree.remove()
        shutil.rmtree(self.base, ignore_errors=True)


@pytest.fixture
def arena(tmp_path: Path) -> Iterator[Arena]:
    place = Arena(tmp_path / "logs")
    try:
        yield place
    finally:
        place.close()


# -- least privilege -------------------------------------------------------------------


def test_bots_of_different_uids_cannot_signal_ptrace_or_read_each_other(arena: Arena) -> None:
    """Attacks the uid wall between bots (sandbox off): a bot tries to stop,
    kill and ptrace another bot and to read its environment (its secret) and
    memory. It also reports its own privileges: its own uid of the range, no
    groups, no capabilities, no_new_privs."""
    victim = arena.launch("victim")
    wait_for(lambda: reported(victim, "victim pid"), 10, "the victim to start")
    pid = victim.process.pid
    assert reported(victim, "victim pid") == f"victim pid {pid}", "the bot keeps the pid"
    attacker = arena.launch("neighbour", env=(("VICTIM", str(pid)),))
    wait_for(lambda: reported(attacker, "neighbour done"), 10, "the attack to end")
    report = "\n".join(reports(attacker))

    for what in ("SIGSTOP", "SIGKILL", "ptrace attach", "ptrace seize"):
        assert f"{what}: refused (PermissionError errno 1:" in report, report
    for what in ("read environ", "read mem", "list fds"):
        assert f"{what}: refused (PermissionError errno 13:" in report, report
    assert ": DONE" not in report, report

    time.sleep(0.1)  # a signal, had one been sent, would have arrived
    assert victim.exit_code is None and process_state(pid) == "S", "the victim runs on"
    status = Path(f"/proc/{pid}/status").read_text()
    assert re.search(r"^TracerPid:\s+0$", status, re.M), "nobody traces the victim"

    first, last = UIDS
    uid = attacker.uid
    assert uid is not None and victim.uid is not None and uid != victim.uid
    assert first <= uid <= last and first <= victim.uid <= last
    assert f"uid {uid} euid {uid} gid {uid} egid {uid}" in report
    assert "groups []" in report or f"groups [{uid}]" in report, report
    for capabilities in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
        assert f"{capabilities} 0000000000000000" in report, report
    assert "NoNewPrivs 1" in report


# -- resources -----------------------------------------------------------------------------


@needs_cgroups
def test_shared_memory_counts_against_the_memory_limit_and_is_removed(arena: Arena) -> None:
    """Attacks the total memory limit through the host's /dev/shm (sandbox
    off): tmpfs pages are charged to the bot's memory cgroup, so 300 MiB of
    files under a 64 MiB limit get the bot killed, and what it wrote there
    is deleted with its uid."""
    bot = arena.launch("shm_bomb", limits=Limits(memory_mb=64))
    uid = bot.uid
    assert uid is not None
    try:
        wait_for(
            lambda: bot.exit_code is not None or reported(bot, "shm stopped"),
            30,
            "the memory limit to stop the bot",
        )
        written = [int(n) for n in re.findall(r"shm wrote (\d+) MiB", "\n".join(reports(bot)))]
        assert written and max(written) < 64, "no more than the limit fits in /dev/shm"
        assert reported(bot, "shm done") is None
        if bot.exit_code is not None:  # killed by the memory cgroup's OOM killer
            assert bot.exit_code == -signal.SIGKILL, reports(bot)[-3:]
            assert oom_kills(bot) >= 1
        else:  # or its writes failed
            assert "Cannot allocate memory" in (reported(bot, "shm stopped") or "")
        assert owned_by(uid, Path("/dev/shm")), "the attack did write to /dev/shm"
        bot.kill()
        assert owned_by(uid, Path("/dev/shm")) == [], "its files outlived it"
    finally:
        for leftover in Path("/dev/shm").glob(f"shell-attack-{bot.process.pid}-*"):
            leftover.unlink()


@needs_cgroups
def test_memory_failures_count_a_bot_killed_at_its_limit(arena: Arena) -> None:
    """Attacks the memory limit's accounting: a bot killed at its limit
    must show in `memory_failures()` (what reports say of it)."""
    bot = arena.launch("shm_bomb", limits=Limits(memory_mb=32))
    wait_for(lambda: bot.exit_code is not None, 30, "the memory limit to stop the bot")
    assert bot.exit_code == -signal.SIGKILL and oom_kills(bot) >= 1
    assert bot.memory_failures() > 0


@needs_cgroups
def test_the_process_limit_holds_for_a_bot_of_a_root_referee(arena: Arena) -> None:
    """Attacks the process limit (sandbox off, referee root): 200 forks
    against a pids cgroup of 30 fail before 30; killing the bot leaves no
    process of its uid."""
    bot = arena.launch("fork_bomb", limits=Limits(processes=30))
    uid = bot.uid
    assert uid is not None
    wait_for(lambda: reported(bot, "fork"), 15, "the fork bomb to stop")
    line = reported(bot, "fork") or ""
    found = re.fullmatch(r"fork refused after (\d+) children \((.*)\)", line)
    assert found, line
    assert int(found.group(1)) < 30
    assert found.group(2) == "Resource temporarily unavailable"  # EAGAIN: pids.max
    assert int(found.group(1)) < len(processes_of(uid)) <= 30
    bot.kill()
    assert processes_of(uid) == []


@needs_cgroups
def test_cpu_time_counts_setsid_children_and_the_freezer_stops_them(arena: Arena) -> None:
    """Attacks CPU accounting and the freezer (sandbox off): 4 children in
    sessions of their own spin. Their time is the bot's (cpuacct), and a
    frozen bot uses none, children included."""
    layout = probe().cgroups
    assert layout is not None
    if not {"cpuacct", "freezer"} <= set(layout.controllers):
        pytest.skip("needs the cpuacct and freezer controllers")
    bot = arena.launch("spin")
    wait_for(lambda: reported(bot, "spinning"), 10, "the children to spin")
    children = [int(pid) for pid in (reported(bot, "spinning") or "").split()[1:]]
    assert len(children) == 4
    for child in children:  # each leads a session of its own: outside the bot's
        sid = int(Path(f"/proc/{child}/stat").read_bytes().rsplit(b")", 1)[-1].split()[3])
        assert sid == child != os.getsid(bot.process.pid)

    wait_for(lambda: bot.cpu_seconds() >= 2.0, 15, "the children's CPU time to count")
    assert own_cpu_seconds(bot.process.pid) < 0.5, "the bot itself only sleeps"

    group = bot.resources.group
    assert group is not None
    bot.freeze(True)
    if layout.version == 1:
        state = group.dirs["freezer"] / "freezer.state"
        wait_for(lambda: state.read_text().strip() == "FROZEN", 5, "the group to freeze")
    else:
        events = group.dirs["unified"] / "cgroup.events"
        wait_for(lambda: "frozen 1" in events.read_text(), 5, "the group to freeze")
    before = bot.cpu_seconds()
    time.sleep(1.0)
    assert bot.cpu_seconds() - before < 0.05, "a frozen bot's children ran"
    assert all(alive(child) for child in children), "frozen, not killed"

    bot.freeze(False)
    before = bot.cpu_seconds()
    time.sleep(1.0)
    assert bot.cpu_seconds() - before > 0.2, "thawed, the children run again"


# -- orphans ---------------------------------------------------------------------------

DRIVER = """
import asyncio, json, secrets, sys, time
from pathlib import Path

from referee import cgroups
from referee.bots import BotProcess, BotSpec
from referee.sandbox import Confinement
from referee.session import BotPool

async def main() -> None:
    script, logs = Path(sys.argv[1]), Path(sys.argv[2])
    first, last, mode = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    confinement = Confinement("off", uid_range=(first, last))
    pool = BotPool(confinement=confinement, log_dir=logs)
    await pool.start()
    endpoint = pool._runtime.endpoint_dir()
    bot = BotProcess.launch(
        BotSpec(f"/usr/bin/python3 {script} escape", cwd=script.parent),
        f"unix://{endpoint}/referee.sock",
        secrets.token_urlsafe(16),
        logs,
        "escaper",
        confinement,
        workdir=pool._runtime.path,
        tree=pool._tree if mode == "cgroups" else None,  # "none": as without cgroups
        marker_prefix=pool._marker_prefix,
    )
    pool.adopt(bot)  # as the pool does for every bot it launches
    print(json.dumps({
        "runtime": str(pool._runtime.path), "owner": cgroups.owner_name(), "uid": bot.uid,
        "escaper": bot.process.pid, "log": str(bot.output.path), "reaper": pool._reaper.pid,
        "grouped": bot.resources.group is not None,
    }), flush=True)
    time.sleep(60)

asyncio.run(main())
"""


@needs_cgroups
def test_an_escaped_grandchild_dies_with_a_sigkilled_referee(arena: Arena, tmp_path: Path) -> None:
    """Attacks "no orphans" (sandbox off): a bot's setsid grandchild with an
    empty environment (no marker) outlives its parent; then the referee is
    killed with SIGKILL, so nothing of it runs its clean-up. Within 10 s the
    grandchild is gone with every process of the bot's uid, the runtime
    directory is removed, and so are the referee's cgroups."""
    sigkill_the_referee(arena, tmp_path, with_cgroups=True, seconds=10)


def test_an_escaped_grandchild_dies_with_a_sigkilled_referee_without_cgroups(
    arena: Arena, tmp_path: Path
) -> None:
    """The same attack on a machine without cgroups (the bot is launched
    without a tree, as there): the uid is what remains to find it by."""
    sigkill_the_referee(arena, tmp_path, with_cgroups=False, seconds=3)


def sigkill_the_referee(arena: Arena, tmp_path: Path, with_cgroups: bool, seconds: float) -> None:
    driver_file = tmp_path / "driver.py"
    driver_file.write_text(DRIVER)
    args = [arena.script, tmp_path / "driver-logs", *UIDS, "cgroups" if with_cgroups else "none"]
    driver = subprocess.Popen(
        [sys.executable, str(driver_file), *map(str, args)],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    grandchild = 0
    info: dict[str, object] = {}
    try:
        assert driver.stdout is not None
        info = json.loads(driver.stdout.readline())  # bounded: the driver sleeps 60 s at most
        log = Path(str(info["log"]))
        uid = int(str(info["uid"]))
        runtime_dir = Path(str(info["runtime"]))
        owner = str(info["owner"])
        assert info["grouped"] is with_cgroups

        def escaped() -> int:
            found = re.search(r"REPORT escaped pid (\d+)", log.read_text() if log.exists() else "")
            return int(found.group(1)) if found else 0

        wait_for(escaped, 10, "the grandchild to escape")
        grandchild = escaped()
        assert alive(grandchild) and runtime_dir.is_dir()
        # It reports its pid, then clears its environment (execve): wait for that.
        environ = Path(f"/proc/{grandchild}/environ")
        wait_for(lambda: environ.read_bytes() == b"", 10, "the grandchild to drop its marker")
        escaper = int(str(info["escaper"]))
        assert os.getsid(grandchild) != os.getsid(escaper), "nor the bot's session"

        driver.kill()
        driver.wait()
        layout = cgroups.layout()
        groups = [base / owner for base in (layout.bases.values() if layout else [])]

        def cleaned_up() -> bool:
            return (
                not alive(grandchild)
                and processes_of(uid) == []
                and not runtime_dir.exists()
                and not any(group.exists() for group in groups)
            )

        with contextlib.suppress(AssertionError):
            wait_for(cleaned_up, seconds, "the reaper to clean up")
        assert not alive(grandchild), "the escaped grandchild outlived the referee"
        assert processes_of(uid) == [], "a process of the bot's uid outlived the referee"
        assert not runtime_dir.exists(), "the runtime directory was left behind"
        assert not [group for group in groups if group.exists()], "cgroups were left behind"
        wait_for(lambda: not alive(int(str(info["reaper"]))), 10, "the reaper to exit")
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()
        for pid in (grandchild, int(str(info.get("escaper", 0)))):
            if pid and alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_sweep_removes_the_runtime_dirs_of_dead_referees_only() -> None:
    """Attacks the sweep's judgement of owners: a dead referee's directory
    and one named after a live pid with the wrong start time (the pid was
    reused) go; the directory of this live process stays."""
    base = runtime.base()
    assert not Path("/proc/999999").exists()  # above pid_max here, never alive
    dead = base / f"{cgroups.PREFIX}999999-1"
    reused = base / f"{cgroups.PREFIX}{os.getpid()}-1"
    live = base / cgroups.owner_name()
    other = base / f"not-a-referee-{os.getpid()}"
    made_live = not live.exists()
    try:
        for directory in (dead, reused, other, live):
            directory.mkdir(exist_ok=True)
        for directory in (dead, reused):
            endpoint = directory / "1"
            endpoint.mkdir(mode=0o710)
            (endpoint / "referee.sock").write_text("")
            (directory / "scratch-x").mkdir(mode=0o700)
        runtime.sweep()
        assert not dead.exists() and not reused.exists()
        assert live.is_dir(), "a live referee's directory is kept"
        assert other.is_dir(), "what is not a referee's is not touched"
    finally:
        for directory in (dead, reused, other, *([live] if made_live else [])):
            shutil.rmtree(directory, ignore_errors=True)


# -- environment and endpoints ---------------------------------------------------------------


def test_the_environment_is_minimal_without_the_sandbox(
    arena: Arena, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attacks the minimal environment (sandbox off): the referee's own
    environment holds a token; the bot (`env`) sees only what it is given,
    and its HOME is a private scratch directory of its own uid."""
    monkeypatch.setenv("OPERATOR_TOKEN", "do-not-leak")
    secret = secrets.token_urlsafe(16)
    bot = arena.launch(None, command="/usr/bin/env", env=(("EXTRA", "1"),), secret=secret)
    wait_for(lambda: bot.exit_code is not None, 10, "env to exit")
    wait_for(lambda: "REFEREE_BOT_MARKER=" in bot.output.path.read_text(), 5, "its output")
    text = bot.output.path.read_text()
    env = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
    assert bot.exit_code == 0, text
    assert "OPERATOR_TOKEN" not in env and "do-not-leak" not in text
    # The chain that joins the cgroups is a POSIX shell, which exports PWD:
    # the bot's own working directory, which it knows anyway.
    assert env.pop("PWD", str(arena.base)) == str(arena.base)
    assert set(env) == {
        "PATH",
        "HOME",
        "TMPDIR",
        "LANG",
        "EXTRA",
        "REFEREE_ADDRESS",
        "REFEREE_SECRET",
        "REFEREE_BOT_MARKER",
    }
    assert env["PATH"] == BOT_PATH and env["LANG"] == "C.UTF-8" and env["EXTRA"] == "1"
    assert env["REFEREE_SECRET"] == secret and env["REFEREE_BOT_MARKER"] == bot.marker
    home = Path(env["HOME"])
    assert env["TMPDIR"] == str(home) and home.parent == arena.base
    info = home.stat()
    assert stat.S_ISDIR(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o700
    assert info.st_uid == bot.uid and info.st_gid == bot.uid
    bot.kill()
    assert not home.exists(), "the scratch directory goes with the bot"


def test_an_endpoint_cannot_be_hijacked_or_another_reached_without_the_sandbox(
    arena: Arena,
) -> None:
    """Attacks the endpoint directories (sandbox off, root): the bot tries to
    rename, delete and replace its socket, write beside it, open its
    directory, list the runtime directory, and connect to another bot's
    endpoint. Only connecting to its own endpoint works."""

    async def go() -> None:
        rt = RuntimeDir()
        servers: list[RefereeServer] = []
        other_lease: UidLease | None = None
        try:
            own_dir, other_dir = rt.endpoint_dir(), rt.endpoint_dir()
            for directory in (own_dir, other_dir):
                servers.append(RefereeServer(socket_path=directory / "referee.sock"))
                await servers[-1].start()
            own, other = servers
            other_lease = UidLease.acquire(*UIDS)  # another bot's uid, admitted to its own
            admit(other_dir, other_lease.uid)
            bot = arena.launch(
                "endpoint", address=own.address, env=(("OTHER", str(other.socket_path)),)
            )
            for _ in range(500):
                if reported(bot, "endpoint done") or bot.exit_code is not None:
                    break
                await asyncio.sleep(0.02)
            report = "\n".join(reports(bot))
            assert "endpoint done" in report, report

            assert "connect own endpoint: DONE" in report, report
            for what in (
                "rename endpoint",
                "delete endpoint",
                "create in endpoint dir",
                "bind beside endpoint",
                "chmod endpoint dir",
                "list endpoint dir",
                "list runtime dir",
                "create in runtime dir",
                "connect other endpoint",
            ):
                assert f"{what}: refused (PermissionError" in report, report

            info = own_dir.stat()
            assert (info.st_uid, info.st_gid) == (0, bot.uid)
            assert stat.S_IMODE(info.st_mode) == 0o710
            info = rt.path.stat()
            assert info.st_uid == 0 and stat.S_IMODE(info.st_mode) == 0o711
            assert sorted(p.name for p in own_dir.iterdir()) == ["referee.sock"]
            assert stat.S_ISSOCK((own_dir / "referee.sock").stat().st_mode)
            assert sorted(p.name for p in rt.path.iterdir()) == ["1", "2"]
            with socket.socket(socket.AF_UNIX) as probe_socket:
                probe_socket.connect(str(own.socket_path))  # still served
        finally:
            for server in servers:
                await server.stop(0)
            if other_lease is not None:
                other_lease.release(clean_files=False)
            rt.remove()

    asyncio.run(go())
