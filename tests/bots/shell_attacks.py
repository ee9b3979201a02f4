"""Small hostile processes for the unsandboxed confinement tests
(tests/test_confinement_unsandboxed.py).

They are written for the system's /usr/bin/python3 (stdlib only, no gRPC):
with the sandbox off as root, a bot runs as its own uid, which cannot read
the referee's interpreter. `sys.argv[1]` picks the attack; reports are
lines "REPORT ..." on stdout, flushed at once (an attack may be killed
half-way). Every attack is bounded (this runs as root on a shared machine):
bounded forks, memory and time, no network but the referee's socket.

Attacks:
  victim        print its pid, then sleep (at most 60 s)
  neighbour     attack the process VICTIM (a pid): signal it, ptrace it, read its
                environment and memory; report its own uid, groups and privileges
  shm_bomb      write up to 300 MiB in 1 MiB files into the host's /dev/shm
  fork_bomb     fork up to 200 children (each sleeps at most 30 s)
  spin          start 4 setsid children that spin (each at most 20 s)
  escape        setsid double-fork: a grandchild with an empty environment sleeps 60 s
  endpoint      try to rename, delete and replace its endpoint, write beside it,
                list the runtime directory and reach the endpoint OTHER
"""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path

PTRACE_ATTACH = 16
PTRACE_SEIZE = 0x4206


def report(line: str) -> None:
    print(f"REPORT {line}", flush=True)


def attempt(what: str, action: Callable[[], object]) -> None:
    """Try something forbidden; report whether it worked."""
    try:
        action()
        report(f"{what}: DONE")
    except OSError as error:
        report(f"{what}: refused ({type(error).__name__} errno {error.errno}: {error.strerror})")


def libc_call(name: str, *args: object) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    function = getattr(libc, name)
    function.restype = ctypes.c_long
    if function(*args) == -1:
        errno = ctypes.get_errno()
        raise OSError(errno, os.strerror(errno))


def sleep_for(seconds: float) -> None:
    time.sleep(seconds)
    os._exit(0)


def victim() -> None:
    report(f"victim pid {os.getpid()}")
    sleep_for(60)


def privileges() -> None:
    status = Path("/proc/self/status").read_text()
    fields = {
        key: value.strip()
        for key, value in (line.split(":", 1) for line in status.splitlines() if ":" in line)
    }
    report(f"uid {os.getuid()} euid {os.geteuid()} gid {os.getgid()} egid {os.getegid()}")
    report(f"groups {sorted(os.getgroups())}")
    for name in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs"):
        report(f"{name} {fields.get(name, '?')}")


def neighbour() -> None:
    privileges()
    pid = int(os.environ["VICTIM"])
    attempt("SIGSTOP", lambda: os.kill(pid, signal.SIGSTOP))
    attempt("SIGKILL", lambda: os.kill(pid, signal.SIGKILL))
    attempt("ptrace attach", lambda: libc_call("ptrace", PTRACE_ATTACH, pid, None, None))
    attempt("ptrace seize", lambda: libc_call("ptrace", PTRACE_SEIZE, pid, None, None))
    attempt("read environ", lambda: Path(f"/proc/{pid}/environ").read_bytes())

    def read_memory() -> None:
        with open(f"/proc/{pid}/mem", "rb") as memory:  # the open is what a wall refuses
            try:  # a mapped address, if the map can be read at all
                start = int(Path(f"/proc/{pid}/maps").read_text().split("-", 1)[0], 16)
            except (OSError, ValueError):
                start = 0
            memory.seek(start)
            memory.read(1)

    attempt("read mem", read_memory)
    attempt("list fds", lambda: os.listdir(f"/proc/{pid}/fd"))
    report("neighbour done")
    sleep_for(30)


def shm_bomb() -> None:
    block = b"\1" * (1 << 20)
    written = 0
    try:
        while written < 300:
            with open(f"/dev/shm/shell-attack-{os.getpid()}-{written}", "wb") as f:
                f.write(block)
            written += 1
            report(f"shm wrote {written} MiB")
    except OSError as error:
        report(f"shm stopped after {written} MiB ({error.strerror})")
        sleep_for(30)
    report(f"shm done {written} MiB")
    sleep_for(30)


def fork_bomb() -> None:
    for made in range(200):
        try:
            child = os.fork()
        except OSError as error:
            report(f"fork refused after {made} children ({error.strerror})")
            break
        if child == 0:
            sleep_for(30)
    else:
        report("forked 200 children")
    sleep_for(30)


def spin() -> None:
    children = []
    for _ in range(4):
        child = os.fork()
        if child == 0:
            os.setsid()
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                pass
            os._exit(0)
        children.append(child)
    report(f"spinning {' '.join(map(str, children))}")
    sleep_for(25)


def escape() -> None:
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            report(f"escaped pid {os.getpid()}")
            os.execve("/bin/sleep", ["sleep", "60"], {})
        os._exit(0)
    os.wait()
    report("escaper waiting")
    sleep_for(60)


def endpoint() -> None:
    path = Path(os.environ["REFEREE_ADDRESS"].removeprefix("unix://"))
    runtime = path.parent.parent

    def connect(target: Path) -> None:
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(2)
            s.connect(str(target))

    def bind_beside() -> None:
        with socket.socket(socket.AF_UNIX) as s:
            s.bind(str(path.with_name("evil.sock")))

    attempt("connect own endpoint", lambda: connect(path))
    attempt("rename endpoint", lambda: path.rename(path.with_name("moved.sock")))
    attempt("delete endpoint", path.unlink)
    attempt("create in endpoint dir", lambda: path.with_name("mine.txt").write_text("x"))
    attempt("bind beside endpoint", bind_beside)
    attempt("chmod endpoint dir", lambda: os.chmod(path.parent, 0o777))
    attempt("list endpoint dir", lambda: os.listdir(path.parent))
    attempt("list runtime dir", lambda: os.listdir(runtime))
    attempt("create in runtime dir", lambda: (runtime / "mine.txt").write_text("x"))
    attempt("connect other endpoint", lambda: connect(Path(os.environ["OTHER"])))
    report("endpoint done")


ATTACKS: dict[str, Callable[[], None]] = {
    "victim": victim,
    "neighbour": neighbour,
    "shm_bomb": shm_bomb,
    "fork_bomb": fork_bomb,
    "spin": spin,
    "escape": escape,
    "endpoint": endpoint,
}


if __name__ == "__main__":
    ATTACKS[sys.argv[1]]()
