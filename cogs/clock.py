"""A fair clock at every table: time banks shown in the prompt, the opponents' choice after a third expired turn, and
rejoin.

A game opened with a bank (`/kokeshi new clock:`, `/games new clock:`) gives each player a bank of time, charged with
the time each of their turns takes (less time away) and topped up by a fixed amount after each turn, up to a cap; the
store keeps the banks (`storage.clock`). After a player's third expired turn in a row the other people at the table
choose, with buttons kept across restarts, whether to wait, let the AI play the seat, or end the game unrated; with
no answer in a day, the AI plays. A player whose seat the AI took comes back with `/games rejoin`.

The clock knows no game: the table (the platform's, `cogs.matches`) serves it what it needs (`ClockTable`): where the
game is posted, how a seat's name reads, and what handing a seat to the AI or ending the game does there.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

import discord
from discord import app_commands

from i18n import _
from storage import GameNotFound, GameRecord, Seat, Store
from storage.clock import ANSWERS, BANKS, Bank, bank_of

from .answering import Answer, AnswersFirst
from .away import stamp
from .client import Client
from .common import UserError, duration, game_name, now, pinging
from .limits import BUTTON_LABEL, MESSAGE, shorten
from .persistent import FromCustomId
from .speech import escape, speaking

log = logging.getLogger(__name__)

Choice = app_commands.Choice
# A table's clock (`/kokeshi new clock:`, `/games new clock:`): the fixed time per turn its other option sets, or one
# of the banks (`storage.clock.BANKS`).
FIXED = "turn"
BANK_CHOICES = [
    Choice(name="bank: 1 h, +10 min a turn, at most 2 h", value="1h"),
    Choice(name="bank: 1 day, +6 h a turn, at most 2 days", value="1d"),
    Choice(name="bank: 3 days, +1 day a turn, at most 7 days", value="3d"),
    Choice(name="bank: 7 days, +2 days a turn, at most 14 days", value="7d"),
]
# `/kokeshi new clock:`, beside its `timer` option.
CLOCKS = [Choice(name="fixed timer per turn (the timer option; default)", value=FIXED), *BANK_CHOICES]
# `/games new clock:`: the same banks, beside the fixed time per turn its `deadline` option sets.
DEADLINE_CLOCKS = [Choice(name="fixed deadline per turn (the deadline option; default)", value=FIXED), *BANK_CHOICES]
# How long the opponents have to choose before the AI takes the seat.
CHOICE_SECONDS = 24 * 3600
CHOICE_TEMPLATE = r"kk:c:(?P<game_id>\d+):(?P<seat>\d+):(?P<choice>wait|ai|end)"
# The message kind (`Store.set_message`) of a seat's open choice.
CHOICE_MESSAGE = "seat_choice:{seat}"


def clock_options(clock: str | None, turn_timer: int | None) -> tuple[int | None, dict[str, Any]]:
    """The turn timer and lobby settings of a new game on this clock: a bank's turn timer is its initial bank (what
    the lobby's timers run on until the first turn reads the bank itself)."""
    bank = BANKS.get(clock or FIXED)
    if bank is None:
        if clock not in (None, FIXED):
            raise UserError(_("The clock is a fixed timer per turn or one of the offered time banks."))
        return turn_timer, {}
    return bank.initial, {"clock": bank.key}


def describe(bank: Bank) -> str:
    """A bank as the lobby says it, in the current language."""
    return _("time bank: {initial}, +{increment} after each turn, at most {cap}").format(
        initial=duration(bank.initial), increment=duration(bank.increment), cap=duration(bank.cap)
    )


class ChoiceButton(FromCustomId, AnswersFirst, discord.ui.DynamicItem[discord.ui.Button], template=CHOICE_TEMPLATE):
    """One answer of the opponents' choice about a seat; it works after a restart like every other button."""

    answer = Answer.PRIVATE
    FIELDS = {"game_id": int, "seat": int, "choice": str}

    def __init__(self, game_id: int, seat: int, choice: str, label: str = "") -> None:
        styles = {"wait": discord.ButtonStyle.primary, "ai": discord.ButtonStyle.secondary}
        super().__init__(
            discord.ui.Button(
                label=shorten(label, BUTTON_LABEL) or None,
                style=styles.get(choice, discord.ButtonStyle.danger),
                custom_id=f"kk:c:{game_id}:{seat}:{choice}",
            )
        )
        self.game_id = game_id
        self.seat = seat
        self.choice = choice

    async def callback(self, interaction: discord.Interaction) -> None:
        tables = interaction.client.tables  # type: ignore[attr-defined]  # the bot's own
        await tables.guard(
            interaction, self.game_id, tables.clocks.answer(interaction, self.game_id, self.seat, self.choice)
        )


