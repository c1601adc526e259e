"""*Rematch* on the final messages Kokeshi's own table posted (`kk:m`): answered at the platform's table.

Kokeshi's games were once played at a table of their own; every one of them moved to the platform's table
(`cogs.tables.Tables.move_to_platform`), and a *Rematch* on one of their final messages opens the platform's rematch
(`cogs.match_lobbies.MatchLobbies.rematch`), as the platform's own button (`mt:r`) does.
"""

from __future__ import annotations

import discord

from .answering import Answer, AnswersFirst
from .limits import BUTTON_LABEL, shorten
from .match_items import platform_desk
from .persistent import FromCustomId

BUTTON_TEMPLATE = r"kk:m:(?P<game_id>\d+)"


class RematchButton(FromCustomId, AnswersFirst, discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    """*Rematch* on a final message of Kokeshi's own table; it works after a restart like every other button."""

    answer = Answer.PRIVATE
    FIELDS = {"game_id": int}

    def __init__(self, game_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=shorten(label, BUTTON_LABEL) or None,
                emoji="🔁",
                style=discord.ButtonStyle.success,
                custom_id=f"kk:m:{game_id}",
            )
        )
        self.game_id = game_id

    async def callback(self, interaction: discord.Interaction) -> None:
        desk = platform_desk(interaction)
        await desk.guard(interaction, desk.lobbies.rematch(interaction, self.game_id))


REMATCH_ITEMS = (RematchButton,)

__all__ = ["REMATCH_ITEMS", "RematchButton"]
