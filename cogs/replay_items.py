"""The replay viewer's buttons and menu, and the *Replay* button of a final message, for every game.

They know no game: their custom_id carries the game's number, the turn and the step, and a click goes to the bot's
replays (`cogs.replay.Replays`), which tell each game its own way. They work after a restart.
"""

from __future__ import annotations

from typing import Any

import discord

from i18n import _

from .answering import Answer, AnswersFirst
from .limits import BUTTON_LABEL, SELECT_PLACEHOLDER, shorten
from .persistent import FromCustomId

# A button's custom_id: `kk:r:<game>:<turn>:<op>`, the turn it leads to (1 is the first; 0 where none is meant).
BUTTON_TEMPLATE = r"kk:r:(?P<game_id>\d+):(?P<turn>\d+):(?P<op>open|first|prev|next|last|film)"
PICK_TEMPLATE = r"kk:r:(?P<game_id>\d+):pick"
# The steps redraw the viewer in place; opening it and the animation answer with a private message of their own.
STEPS = ("first", "prev", "next", "last")


def _replays(interaction: discord.Interaction) -> Any:
    """The bot's replays (`cogs.replay.Replays`), which tell Kokeshi's games and every other game's."""
    return interaction.client.replays  # type: ignore[attr-defined]


class ReplayButton(FromCustomId, AnswersFirst, discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    """*Replay* on a final message, and the viewer's steps and animation; they work after a restart."""

    FIELDS = {"game_id": int, "turn": int, "op": str}

    def __init__(self, game_id: int, turn: int, op: str, label: str = "", disabled: bool = False) -> None:
        style = discord.ButtonStyle.primary if op in ("open", "film") else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=shorten(label, BUTTON_LABEL) or None,
                emoji=_EMOJI[op],
                style=style,
                disabled=disabled,
                custom_id=f"kk:r:{game_id}:{turn}:{op}",
            )
        )
        self.game_id, self.turn, self.op = game_id, turn, op

    def answer_for(self, interaction: discord.Interaction) -> Answer:
        return Answer.UPDATE if self.op in STEPS else Answer.PRIVATE

    async def callback(self, interaction: discord.Interaction) -> None:
        replays = _replays(interaction)
        if self.op == "open":
            work = replays.open(interaction, self.game_id)
        elif self.op == "film":
            work = replays.film(interaction, self.game_id)
        else:
            work = replays.step(interaction, self.game_id, self.turn)
        await replays.bot.tables.guard(interaction, self.game_id, work)


class ReplaySelect(FromCustomId, AnswersFirst, discord.ui.DynamicItem[discord.ui.Select], template=PICK_TEMPLATE):
    """The viewer's turn menu: the chosen turn is shown in place."""

    answer = Answer.UPDATE
    FIELDS = {"game_id": int}

    def __init__(self, game_id: int, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"kk:r:{game_id}:pick",
                placeholder=shorten(_("Go to a turn"), SELECT_PLACEHOLDER),
                options=options or [discord.SelectOption(label="1", value="1")],
            )
        )
        self.game_id = game_id

    async def callback(self, interaction: discord.Interaction) -> None:
        replays = _replays(interaction)
        value = self.item.values[0] if self.item.values else "1"
        turn = int(value) if value.isdigit() else 1
        await replays.bot.tables.guard(interaction, self.game_id, replays.step(interaction, self.game_id, turn))


_EMOJI = {"open": "🎬", "first": "⏮️", "prev": "◀️", "next": "▶️", "last": "⏭️", "film": "🎞️"}
REPLAY_ITEMS = (ReplayButton, ReplaySelect)


def replay_view(game_id: int) -> discord.ui.View:
    """The *Replay* button of a final message, in the current language."""
    view = discord.ui.View(timeout=None)
    view.add_item(ReplayButton(game_id, 0, "open", _("Replay")))
    return view


__all__ = ["BUTTON_TEMPLATE", "PICK_TEMPLATE", "REPLAY_ITEMS", "STEPS", "ReplayButton", "ReplaySelect", "replay_view"]
