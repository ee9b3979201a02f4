"""A watcher that outlives its referee: when the referee dies, however it
dies (SIGKILL included), the reaper kills every process of its bots (their
cgroups, their marker) and removes its runtime directory and cgroups.

The referee holds the write end of the reaper's stdin; the reaper blocks
reading it, so end of file means the referee is gone (or closed the pool).
On that pipe the referee also says which bot uids it holds (`+uid`, and
`-uid` before it lets one go), so that without cgroups too every process of
its bots dies with it, even one that cleared its environment.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from referee import cgroups


def start(owner: str, runtime_dir: Path, marker_prefix: str) -> subprocess.Popen[bytes]:
    """Start the reaper for this referee process."""
    return subprocess.Popen(
        [sys.executable, "-m", "referee.reaper", owner, str(runtime_dir), marker_prefix],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        start_new_session=True,  # a kill of the referee's process group spares it
        close_fds=True,
    )


def clean_up(
    owner: str, runtime_dir: Path, marker_prefix: str, uids: set[int] | None = None
) -> None:
    from referee.bots import kill_marked
    from referee.uids import kill_uid, remove_files_of

    layout = cgroups.layout()
    if layout is not None:
        cgroups.remove_owner(layout, owner)
    if marker_prefix:
        for _ in range(100):
            if not kill_marked(marker_prefix, prefix=True):
                break
            time.sleep(0.02)
    for uid in uids or ():
        kill_uid(uid)
        remove_files_of(uid)
    import shutil

    shutil.rmtree(runtime_dir, ignore_errors=True)


def main() -> None:
    owner, runtime_dir, marker_prefix = sys.argv[1:4]
    held: set[int] = set()
    for line in sys.stdin.buffer:
        word = line.strip().decode(errors="replace")
        if word[:1] in "+-" and word[1:].isdigit():
            (held.add if word[0] == "+" else held.discard)(int(word[1:]))
    clean_up(owner, Path(runtime_dir), marker_prefix, held)


if __name__ == "__main__":
    main()
