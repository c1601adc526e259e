"""The platform's tables before their first turn: lobbies (`/games new`), challenges (`/games challenge`) and
rematches, each ending in a thread opened from its message and the match dealt; the turns are `cogs.matches`'.
Their posts, edits and threads go out through `cogs.reach.Reach`, as every table's do."""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn, Protocol

import discord

import games
import i18n
from games.base import GameModule, Match
from i18n import _, format_number, ngettext
from kit.locks import KeyedLocks
from storage import GameRecord, Seat, Store, challenge_key

from .anywhere import in_bot_dm
from .away import stamp
from .client import Client, TableDesk
from .clock import FIXED, Clocks, clock_options, settings_with_clock
from .common import (
    DAY,
    UserError,
    challenge_taken,
    check_finish_rate,
    duration,
    guild_of,
    level_word,
    lobby_terms,
    may_manage,
    table_language,
)
from .match_items import lobby_view
from .offer import read_variant, table_game
from .reach import Reach
from .seating import REMATCH, rematch_setting, reversed_order, seat_as_planned
from .speech import escape, speaking

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()

# The store's fact naming the rematch opened from a finished table (shared with Kokeshi's tables).
REMATCH_OF = "rematch_of:{game_id}"


class TurnDesk(Protocol):
    """The turns of the tables (`cogs.matches.Matches`), as a lobby hands its match over."""

    async def begin(self, record: GameRecord, match: Match) -> None: ...


async def find_channel(bot: Client, channel_id: int | None) -> Any:
    """A channel or thread by its id: the bot's cache, else Discord; None when it cannot be reached."""
    if channel_id is None:
        return None
    channel = bot.get_channel(channel_id)
    if channel is None:
        with contextlib.suppress(discord.HTTPException):
            channel = await bot.fetch_channel(channel_id)
    return channel


