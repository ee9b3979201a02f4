"""The referee's private runtime directory: one endpoint directory per bot
process (its socket), and scratch space for bots run without the sandbox.

It is named `referee-<pid>-<start time>` after the referee process that owns
it, so a later referee can tell a dead owner's directory from a live one and
remove it (`sweep()`), even when the owner was killed with SIGKILL.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

from referee.cgroups import PREFIX, owner_alive, owner_name

ROOT_BASE = Path("/run/referee")


def base() -> Path:
    """Where runtime directories live: /run/referee as root, else the temp dir."""
    if os.geteuid() == 0 and ROOT_BASE.parent.is_dir():
        ROOT_BASE.mkdir(mode=0o711, exist_ok=True)
        return ROOT_BASE
    return Path(tempfile.gettempdir())


def sweep() -> int:
    """Remove the runtime directories of referee processes that are gone."""
    removed = 0
    with contextlib.suppress(OSError):
        for entry in base().iterdir():
            if entry.name.startswith(PREFIX) and entry.is_dir() and not owner_alive(entry.name):
                shutil.rmtree(entry, ignore_errors=True)
                removed += 1
    return removed


class RuntimeDir:
    """This process's runtime directory (made on creation, removed by `remove()`)."""

    def __init__(self) -> None:
        self.path = base() / owner_name()
        # Others may pass through (to their own endpoint) but not list it.
        self.path.mkdir(mode=0o711 if os.geteuid() == 0 else 0o700, exist_ok=True)
        self._count = 0

    def endpoint_dir(self) -> Path:
        """A fresh directory for one bot's endpoint, the referee's alone until
        `admit()` lets that bot's uid in."""
        self._count += 1
        path = self.path / str(self._count)
        path.mkdir(mode=0o700)
        return path

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


def admit(endpoint_dir: Path, uid: int) -> None:
    """Let one uid enter an endpoint directory (to connect), and only enter:
    it can neither list, rename, delete nor replace the socket."""
    os.chown(endpoint_dir, 0, uid)
    os.chmod(endpoint_dir, 0o710)
