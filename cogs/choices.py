"""Autocomplete's answers: the items whose name (or key) holds what was typed, named in the caller's language."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

import discord
from discord import app_commands

import i18n
from storage import GameRecord

from .limits import CHOICE_NAME, MAX_CHOICES, shorten

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


__all__ = ["game_choices", "matching_choices"]