class MatchLobbies:
    """Opens tables, seats their people and deals them; then hands each match to the turns."""

    def __init__(self, bot: Client, tables: TableDesk, turns: TurnDesk, reach: Reach) -> None:
        self.bot = bot
        self.tables = tables
        self.turns = turns
        self.reach = reach
        # One rematch opened at a time per finished table: two clicks at once open one lobby.
        self._opening: KeyedLocks[int] = KeyedLocks()

    @property
    def store(self) -> Store:
        return self.bot.store

    async def tell(self, interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
        await self.tables.tell(interaction, text, **kwargs)

    async def aways(self, record: GameRecord) -> dict[int, float]:
        """When each person seated who is away now comes back (user id: timestamp)."""
        found = {}
        for seat in record.seats:
            if seat.user_id is not None and not seat.ai:
                away = await self.store.away(seat.user_id)
                if away is not None:
                    found[seat.user_id] = away.ends_at
        return found

    def text(self, module: GameModule, record: GameRecord, aways: Mapping[int, float] | None = None) -> str:
        """The lobby (or announcement) as it stands: the table, its seats (a person away says until when), and
        whether it is open, started or over."""
        seats = []
        for seat in sorted(record.seats, key=lambda s: s.seat):
            if seat.ai:
                seats.append(seat_word(seat, bold=False))
            elif seat.user_id is not None and seat.user_id in (aways or {}):
                until = _("💤 away until {until}").format(until=stamp((aways or {})[seat.user_id]))
                seats.append(f"<@{seat.user_id}> — {until}")
            else:
                seats.append(f"<@{seat.user_id}>")
        status = {
            "lobby": _("Open: join with the button below."),
            "active": _("Started: the game is played in its thread."),
            "finished": _("Finished."),
            "cancelled": _("Cancelled."),
        }.get(record.status, record.status)
        if record.players == 1:
            # A solo game opens no seats: it says who plays it.
            head = _("{player} starts a solo game: **{game} #{number}**").format(
                player=", ".join(seats), game=module.name, number=record.id
            )
        else:
            head = _("**{game} #{number}** — {seated} of {players} seats").format(
                game=module.name,
                number=record.id,
                seated=format_number(len(record.seats)),
                players=format_number(record.players),
            )
        chosen = [
            module.setting_label(s.key, record.settings[s.key]) for s in module.settings if s.key in record.settings
        ]
        if chosen:
            head += " · " + ", ".join(chosen)
        if not record.challenge and record.players > 1:
            timer = record.turn_timer
            per_turn = _("{duration} per turn").format(duration=duration(timer)) if timer else _("no turn timer")
            head += " · " + (Clocks.lobby_words(record) or per_turn)
        # The language of its thread, and who may join, as every table's lobby shows them.
        head += " · " + " · ".join(lobby_terms(record))
        if record.players == 1:
            # It starts at once, where it is posted: only its end is news.
            return f"{head}\n{status}" if record.status in ("finished", "cancelled") else head
        return f"{head}\n{', '.join(seats)}\n{status}"

    async def refresh(self, record: GameRecord, lobby: tuple[int, int] | None = None) -> None:
        """The lobby message (or announcement) says how the table stands now; `lobby`: where it is (channel id,
        message id), when already read."""
        if record.challenge:
            return  # a challenge's post says whose attempt it is, ranked or for practice: it keeps its words
        found = lobby or await self.store.get_message(record.id, "lobby")
        channel = await find_channel(self.bot, found[0]) if found else None
        if channel is None or found is None:
            return
        aways = await self.aways(record) if record.status in ("lobby", "active") else {}
        with speaking(record):
            text = self.text(games.get(record.game), record, aways)
            # Its buttons speak the table's language too, whoever's click changed it.
            view = lobby_view(record.id) if record.status == "lobby" else None
        await self.reach.edit(record, channel, found[1], content=text, view=view, allowed_mentions=NO_PINGS)

    # ------------------------------------------------------------------ lobby

    async def new(
        self,
        interaction: discord.Interaction,
        key: str,
        players: int,
        ai: int = 0,
        level: str = "normal",
        variant: str = "",
        deadline: int = DAY,
        clock: str = FIXED,
        *,
        language: str | None = None,
        min_finish: int = 0,
    ) -> None:
        """`/games new`: a lobby in this channel (a solo game starts at once), with the game's settings chosen by
        `variant` and the time each turn has (`deadline`, seconds; 0: none), as `/kokeshi new timer:` offers it, or
        a time bank per player (`clock`, one of `storage.clock.BANKS`; as Kokeshi's, not for a solo game). As
        `/kokeshi new`'s, it speaks `language` (by default the server's; a solo game its player's) and, while a seat
        is open to people, keeps out joiners who finished less than `min_finish` percent of their games of it."""
        module = table_game(key)
        if players not in module.players:
            counts = ", ".join(format_number(n) for n in module.players)
            raise UserError(_("{game} is played by {counts} players.").format(game=module.name, counts=counts))
        if not 0 <= ai < players:
            raise UserError(_("At least one seat must be a person's."))
        if level not in module.levels:
            raise UserError(_("The AI levels are {levels}.").format(levels=", ".join(module.levels)))
        settings = read_variant(module, variant)
        turn_timer, clock_settings = clock_options(None if players == 1 else clock, deadline or None)
        language = table_language(language, interaction.locale if players == 1 else interaction.guild_locale)
        try:
            # The game says whether it is played so: a deal that is thrown away.
            module.deal(module.options(settings), secrets.randbits(64), players)
        except ValueError:
            label = ", ".join(module.setting_label(k, v) for k, v in settings.items())
            raise UserError(
                ngettext(
                    "{game} is not played {variant} by {count} player.",
                    "{game} is not played {variant} by {count} players.",
                    players,
                ).format(game=module.name, variant=label, count=format_number(players))
            ) from None
        channel = await self._place(interaction, players)
        await self.tables.check_limits(interaction, channel)
        game_id = await self.store.create_game(
            guild_id=guild_of(channel),
            channel_id=channel.id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            players=players,
            solo=players == 1,
            ai_seats=ai,
            ai_level=level,
            language=language,
            game=key,
            # The finish rate is asked of joiners only where people may join: not of a solo game, nor of one the AI
            # fills.
            settings=settings_with_clock(
                settings, clock_settings | ({"min_finish": min_finish} if min_finish and ai < players - 1 else {})
            ),
            turn_timer=turn_timer,
        )
        await self.open(interaction, module, channel, await self.store.get_game(game_id))

    async def open(
        self,
        interaction: discord.Interaction,
        module: GameModule,
        channel: discord.TextChannel | discord.DMChannel,
        record: GameRecord,
        invited: Sequence[int] = (),
        head: str = "",
    ) -> None:
        """Post a new table's lobby (with `head` above it, and the `invited` people mentioned once), or start the
        game at once when every seat is taken (the others are AI)."""
        aways = await self.aways(record)
        with speaking(record):
            text = self.text(module, record, aways)
            view = lobby_view(record.id)
        if invited:
            with speaking(record):
                call = _("{invited}: press **Join** to take your seat.").format(
                    invited=", ".join(f"<@{u}>" for u in invited)
                )
            text = f"{head}\n{call}\n{text}" if head else f"{call}\n{text}"
        elif head:
            text = f"{head}\n{text}"
        full = len(record.seats) >= record.players
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in invited], replied_user=False
        )
        if full:
            message = await self.reach.send(record, channel, text, allowed_mentions=mentions)
        else:
            message = await self.reach.send(record, channel, text, view=view, allowed_mentions=mentions)
        if message is None:
            await self._refused(record)
        await self.store.set_message(record.id, "lobby", channel.id, message.id)
        if full:
            await self.start(record, message)
            await self._started(interaction, await self.store.get_game(record.id))
            return
        await self.tell(
            interaction,
            _("Your {game} table #{number} is open: others join with its button, and you start it.").format(
                game=module.name, number=record.id
            ),
        )

    async def _place(self, interaction: discord.Interaction, players: int) -> discord.TextChannel | discord.DMChannel:
        """Where a new table is posted: a server's text channel; a solo table (or a challenge) may also be played in
        the player's DM with the bot, where the bot is in no server (our DM, or a place where only the player
        installed the app)."""
        if players == 1:
            return await self.tables.solo_place(interaction)
        # A text channel of a server, where the bot may post, thread and attach (a thread is told where it works).
        return self.tables.check_channel(interaction)

    async def _started(self, interaction: discord.Interaction, record: GameRecord) -> None:
        """The person who started a table is told where it is played: a link to its thread, or to our DM (saying
        why, when they started it where the bot cannot post)."""
        module = games.get(record.game)
        where = self.tables.where(record)
        if record.guild_id is None and not in_bot_dm(interaction):
            text = _(
                "I can't post games here, so your game is in our DM: {thread}. Play it there with its buttons. "
                "Good luck!"
            )
            await self.tell(interaction, text.format(thread=where))
            return
        if record.players == 1:
            await self.tell(interaction, _("Your solo game has started: {thread}. Good luck!").format(thread=where))
            return
        await self.tell(
            interaction,
            _("{game} #{number} has started: {thread}.").format(game=module.name, number=record.id, thread=where),
        )

    async def _refused(self, record: GameRecord) -> NoReturn:
        """Discord refused the table's first post in its channel (noted): no table, and the person is told why."""
        await self.store.cancel_game(record.id)
        if record.guild_id is None:
            raise UserError(
                _(
                    "I could not send you a DM, so nothing was started. Allow DMs from me (or from the server's "
                    "members) and try again."
                )
            )
        raise UserError(
            _(
                "I could not post the table in this channel, so it is cancelled. A server admin can give me Send "
                "Messages, Create Public Threads and Attach Files here."
            )
        )

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Rematch button: a finished table's game again in the same channel, with its settings, its AI seats
        at their levels and the clicker as host; the other people are invited to join. A second click points to
        the rematch already opened."""
        record = await self.store.get_game(game_id)
        module = games.get(record.game)
        if record.status != "finished" or record.challenge:
            raise UserError(_("Only a finished game that is not a challenge can be played again."))
        if record.seat_of(interaction.user.id) is None:
            raise UserError(
                _("Only the players of {game} #{number} can ask for its rematch.").format(
                    game=module.name, number=record.id
                )
            )
        async with self._opening(game_id):
            found = await self.store.meta(REMATCH_OF.format(game_id=game_id))
            again = await self.store.get_game(int(found)) if found and found.isdigit() else None
            if again is not None and again.status != "cancelled":
                name = f"{module.name} #{again.id}"
                where = self.bot.channel_link(again.channel_id, name) if again.channel_id else name
                if again.status != "lobby":
                    text = _("The rematch is already being played, or over: {lobby}.")
                elif again.seat_of(interaction.user.id) is not None:
                    text = _("The rematch is already open: {lobby}. You have your seat; the host starts it.")
                else:
                    text = _("The rematch is already open: {lobby}. Press its Join button to take your seat.")
                await self.tell(interaction, text.format(lobby=where or name))
                return
            channel = await find_channel(self.bot, record.channel_id)
            if not isinstance(channel, discord.TextChannel):
                raise UserError(_("The channel this game was played from is gone."))
            await self.tables.check_limits(interaction, channel)
            # The seats the AI was dealt; a person's seat it took over (a resignation, a time-out) is theirs again.
            robots = sorted((s for s in record.seats if s.user_id is None), key=lambda s: s.seat)
            user = interaction.user
            host = record.seat_of(user.id)
            assert host is not None  # checked above
            again_id = await self.store.create_game(
                guild_id=record.guild_id,
                channel_id=channel.id,
                host_id=user.id,
                host_name=user.display_name,
                players=record.players,
                solo=record.players == 1,
                turn_timer=record.turn_timer,
                ai_seats=len(robots),
                ai_level=robots[0].ai_level if robots else None,
                language=record.language,
                game=record.game,
                # Who sits where: the seats of the last game reversed, the host first.
                settings={k: v for k, v in record.settings.items() if k != REMATCH}
                | {REMATCH: rematch_setting(record, host, robots)},
            )
            await self.store.set_meta(REMATCH_OF.format(game_id=game_id), str(again_id))
        again_record = await seat_as_planned(self.store, await self.store.get_game(again_id))
        invited = [s.user_id for s in record.seats if s.user_id is not None and s.user_id != user.id]
        with speaking(again_record):
            head = _("🔁 **Rematch of {game} #{number}**, asked for by {host}.").format(
                game=module.name, number=game_id, host=user.mention
            )
            if record.players > 1:
                # The order in plain names: each person is mentioned once, in the invitation.
                order = " → ".join(escape(n) for n in reversed_order([s.name for s in record.seats], host.name))
                head += " " + _(
                    "The seats go round in the reverse of the last game (who played after you now plays before "
                    "you): {order}."
                ).format(order=order)
        await self.open(interaction, module, channel, again_record, invited, head)

    async def on_lobby(self, interaction: discord.Interaction, game_id: int, op: str) -> None:
        record = await self.store.get_game(game_id)
        module = games.get(record.game)
        if record.status != "lobby":
            raise UserError(_("This game has already started."))
        user = interaction.user
        if op == "join":
            if record.seat_of(user.id) is not None:
                raise UserError(_("You are already seated at this table."))
            await check_finish_rate(self.store, user.id, record)
            # One more open game for the joiner, as at Kokeshi's tables: past the server's limit per person, refused.
            await self.tables.check_limits(interaction, None)
            record = await self.store.add_seat(game_id, user.id, user.display_name)
            # A rematch seats its players in its planned order.
            record = await seat_as_planned(self.store, record)
            await self.tell(interaction, _("You joined {game} #{number}.").format(game=module.name, number=game_id))
        elif op == "leave":
            if user.id == record.host_id:
                raise UserError(_("The host cannot leave: cancel the table instead."))
            if record.seat_of(user.id) is None:
                raise UserError(_("You are not seated at this table."))
            record = await self.store.remove_seat(game_id, user.id)
            await self.tell(interaction, _("You left {game} #{number}.").format(game=module.name, number=game_id))
        elif op == "cancel":
            # The host, or someone who manages the server's threads (as `/kokeshi cancel` allows).
            if not may_manage(interaction, record):
                raise UserError(_("Only the host (or someone with Manage Threads) can cancel this game."))
            record = await self.store.cancel_game(game_id)
            await self.tell(interaction, _("The table is cancelled."))
        else:
            if user.id != record.host_id:
                raise UserError(_("Only the host can start the game."))
            if len(record.seats) not in module.players or (record.players > 1 and len(record.seats) < 2):
                raise UserError(_("Wait for at least one more player (or create the game with AI players)."))
            found = await self.store.get_message(game_id, "lobby")
            channel = await find_channel(self.bot, found[0]) if found else None
            if channel is None or found is None:
                raise UserError(_("I cannot reach this table's channel any more."))
            message = await channel.fetch_message(found[1])
            await self.start(record, message)
            await self._started(interaction, await self.store.get_game(game_id))
            return
        await self.refresh(record)

    async def start(self, record: GameRecord, message: discord.Message) -> None:
        module = games.get(record.game)
        host = next((s.name for s in record.seats if s.user_id == record.host_id), None)
        with speaking(record):
            # Whose table it is, as a list of threads shows it (and that one plays it alone).
            if host is None:
                name = _("{game} #{number}").format(game=module.name, number=record.id)
            elif record.players == 1:
                name = _("{game} #{number} — {player} (solo)").format(game=module.name, number=record.id, player=host)
            else:
                name = _("{game} #{number} — {player}").format(game=module.name, number=record.id, player=host)
        if record.guild_id is None:
            # In our DM: the DM itself is where the game is shown, in place of a thread.
            await self._deal(record, message.channel)
            return
        try:
            thread = await self.reach.open_thread(record, message, name)
        except discord.HTTPException as exc:
            # No thread, no table: the game ends before it began, and the host is told why.
            await self.store.cancel_game(record.id)
            await self.refresh(await self.store.get_game(record.id))
            raise UserError(
                _("I could not create the game's thread here ({reason}).").format(reason=exc.text or exc)
            ) from None
        await self._deal(record, thread)

    async def _deal(self, record: GameRecord, thread: Any) -> None:
        """The match dealt and its first turn shown where the game is played (its thread, or our DM)."""
        await self.store.set_thread(record.id, thread.id)
        # A challenge is dealt on the seed everyone gets that day (or week); any other table on a fresh one.
        seed = self.store.challenge_seed(record.challenge) if record.challenge else secrets.randbits(128)
        match, _version = await self.store.start_match(record.id, seed)
        record = await self.store.get_game(record.id)
        if not record.challenge and record.guild_id is not None:
            # A lobby says it has started; a challenge's post (which says whose attempt it is, ranked or for
            # practice) and a game in our DM keep their words.
            await self.refresh(record)
        with speaking(record):
            opening = begins(games.get(record.game), record, match.view(None))
        await self.reach.send(record, thread, opening, allowed_mentions=NO_PINGS)
        await self.turns.begin(record, match)
        # Shown to the person who started it where the bot can (the sandbox's page); nothing to do on Discord.
        self.bot.follow_channel(thread.id)

    async def challenge(self, interaction: discord.Interaction, key: str, kind: str) -> None:
        """`/games challenge`: the game's daily (or weekly) solo challenge, on the seed everyone gets."""
        module = table_game(key)
        offer = next((c for c in module.challenges if c.kind == kind), None)
        if offer is None:
            raise UserError(_("{game} has no such challenge.").format(game=module.name))
        channel = await self._place(interaction, 1)
        await self.tables.check_limits(interaction, channel)
        user = interaction.user
        day = challenge_key(kind, discord.utils.utcnow())
        game_id, rated = await self.store.create_challenge(
            kind=kind,
            key=day,
            guild_id=guild_of(channel),
            channel_id=channel.id,
            user_id=user.id,
            name=user.display_name,
            language=i18n.current() if i18n.current() != "en" else None,
            game=key,
            settings=dict(offer.options),
        )
        record = await self.store.get_game(game_id)
        with speaking(record):
            text = challenge_taken(kind, rated, user.mention, day, module.name, game_id)
        message = await self.reach.send(record, channel, text, allowed_mentions=NO_PINGS)
        if message is None:
            await self._refused(record)
        await self.store.set_message(game_id, "lobby", channel.id, message.id)
        await self.start(record, message)
        await self._started(interaction, await self.store.get_game(game_id))


