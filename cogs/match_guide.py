"""A game's rules and guide, for anyone, privately: `/games rules` and `/games help`, in the game's own words.

What a game says of itself comes from its module (`GameModule.rules_text`, `rules_pictures`, `help_text`); the
platform adds how every game is played at its table. A game with nothing of its own is told so politely.
"""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands

import games
from games.base import GameModule
from i18n import _

from . import common
from .client import TableDesk
from .common import UserError
from .limits import CHOICE_NAME, MAX_CHOICES, fit_files, in_messages, shorten


def any_game(key: str) -> GameModule:
    """The registered game with this key (at any table: its rules and guide are the same); a mistake otherwise."""
    try:
        return games.get(key)
    except KeyError:
        raise UserError(_("There is no game called “{key}”.").format(key=key)) from None


def every_game_choices(current: str) -> list[app_commands.Choice[str]]:
    """Every registered game whose name or key starts with what was typed (the `game` option of rules and help)."""
    typed = current.strip().lower()
    return [
        app_commands.Choice(name=shorten(module.name, CHOICE_NAME), value=module.key)
        for module in games.all_games()
        if module.key.startswith(typed) or module.name.lower().startswith(typed)
    ][:MAX_CHOICES]


def platform_help(module: GameModule) -> str:
    """How a game is played at the platform's table, in the current language (its commands are `/games`')."""
    return _(
        "**Playing {game} here** `/games new` with {game} opens a table in this channel (seats, AI players and "
        "their level, a variant, each turn's deadline or a time bank, the language) · `/games challenge` its daily "
        "or weekly solo challenge. Every game lives in its own thread: press the buttons there, or use "
        "`/games play` and start typing · `/games undo` takes back your last choice this turn · `/games resign` "
        "hands your seat to the AI (you rank last).\n"
        "**Look** `/games table` the table now · `/games log` the last moves · `/games rules` the rules · "
        "`/games status` your games · `/games leaderboard` and `/games stats` the best players and a player's "
        "record · `/games replay` a finished game, turn by turn.\n"
        "**Away** `/games away 3d` delays your turn deadlines in every game (`/games back` ends it) · "
        "`/games rejoin` takes back a seat the AI took when your time ran out."
    ).format(game=module.name)


def help_text(module: GameModule) -> str:
    """`/games help` for one game, in the current language: the game's own guide, then (for a game the platform's
    table runs) how it is played there; a game without a guide of its own says so first."""
    own = module.help_text()
    if own is None:
        own = _("{game} has no guide of its own here yet; this is how every game is played at this table.").format(
            game=module.name
        )
    return f"{own}\n\n{platform_help(module)}"


class MatchGuide:
    """`/games rules` and `/games help`: private answers from the game's module, touching no store."""

    def __init__(self, tables: TableDesk) -> None:
        self.tables = tables

    async def rules(self, interaction: discord.Interaction, key: str) -> None:
        """`/games rules`: privately, the game's rules in brief and its pictures of them (as many as one message
        holds), in the caller's language; a polite word for a game that has none yet."""
        module = any_game(key)
        text = module.rules_text()
        pictures = await asyncio.to_thread(module.rules_pictures)
        if text is None and not pictures:
            await self.tables.tell(
                interaction,
                _(
                    "Sorry, there is no summary of {game}'s rules here yet. In its thread every choice says what it "
                    "does, and `/games help` tells how a game is played here."
                ).format(game=module.name),
            )
            return
        head = _("📖 **{game}: the rules in brief**").format(game=module.name)
        pieces = in_messages(f"{head}\n{text}" if text else head)
        kept = pictures[: fit_files([len(p.png) for p in pictures])]
        files = [common.picture(p.png, f"{p.name}.png", p.alt) for p in kept]
        # The words first, the pictures with the last of them.
        for piece in pieces[:-1]:
            await self.tables.tell(interaction, piece)
        await self.tables.tell(interaction, pieces[-1], files=files)

    async def help(self, interaction: discord.Interaction, key: str) -> None:
        """`/games help`: privately, how the game is played here, in the caller's language, in whole lines per
        message."""
        module = any_game(key)
        for piece in in_messages(help_text(module)):
            await self.tables.tell(interaction, piece)


__all__ = ["MatchGuide", "any_game", "every_game_choices", "help_text", "platform_help"]
