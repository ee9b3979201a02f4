"""Launching bot processes. Knows nothing of games or of gRPC.

A bot is a command line. Its program's folder is its own directory: shown to
it read-only and, unless the tournament file says otherwise, its working
directory. Each process runs in its own session, confined as
referee.sandbox says (its own uid and cgroup, limits, the sandbox where it
works), gets only a minimal environment (its endpoint, its secret, PATH,
HOME, TMPDIR, LANG and what the tournament file gives it), has its stdout
and stderr drained into a capped file kept for review, and is killed with
everything it started when it is no longer needed.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from referee import cgroups
from referee.errors import RefereeError
from referee.runtime import admit
from referee.sandbox import (
    SCRATCH,
    SYSTEM_PATHS,
    Confinement,
    Plan,
    SandboxError,
    command,
    probe,
)
from referee.uids import UidError, UidLease

ADDRESS_ENV = "REFEREE_ADDRESS"
SECRET_ENV = "REFEREE_SECRET"
MARKER_ENV = "REFEREE_BOT_MARKER"
BOT_PATH = "/usr/local/bin:/usr/bin:/bin"
KILL_ROUNDS = 100


class BotLaunchError(RefereeError):
    """A bot command could not be started or did not connect."""


@dataclass(frozen=True)
class BotSpec:
    """How to start a bot: a command line, an optional display name and directory."""

    command: str
    name: str | None = None
    cwd: Path | None = None
    env: tuple[tuple[str, str], ...] = ()  # extra variables, from the tournament file
    readable: tuple[Path, ...] = ()  # extra paths the bot may read
    base: Path | None = None  # where relative paths in the command are resolved (default: cwd)

    def argv(self) -> list[str]:
        try:
            argv = shlex.split(self.command)
        except ValueError as error:
            raise BotLaunchError(f"cannot read bot command {self.command!r}: {error}") from None
        if not argv:
            raise BotLaunchError("a bot command is empty")
        if argv[0] in ("python", "python3"):
            # The referee's own interpreter has the SDK and grpcio installed.
            argv[0] = sys.executable
        return argv

    @property
    def default_name(self) -> str:
        if self.name:
            return self.name
        argv = self.argv()
        script = next((a for a in argv[1:] if not a.startswith("-")), argv[0])
        return Path(script).stem

    @property
    def start_dir(self) -> Path:
        """Where relative paths of the command are resolved."""
        return (self.base or self.cwd or Path.cwd()).resolve()

    def layout(self, label: str) -> tuple[list[str], Path, Path]:
        """The command with program paths made absolute, the folder of the
        bot's program and its working directory (`cwd`, else that folder).

        The program is the first file the command names that is not an
        installed interpreter: the script of `python bot.py` or `node
        bot.js`, the program of `./bot`.
        """
        argv = self.argv()
        start = self.start_dir
        argv[0] = _resolve(argv[0], start, self.command, label)
        program: Path | None = None if _is_interpreter(Path(argv[0])) else Path(argv[0])
        for index, arg in enumerate(argv[1:], 1):
            candidate = start / arg
            if arg.startswith("-") or not candidate.is_file():
                continue
            argv[index] = os.path.abspath(candidate)
            if not _is_interpreter(candidate):
                program = program or candidate.resolve()
                break
        cwd = self.cwd.resolve() if self.cwd is not None else None
        if program is None and cwd is None:
            raise BotLaunchError(
                f"bot {label}: cannot tell which file is the bot in {self.command!r}; "
                "give it a working directory (cwd) of its own"
            )
        folder = program.parent if program is not None else cwd
        assert folder is not None
        return argv, folder, cwd or folder


def _is_python(arg: str) -> bool:
    """Whether a command-line word is the referee's own interpreter."""
    return arg == sys.executable or (
        arg.startswith("/") and Path(arg).resolve() == Path(sys.executable).resolve()
    )


def _is_interpreter(path: Path) -> bool:
    """An installed program (under the system's directories, or the referee's
    own Python), as opposed to a bot's own executable."""
    resolved = path.resolve()
    if resolved == Path(sys.executable).resolve() or str(path) == sys.executable:
        return True
    return any(str(resolved).startswith(root + "/") for root in SYSTEM_PATHS)


def _resolve(program: str, start: Path, command: str, label: str) -> str:
    """The program's absolute path, or a clear error if there is no such program."""
    if "/" in program:
        # Absolute, but symlinks kept: a virtualenv's python must keep its path.
        path = Path(os.path.abspath(start / program))
        if not path.is_file():
            raise BotLaunchError(f"bot {label}: command {program!r} not found (from {command!r})")
        if not os.access(path, os.X_OK):
            raise BotLaunchError(f"bot {label}: {program!r} is not executable")
        return str(path)
    found = shutil.which(program)
    if found is None:
        raise BotLaunchError(f"bot {label}: command {program!r} not found (from {command!r})")
    return found