def seat_word(seat: Seat, *, bold: bool = True) -> str:
    """A seat as a table's posts name it: a person's mention (shown, not pinging, where mentions are off), an AI by
    its name (in bold, unless not `bold`) and level: "**AI 1** (AI, hard)"; a person's seat the AI plays for them
    says so: "@aiko (resigned)", "@aiko (the AI plays for now)": a time-out's, until they rejoin."""
    if seat.user_id is None:
        name = escape(seat.name)
        return _("{name} (AI, {level})").format(
            name=f"**{name}**" if bold else name, level=level_word(seat.ai_level or "normal")
        )
    if seat.ai:
        why = _("resigned") if seat.resigned else _("the AI plays for now")
        return _("{player} ({why})").format(player=f"<@{seat.user_id}>", why=why)
    return f"<@{seat.user_id}>"


def begins(module: GameModule, record: GameRecord, view: Mapping[str, Any]) -> str:
    """The first post of a game's thread, in the game's language: that it begins, and who plays, in the order they
    take their turns when the game has one ("**Kokeshi #4 begins!** Turn order: @botan, @aiko, AI 1 (AI, easy).")."""
    seats = {s.seat: s for s in record.seats}
    order = module.turn_order(view)
    head = _("**{game} #{number} begins!**").format(game=module.name, number=record.id)
    if len(seats) == 1:
        return head
    if order is None:
        named = ", ".join(seat_word(seats[n]) for n in sorted(seats))
        return " ".join([head, _("Players: {players}.").format(players=named)])
    named = ", ".join(seat_word(seats[n]) for n in order if n in seats)
    return " ".join([head, _("Turn order: {order}.").format(order=named)])


__all__ = ["REMATCH_OF", "MatchLobbies", "TurnDesk", "begins", "find_channel", "seat_word"]
