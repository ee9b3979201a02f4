"""One unprivileged uid per bot process, when the referee runs as root.

A uid is leased with an exclusive lock on a file named after it, so
concurrent referees (tournament workers, other runs) never share one, and a
referee that dies releases its leases with its file descriptors. Every
process of a leased uid belongs to one bot process: that makes the uid a
handle no bot can escape (kill everything it owns) and a wall between bots
(no signals, no ptrace, no reading each other's /proc), sandbox or not.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import time
from pathlib import Path

from referee.errors import RefereeError

LOCK_DIR = Path("/run/referee-uids")
WORLD_WRITABLE = (Path("/tmp"), Path("/var/tmp"), Path("/dev/shm"))
KILL_ROUNDS = 200


class UidError(RefereeError):
    """No uid of the range is free."""


def processes_of(uid: int) -> list[int]:
    """Live processes whose real, effective or saved uid is `uid`."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/status", "rb") as f:
                for line in f:
                    if line.startswith(b"Uid:"):
                        if str(uid).encode() in line.split()[1:4]:
                            found.append(int(entry.name))
                        break
                    if line.startswith(b"State:") and b"Z" in line.split()[1:2]:
                        break  # a zombie is dead already
        except OSError:
            continue
    return found


def kill_uid(uid: int) -> int:
    """SIGKILL every process of `uid` until none is left; returns how many were seen."""
    seen = 0
    for _ in range(KILL_ROUNDS):
        pids = processes_of(uid)
        if not pids:
            break
        seen += len(pids)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.005)
    return seen


def remove_files_of(uid: int, places: tuple[Path, ...] = WORLD_WRITABLE) -> int:
    """Delete what `uid` left in the world-writable directories (no sandbox:
    nothing a bot writes may outlive its process)."""
    removed = 0
    for place in places:
        with contextlib.suppress(OSError):
            for entry in os.scandir(place):
                try:
                    if entry.stat(follow_symlinks=False).st_uid != uid:
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        shutil.rmtree(entry.path, ignore_errors=True)
                    else:
                        os.unlink(entry.path)
                    removed += 1
                except OSError:
                    continue
    return removed


class UidLease:
    """A uid held for one bot process until `release()`."""

    def __init__(self, uid: int, fd: int) -> None:
        self.uid = uid
        self._fd = fd

    @classmethod
    def acquire(cls, first: int, last: int) -> UidLease:
        LOCK_DIR.mkdir(mode=0o700, exist_ok=True)
        for uid in range(first, last + 1):
            fd = os.open(LOCK_DIR / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            # Whatever a dead referee left under this uid goes before it is reused.
            kill_uid(uid)
            remove_files_of(uid)
            return cls(uid, fd)
        raise UidError(
            f"every bot uid from {first} to {last} is in use: widen bot_uids in the tournament file"
        )

    def release(self, clean_files: bool) -> None:
        """Kill what is left of the uid, delete its files if asked, free it."""
        if self._fd < 0:
            return
        kill_uid(self.uid)
        if clean_files:
            remove_files_of(self.uid)
        os.close(self._fd)
        self._fd = -1
