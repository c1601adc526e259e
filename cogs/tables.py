"""What happens at a table: lobbies, moves, the AI seats, turn pictures, reminders and time-outs."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
from collections.abc import Mapping
from typing import Any

import discord

import i18n
from games.kokeshi import vocab
from games.kokeshi.engine import Event, Game, IllegalAction
from games.kokeshi.engine.preview import preview
from games.kokeshi.module import KokeshiMatch
from games.kokeshi.vocab import N_
from i18n import _, format_number, ngettext
from kit.locks import KeyedLocks
from service import Outcome, Refused
from service import play as play_decision
from storage import Applied, BrokenGame, GameNotFound, GameRecord, Seat, StaleVersion, Store, StoreRefusal
from storage.away import TURN_TIMERS, Away

from . import anywhere
from .away import Aways, stamp
from .client import Client, home
from .clock import Clocks
from .common import (
    UserError,
    check_finish_rate,
    duration,
    guild_of,
    level_word,
    lobby_terms,
    may_manage,
    now,
    pinging,
)
from .components import QUESTIONS, lobby_view, prompt_view, track_view
from .digest import Digests
from .kokeshi_ai import HINT_BUDGET, HINT_LEVEL, KokeshiThinker
from .limits import MESSAGE, THREAD_NAME, ChannelPace, shorten
from .match_items import platform_desk
from .names import Names
from .narration import turn_key
from .posting import Played, Poster
from .quiet import QuietHours
from .reach import Reach, turn_timers
from .speech import escape, speaking
from .thinking import DEFAULT_LEVEL

log = logging.getLogger(__name__)

# Permissions the bot needs where it creates a game, with the names Discord shows in its settings.
NEEDED_PERMISSIONS = {
    "send_messages": N_("Send Messages"),
    "create_public_threads": N_("Create Public Threads"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "attach_files": N_("Attach Files"),
    "embed_links": N_("Embed Links"),
}
# Bits of operating-system randomness in the seed of a new game: far too many to search from its opening.
SEED_BITS = 128
EXPIRED_TURNS_BEFORE_AI = 3
# Open (lobby or active) games a person may be in, and a channel may hold, unless the server's admins say otherwise.
LIMITS = {"open_per_user": 5, "open_per_channel": 20}
MAX_LIMIT = 500
# The store's refusals by code (`storage.REFUSALS`), shown in the language of the person who asked.
_STORE_MESSAGES = {
    "bad_players": N_("A game has 2 to 4 players, or 1 in solo."),
    "no_person_seat": N_("At least one seat must be left for a person."),
    "bad_side": N_("The happiness board side is basic or advanced."),
    "not_lobby": N_("This game has already started or ended."),
    "already_seated": N_("You are already in this game."),
    "full": N_("This game is full."),
    "started": N_("This game has already started: use resign instead."),
    "not_seated": N_("You are not in this game."),
    "host": N_("The host cannot leave; cancel the game instead."),
    "too_few": N_("At least two players are needed to start."),
    "ended": N_("This game has already ended."),
    "not_started": N_("This game has not started yet."),
    "not_active": N_("This game is not being played."),
    "broken": N_("This game cannot be loaded any more, so it cannot continue."),
    "undo_over": N_("The game is over."),
    "undo_nothing": N_("You have not made a move yet this turn."),
    "undo_timed_out": N_("That move was made for you when your time ran out; it cannot be undone."),
    "undo_drew": N_("Your last move drew a tile from the bag, so it cannot be taken back."),
    "other_game": N_("That game is not played with this command: use the buttons in its thread (or `/games play`)."),
    "unknown_game": N_("This bot does not know that game."),
    "bad_settings": N_("Those settings are not among the game's."),
}


def refusal(exc: StoreRefusal) -> str:
    """The store's refusal in the current language, by its code."""
    if exc.code == "undo_not_your_turn":
        return _("Only the player whose turn it is can undo, and it is {player}'s turn.").format(
            player=escape(vocab.seat_name(exc.params["player"]))
        )
    if exc.code in _STORE_MESSAGES:
        return _(_STORE_MESSAGES[exc.code])
    log.warning("a store refusal without words: %s", exc)
    return _("Sorry, something went wrong on my side. Nothing was lost; please try again.")


def fit_lines(lines: list[str], *, head: str = "", tail: str = "", limit: int = MESSAGE) -> str:
    """As many whole lines as fit in one message, then how many were left out (never a line cut in half)."""

    def join(parts) -> str:
        return "\n".join(p for p in parts if p)

    whole = join((head, *lines, tail))
    if len(whole) <= limit:
        return whole
    shown: list[str] = []
    for line in lines:
        note = _more(len(lines) - len(shown) - 1)
        if len(join((head, *shown, line, note, tail))) > limit:
            break
        shown.append(line)
    note = _more(len(lines) - len(shown))
    return join((head, *shown, note, tail))[:limit]


def _more(count: int) -> str:
    return ngettext(
        "…and {count} more (the `game` option picks one)", "…and {count} more (the `game` option picks one)", count
    ).format(count=i18n.format_number(count))


SIDES = {"basic": N_("basic side"), "advanced": N_("advanced side")}


def side_name(side: str) -> str:
    """A board side as players read it, in the current language."""
    return _(SIDES[side]) if side in SIDES else side


# The service's refusals as the engine names them (the store and the words know the engine's codes).
_ENGINE_REFUSALS = {"unknown_seat": "unknown_player"}


class Decision:
    """One decision carried out through the service (`service.play`) on the game as the store holds it, under the
    store's lock: the store saves what it did, and the service's `Outcome` is kept for the thread."""

    def __init__(self) -> None:
        self.outcome: Outcome | None = None

    def __call__(self, game: Game, player: str, action: str) -> list[Event]:
        match = KokeshiMatch(game)
        if player not in game.seating:
            raise IllegalAction("unknown_player", game.legal_actions(), player=player)
        try:
            self.outcome = play_decision(match.game, match, match.version, match.seat_of(player), action)
        except Refused as refused:
            raise IllegalAction(_ENGINE_REFUSALS.get(refused.code, refused.code), list(refused.legal)) from None
        return match.engine_events


def _ai_to_move(applied: Applied) -> bool:
    """Whether the game, as just saved, waits for an AI seat."""
    prompt = applied.game.prompt
    seat = applied.record.seat_named(prompt.player) if prompt is not None else None
    return applied.record.status == "active" and seat is not None and seat.ai


