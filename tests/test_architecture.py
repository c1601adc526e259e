"""The layers' import rules: the engine is pure, and only the Discord layer talks to Discord."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "engine": {"discord", "PIL", "sqlite3", "aiosqlite", "render", "storage", "cogs", "bot"},
    "render": {"discord", "sqlite3", "aiosqlite", "storage", "cogs", "bot"},
    "storage": {"discord", "PIL", "render", "cogs", "bot"},
}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_layer_imports_only_what_points_inward(package):
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported_roots(path) & FORBIDDEN[package])
        for path in (ROOT / package).rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_engine_policies_are_the_only_users_of_python_random():
    # The rules draw only from the game's own generator; the baseline players may use their own seeded one.
    users = [p.name for p in (ROOT / "engine").rglob("*.py") if "random" in imported_roots(p)]
    assert set(users) <= {"ai.py", "policies.py"}


def test_every_module_starts_with_a_one_line_docstring():
    missing = []
    for folder in ("engine", "render", "storage", "cogs", "bench", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
            if not doc or not doc.splitlines()[0].strip():
                missing.append(str(path.relative_to(ROOT)))
    doc = ast.get_docstring(ast.parse((ROOT / "bot.py").read_text(encoding="utf-8")))
    assert doc and missing == []
