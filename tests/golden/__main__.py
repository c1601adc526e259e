"""Regenerate every golden picture: `.venv/bin/python -m tests.golden` from the repository root."""

from __future__ import annotations

import io
import sys

from PIL import Image

from . import CASES, DOCS_TABLE, DOCS_TURN, GOLDEN_DIR, docs_table, docs_turn, path


def main(argv: list[str]) -> int:
    """Write tests/golden/<case>.png for the named cases, or all of them and docs/table.png."""
    names = argv or list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        print(f"unknown case(s): {', '.join(unknown)}; known: {', '.join(CASES)}", file=sys.stderr)
        return 2
    for name in names:
        # Goldens are compared by pixels, so they are stored at the strongest compression to keep the repo small.
        img = Image.open(io.BytesIO(CASES[name]()))
        img.save(path(name), format="PNG", optimize=True)
        print(f"wrote {path(name).relative_to(GOLDEN_DIR.parent.parent)}")
    if not argv:
        DOCS_TABLE.parent.mkdir(exist_ok=True)
        Image.open(io.BytesIO(docs_table())).save(DOCS_TABLE, format="PNG", optimize=True)
        print(f"wrote {DOCS_TABLE.relative_to(GOLDEN_DIR.parent.parent)}")
        Image.open(io.BytesIO(docs_turn())).save(DOCS_TURN, format="PNG", optimize=True)
        print(f"wrote {DOCS_TURN.relative_to(GOLDEN_DIR.parent.parent)}")
    for stale in GOLDEN_DIR.glob("*.actual.png"):
        stale.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
