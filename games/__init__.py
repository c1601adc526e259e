"""Board games the bot runs, one package per game: pure rules, words and pictures; and the registry of them.

The registry knows each built-in game by the module that describes it (`games/<key>/module.py`, whose `MODULE`
is a `games.base.GameModule`) and imports it only when it is first asked for, so importing one game's pure rules
never loads another game, Pillow or the words.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .base import GameModule

# Every game that ships with the bot: its key and the module holding its `MODULE`.
BUILTIN: dict[str, str] = {
    "kokeshi": "games.kokeshi.module",
    "kohaku": "games.kohaku.module",
}

_registered: dict[str, GameModule] = {}


def _check(module: GameModule) -> None:
    """Refuse a game module that does not declare what the platform needs."""
    from .base import GameModule

    if not isinstance(module, GameModule):
        raise TypeError(f"{module!r} is not a GameModule")
    key = getattr(module, "key", "")
    if not isinstance(key, str) or not key.isascii() or not key.isalnum() or key != key.lower():
        raise ValueError(f"a game key is lower-case ASCII letters and digits, not {key!r}")
    for attr in ("name", "players", "rules_versions", "current_rules"):
        if not hasattr(module, attr):
            raise ValueError(f"game {key!r} does not declare {attr}")
    if not module.players or any(not 1 <= n <= 25 for n in module.players):
        raise ValueError(f"game {key!r}: player counts must be 1 to 25")
    if module.current_rules not in module.rules_versions:
        raise ValueError(f"game {key!r}: the current rules version is not among its rules versions")
    for setting in module.settings:
        if setting.default not in setting.choices:
            raise ValueError(f"game {key!r}: setting {setting.key!r} defaults to a value it does not offer")
    for challenge in module.challenges:
        module.options(challenge.options)


def register(module: GameModule) -> GameModule:
    """Add a game (checked first); a key can be registered once. Returns the module."""
    _check(module)
    if module.key in _registered and _registered[module.key] is not module:
        raise ValueError(f"a game with key {module.key!r} is already registered")
    _registered[module.key] = module
    return module


def unregister(key: str) -> None:
    """Remove a registered game (tests register games of their own)."""
    _registered.pop(key, None)


def get(key: str) -> GameModule:
    """The game with this key, loading a built-in one on first use; KeyError for an unknown key."""
    if key not in _registered:
        path = BUILTIN.get(key)
        if path is None:
            raise KeyError(key)
        register(importlib.import_module(path).MODULE)
    return _registered[key]


def keys() -> tuple[str, ...]:
    """Every game's key: the built-in ones first, in their order, then the others as registered."""
    return tuple(BUILTIN) + tuple(k for k in _registered if k not in BUILTIN)


def all_games() -> tuple[GameModule, ...]:
    """Every game, built-in ones loaded."""
    return tuple(get(key) for key in keys())


__all__ = ["BUILTIN", "all_games", "get", "keys", "register", "unregister"]
