"""How bot processes are confined. Knows nothing of games or gRPC.

`probe()` finds out once what this machine allows; `command()` turns a bot's
command line into the command that runs it confined. A confined bot is a
chain of small programs, each exec'ing the next, so the bot keeps the pid
the referee started:

1. `sh` writes its pid into the bot's cgroups (memory with tmpfs, pids, CPU
   accounting and weight, freezer), so everything the bot starts is counted;
2. `prlimit` sets per-process limits (CPU, file size, open files; address
   space and process count only where cgroups cannot bound them);
3. `bwrap` builds the sandbox from nothing: the system's /usr, /etc and
   libraries read-only, the bot's own directory read-only, the interpreter
   and SDK it needs, its own endpoint's directory read-only, a bounded /tmp
   (its scratch space, HOME and TMPDIR) and /dev/shm, a fresh /proc, and no
   network, no other process, no host socket, no results, logs or bots;
4. as root, `sh` inside the sandbox bounds the file count of /tmp and
   /dev/shm and makes the scratch directory, then `setpriv` switches to the
   bot's own unprivileged uid with no groups, no capabilities (bounding set
   included) and no_new_privs, and exec's the bot.

Without the sandbox, steps 1, 2 and the uid switch still apply. `referee
doctor` prints `protections()`, and every stored game records them.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from referee import cgroups
from referee.errors import RefereeError

MODES = ("auto", "required", "off")
DEFAULT_UID_RANGE = (60000, 60999)  # one uid per bot process when the referee is root
SCRATCH = Path("/tmp/home")  # the bot's HOME and TMPDIR inside the sandbox
SYSTEM_PATHS = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
CPU_INFO = "/sys/devices/system/cpu"  # runtimes size their thread pools from it
MIN_FREE_BYTES = 1 << 20  # room left for the sandbox's own mount points


class SandboxError(RefereeError):
    """The sandbox was required but cannot run here."""


@dataclass(frozen=True)
class Limits:
    """Resource limits of each bot process (0: no limit).

    cpu_seconds: CPU time of the bot and everything it starts, over all the
    games it plays; past it the bot is killed (a crash) and restarted.
    memory_mb: memory of the bot's cgroup, tmpfs and shared memory included
    (without cgroups: address space per process).
    processes: tasks (processes and threads) in the bot's cgroup.
    disk_mb, files: what the bot may write in all (its /tmp, HOME, /dev/shm).
    """

    cpu_seconds: int = 3600
    file_mb: int = 64
    open_files: int = 256
    processes: int = 128
    memory_mb: int = 2048
    output_kb: int = 1024
    disk_mb: int = 256
    files: int = 10000


@dataclass(frozen=True)
class Protection:
    name: str
    active: bool
    detail: str


@dataclass(frozen=True)
class Probe:
    """What this machine allows, found once per process."""

    bwrap: str | None
    bwrap_error: str
    prlimit: str | None
    setpriv: str | None
    root: bool
    cgroups: cgroups.Layout | None
    cgroups_error: str

    @property
    def sandbox_works(self) -> bool:
        return self.bwrap is not None and not self.bwrap_error

    @property
    def uids_work(self) -> bool:
        """Whether each bot can get its own uid (root and setpriv)."""
        return self.root and self.setpriv is not None


@functools.cache
def probe() -> Probe:
    bwrap = shutil.which("bwrap")
    error = "" if bwrap else "bwrap is not installed (Debian: apt-get install bubblewrap)"
    if bwrap:
        try:
            run = subprocess.run(
                [bwrap, *_system_args(), "--unshare-all", "--", "true"],
                capture_output=True,
                text=True,
                timeout=10,
            )
            if run.returncode != 0:
                error = f"bwrap does not work here: {run.stderr.strip() or run.returncode}"
        except (OSError, subprocess.TimeoutExpired) as exc:
            error = f"bwrap does not work here: {exc}"
    return Probe(
        bwrap,
        error,
        shutil.which("prlimit"),
        shutil.which("setpriv"),
        os.geteuid() == 0,
        cgroups.layout(),
        cgroups.why_not(),
    )


@dataclass(frozen=True)
class Confinement:
    """How to run the bots of one pool."""

    mode: str = "auto"  # auto: sandbox where bubblewrap works; required; off
    limits: Limits = Limits()
    uid_range: tuple[int, int] = DEFAULT_UID_RANGE

    def use_sandbox(self) -> bool:
        if self.mode == "off":
            return False
        works = probe().sandbox_works
        if self.mode == "required" and not works:
            raise SandboxError(f"the sandbox is required but {probe().bwrap_error}")
        return works

    def protections(self) -> list[Protection]:
        """Which protections are active for these bots, and why others are not."""
        return _protections(self, probe())

    def summary(self) -> dict[str, bool]:
        return {p.name: p.active for p in self.protections()}


def _protections(confinement: Confinement, p: Probe) -> list[Protection]:
    sandbox = confinement.mode != "off" and p.sandbox_works
    why_not = "sandbox off in the configuration" if confinement.mode == "off" else p.bwrap_error
    lim = confinement.limits
    cg = p.cgroups
    cg_note = cg.describe() if cg else p.cgroups_error
    limit_tool = "prlimit" if p.prlimit else "no prlimit on PATH"
    first, last = confinement.uid_range
    uids = p.uids_work
    freezer = cg is not None and "freezer" in cg.controllers
    return [
        Protection(
            "own unprivileged uid",
            uids,
            f"uids {first}-{last}, no groups, no capabilities, no_new_privs (setpriv)"
            if uids
            else "the referee is not root: bots run as its own user",
        ),
        Protection("process group", True, "each bot in its own session, killed whole"),
        Protection(
            "no orphans",
            bool(cg) or uids or sandbox,
            "every process of the bot's cgroup/uid is killed, also when the referee dies"
            if cg or uids
            else ("PID namespace dies with the bot" if sandbox else "marker only"),
        ),
        Protection("capped output", True, f"stdout+stderr kept up to {lim.output_kb} KiB"),
        Protection(
            "total memory limit",
            bool(cg and lim.memory_mb),
            f"{lim.memory_mb} MiB per bot, tmpfs and shared memory included ({cg_note})"
            if cg
            else f"{cg_note}; {lim.memory_mb} MiB address space per process ({limit_tool})",
        ),
        Protection(
            "process limit",
            bool(cg and lim.processes) or bool(uids and p.prlimit and lim.processes),
            f"{lim.processes} tasks per bot (pids cgroup)"
            if cg
            else (f"{lim.processes} per uid (RLIMIT_NPROC)" if uids else "no cgroups, not root"),
        ),
        Protection(
            "cpu time limit",
            bool(lim.cpu_seconds and (cg or p.prlimit)),
            f"{lim.cpu_seconds} s per bot, children included (cpuacct)"
            if cg
            else f"{lim.cpu_seconds} s per process ({limit_tool})",
        ),
        Protection(
            "fair clocks",
            freezer,
            "bots are frozen (cgroup freezer) except while they decide; equal CPU weight"
            if freezer
            else f"no freezer: {cg_note}",
        ),
        Protection(
            "disk and file count limit",
            sandbox and p.root,
            f"{lim.disk_mb} MiB and {lim.files} files in /tmp, and again in /dev/shm; "
            "nothing else is writable"
            if sandbox and p.root
            else (why_not if not sandbox else "not root: the file count of /tmp is not bounded"),
        ),
        Protection(
            "file size limit",
            bool(p.prlimit and lim.file_mb),
            f"{lim.file_mb} MiB per file ({limit_tool})",
        ),
        Protection(
            "open files limit",
            bool(p.prlimit and lim.open_files),
            f"{lim.open_files} ({limit_tool})",
        ),
        Protection("no network", sandbox, "network namespace" if sandbox else why_not),
        Protection(
            "read-only system and own directory",
            sandbox,
            "bubblewrap: only /tmp, HOME and /dev/shm are writable" if sandbox else why_not,
        ),
        Protection(
            "results, logs, other bots, referee hidden",
            sandbox,
            "bubblewrap: the sandbox shows only the system, the bot's files, its interpreter "
            "and the SDK"
            if sandbox
            else why_not,
        ),
        Protection(
            "no host sockets",
            sandbox,
            "no /run, no host /tmp, own network namespace" if sandbox else why_not,
        ),
        Protection(
            "own endpoint only",
            sandbox or uids,
            "its endpoint's directory, read-only" if sandbox else "per-bot directory by uid",
        ),
        Protection("own PID namespace", sandbox, "bubblewrap" if sandbox else why_not),
        Protection(
            "dies with the referee",
            True,
            "bubblewrap --die-with-parent, and a reaper kills its cgroup"
            if sandbox
            else ("setpriv --pdeathsig" if p.setpriv else "killed at exit only"),
        ),
    ]


def _limit_args(limits: Limits, p: Probe, with_cgroups: bool, with_uid: bool) -> list[str]:
    if not p.prlimit:
        return []
    args = [p.prlimit]
    if limits.cpu_seconds:
        args.append(f"--cpu={limits.cpu_seconds}")
    if limits.file_mb:
        args.append(f"--fsize={limits.file_mb << 20}")
    if limits.open_files:
        args.append(f"--nofile={limits.open_files}")
    if limits.memory_mb and not with_cgroups:
        args.append(f"--as={limits.memory_mb << 20}")
    if limits.processes and (with_uid or not p.root) and not with_cgroups:
        args.append(f"--nproc={limits.processes}")
    return [*args, "--"] if len(args) > 1 else []


@dataclass(frozen=True)
class Plan:
    """Everything needed to start one bot process confined."""

    argv: list[str]  # the bot's command, program paths absolute
    cwd: Path
    readable: list[Path]  # read-only in the sandbox: the bot's directory and extras
    socket_dir: Path | None
    hidden: list[Path]  # masked wherever they fall inside what is shown
    uid: int | None
    cgroup_procs: list[Path]
    python: bool  # runs the referee's interpreter: show it and the SDK


def command(plan: Plan, confinement: Confinement) -> list[str]:
    """The command that runs plan.argv confined."""
    p = probe()
    chain: list[str] = []
    if plan.cgroup_procs:
        chain += [
            "/bin/sh",
            "-c",
            'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; '
            'shift; n=$((n-1)); done; exec "$@"',
            "join-cgroups",
            str(len(plan.cgroup_procs)),
            *map(str, plan.cgroup_procs),
        ]
    chain += _limit_args(confinement.limits, p, bool(plan.cgroup_procs), plan.uid is not None)
    if confinement.use_sandbox():
        assert p.bwrap is not None
        chain += [p.bwrap, *_sandbox_args(plan, confinement.limits), "--"]
        if plan.uid is not None:
            chain += _inside_setup(confinement.limits, plan.uid)
    elif plan.uid is not None:
        chain += _drop_privileges(plan.uid, pdeathsig=True)
    elif p.setpriv:
        chain += [p.setpriv, "--pdeathsig", "KILL", "--"]
    return chain + plan.argv


def _drop_privileges(uid: int, pdeathsig: bool) -> list[str]:
    setpriv = probe().setpriv or "setpriv"
    args = [
        setpriv,
        f"--reuid={uid}",
        f"--regid={uid}",
        "--clear-groups",
        "--inh-caps=-all",
        "--bounding-set=-all",
        "--no-new-privs",
    ]
    if pdeathsig:
        args += ["--pdeathsig", "KILL"]
    return [*args, "--"]


def _inside_setup(limits: Limits, uid: int) -> list[str]:
    """As root inside the sandbox: bound the file count of /tmp and /dev/shm,
    make the scratch directory the bot's, then become the bot's uid."""
    options = f"remount,nosuid,nodev,nr_inodes={limits.files}" if limits.files else ""
    script = (
        'mount -o "$1" /tmp || exit 125; mount -o "$1" /dev/shm || exit 125; ' if options else ""
    ) + 'mkdir -m 700 "$2" && chown "$3:$3" "$2" || exit 125; shift 3; exec "$@"'
    return [
        "/bin/sh",
        "-c",
        script,
        "sandbox-setup",
        options or "-",
        str(SCRATCH),
        str(uid),
        *_drop_privileges(uid, pdeathsig=False),
    ]


def _system_args() -> list[str]:
    """The system, read-only: /usr, /etc and the library directories (as
    symlinks where they are symlinks, as on merged-/usr systems)."""
    args: list[str] = []
    for name in SYSTEM_PATHS:
        path = Path(name)
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), name]
        elif path.is_dir():
            args += ["--ro-bind", name, name]
    if Path(CPU_INFO).is_dir():
        args += ["--ro-bind", CPU_INFO, CPU_INFO]
    return args


def _python_paths() -> list[Path]:
    """The referee's interpreter: its prefixes (a virtualenv and its base)."""
    paths = [Path(sys.base_prefix).resolve(), Path(sys.prefix).resolve()]
    return [path for path in dict.fromkeys(paths) if path.is_dir()]


