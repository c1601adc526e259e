"""What every table shares: private replies, names and channels, limits, away, quiet hours, digests, the clocks,
and the move of the games Kokeshi's own table left to the platform's."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping

import discord

import games
import i18n
from i18n import N_, _, ngettext
from kit.locks import KeyedLocks
from storage import BrokenGame, GameNotFound, GameRecord, StaleVersion, StoreRefusal

from . import anywhere
from .away import Aways
from .client import Client, home
from .clock import Clocks
from .common import UserError, guild_of
from .digest import Digests
from .limits import MESSAGE, shorten
from .quiet import QuietHours
from .reach import Reach
from .thinking import Thinker

log = logging.getLogger(__name__)

# Permissions the bot needs where it creates a game, with the names Discord shows in its settings.
NEEDED_PERMISSIONS = {
    "send_messages": N_("Send Messages"),
    "create_public_threads": N_("Create Public Threads"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "attach_files": N_("Attach Files"),
    "embed_links": N_("Embed Links"),
}
# Open (lobby or active) games a person may be in, and a channel may hold, unless the server's admins say otherwise.
LIMITS = {"open_per_user": 5, "open_per_channel": 20}
MAX_LIMIT = 500
# A game Kokeshi's own table kept (its log by its players' names), until it moves to the platform's table at a start.
MOVING = N_("This game is moving to the bot's new table: please try again in a minute.")
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
    "undo_nothing": N_("You have not made a move yet this turn."),
    "undo_timed_out": N_("That move was made for you when your time ran out; it cannot be undone."),
    "undo_drew": N_("Your last move drew a tile from the bag, so it cannot be taken back."),
    # A game Kokeshi's own table kept, in the moments after a start before it moves to the platform's table.
    "other_game": MOVING,
    "unknown_game": N_("This bot does not know that game."),
    "bad_settings": N_("Those settings are not among the game's."),
}


def refusal(exc: StoreRefusal) -> str:
    """The store's refusal in the current language, by its code."""
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


def missing_permissions(permissions: discord.Permissions) -> list[str]:
    """The names of the needed permissions that are missing, in the current language."""
    return [_(label) for attr, label in NEEDED_PERMISSIONS.items() if not getattr(permissions, attr)]


class Tables:
    """What every table shares: private replies, names and channels, limits, away, quiet hours, digests and the
    clocks, and the games of a server that comes back; cogs call it, it talks to Discord."""

    def __init__(self, bot: Client) -> None:
        self.bot = bot
        # Everything sent for a game (posts, DMs), every refusal of Discord's, the back-off of games it refuses,
        # and the servers the bot left.
        self.reach = Reach(bot)
        # Players away for a while: their turn timers wait, and the tables say so. Quiet hours: silent pings.
        self.away = Aways(self)
        self.quiet = QuietHours(self)
        # The daily digest some players take instead of a DM at each turn; a game's line says how far it is.
        self.digests = Digests(self, self.stage_of)
        # Time banks, the opponents' choice after a third expired turn, and rejoin (`cogs.matches` serves them).
        self.clocks = Clocks(bot, self.tell)
        # One move at a time per game, so that no decision is played on a game while it moves to the seat log.
        self._moving: KeyedLocks[int] = KeyedLocks()
        # AI decisions and replays' animations run in a process pool shared by every game.
        self.thinker = Thinker()

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

    async def thread_of(self, record: GameRecord) -> discord.abc.Messageable | None:
        """The game's thread (or its channel), if Discord still has it and lets the bot see it."""
        return await self.reach.thread_of(record)

    async def game_channel(self, record: GameRecord) -> discord.abc.Messageable | None:
        """Where the game is shown: its thread, or a new thread when someone deleted it."""
        return await self.reach.game_channel(record)

    # ------------------------------------------------------------------ lobby

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

    # ------------------------------------------------------------------ games that come back

    async def resume(self, interaction: discord.Interaction, record: GameRecord) -> GameRecord:
        """Someone used a command about a stuck game: it is tried again now (see `Reach.resume`), its live prompt
        posted again and its turn given fresh timers."""
        if not await self.reach.resume(interaction, record):
            return record
        if not record.named_log:
            await self.bot.matches.show_again(record.id)
        return await self.store.get_game(record.id)

    async def guild_joined(self, guild_id: int) -> None:
        """The bot is back in a server it left: its games resume and are shown (see `Reach.guild_joined`)."""
        for game_id in await self.reach.guild_joined(guild_id):
            await self._show_safely(game_id)

    async def _show_safely(self, game_id: int) -> None:
        try:
            if not (await self.store.get_game(game_id)).named_log:
                await self.bot.matches.show_again(game_id)
        except Exception:
            log.exception("game %d: could not be shown on return", game_id)

    def _of_my_shards(self, record: GameRecord) -> bool:
        """Whether this process keeps the game's turns (its server is one of this bot's shards; a DM's, every
        process's)."""
        shards, guild = self.bot.timer_shards, record.guild_id
        return shards is None or guild is None or (guild >> 22) % shards[0] in shards[1]

    async def move_to_platform(self) -> None:
        """Every game of this bot's shards still logged by its players' names, as Kokeshi's own table kept them
        (lobbies, games in progress, finished ones), moves to the platform's table (`Store.to_seat_log`), one at a
        time; a game in progress then goes on there (`Matches.resume`). Its posted buttons stay valid: the platform
        answers them. A game `verify` finds broken stays, and is logged; one that moved on meanwhile is moved at
        the next start."""
        moved = 0
        for game_id in await self.store.named_log_games():
            try:
                record = await self.store.get_game(game_id)
                if not self._of_my_shards(record):
                    continue
                async with self._moving(game_id):
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

    # ------------------------------------------------------------------ showing the game

    async def send(self, record: GameRecord, channel, content: str, **kwargs) -> discord.Message | None:
        """Post in the game's thread (see `Reach.send`); None when Discord refused."""
        return await self.reach.send(record, channel, content, **kwargs)

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

    async def stage_of(self, record: GameRecord) -> str | None:
        """How far a game is, as its digest line says it ("round 3", `GameModule.stage`); None when its game says
        nothing of it."""
        match, _version, record = await self.store.load_match(record.id)
        return games.get(record.game).stage(match.view(None))

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

    async def catch_up(self) -> None:
        """After a start: the games of servers that removed the bot, or added it back, while it was stopped; then
        every game still logged by its players' names moves to the platform's table, before any timer fires."""
        for game_id in await self.reach.reconcile():
            await self._show_safely(game_id)
        await self.move_to_platform()
