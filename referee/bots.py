"""Launching bot processes. Knows nothing of games or of gRPC.

A bot is a command line. Each process runs in its own session (and so its
own process group), confined as referee.sandbox says (limits, and the
bubblewrap sandbox where it works), gets the referee's address, its secret
and a marker in the environment, has its stdout and stderr drained into a
capped file kept for review, and is killed with everything it started when
it is no longer needed.
"""

from __future__ import annotations

import os
import secrets
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from referee.sandbox import Confinement, SandboxError, confine

ADDRESS_ENV = "REFEREE_ADDRESS"
SECRET_ENV = "REFEREE_SECRET"
MARKER_ENV = "REFEREE_BOT_MARKER"
KILL_ROUNDS = 100


class BotLaunchError(Exception):
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


def _resolve(program: str, cwd: Path | None, command: str, label: str) -> str:
    """The program's path, or a clear error if there is no such program."""
    if "/" in program:
        path = (cwd or Path.cwd()) / program
        if not path.is_file():
            raise BotLaunchError(f"bot {label}: command {program!r} not found (from {command!r})")
        if not os.access(path, os.X_OK):
            raise BotLaunchError(f"bot {label}: {program!r} is not executable")
        return str(path)
    found = shutil.which(program)
    if found is None:
        raise BotLaunchError(f"bot {label}: command {program!r} not found (from {command!r})")
    return found


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


class BotProcess:
    """A running bot; `kill()` ends it with everything it started."""

    def __init__(
        self, spec: BotSpec, process: subprocess.Popen[bytes], output: OutputSink, marker: str
    ) -> None:
        self.spec = spec
        self.process = process
        self.output = output
        self.marker = marker

    @property
    def stderr_path(self) -> Path:
        return self.output.path

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
    ) -> BotProcess:
        argv = spec.argv()
        marker = f"{label}-{secrets.token_hex(8)}"
        env = dict(os.environ)
        env[ADDRESS_ENV] = address
        env[SECRET_ENV] = secret
        env[MARKER_ENV] = marker
        env["PYTHONUNBUFFERED"] = "1"
        log_dir.mkdir(parents=True, exist_ok=True)
        cwd = (spec.cwd or Path.cwd()).resolve()
        if not cwd.is_dir():
            raise BotLaunchError(f"bot {label}: working directory {cwd} does not exist")
        argv[0] = _resolve(argv[0], cwd, spec.command, label)
        socket_dir = (
            Path(address.removeprefix("unix://")).parent if address.startswith("unix") else None
        )
        try:
            command = confine(argv, confinement, cwd, socket_dir, hidden)
        except SandboxError as error:
            raise BotLaunchError(f"bot {label}: {error}") from None
        try:
            process = subprocess.Popen(
                command,
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        except OSError as error:
            raise BotLaunchError(f"bot {label}: cannot start {argv[0]!r}: {error}") from None
        output = OutputSink(log_dir / f"{label}.log", confinement.limits.output_kb * 1024)
        assert process.stdout is not None
        threading.Thread(target=output.drain, args=(process.stdout,), daemon=True).start()
        return cls(spec, process, output, marker)

    @property
    def exit_code(self) -> int | None:
        return self.process.poll()

    def stderr_tail(self, lines: int = 5) -> str:
        return self.output.tail(lines)

    def kill(self) -> None:
        """Kill the bot's process group, then any process still carrying its
        marker (a child that left the group), and reap the bot."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
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


def marked_processes(marker: str) -> list[int]:
    """PIDs of processes whose environment holds REFEREE_BOT_MARKER=marker."""
    needle = f"{MARKER_ENV}={marker}\0".encode()
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/environ", "rb") as f:
                if needle not in f.read() + b"\0":
                    continue
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                if f.read().rsplit(b")", 1)[-1].split()[0] == b"Z":
                    continue  # a zombie is dead already; its parent reaps it
            found.append(int(entry.name))
        except (OSError, IndexError):
            continue
    return found


def kill_marked(marker: str) -> int:
    """SIGKILL every live process carrying the marker; returns how many."""
    pids = marked_processes(marker)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    return len(pids)
