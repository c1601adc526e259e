"""Rematch: from a finished table's final message, a new lobby with the same options and the same people invited.

The rematch lobby opens in the channel the game was opened in, with the game's players count, board side, turn
timer, language and other lobby settings (a minimum finish rate), and its AI seats at their level. Whoever clicks
*Rematch* hosts it; everyone else from the table is mentioned once and takes their seat with the lobby's Join, as in
any lobby. The seats go round the table in the reverse of the last game's order (who played after you now plays
before you), turned so that the host keeps the first seat; who starts is drawn when the game is dealt, as in every
game. The seating is one of the lobby's settings (`rematch`: the game it follows and the seating), written with the
lobby; the rematch a second click points to is a key-value fact of the store (`rematch_of:<finished game>`). No
schema change was needed, and a restart loses nothing.
"""

from __future__ import annotations

import logging

import discord

from i18n import _
from kit.locks import KeyedLocks
from storage import GameNotFound, GameRecord

from .answering import Answer, AnswersFirst
from .client import Client
from .common import UserError, game_name, pinging
from .limits import BUTTON_LABEL, shorten
from .persistent import FromCustomId
from .seating import REMATCH, rematch_setting, reversed_order, seat_as_planned
from .speech import escape, speaking

log = logging.getLogger(__name__)

BUTTON_TEMPLATE = r"kk:m:(?P<game_id>\d+)"


def rematch_of_key(game_id: int) -> str:
    """The fact naming the rematch opened from a finished game."""
    return f"rematch_of:{game_id}"


class RematchButton(FromCustomId, AnswersFirst, discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    """*Rematch* on a table's final message; it works after a restart like every other button."""

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
        rematches: Rematches = interaction.client.rematches  # type: ignore[attr-defined]  # the bot's own
        await rematches.bot.tables.guard(interaction, self.game_id, rematches.open(interaction, self.game_id))


REMATCH_ITEMS = (RematchButton,)


class Rematches:
    """Opens rematch lobbies and keeps their seating; the button and the tables' lobby call it."""

    def __init__(self, bot: Client) -> None:
        self.bot = bot
        # One rematch opened at a time per finished game: two clicks at once open one lobby.
        self._opening: KeyedLocks[int] = KeyedLocks()

    @property
    def store(self):
        return self.bot.store

    async def open(self, interaction: discord.Interaction, game_id: int) -> None:
        """The rematch of a finished table: a new lobby, or a pointer to the one already open."""
        record = await self.store.get_game(game_id)
        if record.status != "finished" or record.solo or record.challenge:
            raise UserError(_("Only a finished game with other players can be played again."))
        if record.seat_of(interaction.user.id) is None:
            raise UserError(
                _("Only the players of {game} #{number} can ask for its rematch.").format(
                    game=game_name(record), number=record.id
                )
            )
        async with self._opening(game_id):
            if await self._point_to_open(interaction, record):
                return
            await self._open(interaction, record)

    async def _point_to_open(self, interaction: discord.Interaction, record: GameRecord) -> bool:
        """A second click: say where the rematch already is (True), unless it was cancelled (False)."""
        found = await self.store.meta(rematch_of_key(record.id))
        if not found or not found.isdigit():
            return False
        try:
            rematch = await self.store.get_game(int(found))
        except GameNotFound:
            return False
        if rematch.status == "cancelled":
            return False
        tables = self.bot.tables
        if rematch.status == "lobby":
            named = f"{game_name(rematch)} #{rematch.id}"
            where = self.bot.channel_link(rematch.channel_id, named) if rematch.channel_id else ""
            if rematch.seat_of(interaction.user.id) is not None:
                text = _("The rematch is already open: {lobby}. You have your seat; the host starts it.")
            else:
                text = _("The rematch is already open: {lobby}. Press its Join button to take your seat.")
            await tables.tell(interaction, text.format(lobby=where or named))
            return True
        await tables.tell(
            interaction,
            _("The rematch is already being played, or over: {lobby}.").format(lobby=tables.where(rematch)),
        )
        return True

    async def _open(self, interaction: discord.Interaction, record: GameRecord) -> None:
        tables = self.bot.tables
        channel = self.bot.get_channel(record.channel_id) if record.channel_id else None
        if not isinstance(channel, discord.TextChannel):
            raise UserError(_("The channel this game was played from is gone."))
        tables.check_permissions(channel)
        await tables.check_limits(interaction, channel)
        levels = await tables.load_levels(record)
        robots = [s for s in record.seats if s.user_id is None]
        host = record.seat_of(interaction.user.id)
        assert host is not None  # checked in `open`
        # Who sits where: reversed, the host first.
        settings = {k: v for k, v in record.settings.items() if k != REMATCH} | {
            REMATCH: rematch_setting(record, host, robots)
        }
        user = interaction.user
        game_id = await self.store.create_game(
            guild_id=record.guild_id,
            channel_id=channel.id,
            host_id=user.id,
            host_name=user.display_name,
            players=record.players,
            side=record.side,
            turn_timer=record.turn_timer,
            ai_seats=len(robots),
            language=record.language,
            # A table's AI seats all play at one level.
            ai_level=levels.get(robots[0].seat) if robots else None,
            game=record.game,
            settings=settings,
            contract=not record.named_log,  # the table it was played at
        )
        await self.store.set_meta(rematch_of_key(record.id), str(game_id))
        lobby = await self.store.get_game(game_id)
        lobby = await self.seated(lobby)
        invited = [s.user_id for s in record.seats if s.user_id is not None and s.user_id != user.id]
        with speaking(lobby):
            # The order in plain names: each person is mentioned once, in the invitation.
            order = " → ".join(escape(name) for name in reversed_order([s.name for s in record.seats], host.name))
            head = _("🔁 **Rematch of {game} #{number}**, asked for by {host}.").format(
                game=game_name(record), number=record.id, host=user.mention
            )
            parts = [head]
            if invited:
                parts.append(
                    _("{invited}: press **Join** to take your seat.").format(
                        invited=", ".join(f"<@{u}>" for u in invited)
                    )
                )
            parts.append(
                _(
                    "The seats go round in the reverse of the last game (who played after you now plays before "
                    "you): {order}. Who starts is drawn when the game begins."
                ).format(order=order)
            )
            invite = " ".join(parts)
        await tables.open_rematch_lobby(interaction, lobby, channel, invite, pinging(*invited))

    async def seated(self, record: GameRecord) -> GameRecord:
        """A rematch lobby with its seats in the planned order (the others after them, in the order they came);
        any other lobby as it is."""
        arranged = await seat_as_planned(self.store, record)
        if arranged.seats != record.seats:
            self.bot.tables.forget_levels(record.id)
        return arranged


__all__ = ["REMATCH_ITEMS", "RematchButton", "Rematches", "rematch_of_key"]
