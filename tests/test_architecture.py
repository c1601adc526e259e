"""The layers' import rules: the engine is pure, and only the Discord layer talks to Discord."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Each folder with the top-level packages (or, where a package is named in full, the modules) it must not import.
FORBIDDEN = {
    # Kokeshi's rules speak in codes with values: the words (`games.kokeshi.vocab`, in the current language) and the
    # pictures are beside them, never under them.
    "games/kokeshi/engine": {
        "discord",
        "PIL",
        "sqlite3",
        "aiosqlite",
        "render",
        "storage",
        "cogs",
        "bot",
        "i18n",
        "games.kokeshi.vocab",
        "games.kokeshi.pictures",
        "games.kohaku",
    },
    # The drawing kit every game's pictures use knows no game.
    "render": {"discord", "sqlite3", "aiosqlite", "asyncpg", "storage", "cogs", "bot", "games", "service"},
    "storage": {"discord", "PIL", "render", "cogs", "bot"},
    # Games draw and word themselves, but know nothing of Discord, databases or the platform above them.
    "games": {"discord", "sqlite3", "aiosqlite", "asyncpg", "storage", "cogs", "bot", "service", "sandbox"},
    # The small helpers every layer may use stand below all of them.
    "kit": {
        "discord",
        "PIL",
        "sqlite3",
        "aiosqlite",
        "asyncpg",
        "games",
        "render",
        "storage",
        "service",
        "cogs",
        "bot",
        "sandbox",
        "i18n",
    },
}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def _forbidden(module: str, banned: set[str]) -> bool:
    return any(module == name or module.startswith(name + ".") for name in banned)


@pytest.mark.parametrize("folder", sorted(FORBIDDEN))
def test_a_layer_imports_only_what_points_inward(folder):
    paths = sorted((ROOT / folder).rglob("*.py"))
    assert paths
    offenders = {
        str(path.relative_to(ROOT)): sorted(m for m in imported_modules(path) if _forbidden(m, FORBIDDEN[folder]))
        for path in paths
    }
    assert {k: v for k, v in offenders.items() if v} == {}


# Imports every module of the rules packages, then names what of the words came with them.
_RULES_PROBE = """
import importlib, pkgutil, sys
import games.kokeshi.engine as engine, games.kohaku
for info in pkgutil.iter_modules(engine.__path__):
    importlib.import_module("games.kokeshi.engine." + info.name)
for name in ("data", "model", "rules", "persist", "scoring", "plans", "rng"):
    importlib.import_module("games.kohaku." + name)
print(sorted(m for m in sys.modules if m.split(".")[0] in ("i18n", "babel", "render", "PIL")
             or m.startswith(("games.kokeshi.", "games.kohaku.words")) and not m.startswith("games.kokeshi.engine")))
