"""Control groups for bot processes: total memory (tmpfs and shared memory
included), a process limit that holds for root too, CPU time per bot, CPU
weight, and a freezer for fair clocks. Knows nothing of games or gRPC.

Two layouts are supported: the cgroup v1 controllers mounted one per
directory under /sys/fs/cgroup (as on these machines), and a delegated
cgroup v2 subtree whose subtree_control already enables memory and pids.
Each referee process owns one parent group per hierarchy, named
`referee-<pid>-<start time>`, and one child group per bot process inside
it. Nothing a bot can do moves it out: cgroup.procs is writable by root only.
`sweep()` removes the groups of referee processes that died without
cleaning up, killing whatever is still in them.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from referee.errors import RefereeError

ROOT = Path("/sys/fs/cgroup")
V1_CONTROLLERS = ("memory", "pids", "cpu", "cpuacct", "freezer")
PREFIX = "referee-"
KILL_ROUNDS = 200


class CgroupError(RefereeError):
    """A group could not be made or written."""


@dataclass(frozen=True)
class Layout:
    """Where this process may make groups: one base directory per hierarchy."""

    version: int  # 1 or 2
    bases: dict[str, Path]  # v1: controller -> base dir; v2: {"unified": base}
    controllers: tuple[str, ...]  # what is available, by v1 name

    def describe(self) -> str:
        return f"cgroup v{self.version}: {', '.join(self.controllers)}"


def _own_path(hierarchy: str) -> str:
    """This process's cgroup path in a v1 controller's hierarchy ('' for v2: '0::')."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        number, names, path = line.split(":", 2)
        if hierarchy == "" and number == "0" and names == "":
            return path
        if hierarchy and hierarchy in names.split(","):
            return path
    raise CgroupError(f"not in a {hierarchy or 'v2'} cgroup")


def _writable_dir(path: Path) -> bool:
    return path.is_dir() and os.access(path, os.W_OK)


@functools.cache
def layout() -> Layout | None:
    """The cgroups this process can use, or None (then `why_not()` says why)."""
    return _detect()[0]


def why_not() -> str:
    return _detect()[1]


@functools.cache
def _detect() -> tuple[Layout | None, str]:
    if (ROOT / "cgroup.controllers").is_file():
        return _detect_v2()
    bases: dict[str, Path] = {}
    for controller in V1_CONTROLLERS:
        mount = ROOT / controller
        if not (mount / "cgroup.procs").is_file():
            continue
        try:
            base = mount / _own_path(controller).lstrip("/")
        except (CgroupError, OSError):
            continue
        if _writable_dir(base):
            bases[controller] = base
    needed = ("memory", "pids", "freezer")
    if not all(c in bases for c in needed):
        missing = [c for c in needed if c not in bases]
        return None, f"no writable cgroup v1 {', '.join(missing)} controller (not root?)"
    return Layout(1, bases, tuple(bases)), ""


def _detect_v2() -> tuple[Layout | None, str]:
    try:
        base = ROOT / _own_path("").lstrip("/")
        enabled = (base / "cgroup.subtree_control").read_text().split()
    except (CgroupError, OSError) as error:
        return None, f"cgroup v2: {error}"
    if not _writable_dir(base):
        return None, f"cgroup v2: {base} is not writable (not delegated to this user)"
    needed = {"memory", "pids"}
    if not needed <= set(enabled):
        return None, (
            f"cgroup v2: {base} does not delegate {', '.join(sorted(needed - set(enabled)))} "
            "(enable them in its cgroup.subtree_control)"
        )
    names = ["memory", "pids", "freezer", "cpuacct"] + (["cpu"] if "cpu" in enabled else [])
    return Layout(2, {"unified": base}, tuple(names)), ""


def _write(path: Path, value: str) -> None:
    try:
        path.write_text(value)
    except OSError as error:
        raise CgroupError(f"cannot write {value!r} to {path}: {error}") from None


def _read_pids(path: Path) -> list[int]:
    try:
        return [int(line) for line in path.read_text().split()]
    except (OSError, ValueError):
        return []