CLOCK_ITEMS = (ChoiceButton,)


def choice_view(game_id: int, seat: Seat, player: str) -> discord.ui.View:
    """The three answers about the seat of `player` (its name as the table reads it), worded in the current
    language."""
    labels = {
        "wait": _("Wait for {player}").format(player=player),
        "ai": _("The AI plays {player}'s seat").format(player=player),
        "end": _("End the game, unrated"),
    }
    view = discord.ui.View(timeout=None)
    for choice in ANSWERS:
        view.add_item(ChoiceButton(game_id, seat.seat, choice, labels[choice]))
    return view


class ClockTable(Protocol):
    """A table as the clock calls it (the platform's, `cogs.matches`)."""

    def serves(self, record: GameRecord) -> bool:
        """Whether this table plays the game."""
        ...

    def seat_word(self, name: str) -> str:
        """A seat's name as players read it (a game's own opponent has a word of its own)."""
        ...

    def where(self, record: GameRecord) -> str:
        """A clickable pointer to the game's thread."""
        ...

    async def game_channel(self, record: GameRecord) -> Any:
        """Where the game is posted (its thread), or None when it cannot be reached."""
        ...

    async def send(self, record: GameRecord, channel: Any, content: str, **kwargs: Any) -> discord.Message | None:
        """A post in the game's thread; None when Discord refused it."""
        ...

    async def end_unrated(self, record: GameRecord) -> GameRecord:
        """The game ends now, unrated (nobody's result counts): cancelled, its timers gone, its lobby told."""
        ...

    async def hand_over(self, record: GameRecord, seat: Seat) -> None:
        """The AI now plays this seat (already marked so): it takes any decision the game waits for from it."""
        ...

    async def seat_back(self, record: GameRecord, seat: Seat) -> None:
        """The player took their seat back (already marked so): the table shows the game as it is."""
        ...