"""


def test_the_rules_packages_load_no_words():
    done = subprocess.run([sys.executable, "-c", _RULES_PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_engine_policies_are_the_only_users_of_python_random():
    # The rules draw only from the game's own generator; the baseline players may use their own seeded one.
    users = [p.name for p in (ROOT / "games" / "kokeshi" / "engine").rglob("*.py") if "random" in imported_roots(p)]
    assert set(users) <= {"ai.py", "policies.py"}


@pytest.mark.slow
def test_every_module_starts_with_a_one_line_docstring():
    missing = []
    for folder in ("games", "render", "storage", "cogs", "kit", "bench", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
            if not doc or not doc.splitlines()[0].strip():
                missing.append(str(path.relative_to(ROOT)))
    doc = ast.get_docstring(ast.parse((ROOT / "bot.py").read_text(encoding="utf-8")))
    assert doc and missing == []


# The platform's side of the game seam: the contract and the service know no game, no Discord and no storage.
PLATFORM_FORBIDDEN = {
    "discord",
    "cogs",
    "bot",
    "storage",
    "sqlite3",
    "aiosqlite",
    "asyncpg",
    "render",
    "PIL",
    "sandbox",
}


def imported_modules(path: Path) -> set[str]:
    """Every module `path` imports (top level, in functions or for type checking), relative imports resolved."""
    package = path.relative_to(ROOT).with_suffix("").parts
    package = package[:-1] if package[-1] != "__init__" else package[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            found.add(module)
            # `from pkg import name` may import the submodule `pkg.name`.
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def _platform_files() -> list[Path]:
    return [ROOT / "games" / "base.py", ROOT / "games" / "__init__.py", *sorted((ROOT / "service").rglob("*.py"))]


@pytest.mark.parametrize("path", _platform_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_game_contract_and_the_service_import_no_game_discord_or_storage(path):
    bad = set()
    for module in imported_modules(path):
        root = module.split(".")[0]
        if root in PLATFORM_FORBIDDEN:
            bad.add(module)
        # Of the games package only the contract and the registry: never one game's package.
        if root == "games" and module not in ("games", "games.base") and not module.startswith("games.base."):
            bad.add(module)
    assert sorted(bad) == []


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# The product: the entry points and every package of the bot (tests, bench and docs are not part of it).
PRODUCT = ("bot.py", "sandbox.py", "sandbox_world.py")
PRODUCT += ("cogs", "games", "service", "render", "storage", "i18n", "kit")


def _product_files() -> list[Path]:
    files = []
    for name in PRODUCT:
        path = ROOT / name
        files += [path] if path.suffix == ".py" else sorted(path.rglob("*.py"))
    return files


@pytest.mark.slow
def test_no_import_circles_in_the_product():
    names = {_module_name(p): p for p in _product_files()}
    # Importing a module imports its packages first: an import of one's own package is not a circle. Imports made
    # only for type checking or inside a function count: they tie the modules together all the same.
    graph = {
        name: sorted(m for m in imported_modules(path) if m in names and not (name + ".").startswith(m + "."))
        for name, path in names.items()
    }
    # The graph is read, not empty.
    assert graph["games.kokeshi.module"] and graph["service.play"] and graph["bot"] and graph["cogs.tables"]
    circles = []
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in graph[node]:
            if state.get(nxt) == 1:
                circles.append([*trail[trail.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert circles == []


@pytest.mark.slow
def test_no_cog_imports_bot_py():
    # The cogs know the bot by `cogs.client.Client` (and the extensions by `cogs.wiring.WiredClient`).
    offenders = {
        str(path.relative_to(ROOT)): sorted(m for m in imported_modules(path) if m == "bot" or m.startswith("bot."))
        for path in sorted((ROOT / "cogs").rglob("*.py"))
    }
    assert {k: v for k, v in offenders.items() if v} == {}


@pytest.mark.slow
def test_the_new_packages_start_with_a_one_line_docstring():
    missing = []
    for folder in ("games", "service"):
        for path in (ROOT / folder).rglob("*.py"):
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
            if not doc or not doc.splitlines()[0].strip():
                missing.append(str(path.relative_to(ROOT)))
    assert missing == []


def test_the_store_holds_a_database_and_storage_imports_run_one_way():
    # The store speaks only to the `Database` protocol; `storage.open` picks the backend from the setting.
    engines = {"sqlite3", "aiosqlite", "asyncpg", "storage.sqlite", "storage.postgres", "storage.open"}
    store = imported_modules(ROOT / "storage" / "store.py")
    assert "storage.database" in store and sorted(m for m in store if m in engines or m.split(".")[0] in engines) == []
    files = sorted((ROOT / "storage").glob("*.py"))
    names = {_module_name(p): p for p in files if p.name != "__init__.py"}
    graph = {name: {m for m in imported_modules(path) if m in names and m != name} for name, path in names.items()}
    assert "storage.database" in graph["storage.postgres"]  # the graph is read, not empty

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(n == goal or (n not in seen and reaches(n, goal, seen | {n})) for n in graph[start])

    assert sorted(name for name in graph if reaches(name, name, {name})) == []


# The modules of the Discord layer that import a game package: none. Every module of `cogs/` (the platform's table,
# the commands of `/games`, `/kokeshi`'s commands that Kokeshi's players know by name, the buttons Kokeshi's own table
# left in old threads, the language and the limits) reaches a game only through the registry and the contract.
COGS_WITH_A_GAME: set[str] = set()


@pytest.mark.slow
def test_no_module_of_the_discord_layer_imports_a_game_package():
    found = set()
    for path in sorted((ROOT / "cogs").glob("*.py")):
        modules = imported_modules(path)
        contract = ("games", "games.base")
        if any(m.split(".")[0] == "games" and m not in contract and not m.startswith("games.base.") for m in modules):
            found.add(path.relative_to(ROOT).as_posix())
    assert found == COGS_WITH_A_GAME
    assert {"cogs/common.py", "cogs/speech.py", "cogs/matches.py"}.isdisjoint(found)


@pytest.mark.parametrize(
    "name",
    [
        "matches.py",
        "match_items.py",
        "match_boards.py",
        "match_lobbies.py",
        "match_looks.py",
        "match_guide.py",
        "match_turns.py",
        "offer.py",
        "games.py",
        "since.py",
        "match_replay.py",
        "replay_items.py",
        "speech.py",
        "thinking.py",
    ],
)
def test_the_table_of_every_other_game_knows_no_game(name):
    # `/games new` and its table reach a game only through the registry, the contract, the service and the store.
    found = imported_modules(ROOT / "cogs" / name)
    games_modules = sorted(m for m in found if m.split(".")[0] == "games")
    assert all(m in ("games", "games.base") or m.startswith("games.base.") for m in games_modules), games_modules
    assert sorted(m for m in found if m.split(".")[0] in ("render", "sandbox", "bot")) == []
    if name == "matches.py":
        assert "games" in found and "service" in found  # the graph is read, not empty


# The store's modules that reach a game package of their own: none. The store knows every game, Kokeshi included,
# only through the registry and the contract (a match says whom it waits for, how it ends, what its log replays to).
STORAGE_WITH_A_GAME: set[str] = set()


def test_no_storage_module_imports_a_game_package_beyond_the_registry_and_the_contract():
    contract = {"games", "games.base"}
    reaching = {
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "storage").rglob("*.py"))
        if any(
            m.startswith("games.") and not any(m == c or m.startswith("games.base.") for c in contract)
            for m in imported_modules(path)
        )
    }
    assert reaching == STORAGE_WITH_A_GAME, reaching
