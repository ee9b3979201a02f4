"""The committed Python wire code in referee/v1 must match proto/ exactly."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import gen_proto  # noqa: E402


def test_generated_code_is_fresh(tmp_path: Path) -> None:
    generated = {p.name: p.read_bytes() for p in gen_proto.generate(tmp_path)}
    committed = {p.name: p.read_bytes() for p in (ROOT / "referee" / "v1").iterdir() if p.is_file()}
    stale = sorted(
        n for n in generated.keys() | committed.keys() if generated.get(n) != committed.get(n)
    )
    assert not stale, f"referee/v1 is stale ({', '.join(stale)}): run python tools/gen_proto.py"
