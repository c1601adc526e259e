"""Autocomplete's answers: the items whose name (or key) holds what was typed, named in the caller's language."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import discord
from discord import app_commands

import i18n
from games.base import GameModule, Option, Prompt
from storage import GameRecord

from .limits import BUTTON_LABEL, CHOICE_NAME, MAX_CHOICES, shorten

T = TypeVar("T")
V = TypeVar("V", int, str)


def matching_choices(
    interaction: discord.Interaction,
    current: str,
    items: Iterable[T],
    name: Callable[[T], str],
    value: Callable[[T], V],
    key: Callable[[T], str] | None = None,
) -> list[app_commands.Choice[V]]:
    """The items whose name (in the caller's language) or `key` holds what was typed, in any case, in their order:
    as many as Discord shows, each name cut to Discord's size."""
    typed = current.lower()
    found: list[app_commands.Choice[V]] = []
    with i18n.using(interaction.locale):
        for item in items:
            label = name(item)
            if typed in label.lower() or (key is not None and typed in key(item).lower()):
                found.append(app_commands.Choice(name=shorten(label, CHOICE_NAME), value=value(item)))
                if len(found) == MAX_CHOICES:
                    break
    return found


def game_choices(
    interaction: discord.Interaction, current: str, games: Iterable[GameRecord], label: Callable[[GameRecord], str]
) -> list[app_commands.Choice[int]]:
    """A `game` option's choices: the games found by their number or by their `label`, which names them."""
    return matching_choices(interaction, current, games, label, lambda g: g.id, key=lambda g: str(g.id))


def _said(text: str) -> str:
    """Text as it is compared with what a player typed: in any case, its spaces as one."""
    return " ".join(text.casefold().split())


def _written(module: GameModule, view: Mapping[str, Any], option: Option) -> set[str]:
    """The ways an option may be written out in full, in the current language: its id, its label as the list, a
    button and a menu show it, and its name in a menu."""
    label = module.label(view, option)
    names = (
        option.id,
        label,
        shorten(label, CHOICE_NAME),
        shorten(label, BUTTON_LABEL),
        module.menu_label(view, option),
    )
    return {_said(name) for name in names}


def typed_choice(module: GameModule, view: Mapping[str, Any], prompt: Prompt, typed: str) -> str | None:
    """The option of `prompt` a player wrote out in full (`/games play`, `/kokeshi play` without the list): by its id
    or as the game words it, in the current language or in English; None when no option, or more than one, reads
    so."""
    said = _said(typed)
    found = {o.id for o in prompt.options if said in _written(module, view, o)}
    if not found:
        with i18n.using("en"):
            found = {o.id for o in prompt.options if said in _written(module, view, o)}
    return found.pop() if len(found) == 1 else None


def typed_choices(module: GameModule, view: Mapping[str, Any], prompt: Prompt, typed: str) -> list[tuple[str, str]]:
    """(label, action) of the options of `prompt` that answer what was typed, as many as Discord lists: those whose
    name holds it (the move, as a menu names it, or its id: "samurai track"); failing that, those whose label does
    (what the move does: "makes a pair"); failing that, those with all its words anywhere in their words."""
    said = _said(typed)
    rows = []
    for option in prompt.options:
        label = module.label(view, option)
        name = _said(f"{module.menu_label(view, option)} {option.id}")
        rows.append((option, label, name, f"{name} {_said(label)} {_said(module.option_detail(view, option) or '')}"))
    found = (
        [r for r in rows if said in r[2]]
        or [r for r in rows if said in _said(r[1])]
        or [r for r in rows if all(word in r[3] for word in said.split())]
    )
    return [(label, option.id) for option, label, _name, _words in found][:MAX_CHOICES]


__all__ = ["game_choices", "matching_choices", "typed_choice", "typed_choices"]
