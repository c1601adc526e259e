"""The games the platform's own table offers (every game of the registry) and each one's variants (its lobby settings)
as a person chooses them; and which games also keep a table of their own, whose commands the hints name."""

from __future__ import annotations

import itertools

import games
from games.base import GameModule, Value
from i18n import _

from .common import UserError

# Games that also have a table of their own in the Discord layer (`/kokeshi`), whose commands the hints below name.
# They are offered by `/games new` too: a game made there is played at the platform's table (its log by seat).
OWN_TABLES = ("kokeshi",)


def table_game(key: str) -> GameModule:
    """The game with this key that the platform's table runs; a player's mistake otherwise."""
    try:
        module = games.get(key)
    except KeyError:
        raise UserError(_("There is no game called “{key}”.").format(key=key)) from None
    return module


def challenge_hint(module: GameModule, kind: str) -> str:
    """How a person plays the same daily or weekly challenge, in the current language: the command of the game's
    table."""
    if module.key in OWN_TABLES:
        return (
            _("Same draws for everyone: `/kokeshi daily`")
            if kind == "daily"
            else _("Same draws for everyone: `/kokeshi weekly`")
        )
    return (
        _("Same draws for everyone today: `/games challenge` with {game}.")
        if kind == "daily"
        else _("Same draws for everyone this week: `/games challenge` with {game}, weekly.")
    ).format(game=module.name)


def first_game_hint(module: GameModule) -> str:
    """What someone without a finished game of `module` can start with, in the current language."""
    if module.key in OWN_TABLES:
        return _("No finished games yet. `/kokeshi new`, `/kokeshi solo` or `/kokeshi daily`!")
    return _("No finished games yet. `/games new` or `/games challenge` with {game}!").format(game=module.name)


def daily_waiting(module: GameModule) -> str:
    """The invitation closing a day's challenge results, in the current language."""
    if module.key in OWN_TABLES:
        return _("Today's challenge is waiting: `/kokeshi daily`.")
    return _("Today's challenge is waiting: `/games challenge` with {game}.").format(game=module.name)


def offered() -> list[GameModule]:
    """The registry's games this table runs, in the registry's order."""
    keys = games.keys()  # the registry's function, not a dict's
    return [games.get(key) for key in keys]


def variants(key: str) -> list[tuple[str, str]]:
    """Every way a game's lobby settings can be set, as (label in the current language, value for
    `/games new variant:`): "with goal cards", "goals=true". Empty for a game without settings or an unknown
    key."""
    try:
        module = games.get(key)
    except KeyError:
        return []
    if not module.settings:
        return []
    out = []
    for values in itertools.product(*(s.choices for s in module.settings)):
        pairs = list(zip((s.key for s in module.settings), values, strict=True))
        label = ", ".join(module.setting_label(k, v) for k, v in pairs)
        out.append((label, ";".join(f"{k}={str(v).lower()}" for k, v in pairs)))
    return out


def read_variant(module: GameModule, text: str) -> dict[str, Value]:
    """`/games new variant:` read back into lobby settings ("goals=true;…", or one of the labels `variants`
    offers); UserError naming the game's variants for anything else."""
    text = text.strip()
    if not text:
        return {}
    for label, encoded in variants(module.key):
        if text.casefold() == label.casefold():
            text = encoded
    out: dict[str, Value] = {}
    settings = {s.key: s for s in module.settings}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        key, _sep, wanted = part.partition("=")
        setting = settings.get(key.strip())
        choices = setting.choices if setting is not None else ()
        value = next((c for c in choices if str(c).lower() == wanted.strip().lower()), None)
        if setting is None or value is None:
            offered_labels = "; ".join(label for label, _value in variants(module.key))
            if not offered_labels:
                raise UserError(_("{game} has no variants.").format(game=module.name))
            raise UserError(
                _("{game} has these variants: {variants}.").format(game=module.name, variants=offered_labels)
            )
        out[setting.key] = value
    return out


__all__ = [
    "OWN_TABLES",
    "challenge_hint",
    "daily_waiting",
    "first_game_hint",
    "offered",
    "read_variant",
    "table_game",
    "variants",
]
