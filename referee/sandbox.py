"""How bot processes are confined: resource limits and, where bubblewrap
works, a sandbox. Knows nothing of games or gRPC.

`probe()` finds out once what this machine allows; `confine()` turns a bot's
command line into the command that runs it confined. `referee doctor` prints
the probe, and every stored game records which protections were active.
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

MODES = ("auto", "required", "off")
DEFAULT_UID_RANGE = (60000, 60999)  # one uid per bot process when the referee is root


class SandboxError(Exception):
    """The sandbox was required but cannot run here."""


@dataclass(frozen=True)
class Limits:
    """Resource limits of each bot process (0: no limit).

    cpu_seconds is per process, over all the games it plays; a bot that runs
    out is killed (a crash) and restarted for its next game.
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

    @property
    def sandbox_works(self) -> bool:
        return self.bwrap is not None and not self.bwrap_error


@functools.cache
def probe() -> Probe:
    bwrap = shutil.which("bwrap")
    error = "" if bwrap else "bwrap is not installed (Debian: apt-get install bubblewrap)"
    if bwrap:
        try:
            run = subprocess.run(
                [bwrap, *_BASE_ARGS, "--", "true"], capture_output=True, text=True, timeout=10
            )
            if run.returncode != 0:
                error = f"bwrap does not work here: {run.stderr.strip() or run.returncode}"
        except (OSError, subprocess.TimeoutExpired) as exc:
            error = f"bwrap does not work here: {exc}"
    return Probe(bwrap, error, shutil.which("prlimit"), shutil.which("setpriv"), os.geteuid() == 0)


_BASE_ARGS = (
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
    "--tmpfs", "/tmp",
    "--unshare-all",
    "--die-with-parent",
    "--new-session",
)  # fmt: skip


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
        p = probe()
        sandbox = self.mode != "off" and p.sandbox_works
        why_not = "sandbox off in the configuration" if self.mode == "off" else p.bwrap_error
        lim = self.limits
        limit_tool = "prlimit" if p.prlimit else "no prlimit on PATH"
        items = [
            Protection("process group", True, "each bot in its own session, killed whole"),
            Protection(
                "no orphans",
                True,
                "PID namespace dies with the bot"
                if sandbox
                else "processes carrying the bot's marker are killed; a bot that clears "
                "its environment and double-forks could escape without the sandbox",
            ),
            Protection("capped output", True, f"stdout+stderr kept up to {lim.output_kb} KiB"),
            Protection(
                "cpu limit",
                bool(p.prlimit and lim.cpu_seconds),
                f"{lim.cpu_seconds} s per process ({limit_tool})",
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
            Protection(
                "memory limit",
                bool(p.prlimit and lim.memory_mb),
                f"{lim.memory_mb} MiB address space ({limit_tool})",
            ),
            Protection(
                "process limit",
                bool(p.prlimit and lim.processes and not p.root),
                "running as root: the kernel ignores RLIMIT_NPROC"
                if p.root
                else f"{lim.processes} per user ({limit_tool})",
            ),
            Protection("no network", sandbox, "network namespace" if sandbox else why_not),
            Protection("read-only system", sandbox, "bubblewrap" if sandbox else why_not),
            Protection("private /tmp", sandbox, "bubblewrap" if sandbox else why_not),
            Protection(
                "results, logs, other bots hidden", sandbox, "bubblewrap" if sandbox else why_not
            ),
            Protection("own PID namespace", sandbox, "bubblewrap" if sandbox else why_not),
            Protection(
                "dies with the referee",
                True,
                "bubblewrap --die-with-parent"
                if sandbox
                else ("setpriv --pdeathsig" if p.setpriv else "killed at exit only"),
            ),
        ]
        return items

    def summary(self) -> dict[str, bool]:
        return {p.name: p.active for p in self.protections()}


def _limit_args(limits: Limits) -> list[str]:
    p = probe()
    if not p.prlimit:
        return []
    args = [p.prlimit]
    if limits.cpu_seconds:
        args.append(f"--cpu={limits.cpu_seconds}")
    if limits.file_mb:
        args.append(f"--fsize={limits.file_mb << 20}")
    if limits.open_files:
        args.append(f"--nofile={limits.open_files}")
    if limits.memory_mb:
        args.append(f"--as={limits.memory_mb << 20}")
    if limits.processes and not p.root:
        args.append(f"--nproc={limits.processes}")
    return [*args, "--"] if len(args) > 1 else []


def _needed(argv: Sequence[str], cwd: Path) -> list[Path]:
    """Paths a bot needs to read: the interpreter's prefix, the referee's
    package (the SDK), and the files its command line names."""
    import referee

    paths = [Path(sys.prefix), Path(sys.base_prefix), Path(referee.__file__).resolve().parents[1]]
    for arg in argv:
        candidate = cwd / arg
        if arg and candidate.exists():
            paths.append(candidate.resolve())
    return [path for path in dict.fromkeys(paths) if path.exists()]


def confine(
    argv: Sequence[str],
    confinement: Confinement,
    cwd: Path,
    socket_dir: Path | None,
    hidden: Sequence[Path],
) -> list[str]:
    """The command that runs `argv` confined: limits, then the sandbox or pdeathsig."""
    command = list(argv)
    if confinement.use_sandbox():
        p = probe()
        assert p.bwrap is not None
        args = [p.bwrap, *_BASE_ARGS]
        for path in _needed(argv, cwd):
            # The private /tmp hides what lives there; give back what the bot runs from.
            if path.is_relative_to("/tmp"):
                args += ["--ro-bind", str(path), str(path)]
        args += ["--bind", str(cwd), str(cwd)]
        if socket_dir is not None:
            args += ["--bind", str(socket_dir), str(socket_dir)]
        for path in hidden:
            if path.is_dir():
                args += ["--tmpfs", str(path)]
            elif path.exists():
                args += ["--ro-bind", "/dev/null", str(path)]
        command = [*args, "--chdir", str(cwd), "--", *command]
    elif probe().setpriv:
        command = [str(probe().setpriv), "--pdeathsig", "KILL", "--", *command]
    return _limit_args(confinement.limits) + command