class Clocks:
    """Time banks as the players see them, the opponents' choice, and rejoin, at every table that serves it; the
    store keeps the banks."""

    def __init__(self, bot: Client, tell: Callable[..., Awaitable[None]]) -> None:
        self.bot = bot
        # A private reply to the person who clicked or asked (`cogs.tables.Tables.tell`).
        self.tell = tell
        self._tables: list[ClockTable] = []

    def serve(self, table: ClockTable) -> None:
        """Serve the games this table plays."""
        self._tables.append(table)

    def table(self, record: GameRecord) -> ClockTable:
        """The table that plays this game."""
        return next(t for t in self._tables if t.serves(record))

    @property
    def store(self) -> Store:
        return self.bot.store

    # ------------------------------------------------------------------ the bank, shown

    @staticmethod
    def lobby_words(record: GameRecord) -> str | None:
        """The lobby's words for a bank game's clock; None for the fixed timer."""
        bank = bank_of(dict(record.settings))
        return None if bank is None else describe(bank)

    async def note(self, record: GameRecord, player: str) -> str:
        """The prompt's line about the bank of the player to move: "⏳ 2 days 4 h left in your bank."."""
        if not self._banked(record, player):
            return ""
        return self.note_of(record, player, await self.store.bank_left(record.id, player))

    @staticmethod
    def _banked(record: GameRecord, player: str) -> bool:
        seat = record.seat_named(player)
        return (
            bank_of(dict(record.settings)) is not None
            and seat is not None
            and not seat.ai
            and seat.user_id is not None
            and record.status == "active"
        )

    @classmethod
    def note_of(cls, record: GameRecord, player: str, left: float | None) -> str:
        """`note`, from what is left in the bank already read (None: the whole initial bank)."""
        bank = bank_of(dict(record.settings))
        if bank is None or not cls._banked(record, player):
            return ""
        return _("⏳ {duration} left in your bank.").format(duration=duration(bank.initial if left is None else left))

    async def status(self, record: GameRecord, players: list[str] | None = None) -> str:
        """What is left in each person's bank in a bank game ("⏳ Time banks: aiko 50 min"), as `/kokeshi status`
        shows it; `players`: only those seats (the people a turn waits for)."""
        bank = bank_of(dict(record.settings))
        if bank is None or record.status != "active":
            return ""
        word = self.table(record).seat_word
        parts = []
        for seat in record.seats:
            if seat.user_id is None or seat.ai or (players is not None and seat.name not in players):
                continue
            left = await self.store.bank_left(record.id, seat.name)
            parts.append(f"{escape(word(seat.name))} {duration(bank.initial if left is None else left)}")
        return _("⏳ Time banks: {banks}.").format(banks=" · ".join(parts)) if parts else ""

    async def prompt_note(self, record: GameRecord, players: list[str]) -> str:
        """A turn's line about the banks of the people it waits for: one person's "⏳ 50 min left in your bank.", or
        each one's when several choose at once; empty for a game without a bank."""
        banked = [p for p in players if self._banked(record, p)]
        if len(banked) == 1:
            return await self.note(record, banked[0])
        return await self.status(record, banked) if banked else ""

    async def left_for(self, record: GameRecord, user_id: int) -> str:
        """`/games status`'s words for what is left in the caller's bank in a bank game in progress ("⏳ 50 min in
        your bank"); empty otherwise."""
        bank = bank_of(dict(record.settings))
        seat = record.seat_of(user_id)
        if bank is None or seat is None or not self._banked(record, seat.name):
            return ""
        left = await self.store.bank_left(record.id, seat.name)
        mine = _("⏳ {duration} in your bank").format(duration=duration(bank.initial if left is None else left))
        # And what the others have left: how long they may take is part of the game.
        word = self.table(record).seat_word
        theirs = []
        for other in record.seats:
            if other.name != seat.name and self._banked(record, other.name):
                kept = await self.store.bank_left(record.id, other.name)
                theirs.append(f"{escape(word(other.name))} {duration(bank.initial if kept is None else kept)}")
        return f"{mine} ({' · '.join(theirs)})" if theirs else mine

    # ------------------------------------------------------------------ the opponents' choice

    @staticmethod
    def opponents(record: GameRecord, seat: Seat) -> list[Seat]:
        """The other people at the table who still play their seats."""
        return [
            s for s in record.seats if s.name != seat.name and s.user_id is not None and not s.ai and not s.resigned
        ]

    async def expired(self, record: GameRecord, seat: Seat, channel: Any, count: int) -> bool:
        """A seat's turns ran out three times in a row: True when the opponents choose what happens to it (asked
        now, or already asked and not yet answered), False when nobody else is there to ask (the AI takes it)."""
        others = self.opponents(record, seat)
        if not others:
            return False
        asked = await self.store.seat_choice(record.id, seat.name)
        if asked is not None and asked.open:
            return True
        due = now() + CHOICE_SECONDS
        await self.store.ask_choice(record.id, seat.name, due)
        table = self.table(record)
        if channel is not None:
            with speaking(record):
                text = _(
                    "⌛ {player}'s time ran out {count} turns in a row. {others}, what now? Wait for them (the AI "
                    "plays only the turns whose time runs out), let the AI play their seat from now on (they may come "
                    "back with `/games rejoin`), or end the game unrated. Without an answer {when}, the AI plays "
                    "their seat."
                ).format(
                    player=escape(seat.name),
                    count=count,
                    others=", ".join(f"<@{s.user_id}>" for s in others),
                    when=stamp(due),
                )
                view = choice_view(record.id, seat, table.seat_word(seat.name))
            message = await table.send(
                record,
                channel,
                shorten(text, MESSAGE),
                view=view,
                allowed_mentions=pinging(*(s.user_id for s in others if s.user_id is not None)),
            )
            if message is not None:
                await self.store.set_message(
                    record.id, CHOICE_MESSAGE.format(seat=seat.seat), message.channel.id, message.id
                )
        self.bot.wake_timers()
        return True

    async def answer(self, interaction: discord.Interaction, game_id: int, seat_number: int, choice: str) -> None:
        """A click on one of the choice's buttons: only another person at the table may answer, once."""
        record = await self.store.get_game(game_id)
        seat = next((s for s in record.seats if s.seat == seat_number), None)
        if seat is None or choice not in ANSWERS:
            raise UserError(_("That game does not exist (any more)."))
        game = game_name(record)
        me = record.seat_of(interaction.user.id)
        if me is None or me.name == seat.name or me.ai or me.resigned:
            raise UserError(
                _("Only the other players of {game} #{number} choose what happens to {player}'s seat.").format(
                    game=game, number=record.id, player=escape(seat.name)
                )
            )
        if record.status != "active":
            raise UserError(_("This game is over."))
        asked = await self.store.seat_choice(game_id, seat.name)
        if asked is None or not asked.open:
            raise UserError(_("This was already decided; nothing changed."))
        if not seat.ai and seat.expired == 0:
            # The player played a turn since: they are back, and there is nothing left to choose.
            if await self.store.answer_choice(game_id, seat.name, "back"):
                await self._close(record, seat, "back", None)
            raise UserError(
                _("{player} is back and played a turn since, so there is nothing to choose.").format(
                    player=escape(seat.name)
                )
            )
        if not await self.store.answer_choice(game_id, seat.name, choice, interaction.user.id):
            raise UserError(_("This was already decided; nothing changed."))
        await self._carry_out(record, seat, choice, interaction.user.id)
        done = {
            "wait": _("Done: {player} keeps their seat."),
            "ai": _("Done: the AI plays {player}'s seat from now on."),
            "end": _("Done: {game} #{number} is over, unrated."),
        }[choice]
        await self.tell(interaction, done.format(player=escape(seat.name), game=game, number=record.id))

    async def _carry_out(self, record: GameRecord, seat: Seat, choice: str, user_id: int | None) -> None:
        """What an answer (or its absence, `none`) does to the seat and the game; then the thread says so."""
        table = self.table(record)
        if choice == "wait":
            await self.store.update_seat(record.id, seat.name, expired=0)
        elif choice in ("ai", "none"):
            await self.store.update_seat(record.id, seat.name, ai=True)
        elif choice == "end":
            record = await table.end_unrated(record)
        await self._close(record, seat, choice, user_id)
        if choice in ("ai", "none"):
            await table.hand_over(await self.store.get_game(record.id), seat)

    async def _close(self, record: GameRecord, seat: Seat, choice: str, user_id: int | None) -> None:
        """The choice's buttons go, and the thread says what was decided (pinging nobody)."""
        table = self.table(record)
        with speaking(record):
            player = escape(seat.name)
            who = f"<@{user_id}>" if user_id is not None else ""
            text = {
                "wait": _("⏳ {who} chose to wait for {player}: the seat stays theirs."),
                "ai": _(
                    "🤖 {who} chose to let the AI play {player}'s seat from now on; `/games rejoin` brings them back."
                ),
                "end": _("🛑 {who} ended {game} #{number}: it is unrated, and nobody counts as resigned or timed out."),
                "none": _(
                    "🤖 Nobody chose in time, so the AI plays {player}'s seat from now on; `/games rejoin` brings them "
                    "back."
                ),
                "back": _("↩️ {player} is back, so there is nothing to choose."),
            }[choice].format(who=who, player=player, game=game_name(record), number=record.id)
        found = await self.store.get_message(record.id, CHOICE_MESSAGE.format(seat=seat.seat))
        channel = await table.game_channel(record)
        if found is not None:
            target = self.bot.get_channel(found[0])
            if target is not None:
                try:
                    await target.get_partial_message(found[1]).edit(view=None)  # type: ignore[union-attr]
                except discord.HTTPException as exc:
                    log.info("game %d: the choice's buttons could not be taken away: %s", record.id, exc)
        if channel is not None:
            await table.send(record, channel, text, allowed_mentions=discord.AllowedMentions.none())

    async def fire_due(self) -> None:
        """Open choices nobody answered in time: the AI plays those seats (only games of this process's shards)."""
        shards = self.bot.timer_shards
        for asked in await self.store.due_choices(now()):
            try:
                record = await self.store.get_game(asked.game_id)
            except GameNotFound:
                await self.store.answer_choice(asked.game_id, asked.name, "none")
                continue
            guild = record.guild_id
            if shards is not None and guild is not None and (guild >> 22) % shards[0] not in shards[1]:
                continue
            seat = record.seat_named(asked.name)
            if record.status != "active" or seat is None:
                await self.store.answer_choice(asked.game_id, asked.name, "none")
                continue
            with speaking(record):
                if not seat.ai and seat.expired == 0:
                    if await self.store.answer_choice(record.id, seat.name, "back"):
                        await self._close(record, seat, "back", None)
                elif await self.store.answer_choice(record.id, seat.name, "none"):
                    await self._carry_out(record, seat, "none", None)

    async def next_due(self) -> float | None:
        """When the earliest open choice runs out."""
        return await self.store.next_choice_due()

    # ------------------------------------------------------------------ rejoin

    async def rejoin(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """`/games rejoin`: a seat the AI took over (after time-outs) is the player's again from their next turn."""
        record = await self._rejoinable(interaction, game_id)
        seat = record.seat_of(interaction.user.id)
        assert seat is not None  # checked by `_rejoinable`
        table = self.table(record)
        await self.store.update_seat(record.id, seat.name, ai=False, expired=0)
        asked = await self.store.seat_choice(record.id, seat.name)
        if asked is not None and asked.open and await self.store.answer_choice(record.id, seat.name, "back"):
            await self._close(record, seat, "back", None)
        record = await self.store.get_game(record.id)
        channel = await table.game_channel(record)
        if channel is not None:
            with speaking(record):
                text = _("↩️ {player} is back: the seat is theirs again from their next turn.").format(
                    player=f"<@{interaction.user.id}>"
                )
            await table.send(record, channel, text, allowed_mentions=discord.AllowedMentions.none())
        await table.seat_back(record, seat)
        await self.tell(
            interaction,
            _("Welcome back to {game} #{number}: your seat is yours again from your next turn. {thread}").format(
                game=game_name(record), number=record.id, thread=table.where(record)
            ),
        )

    async def _rejoinable(self, interaction: discord.Interaction, game_id: int | None) -> GameRecord:
        """The game the caller may rejoin, or a UserError saying why there is none (nothing is changed)."""
        user_id = interaction.user.id
        if game_id is None:
            mine = await self._taken_here(interaction)
            if not mine:
                raise UserError(
                    _("The AI plays none of your seats in a game in progress here, so there is nothing to rejoin.")
                )
            if len(mine) > 1:
                listed = ", ".join(self.table(g).where(g) for g in mine[:10])
                raise UserError(
                    _("Several games match ({games}): choose one with the `game` option.").format(games=listed)
                )
            return mine[0]
        try:
            record = await self.store.get_game(game_id)
        except GameNotFound:
            record = None
        if record is None or record.guild_id != interaction.guild_id:
            raise UserError(
                _("There is no game #{number} in this server. `/games status` lists your games.").format(number=game_id)
            )
        game = game_name(record)
        seat = record.seat_of(user_id)
        if seat is None:
            raise UserError(
                _("You did not play in {game} #{number}, so there is no seat of yours to rejoin.").format(
                    game=game, number=record.id
                )
            )
        if record.status == "lobby":
            raise UserError(_("This game has not started yet."))
        if record.status != "active":
            raise UserError(
                _("{game} #{number} is over: only a game in progress can be rejoined.").format(
                    game=game, number=record.id
                )
            )
        if seat.resigned:
            raise UserError(
                _("You resigned from {game} #{number}: a resignation is final, so the AI keeps your seat.").format(
                    game=game, number=record.id
                )
            )
        if not seat.ai:
            raise UserError(
                _("You still hold your seat in {game} #{number}, so there is nothing to rejoin.").format(
                    game=game, number=record.id
                )
            )
        return record

    async def _taken_here(self, interaction: discord.Interaction) -> list[GameRecord]:
        """The caller's games in progress here, of every table, whose seat the AI took over from them."""
        user_id = interaction.user.id
        return [
            g
            for g in await self.store.games_for_user(user_id, ("active",))
            if g.guild_id == interaction.guild_id and _taken(g.seat_of(user_id))
        ]

    async def rejoin_choices(self, interaction: discord.Interaction, current: str = "") -> list[Choice[int]]:
        """The caller's games here whose seat the AI took over, for the `game` option's autocomplete (those whose
        name or number holds what was typed)."""
        typed = current.strip().casefold()
        named = [(f"{game_name(g)} #{g.id}", g.id) for g in await self._taken_here(interaction)]
        return [Choice(name=name, value=value) for name, value in named if typed in name.casefold()][:25]


def _taken(seat: Seat | None) -> bool:
    """A seat the AI took over from its player (not one they resigned)."""
    return seat is not None and seat.ai and not seat.resigned


def settings_with_clock(settings: Mapping[str, Any] | None, clock: Mapping[str, Any]) -> dict[str, Any] | None:
    """A lobby's settings with its clock's added; None when there are none."""
    merged = {**(settings or {}), **clock}
    return merged or None


__all__ = [
    "CLOCKS",
    "CLOCK_ITEMS",
    "DEADLINE_CLOCKS",
    "ChoiceButton",
    "ClockTable",
    "Clocks",
    "clock_options",
    "settings_with_clock",
]