def start_time(pid: int) -> str | None:
    """A process's start time in clock ticks (to tell it from a reused pid)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    return stat.rsplit(b")", 1)[-1].split()[19].decode()


def owner_alive(name: str) -> bool:
    """Whether the referee process named in `referee-<pid>-<start>` still runs."""
    try:
        pid_text, started = name.removeprefix(PREFIX).split("-", 1)
        return start_time(int(pid_text)) == started
    except ValueError:
        return True  # not ours to judge


def owner_name() -> str:
    return f"{PREFIX}{os.getpid()}-{start_time(os.getpid())}"


class Group:
    """One bot process's cgroup, in every hierarchy of the layout."""

    def __init__(self, layout: Layout, dirs: dict[str, Path]) -> None:
        self.layout = layout
        self.dirs = dirs

    def _file(self, controller: str, name: str) -> Path:
        key = "unified" if self.layout.version == 2 else controller
        return self.dirs[key] / name

    @property
    def procs_files(self) -> list[Path]:
        """Where a new process writes its pid to join (every hierarchy)."""
        return [d / "cgroup.procs" for d in self.dirs.values()]

    def set_limits(self, memory_bytes: int, pids: int) -> None:
        if self.layout.version == 1:
            if memory_bytes:
                _write(self._file("memory", "memory.limit_in_bytes"), str(memory_bytes))
                swap = self._file("memory", "memory.memsw.limit_in_bytes")
                if swap.exists():  # no escape into swap
                    _write(swap, str(memory_bytes))
            if pids:
                _write(self._file("pids", "pids.max"), str(pids))
        else:
            if memory_bytes:
                _write(self._file("memory", "memory.max"), str(memory_bytes))
                swap = self._file("memory", "memory.swap.max")
                if swap.exists():
                    _write(swap, "0")
            if pids:
                _write(self._file("pids", "pids.max"), str(pids))

    def cpu_seconds(self) -> float:
        """CPU time used by every process of the group, in seconds."""
        try:
            if self.layout.version == 1:
                if "cpuacct" not in self.dirs:
                    return 0.0
                return int(self._file("cpuacct", "cpuacct.usage").read_text()) / 1e9
            for line in self._file("cpu", "cpu.stat").read_text().splitlines():
                if line.startswith("usage_usec "):
                    return int(line.split()[1]) / 1e6
        except (OSError, ValueError):
            pass
        return 0.0

    def memory_failures(self) -> int:
        """How often the group hit its memory limit: the largest of the failure
        counters and the OOM kills (kernels since 6.15 count v1 failures only
        on the memory counter, not on memory+swap, which trips first)."""
        counts = [0]
        if self.layout.version == 1:
            for name in ("memory.failcnt", "memory.memsw.failcnt"):
                with contextlib.suppress(OSError, ValueError):
                    counts.append(int(self._file("memory", name).read_text()))
            events = "memory.oom_control"
        else:
            events = "memory.events"
        with contextlib.suppress(OSError, ValueError):
            for line in self._file("memory", events).read_text().splitlines():
                name, _, value = line.partition(" ")
                if name in ("max", "oom_kill"):
                    counts.append(int(value))
        return max(counts)

    def freeze(self, frozen: bool) -> None:
        """Stop (or let run again) every process of the group."""
        if self.layout.version == 1:
            if "freezer" in self.dirs:
                state = "FROZEN" if frozen else "THAWED"
                with contextlib.suppress(OSError):
                    self._file("freezer", "freezer.state").write_text(state)
        else:
            with contextlib.suppress(OSError):
                self._file("freezer", "cgroup.freeze").write_text("1" if frozen else "0")

    def pids(self) -> list[int]:
        found: set[int] = set()
        for path in self.procs_files:
            found.update(_read_pids(path))
        return sorted(found)

    def kill(self) -> None:
        """Kill every process of the group, children that left the session included."""
        if self.layout.version == 2:
            kill_file = self._file("freezer", "cgroup.kill")
            if kill_file.exists():
                with contextlib.suppress(OSError):
                    kill_file.write_text("1")
        for _ in range(KILL_ROUNDS):
            pids = self.pids()
            if not pids:
                break
            # Frozen, a group cannot fork while it is being killed; killed, it thaws to die.
            self.freeze(True)
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            self.freeze(False)
            time.sleep(0.005)

    def remove(self) -> None:
        """Kill what is left and remove the group's directories."""
        self.kill()
        for directory in self.dirs.values():
            for _ in range(100):
                try:
                    directory.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)  # the last task is still leaving


class Tree:
    """The groups of one referee process: a parent per hierarchy, a child per bot."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.name = owner_name()
        for base in layout.bases.values():
            parent = base / self.name
            try:
                parent.mkdir(exist_ok=True)
                if layout.version == 2:
                    available = (parent / "cgroup.controllers").read_text().split()
                    wanted = [f"+{c}" for c in ("memory", "pids", "cpu") if c in available]
                    _write(parent / "cgroup.subtree_control", " ".join(wanted))
            except OSError as error:
                raise CgroupError(f"cannot make {parent}: {error}") from None

    @property
    def parents(self) -> list[Path]:
        return [base / self.name for base in self.layout.bases.values()]

    def group(self, name: str) -> Group:
        dirs = {key: base / self.name / name for key, base in self.layout.bases.items()}
        for directory in dirs.values():
            try:
                directory.mkdir()
            except FileExistsError:
                pass
            except OSError as error:
                raise CgroupError(f"cannot make {directory}: {error}") from None
        return Group(self.layout, dirs)

    def remove(self) -> None:
        remove_owner(self.layout, self.name)


def remove_owner(layout: Layout, name: str) -> None:
    """Kill every process in a referee's groups and remove them."""
    children: set[str] = set()
    for base in layout.bases.values():
        with contextlib.suppress(OSError):
            children.update(c.name for c in (base / name).iterdir() if c.is_dir())
    for child in children:
        Group(layout, {k: b / name / child for k, b in layout.bases.items()}).remove()
    for base in layout.bases.values():
        for _ in range(100):
            try:
                (base / name).rmdir()
                break
            except FileNotFoundError:
                break
            except OSError:
                time.sleep(0.01)


def sweep() -> int:
    """Remove the groups of referee processes that are gone; returns how many."""
    current = layout()
    if current is None:
        return 0
    stale: set[str] = set()
    for base in current.bases.values():
        with contextlib.suppress(OSError):
            for entry in base.iterdir():
                if entry.name.startswith(PREFIX) and not owner_alive(entry.name):
                    stale.add(entry.name)
    for name in stale:
        remove_owner(current, name)
    return len(stale)