def sdk_paths() -> list[Path]:
    """What a Python bot needs of the referee package: the SDK and the wire
    code, never the rest (the referee's own modules stay hidden)."""
    import referee

    package = Path(referee.__file__).resolve().parent
    parts = [package / "__init__.py", package / "py.typed", package / "sdk", package / "v1"]
    return [path for path in parts if path.exists()]


def proto_dir() -> Path | None:
    """The wire contract (public), for bots that load the .proto at run time."""
    import referee

    proto = Path(referee.__file__).resolve().parents[1] / "proto"
    return proto if proto.is_dir() else None


def _inside(path: Path, roots: Sequence[Path]) -> bool:
    return any(path == root or path.is_relative_to(root) for root in roots)


def _sandbox_args(plan: Plan, limits: Limits) -> list[str]:
    size = str(max(limits.disk_mb << 20, MIN_FREE_BYTES)) if limits.disk_mb else None
    args = [*_system_args(), "--dev", "/dev", "--proc", "/proc"]
    for place in ("/tmp", "/dev/shm"):
        args += ["--perms", "1777"]
        if size:
            args += ["--size", size]
        args += ["--tmpfs", place]
    made: set[Path] = {Path("/"), Path("/tmp"), Path("/dev"), Path("/proc")}

    def bind(source: Path, target: Path | None = None) -> None:
        # bwrap makes missing parents 0700, which another uid cannot pass.
        target = target or source
        for parent in reversed(target.parents):
            if parent not in made and not _inside(parent, [Path(p) for p in SYSTEM_PATHS]):
                args.extend(["--perms", "0755", "--dir", str(parent)])
                made.add(parent)
        args.extend(["--ro-bind", str(source), str(target)])
        made.add(target)

    shown: list[Path] = []
    if plan.python:
        package = Path(sdk_paths()[0]).parent
        for prefix in _python_paths():
            bind(prefix)
            shown.append(prefix)
        if _inside(package, shown):
            args += ["--tmpfs", str(package)]  # the installed referee, minus the SDK below
        for part in sdk_paths():
            bind(part)
    proto = proto_dir()
    if proto is not None:
        bind(proto)
    for path in plan.readable:
        bind(path)
        shown.append(path)
    if plan.socket_dir is not None:
        bind(plan.socket_dir)
    for path in plan.hidden:
        resolved = path.resolve()
        if not _inside(resolved, shown) or not resolved.exists():
            continue  # not in the sandbox to begin with
        if resolved.is_dir():
            args += ["--tmpfs", str(resolved)]
        else:
            bind(Path("/dev/null"), resolved)
    if plan.uid is None and not probe().root:
        args += ["--dir", str(SCRATCH)]
    # As root, no user namespace: the bot becomes a real unprivileged uid
    # (setpriv) with nothing to regain; otherwise bwrap needs one to work.
    namespaces = ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts"]
    namespaces += ["--unshare-cgroup-try"] + ([] if probe().root else ["--unshare-user"])
    return [
        *args,
        # Last: the sandbox's own root (a tmpfs) read-only too, or an
        # unprivileged bot could fill it (its /tmp and /dev/shm stay writable).
        "--remount-ro",
        "/",
        *namespaces,
        "--die-with-parent",
        "--new-session",
        "--chdir",
        str(plan.cwd),
    ]