def unreadable_for_others(path: Path, up_to: Path | None = None) -> Path | None:
    """The first of `path` and its parents (down from `up_to` or /) that a
    user other than its owner cannot read or traverse, or None."""
    chain = [path, *path.parents]
    if up_to is not None:
        chain = [p for p in chain if p == up_to or p.is_relative_to(up_to)]
    for item in reversed(chain):
        try:
            mode = item.stat().st_mode
        except OSError:
            return item
        need = stat.S_IXOTH if item.is_dir() else stat.S_IROTH
        if item == path and item.is_dir():
            need |= stat.S_IROTH
        if not mode & need:
            return item
    return None


class OutputSink:
    """Drains a bot's stdout+stderr so a flood never blocks it: the first
    `limit` bytes go to its file, the rest is counted and dropped; the output
    of the current game is also kept (bounded) to be stored with the game."""

    GAME_LIMIT = 64 * 1024

    def __init__(self, path: Path, limit: int) -> None:
        self.path = path
        self.limit = limit
        self.written = 0
        self.dropped = 0
        self._game = bytearray()
        self._game_dropped = 0
        self._lock = threading.Lock()

    def drain(self, pipe: IO[bytes]) -> None:
        with open(self.path, "wb") as out:
            while chunk := pipe.read1(65536):  # type: ignore[attr-defined]
                room = max(self.limit - self.written, 0)
                if room:
                    out.write(chunk[:room])
                    out.flush()
                    self.written += min(room, len(chunk))
                self.dropped += max(len(chunk) - room, 0)
                with self._lock:
                    keep = max(self.GAME_LIMIT - len(self._game), 0)
                    self._game += chunk[:keep]
                    self._game_dropped += max(len(chunk) - keep, 0)
            if self.dropped:
                out.write(f"\n[referee: {self.dropped} more bytes dropped]\n".encode())

    def take_game_output(self) -> str:
        """The output since the last call, for the game that just ended."""
        with self._lock:
            text = self._game.decode(errors="replace")
            if self._game_dropped:
                text += f"\n[referee: {self._game_dropped} more bytes dropped]"
            self._game.clear()
            self._game_dropped = 0
        return text

    def tail(self, lines: int) -> str:
        try:
            text = self.path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.strip().splitlines()[-lines:])


@dataclass
class Resources:
    """What one bot process holds besides its pid: released by `kill()`."""

    lease: UidLease | None = None
    group: cgroups.Group | None = None
    scratch: Path | None = None  # its HOME on the host, without the sandbox


