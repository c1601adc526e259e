"""The buttons and menus Kokeshi's own table posted (`kk:`), still in the threads of its games: answered at the
platform's table.

Kokeshi's games were once played at a table of their own, whose prompts and lobbies carried these custom_ids (the
game, its version and the action). Every such game moved to the platform's table
(`cogs.tables.Tables.move_to_platform`) with its version and its action ids unchanged, so a click on one of them is
played there as the platform's own button would be (`cogs.match_items`): a choice, a tile (the group of its
placements), or a lobby's Join, Leave, Start or Cancel.
"""

from __future__ import annotations

from typing import Any

import discord

from i18n import N_, _

from .answering import Answer, AnswersFirst
from .limits import BUTTON_LABEL, SELECT_OPTION, shorten
from .match_items import platform_desk
from .persistent import FromCustomId

ACTION_TEMPLATE = r"kk:a:(?P<game_id>\d+):(?P<version>\d+):(?P<action>[a-z0-9:]+)"
LOBBY_TEMPLATE = r"kk:l:(?P<game_id>\d+):(?P<op>join|leave|start|cancel)"


class ActionButton(FromCustomId, AnswersFirst, discord.ui.DynamicItem[discord.ui.Button], template=ACTION_TEMPLATE):
    """One answer to the game's prompt; the click is acknowledged at once, the thread then shows the move."""

    answer = Answer.UPDATE
    FIELDS = {"game_id": int, "version": int, "action": str}

    def __init__(self, game_id: int, version: int, action: str, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=shorten(label, BUTTON_LABEL) or action,
                style=discord.ButtonStyle.primary,
                custom_id=f"kk:a:{game_id}:{version}:{action}",
            )
        )
        self.game_id = game_id
        self.version = version
        self.action = action

    async def callback(self, interaction: discord.Interaction) -> None:
        desk = platform_desk(interaction)
        await desk.guard(interaction, desk.on_action(interaction, self.game_id, self.version, self.action))


class _GameSelect(FromCustomId, AnswersFirst, discord.ui.DynamicItem[discord.ui.Select], template=r"(?!)"):
    """A menu whose custom_id carries the game and its version; subclasses say what a choice does (this base's
    template matches nothing)."""

    FIELDS = {"game_id": int, "version": int}
    game_id: int
    version: int


class ActionSelect(_GameSelect, template=r"kk:s:(?P<game_id>\d+):(?P<version>\d+)"):
    """A menu of answers when there are more than fit as buttons."""

    answer = Answer.UPDATE

    def __init__(self, game_id: int, version: int, options: list[tuple[str, str]]) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"kk:s:{game_id}:{version}",
                options=[discord.SelectOption(label=shorten(label, SELECT_OPTION), value=v) for v, label in options],
            )
        )
        self.game_id = game_id
        self.version = version

    async def callback(self, interaction: discord.Interaction) -> None:
        desk = platform_desk(interaction)
        await desk.guard(interaction, desk.on_action(interaction, self.game_id, self.version, self.item.values[0]))


class TileSelect(_GameSelect, template=r"kk:t:(?P<game_id>\d+):(?P<version>\d+)"):
    """Placement with many choices, in two steps: first the tile, then (privately) its track."""

    def __init__(self, game_id: int, version: int, tiles: list[tuple[str, str]]) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"kk:t:{game_id}:{version}",
                options=[discord.SelectOption(label=shorten(label, SELECT_OPTION), value=t) for t, label in tiles],
            )
        )
        self.game_id = game_id
        self.version = version

    async def callback(self, interaction: discord.Interaction) -> None:
        # At the platform's table, a tile is the group of its placements.
        desk = platform_desk(interaction)
        await desk.guard(interaction, desk.on_group(interaction, self.game_id, self.version, self.item.values[0]))


class LobbyButton(FromCustomId, AnswersFirst, discord.ui.DynamicItem[discord.ui.Button], template=LOBBY_TEMPLATE):
    """Join, Leave, Start and Cancel on a lobby message."""

    # Labels are looked up in the current language when a button is made (the lobby's: the game's language).
    STYLES: dict[str, tuple[str, discord.ButtonStyle]] = {
        "join": (N_("Join"), discord.ButtonStyle.success),
        "leave": (N_("Leave"), discord.ButtonStyle.secondary),
        "start": (N_("Start"), discord.ButtonStyle.primary),
        "cancel": (N_("Cancel"), discord.ButtonStyle.danger),
    }
    FIELDS = {"game_id": int, "op": str}

    def __init__(self, game_id: int, op: str) -> None:
        label, style = self.STYLES[op]
        super().__init__(discord.ui.Button(label=_(label), style=style, custom_id=f"kk:l:{game_id}:{op}"))
        self.game_id = game_id
        self.op = op

    async def callback(self, interaction: discord.Interaction) -> None:
        desk = platform_desk(interaction)
        await desk.guard(interaction, desk.lobbies.on_lobby(interaction, self.game_id, self.op))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (ActionButton, ActionSelect, TileSelect, LobbyButton)


__all__ = [
    "ACTION_TEMPLATE",
    "DYNAMIC_ITEMS",
    "LOBBY_TEMPLATE",
    "ActionButton",
    "ActionSelect",
    "LobbyButton",
    "TileSelect",
]
