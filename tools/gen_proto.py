"""Generate the Python wire code in referee/v1/ from proto/referee/v1/*.proto.

The generated files are committed so that installing needs no protoc;
tests/test_wire_generated.py fails when they are stale. Run after editing
a .proto:  python tools/gen_proto.py
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
PACKAGE_DIR = Path("referee") / "v1"


def generate(out_root: Path) -> list[Path]:
    """Write the generated modules under out_root/referee/v1/ and return them."""
    protos = sorted((PROTO_ROOT / PACKAGE_DIR).glob("*.proto"))
    plugin_dir = Path(sys.executable).parent
    args = [
        "protoc",
        f"-I{PROTO_ROOT}",
        f"-I{Path(protoc.__file__).parent / '_proto'}",
        f"--python_out={out_root}",
        f"--grpc_python_out={out_root}",
        f"--plugin=protoc-gen-mypy={plugin_dir / 'protoc-gen-mypy'}",
        f"--plugin=protoc-gen-mypy_grpc={plugin_dir / 'protoc-gen-mypy_grpc'}",
        f"--mypy_out={out_root}",
        f"--mypy_grpc_out={out_root}",
        *[str(p.relative_to(PROTO_ROOT)) for p in protos],
    ]
    (out_root / PACKAGE_DIR).mkdir(parents=True, exist_ok=True)
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    init = out_root / PACKAGE_DIR / "__init__.py"
    init.write_text('"""Generated from proto/referee/v1 by tools/gen_proto.py; do not edit."""\n')
    return sorted(p for p in (out_root / PACKAGE_DIR).iterdir() if p.is_file())


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        files = generate(Path(tmp))
        target = ROOT / PACKAGE_DIR
        target.mkdir(parents=True, exist_ok=True)
        names = {f.name for f in files}
        for old in target.glob("*"):
            if old.is_file() and old.name not in names:
                old.unlink()
        changed = 0
        for f in files:
            # Write only what changed, so a regeneration never empties the package.
            destination = target / f.name
            if not destination.exists() or destination.read_bytes() != f.read_bytes():
                shutil.copy(f, destination)
                changed += 1
    print(f"generated {len(files)} files in {PACKAGE_DIR}, {changed} changed")


if __name__ == "__main__":
    main()