def missing_permissions(permissions: discord.Permissions) -> list[str]:
    """The names of the needed permissions that are missing, in the current language."""
    return [_(label) for attr, label in NEEDED_PERMISSIONS.items() if not getattr(permissions, attr)]


class LobbyMessages:
    """A game's lobby message, in the channel it was opened in: its embed (status, seats, settings), kept up to
    date."""

    def __init__(self, bot: Client, reach: Reach, names: Names, away: Aways, clocks: Clocks) -> None:
        self.bot = bot
        self.reach = reach
        self.names = names
        self.away = away
        self.clocks = clocks

    @property
    def store(self) -> Store:
        return self.bot.store

    def lobby_embed(self, record: GameRecord, aways: Mapping[int, Away] | None = None) -> discord.Embed:
        """The lobby message's embed, in the game's language; `aways`: the seated people away, by user id."""
        with speaking(record):
            return self._lobby_embed(record, aways or {})

    def _lobby_embed(self, record: GameRecord, aways: Mapping[int, Away]) -> discord.Embed:
        if record.turn_timer:
            timer = _("{duration} per turn").format(duration=duration(record.turn_timer))
        else:
            timer = _("no turn timer")
        timer = self.clocks.lobby_words(record) or timer
        title = f"Kokeshi #{record.id}"
        status = {
            "lobby": _("Waiting for players"),
            "active": _("Playing — follow the game in {thread}").format(thread=self.reach.where(record)),
            "finished": _("Finished"),
            "cancelled": _("Cancelled"),
            "broken": _("Stopped"),
        }[record.status]
        embed = discord.Embed(title=title, description=f"**{status}**", colour=0xC8553D)
        seats = []
        for i, s in enumerate(record.seats):
            name = f"{'🤖 ' if s.ai and s.user_id is None else ''}{self.names.label(record, s.name)}"
            seats.append(f"{i + 1}. " + (_("{name} (host)").format(name=name) if i == 0 else name))
            away = aways.get(s.user_id) if s.user_id is not None and not s.ai else None
            if away is not None:
                seats[-1] += " — " + _("💤 away until {until}").format(until=stamp(away.ends_at))
        open_seat = _("*open seat*")
        seats += [f"{i + 1}. {open_seat}" for i in range(len(record.seats), record.players)]
        embed.add_field(
            name=_("Players ({seated}/{seats})").format(seated=len(record.seats), seats=record.players),
            value="\n".join(seats),
            inline=True,
        )
        about = [side_name(record.side), timer, *lobby_terms(record)]
        embed.add_field(name=_("Game"), value="\n".join(about), inline=True)
        if record.status == "lobby":
            embed.set_footer(text=_("Press Join to take a seat; the host presses Start."))
        return embed

    async def refresh_lobby(self, record: GameRecord, found: tuple[int, int] | None = None) -> None:
        """The lobby message says the game's status and seats now; `found`: where it is, if known."""
        if self.reach.paused(record):
            return
        await self.names.load_levels(record)
        if found is None:
            found = await self.store.get_message(record.id, "lobby")
        if found is None:
            return
        channel = self.bot.get_channel(found[0])
        if channel is None:
            return
        try:
            with speaking(record):
                view = lobby_view(record.id, record.status == "lobby")
            await channel.get_partial_message(found[1]).edit(  # type: ignore[union-attr]  # a text channel or thread
                embed=self.lobby_embed(
                    record, await self.away.of(record) if record.status in ("lobby", "active") else None
                ),
                view=view,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as exc:
            self.reach.note(None, exc)
            log.warning("game %d: could not update the lobby message: %s", record.id, exc)


class KokeshiClock:
    """Kokeshi's tables as the clock (`cogs.clock.Clocks`) calls them."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    @staticmethod
    def serves(record: GameRecord) -> bool:
        return record.named_log

    @staticmethod
    def seat_word(name: str) -> str:
        return vocab.seat_name(name)

    def where(self, record: GameRecord) -> str:
        return self.tables.where(record)

    async def game_channel(self, record: GameRecord) -> discord.abc.Messageable | None:
        return await self.tables.game_channel(record)

    async def send(self, record: GameRecord, channel: Any, content: str, **kwargs: Any) -> discord.Message | None:
        return await self.tables.send(record, channel, content, **kwargs)

    async def end_unrated(self, record: GameRecord) -> GameRecord:
        record = await self.tables.store.cancel_game(record.id)
        await self.tables.store.clear_timers(record.id)
        await self.tables.refresh_lobby(record)
        return record

    async def hand_over(self, record: GameRecord, seat: Seat) -> None:
        await self.tables.drive_ai(record)
        await self.tables.poster.show(record.id)

    async def seat_back(self, record: GameRecord, seat: Seat) -> None:
        await self.tables.poster.show(record.id)


class Tables:
    """The bot's game logic on top of the store; cogs call it, it talks to Discord."""

    def __init__(self, bot: Client) -> None:
        self.bot = bot
        # Everything sent for a game (posts, DMs), every refusal of Discord's, the back-off of games it refuses,
        # and the servers the bot left.
        self.reach = Reach(bot)
        # The seats' names as shown, with the AI levels (read once per game).
        self.names = Names(bot, vocab.seat_name)
        # Players away for a while: their turn timers wait, and the tables say so. Quiet hours: silent pings.
        self.away = Aways(self)
        self.quiet = QuietHours(self)
        # The daily digest some players take instead of a DM at each turn; a Kokeshi game's line names its round.
        self.digests = Digests(self, self.round_of)
        # Time banks, the opponents' choice after a third expired turn, and rejoin: at this table and the platform's
        # (`cogs.matches` serves it too).
        self.clocks = Clocks(bot, self.tell)
        self.clocks.serve(KokeshiClock(self))
        self.lobbies = LobbyMessages(bot, self.reach, self.names, self.away, self.clocks)
        # The game's thread: handed what it needs up front, it never calls back here.
        self.poster = Poster(bot, self.reach, self.names, self.lobbies)
        # One timer at a time per game, so a deadline fired twice at once plays the turn once.
        self._firing: KeyedLocks[int] = KeyedLocks()
        # AI decisions run in a process pool; one AI turn at a time per game in this process.
        self.thinker: KokeshiThinker = KokeshiThinker()
        self._driving: KeyedLocks[int] = KeyedLocks()
        self._resuming: asyncio.Task | None = None

    @staticmethod
    def clock() -> float:
        return now()

    @property
    def store(self):
        return self.bot.store

    # ------------------------------------------------------------------ replies

    @staticmethod
    async def tell(interaction: discord.Interaction, text: str, **kwargs) -> None:
        """A private reply, whether or not the interaction was already acknowledged; never over Discord's limit.
        An interaction Discord no longer knows (answered too late, or its 15 minutes are over) gets none."""
        text = shorten(text, MESSAGE)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True, **kwargs)
            else:
                await interaction.response.send_message(text, ephemeral=True, **kwargs)
        except (discord.NotFound, discord.Forbidden) as exc:
            log.info("a private reply to user %s was lost: %s", interaction.user.id, exc)

    async def guard(self, interaction: discord.Interaction, game_id: int | None, coro) -> None:
        """Run a handler in the user's language; user mistakes become private replies, surprises an apology and a
        log line. What the handler posts for everyone is worded in the game's language (`speaking`)."""
        with i18n.using(interaction.locale):
            try:
                await coro
            except UserError as exc:
                await self.tell(interaction, str(exc))
            except StoreRefusal as exc:
                await self.tell(interaction, refusal(exc))
            except GameNotFound:
                await self.tell(interaction, _("That game does not exist (any more)."))
            except Exception:
                log.exception("unexpected error in game %s (user %s)", game_id, interaction.user.id)
                with contextlib.suppress(discord.HTTPException):
                    await self.tell(
                        interaction, _("Sorry, something went wrong on my side. Nothing was lost; please try again.")
                    )
                return
            try:
                await self.dm_notice(interaction)
            except Exception:
                log.exception("could not tell user %s about their closed DMs", interaction.user.id)

    # ------------------------------------------------------------------ names and channels

    async def load_levels(self, record: GameRecord) -> dict[int, str]:
        """The level of each AI seat of a game (seat number → level), read once and then kept (see `Names`)."""
        return await self.names.load_levels(record)

    def forget_levels(self, game_id: int) -> None:
        """The AI seats of a lobby were seated anew: their levels are read again from the store."""
        self.names.forget_levels(game_id)

    def level_of(self, record: GameRecord, name: str) -> str | None:
        """The level playing a seat, or None for a person."""
        return self.names.level_of(record, name)

    def label(self, record: GameRecord, name: str, bold: bool = False) -> str:
        """A seat's name as shown, with the AI level beside an AI's name: "Hana (AI, hard)"."""
        return self.names.label(record, name, bold)

    def mention(self, record: GameRecord, name: str) -> str:
        return self.names.mention(record, name)

    def where(self, record: GameRecord) -> str:
        """A clickable pointer to the game's thread."""
        return self.reach.where(record)

    def home(self, record: GameRecord) -> str:
        """A line pointing back at the channel where the game was opened, for new games and lobbies."""
        return home(self.bot, record)

    @property
    def lost(self) -> set[int]:
        """Threads Discord says are gone (see `Reach.lost`)."""
        return self.reach.lost

    @property
    def pace(self) -> ChannelPace:
        return self.reach.pace

    async def thread_of(self, record: GameRecord) -> discord.abc.Messageable | None:
        """The game's thread (or its channel), if Discord still has it and lets the bot see it."""
        return await self.reach.thread_of(record)

    async def game_channel(self, record: GameRecord) -> discord.abc.Messageable | None:
        """Where the game is shown: its thread, or a new thread when someone deleted it."""
        return await self.reach.game_channel(record)

    async def reopen(self, record: GameRecord) -> None:
        """The game's thread was deleted: open its new thread now and show the game there."""
        if self.reach.paused(record) or await self.game_channel(record) is None:
            return
        await self.poster.show(record.id)

    # ------------------------------------------------------------------ lobby

    def lobby_embed(self, record: GameRecord, aways: Mapping[int, Away] | None = None) -> discord.Embed:
        """The lobby message's embed, in the game's language (see `LobbyMessages`)."""
        return self.lobbies.lobby_embed(record, aways)

    async def refresh_lobby(self, record: GameRecord) -> None:
        await self.lobbies.refresh_lobby(record)

    def check_channel(self, interaction: discord.Interaction) -> discord.TextChannel:
        """The text channel a game can be created in, or a UserError saying what is wrong."""
        channel = interaction.channel
        if interaction.guild is None or not isinstance(channel, discord.TextChannel):
            parent = getattr(channel, "parent", None)
            if isinstance(channel, discord.Thread) and parent is not None:
                # Name the place where it works, as a link.
                link = self.bot.channel_link(parent.id, "#" + parent.name)
                text = _("Games start in a text channel, not in a thread: use {channel}.")
                raise UserError(text.format(channel=link))
            raise UserError(_("Start games from a text channel of a server (not a thread or a DM)."))
        self.check_permissions(channel, interaction.app_permissions)
        return channel

    async def solo_place(self, interaction: discord.Interaction) -> discord.TextChannel | discord.DMChannel:
        """Where a solo game (or a challenge) is played: a text channel of a server the bot is in, else the player's
        DM with the bot (in that DM, or from a place where only the player installed the app)."""
        if anywhere.bot_server(interaction) is not None:
            return self.check_channel(interaction)
        if isinstance(interaction.channel, discord.DMChannel) and anywhere.in_bot_dm(interaction):
            return interaction.channel
        try:
            return await interaction.user.create_dm()
        except discord.HTTPException:
            raise UserError(
                _("I could not open a DM with you, so nothing was started. Please try again from our DM.")
            ) from None

    def check_permissions(self, channel: discord.TextChannel, permissions: discord.Permissions | None = None) -> None:
        """A UserError naming what the bot lacks to run a game in `channel` (default: its permissions there)."""
        missing = missing_permissions(permissions or channel.permissions_for(channel.guild.me))
        if missing:
            raise UserError(
                _(
                    "I can't run a game in {channel}: I'm missing {permissions}. Ask a server admin to grant them "
                    "to me here, or use another channel."
                ).format(channel=channel.mention, permissions=i18n.format_list(missing))
            )

    async def limits(self, guild_id: int) -> dict[str, int]:
        """The server's limits on open games (per person, per channel)."""
        found = {}
        for key, default in LIMITS.items():
            value = await self.store.guild_setting(guild_id, key)
            found[key] = int(value) if value and value.isdigit() else default
        return found

    async def check_limits(self, interaction: discord.Interaction, channel: discord.abc.Messageable | None) -> None:
        """Refuse one more open game for this person (and, with a server channel, in this channel) past the limits;
        games in the DM with the bot count against the default limit per person."""
        guild_id = guild_of(channel) if channel is not None else interaction.guild_id
        limits = await self.limits(guild_id) if guild_id is not None else dict(LIMITS)
        mine = [g for g in await self.store.games_for_user(interaction.user.id) if g.guild_id == guild_id]
        if len(mine) >= limits["open_per_user"] and guild_id is None:
            raise UserError(
                _(
                    "You already have {count} open games in our DM, the most I allow. Finish or cancel one first "
                    "(`/games status` lists them)."
                ).format(count=i18n.format_number(len(mine)))
            )
        if len(mine) >= limits["open_per_user"]:
            count = len(mine)
            raise UserError(
                ngettext(
                    "You are already in {count} open game in this server, the most it allows ({limit}). Finish, "
                    "leave or cancel one first (`/games status` lists them).",
                    "You are already in {count} open games in this server, the most it allows ({limit}). Finish, "
                    "leave or cancel one first (`/games status` lists them).",
                    count,
                ).format(count=i18n.format_number(count), limit=i18n.format_number(limits["open_per_user"]))
            )
        if not isinstance(channel, discord.TextChannel):
            return
        here = await self.store.games_in_channel(channel.id)
        if len(here) >= limits["open_per_channel"]:
            raise UserError(
                ngettext(
                    "This channel already has {count} open game, the most this server allows per channel ({limit}). "
                    "Join it, or start yours in another channel.",
                    "This channel already has {count} open games, the most this server allows per channel ({limit}). "
                    "Join one of them, or start yours in another channel.",
                    len(here),
                ).format(count=i18n.format_number(len(here)), limit=i18n.format_number(limits["open_per_channel"]))
            )

    async def set_limits(self, interaction: discord.Interaction, per_user: int | None, per_channel: int | None) -> None:
        """`/kokeshi settings limits`: admins see or change how many open games a person and a channel may have."""
        perms = getattr(interaction.user, "guild_permissions", None)
        if (per_user is not None or per_channel is not None) and not (perms and perms.manage_guild):
            raise UserError(_("Only server admins (Manage Server) can change the limits."))
        for value in (per_user, per_channel):
            if value is not None and not 1 <= value <= MAX_LIMIT:
                raise UserError(
                    _("A limit must be at least 1 and at most {limit}.").format(limit=i18n.format_number(MAX_LIMIT))
                )
        assert interaction.guild_id is not None  # a server setting, asked for in a server
        for key, value in (("open_per_user", per_user), ("open_per_channel", per_channel)):
            if value is not None:
                await self.store.set_guild_setting(interaction.guild_id, key, str(value))
        limits = await self.limits(interaction.guild_id)
        await self.tell(
            interaction,
            _(
                "Open games (lobbies and games in progress) allowed here: {per_user} per person, {per_channel} per "
                "channel."
            ).format(
                per_user=i18n.format_number(limits["open_per_user"]),
                per_channel=i18n.format_number(limits["open_per_channel"]),
            ),
        )

    async def open_rematch_lobby(
        self,
        interaction: discord.Interaction,
        record: GameRecord,
        channel: discord.TextChannel,
        invite: str,
        mentions: discord.AllowedMentions,
    ) -> None:
        """A rematch's lobby (made by `cogs.rematch`): posted in `channel` with the invitation above it."""
        await self._open_thread(interaction, record.id, None, start=False, place=channel, invite=(invite, mentions))

    async def _open_thread(
        self,
        interaction: discord.Interaction,
        game_id: int,
        text: str | None,
        *,
        start: bool,
        place: discord.TextChannel | None = None,
        invite: tuple[str, discord.AllowedMentions] | None = None,
    ):
        """Post the game's message in the channel (a lobby, or an announcement), open its thread, and start it if
        asked. The command was acknowledged privately, so a refusal stays private; the game's message is the
        bot's own, for everyone. A rematch names its `place` and its `invite` (words and who they ping)."""
        record = await self.store.get_game(game_id)
        await self.load_levels(record)
        if record.guild_id is None:
            await self._open_in_dm(interaction, record, text or "")
            return
        channel = place or interaction.channel
        assert isinstance(channel, discord.TextChannel)  # the caller checked it (`check_channel`)
        try:
            if text is None:
                with speaking(record):
                    view = lobby_view(game_id)
                words, mentions = invite or (None, discord.AllowedMentions.none())
                embed = self.lobby_embed(record, await self.away.of(record))
                message = await channel.send(words, embed=embed, view=view, allowed_mentions=mentions)
            else:
                message = await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            # Nobody could see or join it: no lobby, rather than an invisible one.
            log.warning("game %d: Discord refused its first message (%s); cancelled", game_id, exc)
            await self.store.cancel_game(game_id)
            raise UserError(
                _("Discord would not show the game here ({status}), so nothing was opened. Please try again.").format(
                    status=exc.status
                )
            ) from None
        await self.store.set_message(game_id, "lobby", message.channel.id, message.id)
        with speaking(record):
            name = _("Kokeshi #{number} — {player} (solo)") if record.solo else _("Kokeshi #{number} — {player}")
            name = name.format(number=game_id, player=interaction.user.display_name)
        try:
            thread = await message.create_thread(name=shorten(name, THREAD_NAME), auto_archive_duration=10080)
        except discord.HTTPException as exc:
            await self.store.cancel_game(game_id)
            await self.refresh_lobby(await self.store.get_game(game_id))
            raise UserError(
                _("I could not create the game's thread here ({reason}).").format(reason=exc.text or exc)
            ) from None
        await self.store.set_thread(game_id, thread.id)
        if start:
            await self.start(interaction, await self.store.get_game(game_id))
            return
        await self.tell(
            interaction,
            _(
                "Kokeshi #{number} is open in {channel}: the others join with its Join button, and you press Start "
                "when everyone is seated."
            ).format(number=game_id, channel=self.bot.channel_link(channel.id, "#" + channel.name)),
        )

    async def _open_in_dm(self, interaction: discord.Interaction, record: GameRecord, text: str) -> None:
        """A solo game (or challenge) in the player's DM with the bot: the DM itself is the game's place (no
        thread), its announcement, prompts, records and final message all posted there."""
        assert record.channel_id is not None  # the DM channel it was created for
        channel = self.bot.get_channel(record.channel_id) or self.bot.get_partial_messageable(
            record.channel_id, type=discord.ChannelType.private
        )
        try:
            message = await channel.send(text, allowed_mentions=discord.AllowedMentions.none())  # type: ignore[union-attr]
        except discord.HTTPException as exc:
            log.warning("game %d: Discord refused its first DM (%s); cancelled", record.id, exc)
            await self.store.cancel_game(record.id)
            raise UserError(
                _(
                    "I could not send you a DM ({status}), so nothing was started. Allow DMs from me (or from the "
                    "server's members) and try again."
                ).format(status=exc.status)
            ) from None
        await self.store.set_message(record.id, "lobby", message.channel.id, message.id)
        # The DM is where the game is shown: it stands where a thread would.
        await self.store.set_thread(record.id, record.channel_id)
        await self.start(interaction, await self.store.get_game(record.id))

    async def on_lobby_button(self, interaction: discord.Interaction, game_id: int, op: str) -> None:
        async def run() -> None:
            record = await self.store.get_game(game_id)
            if not record.named_log:
                # A lobby that moved to the platform's table: its buttons are answered there.
                await platform_desk(interaction).lobbies.on_lobby(interaction, game_id, op)
                return
            if op == "join":
                await self.join(interaction, record)
            elif op == "leave":
                await self.leave(interaction, record)
            elif op == "start":
                await self.start(interaction, record)
            else:
                await self.cancel(interaction, record)

        await self.guard(interaction, game_id, run())

    async def join(self, interaction: discord.Interaction, record: GameRecord) -> None:
        if record.status != "lobby":
            raise UserError(
                _("Kokeshi #{number} is not taking players any more. `/kokeshi new` opens a new lobby.").format(
                    number=record.id
                )
            )
        if record.seat_of(interaction.user.id) is not None:
            raise UserError(
                _("You already have a seat in Kokeshi #{number}; it begins when the host presses Start.").format(
                    number=record.id
                )
            )
        if record.is_full:
            raise UserError(
                _("Kokeshi #{number} is full. `/kokeshi new` opens another lobby.").format(number=record.id)
            )
        await check_finish_rate(self.store, interaction.user.id, record)
        await self.check_limits(interaction, None)
        record = await self.store.add_seat(record.id, interaction.user.id, interaction.user.display_name)
        # A rematch seats its players in its planned order.
        record = await self.bot.rematches.seated(record)
        # The lobby shows the seat whatever becomes of the private reply.
        await self.refresh_lobby(record)
        await self.tell(
            interaction,
            _("You joined Kokeshi #{number}. Seats: {seated}/{seats}.").format(
                number=record.id, seated=len(record.seats), seats=record.players
            ),
        )

    async def leave(self, interaction: discord.Interaction, record: GameRecord) -> None:
        record = await self.store.remove_seat(record.id, interaction.user.id)
        await self.refresh_lobby(record)
        await self.tell(interaction, _("You left Kokeshi #{number}.").format(number=record.id))

    async def cancel(self, interaction: discord.Interaction, record: GameRecord) -> None:
        if not may_manage(interaction, record):
            raise UserError(_("Only the host (or someone with Manage Threads) can cancel this game."))
        record = await self.store.cancel_game(record.id)
        await self.refresh_lobby(record)
        await self.store.clear_timers(record.id)
        await self.tell(interaction, _("Kokeshi #{number} is cancelled.").format(number=record.id))
        thread = await self.thread_of(record)
        if thread is not None and record.thread_id:
            with speaking(record):
                note = _("This game was cancelled by {player}.").format(player=interaction.user.mention)
            await self.send(
                record,
                thread,
                note,
                allowed_mentions=discord.AllowedMentions.none(),
            )

    async def start(self, interaction: discord.Interaction, record: GameRecord) -> None:
        if record.status != "lobby":
            raise UserError(_("This game has already started."))
        if interaction.user.id != record.host_id:
            raise UserError(_("Only the host can start the game."))
        if not record.solo and len(record.seats) < 2:
            raise UserError(_("Wait for at least one more player (or create the game with AI players)."))
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        seed = self.store.challenge_seed(record.challenge) if record.challenge else secrets.randbits(SEED_BITS)
        await self.store.start_game(record.id, seed)
        record = await self.store.get_game(record.id)
        await self.refresh_lobby(record)
        await self.load_levels(record)
        seats = (await self.store.load_game(record.id))[0].players
        channel = await self.game_channel(record)
        if channel is not None:
            with speaking(record):
                # In the game's language, as the lobby: "AI 1 (IA, normal)".
                order = ", ".join(self.mention(record, n) for n in seats)
                back = self.home(record)
                intro = _("**Kokeshi #{number} begins!** Turn order: {order}.").format(number=record.id, order=order)
            intro += f"\n{back}" if back else ""
            await self.send(record, channel, intro, allowed_mentions=discord.AllowedMentions.none())
        await self.drive_ai(record)
        await self.poster.show(record.id)
        where = self.where(record)
        if not record.solo:
            await self.tell(
                interaction, _("Kokeshi #{number} has started: {thread}.").format(number=record.id, thread=where)
            )
        elif record.guild_id is not None or anywhere.in_bot_dm(interaction):
            await self.tell(interaction, _("Your solo game has started: {thread}. Good luck!").format(thread=where))
        else:
            # Used where the bot cannot post (a server without it, a group DM): the game waits in our DM.
            await self.tell(
                interaction,
                _(
                    "I can't post games here, so your game is in our DM: {thread}. Play it there with its buttons. "
                    "Good luck!"
                ).format(thread=where),
            )
        if record.thread_id:
            self.bot.follow_channel(record.thread_id)

    # ------------------------------------------------------------------ playing

    async def on_action(self, interaction: discord.Interaction, game_id: int, version: int, action: str) -> None:
        await self.guard(interaction, game_id, self._on_action(interaction, game_id, version, action))

    async def _on_action(self, interaction: discord.Interaction, game_id: int, version: int, action: str) -> None:
        found = await self._turn_here(interaction, game_id)
        if found is None:
            # The platform's table answers it, with the same version and action.
            await platform_desk(interaction).on_action(interaction, game_id, version, action)
            return
        record, seat_name, game, current = found
        if version != current:
            await self.send_current_prompt(interaction, record, game, current, _("This prompt is out of date."))
            return
        await self.play(interaction, record, seat_name, current, action)

    async def on_tile_chosen(self, interaction: discord.Interaction, game_id: int, version: int, tile: str) -> None:
        async def run() -> None:
            found = await self._turn_here(interaction, game_id)
            if found is None:
                # At the platform's table, its tile is the group of its placements.
                await platform_desk(interaction).on_group(interaction, game_id, version, tile)
                return
            record, _seat, game, current = found
            if version != current:
                await self.send_current_prompt(interaction, record, game, current, _("This prompt is out of date."))
                return
            prompt = game.prompt
            assert prompt is not None  # it is the caller's turn
            await interaction.followup.send(
                _("Which track?"), view=track_view(game_id, current, prompt, tile, game), ephemeral=True
            )

        await self.guard(interaction, game_id, run())

    async def _turn_here(
        self, interaction: discord.Interaction, game_id: int
    ) -> tuple[GameRecord, str, Game, int] | None:
        """`check_turn`, or None for a game that moved to the platform's table (its log by seat, which this table's
        path refuses): a button of this table on it is answered there."""
        try:
            return await self.check_turn(interaction, game_id)
        except StoreRefusal as refused:
            if refused.code != "other_game":
                raise
            return None

    async def check_turn(self, interaction: discord.Interaction, game_id: int) -> tuple[GameRecord, str, Game, int]:
        """The game, the caller's seat name, the engine state and version, if it is the caller's turn."""
        game, version, record = await self.store.load_game(game_id, record=True)
        if record.status == "lobby":
            raise UserError(_("This game has not started yet."))
        if record.status == "finished":
            raise UserError(_("This game is over. `/kokeshi new` starts another one."))
        if record.status == "cancelled":
            raise UserError(_("This game was cancelled. `/kokeshi new` starts another one."))
        if record.status == "broken":
            raise UserError(_("This game cannot be loaded any more, so it cannot continue."))
        seat = record.seat_of(interaction.user.id)
        if seat is None:
            raise UserError(_("You are not playing in this game."))
        assert game is not None  # a game being played is loaded with its record
        prompt = game.prompt
        if seat.ai:
            raise UserError(_("The AI plays your seat now, so you can only watch this game."))
        if prompt is None:
            raise UserError(_("This game is over."))
        if prompt.player != seat.name:
            raise UserError(_("It's {player}'s turn, not yours.").format(player=escape(vocab.seat_name(prompt.player))))
        return record, seat.name, game, version

    async def send_current_prompt(
        self, interaction: discord.Interaction, record: GameRecord, game: Game, version: int, why: str
    ) -> None:
        prompt = game.prompt
        assert prompt is not None  # only sent for a game in progress
        await interaction.followup.send(
            _("{why} Here is the current one — {question}:").format(why=why, question=QUESTIONS[prompt.kind].lower()),
            view=prompt_view(record.id, version, prompt, game),
            ephemeral=True,
        )

    async def play(
        self, interaction: discord.Interaction, record: GameRecord, seat_name: str, version: int, action: str
    ) -> bool:
        """Apply a player's action, let the AI seats move, and show the result. True when the player was already
        told something about it (an answer that came too late, a thread that could not be used)."""
        decision = Decision()
        try:
            applied = await self.store.apply(
                record.id, version, seat_name, action, timers=turn_timers(record), play=decision, details=True
            )
        except StaleVersion:
            game, current = await self.store.load_game(record.id)
            if game.prompt is None:
                await self.tell(interaction, _("That was already answered, and the game is over."))
            else:
                await self.send_current_prompt(interaction, record, game, current, _("That was already answered."))
            return True
        except IllegalAction as exc:
            raise UserError(vocab.illegal(exc)) from None
        seat = record.seat_named(seat_name)
        if seat is not None and seat.expired:
            await self.store.update_seat(record.id, seat_name, expired=0)
        played = Played(applied, decision.outcome)
        if _ai_to_move(applied):
            async with self._driving(record.id):
                _events, last = await self._drive_ai(record.id, applied)
            played = last or played
        told = False
        if not await self.poster.show(record.id, played=played):
            await self.tell(interaction, await self.reach.saved_not_shown(record))
            told = True
        else:
            # A thread replaced since anyone last acted (even before this move, as Discord told the bot it was
            # deleted): the player hears where the game goes on.
            thread_id = self.reach.moved.pop(record.id, None)
            if thread_id is not None:
                moved = dataclasses.replace(record, thread_id=thread_id)
                await self.tell(
                    interaction,
                    _(
                        "Your move is saved. The game's thread was deleted, so {game} #{number} goes on in a new "
                        "one: {thread}."
                    ).format(game="Kokeshi", number=record.id, thread=self.where(moved)),
                )
                told = True
        if not told and interaction.message is not None and interaction.message.flags.ephemeral:
            await interaction.edit_original_response(content=_("Done."), view=None)
        return told

    async def resume(self, interaction: discord.Interaction, record: GameRecord) -> GameRecord:
        """Someone used a command about a stuck game: it is tried again now (see `Reach.resume`)."""
        if not await self.reach.resume(interaction, record):
            return record
        if record.named_log:
            await self.poster.show(record.id)
        else:
            # A game at the platform's table: its live prompt posted again, its turn with fresh timers.
            await self.bot.matches.show_again(record.id)
        return await self.store.get_game(record.id)

    async def guild_joined(self, guild_id: int) -> None:
        """The bot is back in a server it left: its games resume and are shown (see `Reach.guild_joined`)."""
        for game_id in await self.reach.guild_joined(guild_id):
            await self._show_safely(game_id)

    async def _show_safely(self, game_id: int) -> None:
        try:
            if not (await self.store.get_game(game_id)).named_log:
                # Another game's table: its live prompt posted again, its turn with fresh timers.
                await self.bot.matches.show_again(game_id)
            else:
                await self.poster.show(game_id)
        except Exception:
            log.exception("game %d: could not be shown on return", game_id)

    async def drive_ai(self, record: GameRecord) -> list[Event]:
        """Let the AI play every decision that belongs to an AI seat, until a person must decide.

        Each decision is computed off the event loop for the version it was asked at, and applied only if the game
        is still at that version: a decision another run already made (e.g. a bot restarted mid-turn, or a timer
        firing at the same moment) is dropped and the current state is looked at again.
        """
        async with self._driving(record.id):
            events, _last = await self._drive_ai(record.id)
        return events

    async def _drive_ai(self, game_id: int, known: Applied | None = None) -> tuple[list[Event], Played | None]:
        """The events of the AI's decisions, and what the store and the service said of the last one. `known`: the
        game as just saved, used while the store still holds that version (else the game is read again)."""
        events: list[Event] = []
        last: Played | None = None
        for _step in range(10_000):
            if known is not None and self.store.held_version(game_id) == known.version:
                record, game, version = known.record, known.game.clone(), known.version
            else:
                game, version, record = await self.store.load_game(game_id, record=True)
            known = None
            if record.status != "active" or game is None:
                break
            prompt = game.prompt
            if prompt is None:
                break
            seat = record.seat_named(prompt.player)
            if seat is None or not seat.ai:
                break
            level = (await self.load_levels(record)).get(seat.seat, DEFAULT_LEVEL)
            action = await self.thinker.choose(level, version, game)
            decision = Decision()
            try:
                applied = await self.store.apply(
                    game_id,
                    version,
                    seat.name,
                    action,
                    source="ai",
                    timers=turn_timers(record),
                    play=decision,
                    details=True,
                )
            except StaleVersion:
                log.info("game %d: an AI decision for version %d came after the game moved on", game_id, version)
            else:
                events += applied.events
                last = Played(applied, decision.outcome)
                known = applied
        return events, last

    def _of_my_shards(self, record: GameRecord) -> bool:
        """Whether this process keeps the game's turns (its server is one of this bot's shards; a DM's, every
        process's)."""
        shards, guild = self.bot.timer_shards, record.guild_id
        return shards is None or guild is None or (guild >> 22) % shards[0] in shards[1]

    async def resume_then_move(self) -> None:
        """After a start: the AI turns a stopped bot left unfinished here (`resume_ai`), then every game still at
        this table moves to the platform's (`move_to_platform`)."""
        await self.resume_ai()
        await self.move_to_platform()

    async def move_to_platform(self) -> None:
        """Every game of this bot's shards still at Kokeshi's own table (its log by the players' names: lobbies,
        games in progress, finished ones) moves to the platform's table (`Store.to_seat_log`), one at a time, each
        while no AI of this table drives it; a game in progress then goes on there (`Matches.resume`). Its posted
        buttons stay valid: the platform answers them. A game `verify` finds broken stays, and is logged; one that
        moved on meanwhile is moved at the next start."""
        moved = 0
        for game_id in await self.store.named_log_games():
            try:
                record = await self.store.get_game(game_id)
                if not self._of_my_shards(record):
                    continue
                async with self._driving(game_id):
                    if not await self.store.to_seat_log(game_id):
                        continue
                moved += 1
                if record.status == "active":
                    await self.bot.matches.resume(game_id)
            except GameNotFound:
                continue
            except (BrokenGame, StaleVersion) as exc:
                log.warning("game %d: not moved to the platform's table: %s", game_id, exc)
            except Exception:
                log.exception("game %d: could not be moved to the platform's table", game_id)
        if moved:
            log.info("moved %d games of Kokeshi's own table to the platform's", moved)

    async def resume_ai(self) -> None:
        """After a start: finish every AI turn a stopped bot left unfinished (only games of this bot's shards)."""
        for record in await self.store.active_games():
            if not record.named_log:
                continue  # another game's table (`cogs.matches`) has no AI turn left half done
            if not self._of_my_shards(record):
                continue
            if self.reach.paused(record):
                continue
            try:
                game, _ = await self.store.load_game(record.id)
                seat = record.seat_named(game.prompt.player) if game.prompt else None
                if seat is None or not seat.ai:
                    continue
                await self.drive_ai(record)
                await self.poster.show(record.id)
            except Exception:
                log.exception("game %d: its AI turn could not be resumed", record.id)

    async def hint(self, interaction: discord.Interaction, record: GameRecord) -> None:
        """`/kokeshi hint`: privately, what the `hard` AI would do now for the caller, and why."""
        _record, _name, game, version = await self.check_turn(interaction, record.id)
        if record.challenge:
            raise UserError(_("Hints are off in daily and weekly challenges: everyone plays those on their own."))
        if sum(s.user_id is not None for s in record.seats) >= 2:
            raise UserError(_("Hints are off in rated games (games with two or more people)."))
        # Answer at once, visibly: the search takes a second or two; its choice then replaces these words.
        thinking = _("🤔 Thinking… the {level} AI is playing your choices out on sampled draws.").format(
            level=level_word(HINT_LEVEL)
        )
        if interaction.response.is_done():
            await interaction.edit_original_response(content=thinking)
        else:
            await interaction.response.send_message(thinking, ephemeral=True)
        hint = await self.thinker.explain(HINT_LEVEL, version, game, budget=HINT_BUDGET)
        prompt = game.prompt
        assert prompt is not None  # a hint is asked for on the player's turn
        option = next(o for o in prompt.options if o.id == hint.action)
        action = vocab.option_button(
            option, preview(game, option.id), starting=option.id in vocab.twins(prompt.options)
        )
        if len(prompt.options) == 1:
            why = _("It is the only choice you have.")
        else:
            why = _(
                "Played out on sampled draws, it leaves you about {gain} points better off at the end of the game "
                "than your other choices do on average."
            ).format(gain=format_number(round(hint.gain, 1)))
        await interaction.edit_original_response(
            content=_("Hint for Kokeshi #{game} — the {level} AI would choose: **{action}**\n{why}").format(
                game=record.id, level=level_word(HINT_LEVEL), action=escape(action), why=why
            )
        )

    # ------------------------------------------------------------------ showing the game

    async def send(self, record: GameRecord, channel, content: str, **kwargs) -> discord.Message | None:
        """Post in the game's thread (see `Reach.send`); None when Discord refused."""
        return await self.reach.send(record, channel, content, **kwargs)

    async def post_final(self, record: GameRecord, game: Game, channel) -> bool:
        """The final scores (see `Poster.post_final`)."""
        return await self.poster.post_final(record, game, channel)

    async def dm(self, user_id: int, text: str, *, silent: bool = False) -> bool:
        """A direct message (see `Reach.dm`); False if it could not be sent."""
        return await self.reach.dm(user_id, text, silent=silent)

    async def turn_dm(
        self, record: GameRecord, user_id: int, message: discord.Message, settings: Mapping[str, str]
    ) -> None:
        """The "your turn" DM of any game, to a person who asked for them (see `Reach.notify`)."""
        await self.reach.notify(record, user_id, message, settings)

    def paused(self, record: GameRecord) -> bool:
        """Whether the game's server removed the bot: nothing is posted for it (see `Reach.paused`)."""
        return self.reach.paused(record)

    async def round_of(self, record: GameRecord) -> str | None:
        """A Kokeshi game's round as its digest line names it ("Round 3"); None for another game."""
        if record.named_log:
            game, _version = await self.store.load_game(record.id)
            return vocab.round_name(game.round_number)
        match, _version, _record = await self.store.load_match(record.id)
        return vocab.round_name(match.engine.round_number) if isinstance(match, KokeshiMatch) else None

    async def dm_notice(self, interaction: discord.Interaction) -> None:
        """Once, after DMs to this person were refused: say that turn DMs are off and how to get them back."""
        user_id = interaction.user.id
        if await self.store.user_setting(user_id, "dm_closed") is None:
            return
        await self.store.set_user_setting(user_id, "dm_closed", None)
        await self.tell(
            interaction,
            _(
                "I could not send you a DM (your DMs are closed to me), so I stopped the turn DMs; the mention in "
                "the game's thread stays. Once you allow DMs from this server, `/kokeshi notify on` turns them back "
                "on."
            ),
        )

    # ------------------------------------------------------------------ timers

    @staticmethod
    def turn_timers(record: GameRecord) -> list[tuple[str, float]]:
        """The reminders and deadline of a turn starting now; the store sets them with the move that starts it."""
        return turn_timers(record)

    async def start_turn_timers(self, record: GameRecord, version: int, player: str) -> None:
        await self.poster.start_turn_timers(record, version, player)

    async def fire(self, game_id: int, kind: str, version: int) -> None:
        """A timer is due: a reminder, a turn's deadline, or a thread to post again. A timer acts only on the
        turn it was set for; the row goes only once its work is done, so a crash midway runs it again."""
        async with self._firing(game_id):
            with speaking(await self.store.get_game(game_id)):
                await self._fire(game_id, kind, version)

    async def _fire(self, game_id: int, kind: str, version: int) -> None:
        record = await self.store.get_game(game_id)
        # A finished game may still have posts to make (its last records, its results); nothing else of it runs.
        over = record.status != "active" and not (kind == "repost" and record.status == "finished")
        if over or self.reach.paused(record):
            # Over, or in a server that removed the bot: no timer runs (fresh ones come if it is added back).
            await self.store.clear_timers(game_id)
            return
        if kind == "repost":
            await self.store.clear_timer(game_id, kind, version)
            await self.poster.show(game_id)
            return
        game, current = await self.store.load_game(game_id)
        posts = await self.store.turn_posts(game_id)
        if version != posts.turn_version or posts.turn_key != turn_key(game):
            # Set for a turn that is over (or never shown): only this row goes (a newer turn's row of the same
            # kind stays), and the game is shown as it is now, which sets the current turn's timers afresh.
            await self.store.clear_timer(game_id, kind, version)
            if posts.turn_key != turn_key(game) or posts.shown_version < current:
                await self.poster.show(game_id)
            return
        prompt = game.prompt
        seat = record.seat_named(prompt.player) if prompt else None
        if seat is None or seat.ai:
            await self.store.clear_timer(game_id, kind, version)
            return
        if kind in TURN_TIMERS and await self.away.hold(record, seat, kind):
            self.bot.wake_timers()
            return
        if kind != "deadline" and await self.quiet.muted(game_id, seat.user_id):
            await self.store.clear_timer(game_id, kind, version)  # a reminder is a ping, and the game is muted
            return
        channel = await self.game_channel(record)
        if kind != "deadline":
            deadline = next((t for t in await self.store.timers(game_id) if t.kind == "deadline"), None)
            text = _("⏰ {player}, Kokeshi #{number} is waiting for you.").format(
                player=self.mention(record, seat.name), number=record.id
            )
            if deadline:
                text += " " + _("You have {duration} left.").format(duration=duration(deadline.due_at - now()))
            if channel is not None:
                await self.send(
                    record,
                    channel,
                    text,
                    allowed_mentions=pinging(seat.user_id),
                    silent=await self.quiet.silent(seat.user_id),
                )
            await self.store.clear_timer(game_id, kind, version)
            return
        played = False
        while prompt is not None and prompt.player == seat.name:
            action = await self.thinker.choose(DEFAULT_LEVEL, current, game)
            # If the player (or another process's time-out) answered at that very moment, carry on from the new
            # state; only the time-out that played a step counts the expired turn.
            try:
                await self.store.apply(
                    game_id, current, seat.name, action, source="timeout", timers=turn_timers(record), play=Decision()
                )
                played = True
            except (StaleVersion, IllegalAction):
                pass
            game, current = await self.store.load_game(game_id)
            prompt = game.prompt
        if not played:
            await self.store.clear_timer(game_id, kind, version)
            return
        expired = seat.expired + 1
        # After the third in a row the other people at the table choose what happens to the seat (`cogs.clock`).
        asking = expired >= EXPIRED_TURNS_BEFORE_AI and bool(self.clocks.opponents(record, seat))
        handed = expired >= EXPIRED_TURNS_BEFORE_AI and not asking
        await self.store.update_seat(game_id, seat.name, expired=expired, ai=True if handed else None)
        note = _("⌛ {player}'s time ran out, so the AI played that turn.").format(player=escape(seat.name))
        if handed:
            note += " " + ngettext(
                "After {count} turn in a row, the AI now plays this seat for good.",
                "After {count} turns in a row, the AI now plays this seat for good.",
                EXPIRED_TURNS_BEFORE_AI,
            ).format(count=EXPIRED_TURNS_BEFORE_AI)
        if channel is not None:
            await self.send(record, channel, note, allowed_mentions=discord.AllowedMentions.none())
        if asking:
            await self.clocks.expired(record, seat, channel, EXPIRED_TURNS_BEFORE_AI)
        for stale in ("deadline", "reminder_half", "reminder_late"):
            await self.store.clear_timer(game_id, stale, version)
        await self.drive_ai(await self.store.get_game(game_id))
        await self.poster.show(game_id)

    async def catch_up(self) -> None:
        """Post every game of this process's shards whose thread is behind its log (after a crash, or posts Discord
        refused); AI turns left unfinished go on in the background."""
        # Servers that removed the bot, or added it back, while it was stopped.
        for game_id in await self.reach.reconcile():
            await self._show_safely(game_id)
        self._resuming = asyncio.create_task(self.resume_then_move(), name="kokeshi-resume-ai")
        for game_id in await self.store.games_behind(self.bot.timer_shards):
            try:
                await self.poster.show(game_id)
            except Exception:
                log.exception("game %d: could not be shown", game_id)
