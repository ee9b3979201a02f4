"""`referee doctor`: what confinement bots get here, claimed and observed.

The claims come from `Confinement.protections()`. The observations come from
a probe process launched exactly as a bot is (same uid lease, cgroup,
limits, sandbox) that reports what it finds from the inside: its uid and
groups, its capabilities, no_new_privs, its cgroup, whether / is writable,
which network interfaces it has and what it sees of the referee's files.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from referee import cgroups
from referee.bots import BotLaunchError, BotProcess, BotSpec
from referee.runtime import RuntimeDir
from referee.sandbox import Confinement, probe

PROBE_SCRIPT = r"""
echo "uid: $(id -u), gid: $(id -g)"
grep -E '^(Groups|CapEff|CapBnd|CapAmb|NoNewPrivs):' /proc/self/status | tr -s '\t' ' '
echo "cgroup: $(grep -E 'memory|^0::' /proc/self/cgroup | head -1)"
if touch /probe-write 2>/dev/null; then echo "root filesystem: writable"
else echo "root filesystem: read-only"; fi
if touch "$HOME/probe" 2>/dev/null; then echo "scratch: writable ($HOME)"
else echo "scratch: not writable"; fi
echo "network interfaces: $(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\n' ' ')"
echo "processes visible: $(ls /proc | grep -c '^[0-9]')"
if [ -r "$1" ]; then echo "referee source: readable"; else echo "referee source: hidden"; fi
"""


@dataclass(frozen=True)
class Observation:
    lines: list[tuple[str, str]]
    error: str = ""


def observe(confinement: Confinement) -> Observation:
    """Launch a probe confined as a bot and collect what it reports."""
    import referee

    hidden_file = Path(referee.__file__).resolve().parent / "store.py"
    workdir = Path(tempfile.mkdtemp(prefix="referee-doctor-"))
    os.chmod(workdir, 0o755)
    runtime = RuntimeDir()
    layout = probe().cgroups
    tree = cgroups.Tree(layout) if layout is not None else None
    process: BotProcess | None = None
    try:
        script = workdir / "probe.sh"
        script.write_text(PROBE_SCRIPT)
        script.chmod(0o644)
        spec = BotSpec(f"/bin/sh {script} {hidden_file}", name="probe")
        process = BotProcess.launch(
            spec,
            f"unix://{runtime.endpoint_dir() / 'referee.sock'}",
            "-",
            workdir / "logs",
            "probe",
            confinement,
            workdir=runtime.path,
            tree=tree,
        )
        deadline = time.monotonic() + 10
        while process.exit_code is None and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.1)  # let the output drain
        text = process.output.path.read_text(errors="replace")
        lines = []
        for line in text.splitlines():
            name, _, value = line.partition(":")
            if value:
                lines.append((name.strip(), value.strip()))
        return Observation(lines)
    except BotLaunchError as error:
        return Observation([], str(error))
    finally:
        if process is not None:
            process.kill()
        if tree is not None:
            tree.remove()
        runtime.remove()
        shutil.rmtree(workdir, ignore_errors=True)