class BotProcess:
    """A running bot; `kill()` ends it with everything it started."""

    def __init__(
        self,
        spec: BotSpec,
        process: subprocess.Popen[bytes],
        output: OutputSink,
        marker: str,
        resources: Resources,
        sandboxed: bool,
    ) -> None:
        self.spec = spec
        self.process = process
        self.output = output
        self.marker = marker
        self.resources = resources
        self.sandboxed = sandboxed
        # Called with the bot's uid just before it is let go (the reaper's list).
        self.on_release: Callable[[int], None] = lambda uid: None

    @property
    def stderr_path(self) -> Path:
        return self.output.path

    @property
    def uid(self) -> int | None:
        return self.resources.lease.uid if self.resources.lease else None

    @classmethod
    def launch(
        cls,
        spec: BotSpec,
        address: str,
        secret: str,
        log_dir: Path,
        label: str,
        confinement: Confinement = Confinement(),  # noqa: B008 - frozen
        hidden: Sequence[Path] = (),
        *,
        workdir: Path | None = None,
        tree: cgroups.Tree | None = None,
        marker_prefix: str = "",
    ) -> BotProcess:
        """Start a bot confined. `workdir` is a private directory of the
        referee's for this process (its scratch space without the sandbox),
        `tree` the referee's cgroups."""
        argv, own, cwd = spec.layout(label)
        for path in spec.readable:
            if not path.exists():
                raise BotLaunchError(f"bot {label}: readable path {path} does not exist")
        marker = f"{marker_prefix}{label}-{secrets.token_hex(8)}"
        log_dir.mkdir(parents=True, exist_ok=True)
        if not cwd.is_dir():
            raise BotLaunchError(f"bot {label}: working directory {cwd} does not exist")
        try:
            sandboxed = confinement.use_sandbox()
        except SandboxError as error:
            raise BotLaunchError(f"bot {label}: {error}") from None
        p = probe()
        if p.root and not p.uids_work:
            raise BotLaunchError(
                f"bot {label}: the referee runs as root and bots must not: install setpriv "
                "(util-linux) so each bot gets its own uid"
            )
        resources = Resources()
        try:
            if p.uids_work:
                resources.lease = UidLease.acquire(*confinement.uid_range)
                _check_readable(label, argv, own, (cwd, *spec.readable), sandboxed)
            if tree is not None:
                resources.group = tree.group(f"{label}-{secrets.token_hex(4)}")
                resources.group.set_limits(
                    confinement.limits.memory_mb << 20, confinement.limits.processes
                )
            home = SCRATCH
            if not sandboxed:
                base = workdir or Path(log_dir)
                home = base / f"scratch-{marker}"
                home.mkdir(mode=0o700)
                if resources.lease is not None:
                    os.chown(home, resources.lease.uid, resources.lease.uid)
                resources.scratch = home
            socket_dir = (
                Path(address.removeprefix("unix://")).parent if address.startswith("unix") else None
            )
            if socket_dir is not None and resources.lease is not None:
                admit(socket_dir, resources.lease.uid)
            plan = Plan(
                argv=argv,
                cwd=cwd,
                readable=list(dict.fromkeys([own, cwd, *spec.readable])),
                socket_dir=socket_dir,
                hidden=list(hidden),
                uid=resources.lease.uid if resources.lease else None,
                cgroup_procs=resources.group.procs_files if resources.group else [],
                python=any(_is_python(arg) for arg in argv),
            )
            full_command = command(plan, confinement)
        except (UidError, cgroups.CgroupError, OSError, SandboxError) as error:
            _release(resources, sandboxed)
            if isinstance(error, BotLaunchError):
                raise
            raise BotLaunchError(f"bot {label}: cannot confine it: {error}") from None
        except BotLaunchError:
            _release(resources, sandboxed)
            raise
        env = {
            "PATH": BOT_PATH,
            "HOME": str(home),
            "TMPDIR": str(home),
            "LANG": "C.UTF-8",
            **dict(spec.env),
            ADDRESS_ENV: address,
            SECRET_ENV: secret,
            MARKER_ENV: marker,
        }
        try:
            process = subprocess.Popen(
                full_command,
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        except OSError as error:
            _release(resources, sandboxed)
            raise BotLaunchError(f"bot {label}: cannot start {argv[0]!r}: {error}") from None
        output = OutputSink(log_dir / f"{label}.log", confinement.limits.output_kb * 1024)
        assert process.stdout is not None
        threading.Thread(target=output.drain, args=(process.stdout,), daemon=True).start()
        return cls(spec, process, output, marker, resources, sandboxed)

    @property
    def exit_code(self) -> int | None:
        return self.process.poll()

    def stderr_tail(self, lines: int = 5) -> str:
        return self.output.tail(lines)

    def freeze(self, frozen: bool) -> None:
        """Stop the bot and everything it started (or let it run again)."""
        if self.resources.group is not None:
            self.resources.group.freeze(frozen)

    @property
    def can_freeze(self) -> bool:
        group = self.resources.group
        return group is not None and "freezer" in group.layout.controllers

    def cpu_seconds(self) -> float:
        """CPU time of the bot and everything it started (0 without cgroups)."""
        group = self.resources.group
        return group.cpu_seconds() if group is not None else 0.0

    def memory_failures(self) -> int:
        group = self.resources.group
        return group.memory_failures() if group is not None else 0

    def kill(self) -> None:
        """Kill the bot with everything it started (its cgroup, its uid, its
        process group, its marker), reap it and release what it held."""
        if self.resources.group is not None:
            self.resources.group.kill()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL does not wait
            pass
        # Children outside the group (or dying with a PID namespace) may linger a
        # moment: kill them until none is left, so no process outlives the bot.
        for _ in range(KILL_ROUNDS):
            if not kill_marked(self.marker):
                break
            time.sleep(0.05)
        if self.resources.lease is not None:
            self.on_release(self.resources.lease.uid)
        _release(self.resources, self.sandboxed)


def _release(resources: Resources, sandboxed: bool) -> None:
    if resources.group is not None:
        resources.group.remove()
        resources.group = None
    if resources.lease is not None:
        resources.lease.release(clean_files=not sandboxed)
        resources.lease = None
    if resources.scratch is not None:
        shutil.rmtree(resources.scratch, ignore_errors=True)
        resources.scratch = None


def _check_readable(
    label: str, argv: Sequence[str], own: Path, readable: Sequence[Path], sandboxed: bool
) -> None:
    """A bot runs as another uid: its files must be readable by others."""
    named = [Path(a) for a in argv if a.startswith("/")]
    paths = [own, *readable, *named, *([] if sandboxed else [p.resolve() for p in named])]
    for path in paths:
        if not path.exists():
            continue
        # In the sandbox the parents of what is shown are made afresh (0755).
        blocked = unreadable_for_others(path, up_to=path if sandboxed else None)
        if blocked is not None:
            raise BotLaunchError(
                f"bot {label}: bots run as their own uid, which cannot read {blocked} "
                f"(mode {oct(blocked.stat().st_mode & 0o777)}): make it readable "
                f"(chmod o+rX) or move the bot"
            )


def marked_processes(marker: str, prefix: bool = False) -> list[int]:
    """PIDs of processes whose environment holds REFEREE_BOT_MARKER=marker
    (or a marker starting with it)."""
    needle = f"{MARKER_ENV}={marker}".encode() + (b"" if prefix else b"\0")
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/environ", "rb") as f:
                if needle not in b"\0" + f.read() + b"\0":
                    continue
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                if f.read().rsplit(b")", 1)[-1].split()[0] == b"Z":
                    continue  # a zombie is dead already; its parent reaps it
            found.append(int(entry.name))
        except (OSError, IndexError):
            continue
    return found


def kill_marked(marker: str, prefix: bool = False) -> int:
    """SIGKILL every live process carrying the marker; returns how many."""
    pids = marked_processes(marker, prefix)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    return len(pids)
