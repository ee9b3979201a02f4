"""Launching bot processes. Knows nothing of games or of gRPC.

A bot is a command line. Each process runs in its own session (and so its
own process group), gets the referee's address and its secret in the
environment, writes its stdout and stderr to files kept for review, and is
killed with its whole group when it is no longer needed.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ADDRESS_ENV = "REFEREE_ADDRESS"
SECRET_ENV = "REFEREE_SECRET"


class BotLaunchError(Exception):
    """A bot command could not be started or did not connect."""


@dataclass(frozen=True)
class BotSpec:
    """How to start a bot: a command line, an optional display name and directory."""

    command: str
    name: str | None = None
    cwd: Path | None = None

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


SETPRIV = shutil.which("setpriv")


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


class BotProcess:
    """A running bot; `kill()` ends it with everything it started in its group."""

    def __init__(self, spec: BotSpec, process: subprocess.Popen[bytes], stderr_path: Path) -> None:
        self.spec = spec
        self.process = process
        self.stderr_path = stderr_path

    @classmethod
    def launch(
        cls, spec: BotSpec, address: str, secret: str, log_dir: Path, label: str
    ) -> BotProcess:
        argv = spec.argv()
        env = dict(os.environ)
        env[ADDRESS_ENV] = address
        env[SECRET_ENV] = secret
        env["PYTHONUNBUFFERED"] = "1"
        log_dir.mkdir(parents=True, exist_ok=True)
        stdout_path = log_dir / f"{label}.stdout"
        stderr_path = log_dir / f"{label}.stderr"
        cwd = spec.cwd
        if cwd is not None and not cwd.is_dir():
            raise BotLaunchError(f"bot {label}: working directory {cwd} does not exist")
        argv[0] = _resolve(argv[0], cwd, spec.command, label)
        if SETPRIV is not None:
            # The bot dies with the process that launched it, even by SIGKILL.
            argv = [SETPRIV, "--pdeathsig", "KILL", "--", *argv]
        try:
            with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
                process = subprocess.Popen(
                    argv,
                    cwd=cwd,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=err,
                    start_new_session=True,
                )
        except FileNotFoundError:
            raise BotLaunchError(
                f"bot {label}: command {argv[0]!r} not found (from {spec.command!r})"
            ) from None
        except PermissionError:
            raise BotLaunchError(f"bot {label}: {argv[0]!r} is not executable") from None
        return cls(spec, process, stderr_path)

    @property
    def exit_code(self) -> int | None:
        return self.process.poll()

    def stderr_tail(self, lines: int = 5) -> str:
        try:
            text = self.stderr_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.strip().splitlines()[-lines:])

    def kill(self) -> None:
        """Kill the bot's whole process group and reap the bot."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL does not wait
            pass
