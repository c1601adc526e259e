"""The `/kokeshi` slash commands: each one checks its input and hands over to the tables."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord
from discord import app_commands
from discord.ext import commands

import games
import i18n
import render
from games.base import GameModule
from i18n import N_, _, format_points
from storage import DEFAULT_GAME, GameNotFound, GameRecord, Seat

from . import anywhere, common
from .answering import Answer, answered
from .away import stamp
from .choices import game_choices
from .clock import CLOCKS, FIXED
from .common import LANGUAGES, TIMERS, UserError, duration, now
from .limits import CHOICE_NAME, MAX_CHOICES, in_messages, shorten
from .match_looks import MatchLooks
from .matches import seat_names
from .quiet import zone_choices
from .speech import escape
from .tables import MOVING, Tables, fit_lines
from .wiring import WiredClient

log = logging.getLogger(__name__)

Choice = app_commands.Choice
# The commands whose `game` may be a game of any kind (the others are Kokeshi's own).
ANY_GAME = ("mute", "unmute")
# Multiplayer lobbies live in servers the bot is in; elsewhere these commands are refused (see `cogs.anywhere`).
SERVER_ONLY = {anywhere.SERVER: True}
SIDES = [Choice(name="basic (recommended first)", value="basic"), Choice(name="advanced", value="advanced")]
LEVELS = [
    Choice(name="easy", value="easy"),
    Choice(name="normal (default)", value="normal"),
    Choice(name="hard", value="hard"),
]


def kokeshi() -> GameModule:
    """The game this group plays, from the registry: the default game, whose players know these commands by name."""
    return games.get(DEFAULT_GAME)


def help_text() -> str:
    """`/kokeshi help`, in the current language: Kokeshi's guide, then the other games'."""
    others_text = _(
        "**Other games** `/games new` opens a table of another game (Kōhaku, solo against Danny or with up to 4; "
        "`deadline` is each turn's time, with reminders as above), `/games challenge` its daily or weekly "
        "challenge, `/games leaderboard` its boards, `/games stats` a player's record at it; in its thread, the "
        "buttons or `/games play`, `/games undo` and `/games resign` (the AI plays your seat, you rank last). "
        "`/games status` lists all your games, Kokeshi's too, your turns first; turn DMs, quiet hours, `mute` and "
        "the digest of `/kokeshi notify` cover every game."
    )
    own = kokeshi().help_text()
    return f"{own}\n{others_text}" if own else others_text


STATUSES = {
    "lobby": N_("lobby"),
    "active": N_("in progress"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
    "broken": N_("stopped"),
}


def status_name(status: str) -> str:
    """A game's status as players read it, in the current language."""
    return _(STATUSES[status]) if status in STATUSES else status


def _game_label(g: GameRecord) -> str:
    """A game as the `game` option lists it: number, game and status."""
    return _("#{number} — {game}, {status}").format(number=g.id, game=common.game_name(g), status=status_name(g.status))


def _ours(record: GameRecord) -> bool:
    """A game of Kokeshi: `/kokeshi` answers it through the platform's table, where every game is played."""
    return record.game == DEFAULT_GAME


def _platform_game(record: GameRecord) -> str:
    """Where another game played at the platform's table is played, for a `/kokeshi` command used on it."""
    return _(
        "{game} #{number} is played at the `/games` table: use the buttons in its thread, or `/games status`, "
        "`/games table`, `/games log`, `/games play` and `/games hint`."
    ).format(game=common.game_name(record), number=record.id)


@anywhere.INSTALLS
@anywhere.CONTEXTS
class Kokeshi(commands.GroupCog, group_name="kokeshi", group_description="Play Kokeshi, the kokeshi workshop game"):
    """Slash commands; all game logic is in `Tables`."""

    def __init__(self, bot: WiredClient) -> None:
        self.bot = bot
        # A look at a game of Kokeshi played at the platform's table, as `/games table` and `/games log` give it.
        self.looks = MatchLooks(bot, bot.tables)
        # The game's words and pictures load with the commands, not at their first use: `help` answers from memory.
        kokeshi()
        super().__init__()

    @property
    def tables(self) -> Tables:
        return self.bot.tables

    @property
    def store(self):
        return self.bot.store

    async def cog_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError):
        original = getattr(error, "original", error)
        if isinstance(original, UserError):
            await self.tables.tell(interaction, str(original))
            return
        log.error(
            "unexpected error in /%s", interaction.command and interaction.command.qualified_name, exc_info=original
        )
        with contextlib.suppress(discord.HTTPException), i18n.using(interaction.locale):
            await self.tables.tell(interaction, _("Sorry, something went wrong on my side. Nothing was lost."))

    # ------------------------------------------------------------------ finding the game

    async def resolve(
        self, interaction: discord.Interaction, game_id: int | None, *, lobby: bool = False, finished: bool = False
    ) -> GameRecord:
        """The game a command is about: the `game` option, the thread it is used in, or the caller's game here;
        with `finished`, the caller's last finished game in this channel when none is going on here."""
        # Where the bot is in no server (our DM, a group DM, a server where only the player installed the app), the
        # games within reach are those played in our DM.
        place = anywhere.bot_server(interaction)
        if game_id is not None:
            try:
                record = await self.store.get_game(game_id)
            except GameNotFound:
                record = None
            # The same answer for a missing game and another server's game: nothing leaks across servers.
            if (record is None or record.guild_id is not None) and place is None:
                if anywhere.in_bot_dm(interaction):
                    text = _(
                        "There is no game #{number} in our DM: here I know the games played in it. `/kokeshi status` "
                        "lists all your games, with links."
                    )
                else:
                    text = _(
                        "Here I know only the games played in our DM, and #{number} is not one of them. "
                        "`/kokeshi status` lists all your games, with links."
                    )
                raise UserError(text.format(number=game_id))
            if record is None or record.guild_id != place:
                raise UserError(
                    _("There is no game #{number} in this server. `/kokeshi status` lists your games.").format(
                        number=game_id
                    )
                )
            return await self._resumed(interaction, record)
        channel = interaction.channel
        channel_id: int | None
        if isinstance(channel, discord.Thread):
            record = await self.store.game_by_thread(channel.id)
            if record is not None:
                return await self._resumed(interaction, record)
            channel_id = channel.parent_id
        else:
            channel_id = channel.id if channel else None
        if lobby:
            lobbies = await self.store.open_lobbies(place) if place is not None else []
            # The lobbies of this table: a `/games` lobby is joined with its own buttons.
            found = [g for g in lobbies if g.channel_id == channel_id and _ours(g)]
            if not found:
                raise UserError(_("There is no open lobby in this channel. `/kokeshi new` opens one."))
        else:
            mine = await self.store.games_for_user(interaction.user.id)
            found = [g for g in mine if g.guild_id == place and _ours(g)]
            here = [g for g in found if g.channel_id == channel_id]
            if not here and finished:
                done = await self.store.games_for_user(interaction.user.id, ("finished",))
                done = [g for g in done if g.guild_id == place and g.channel_id == channel_id]
                if done:
                    return done[-1]  # finished: nothing to resume
            found = here or found
            if not found:
                if place is None:
                    text = _(
                        "You have no game in our DM. `/kokeshi solo`, `/kokeshi daily` or `/kokeshi weekly` starts "
                        "one there."
                    )
                else:
                    text = _("You are not in a game here. `/kokeshi new` or `/kokeshi solo` starts one.")
                elsewhere = await self.store.games_for_user(interaction.user.id)
                if elsewhere:
                    links = ", ".join(self.tables.where(g) for g in elsewhere[:5])
                    text += "\n" + _("Your games: {games}").format(games=links)
                raise UserError(text)
        if len(found) > 1:
            listed = ", ".join(self.tables.where(g) for g in found[:10])
            raise UserError(_("Several games match ({games}): choose one with the `game` option.").format(games=listed))
        return await self._resumed(interaction, found[0])

    async def _resumed(self, interaction: discord.Interaction, record: GameRecord) -> GameRecord:
        """A command about a game whose posts Discord refuses tries it again now (and can move a game whose
        channel was deleted to this one), at either table; autocomplete only looks. A game of another kind, played at
        the platform's table (made with `/games new`), is pointed there, privately."""
        if not _ours(record) and (interaction.command is None or interaction.command.name not in ANY_GAME):
            raise UserError(_platform_game(record))
        if record.named_log:
            raise UserError(_(MOVING))
        if interaction.type is not discord.InteractionType.application_command:
            return record
        return await self.tables.resume(interaction, record)

    async def game_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[int]]:
        """The caller's games in this server, then the lobbies here they could join; outside a server of the bot's,
        the games of our DM (and no lobby: those of every server would show)."""
        place = anywhere.bot_server(interaction)
        # Muting takes a game of any kind; every other command, Kokeshi's games.
        every = interaction.command is not None and interaction.command.name in ANY_GAME
        games = [
            g
            for g in await self.store.games_for_user(interaction.user.id)
            if g.guild_id == place and (every or _ours(g))
        ]
        lobbies = [] if place is None else await self.store.open_lobbies(place)
        lobbies = [g for g in lobbies if g.seat_of(interaction.user.id) is None and _ours(g)]
        return game_choices(interaction, current, games + lobbies, _game_label)

    async def _record_for_autocomplete(self, interaction: discord.Interaction) -> GameRecord | None:
        """The game an autocomplete is about (the `game` option, or the one the caller is in here); None when there
        is none, as an autocomplete shows nothing rather than an error."""
        try:
            return await self.resolve(interaction, getattr(interaction.namespace, "game", None))
        except Exception:
            return None

    # ------------------------------------------------------------------ lobby commands

    @app_commands.command(name="new", description="Open a lobby for a new game in this channel", extras=SERVER_ONLY)
    @app_commands.describe(
        players="Seats at the table, 2 to 4",
        side="Happiness board side",
        timer="Time each player has for a turn",
        ai="How many seats the AI plays",
        language="The language of the game's thread and pictures (default: the server's)",
        level="How strong the AI players are",
        min_finish="Only players who finished at least this percentage of their games may join (0: anyone)",
        clock="A fixed timer per turn, or a time bank per player: time added after each turn, up to a cap",
    )
    @app_commands.choices(side=SIDES, language=LANGUAGES, level=LEVELS)
    @app_commands.choices(timer=TIMERS)
    @app_commands.choices(clock=CLOCKS)
    async def new(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 2, 4] = 2,
        side: str = "basic",
        timer: int = 24 * 3600,
        ai: app_commands.Range[int, 0, 3] = 0,
        language: str | None = None,
        level: str = "normal",
        min_finish: app_commands.Range[int, 0, 100] = 0,
        clock: str = FIXED,
    ) -> None:
        await self.tables.guard(
            interaction,
            None,
            self.bot.matches.lobbies.new(
                interaction,
                DEFAULT_GAME,
                players,
                ai,
                level,
                f"side={side}",
                timer,
                clock,
                language=language,
                min_finish=min_finish,
            ),
        )

    @app_commands.command(name="solo", description="Play alone against the automa")
    @app_commands.describe(side="Happiness board side")
    @app_commands.choices(side=SIDES)
    async def solo(self, interaction: discord.Interaction, side: str = "basic") -> None:
        await self.tables.guard(
            interaction,
            None,
            self.bot.matches.lobbies.new(interaction, DEFAULT_GAME, 1, variant=f"side={side}", deadline=0),
        )

    @app_commands.command(name="join", description="Take a seat in an open lobby", extras=SERVER_ONLY)
    @app_commands.describe(game="The game's number (only needed when several lobbies are open)")
    async def join(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def run() -> None:
            record = await self.resolve(interaction, game, lobby=True)
            await self.bot.matches.lobbies.on_lobby(interaction, record.id, "join")

        await self.tables.guard(interaction, game, run())

    @app_commands.command(name="leave", description="Leave a lobby before the game starts", extras=SERVER_ONLY)
    async def leave(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def run() -> None:
            record = await self.resolve(interaction, game)
            await self.bot.matches.lobbies.on_lobby(interaction, record.id, "leave")

        await self.tables.guard(interaction, game, run())

    @app_commands.command(name="start", description="Start your lobby's game (host only)", extras=SERVER_ONLY)
    async def start(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def run() -> None:
            record = await self.resolve(interaction, game)
            await self.bot.matches.lobbies.on_lobby(interaction, record.id, "start")

        await self.tables.guard(interaction, game, run())

    @app_commands.command(name="cancel", description="Cancel a lobby or a game (host or Manage Threads)")
    async def cancel(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def run() -> None:
            record = await self.resolve(interaction, game)
            await self.bot.matches.cancel_in(interaction, record)

        await self.tables.guard(interaction, game, run())

    # ------------------------------------------------------------------ playing by command

    @app_commands.command(name="play", description="Make your current decision: pick one of your choices")
    @app_commands.describe(choice="Start typing: your choices right now")
    async def play(self, interaction: discord.Interaction, choice: str, game: int | None = None) -> None:
        async def run() -> None:
            record = await self.resolve(interaction, game)
            # As the autocomplete offers it, "version:choice"; a choice typed alone is taken as it is.
            number, _sep, picked = choice.partition(":")
            if number.isdigit() and picked:
                await self.bot.matches.play_in(interaction, record, picked, int(number))
            else:
                await self.bot.matches.play_in(interaction, record, choice)

        await self.tables.guard(interaction, game, run())

    @play.autocomplete("choice")
    async def play_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        record = await self._record_for_autocomplete(interaction)
        if record is None or record.named_log:
            return []
        with i18n.using(interaction.locale):
            offered = await self.bot.matches.choices_in(interaction, record, current)
        return [Choice(name=shorten(label, CHOICE_NAME), value=f"{v}:{a}") for label, a, v in offered][:MAX_CHOICES]

    async def _own_seat(self, interaction: discord.Interaction, game: int | None) -> tuple[GameRecord, Seat]:
        """The game a command is about and the caller's seat in it; refused when the caller has none."""
        record = await self.resolve(interaction, game)
        seat = record.seat_of(interaction.user.id)
        if seat is None:
            raise UserError(_("You are not playing in this game."))
        return record, seat

    @app_commands.command(name="hint", description="Privately: what the hard AI would choose now, and why")
    async def hint(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def run() -> None:
            record = await self.resolve(interaction, game)
            await self.bot.matches.on_hint(interaction, record.id)

        await self.tables.guard(interaction, game, run())

    @app_commands.command(name="undo", description="Take back your last choice of this turn")
    async def undo(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def run() -> None:
            record, _seat = await self._own_seat(interaction, game)
            if record.status != "active":
                raise UserError(_("This game is not being played."))
            await self.bot.matches.undo(interaction, record.id)

        await self.tables.guard(interaction, game, run())

    @app_commands.command(name="resign", description="Leave a game in progress: the AI takes your seat")
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def run() -> None:
            record, _seat = await self._own_seat(interaction, game)
            await self.bot.matches.resign_in(interaction, record)

        await self.tables.guard(interaction, game, run())

    # ------------------------------------------------------------------ looking

    @app_commands.command(name="table", description="The whole table, every board at once, or one workshop large")
    @app_commands.describe(player="One player's workshop board, large (default: the whole table)")
    async def table(self, interaction: discord.Interaction, player: str | None = None, game: int | None = None) -> None:
        async def run() -> None:
            record = await self.resolve(interaction, game)
            await self.looks.table(interaction, record.id, player)

        await self.tables.guard(interaction, game, run())

    @table.autocomplete("player")
    async def player_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        record = await self._record_for_autocomplete(interaction)
        if record is None or record.named_log:
            return []
        return await self.looks.seat_choices(interaction, record.id, current)

    @app_commands.command(name="status", description="Your games, whose turn it is and the scores")
    async def status(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def run() -> None:
            here = None
            if game is not None:
                here = await self.resolve(interaction, game)
            elif isinstance(interaction.channel, discord.Thread):
                here = await self.store.game_by_thread(interaction.channel.id)
                if here is not None and not _ours(here):
                    raise UserError(_platform_game(here))  # `/games status` tells it, with the caller's other games
            if here is not None:
                # The platform's status tells the caller's games, most urgent first, under this game in detail.
                detail = await self._platform_detail(here)
                await self.bot.matches.boards.status(interaction, detail=detail)
                return
            # Every game of the caller, in every server, each with a link to its thread.
            games = [
                g
                for g in await self.store.games_for_user(interaction.user.id)
                if (here is None or g.id != here.id) and _ours(g)
            ]
            if not games:
                raise UserError(_("You are not in any game. `/kokeshi new` or `/kokeshi solo` starts one."))
            lines = [await self._status_line(g, interaction.user.id, interaction.guild_id) for g in games]
            # The games whose pings the caller muted say so, lobbies included.
            muted = await self.store.muted_games(interaction.user.id)
            mark = _("🔕 muted")
            lines = [f"{line} — {mark}" if g.id in muted else line for g, line in zip(games, lines, strict=True)]
            head = _("**Your games**")
            await self.tables.tell(interaction, fit_lines(lines, head=head, tail=self.tables.home(games[0])))

        await self.tables.guard(interaction, game, run())

    async def _status_line(self, record: GameRecord, user_id: int, guild_id: int | None = None) -> str:
        where = self.tables.where(record)
        guild = self.bot.get_guild(record.guild_id) if record.guild_id not in (None, guild_id) else None
        if guild is not None:
            where = _("{game} in {server}").format(game=where, server=escape(guild.name))
        if record.status == "lobby":
            return _("• {game}: lobby, {seated}/{seats} players").format(
                game=where, seated=len(record.seats), seats=record.players
            )
        if record.named_log:
            return _("• {game}: {state}").format(game=where, state=_(MOVING))
        return await self._platform_line(record, user_id, where)

    async def _marks(self, record: GameRecord, user_id: int, mover: Seat | None) -> str:
        """What a game's line in the list adds, at either table: that the player it waits for (another person) is
        away, and that the game is paused."""
        marks = ""
        if mover is not None and mover.user_id not in (None, user_id) and not mover.ai:
            away = await self.store.away(mover.user_id)
            if away is not None:
                marks += " — " + _("💤 away until {until}").format(until=stamp(away.ends_at))
        reach = await self.store.reach(record.id)
        if reach is not None and reach.unreachable_at is not None:
            marks += " — " + _(
                "⚠️ paused: I cannot post in its thread (`/kokeshi status game:{number}` says why)"
            ).format(number=record.id)
        return marks

    async def _platform_line(self, record: GameRecord, user_id: int, where: str) -> str:
        """A game played at the platform's table in the list: how far it is, whose turn it is, and its marks."""
        match, _version, record = await self.store.load_match(record.id)
        waiting = match.waiting()
        seat = record.seat_of(user_id)
        mover = None
        if match.is_over or not waiting:
            turn = _("the game is over")
        elif seat is not None and seat.seat in waiting:
            turn = _("**your turn**")
        else:
            mover = next(s for s in record.seats if s.seat == waiting[0])
            turn = _("{player}'s turn").format(player=escape(mover.name))
        stage = games.get(record.game).stage(match.view(None))
        if stage is not None:
            line = _("• {game}: {round}, {turn}").format(game=where, round=stage, turn=turn)
        else:
            line = _("• {game}: {turn}").format(game=where, turn=turn)
        return line + await self._marks(record, user_id, mover)

    async def _platform_detail(self, record: GameRecord) -> str:
        """A game of Kokeshi in progress in detail: its side and round, whom it waits for and for what, the time
        left, who is away, a pause, and each player's score, best first (the automa's too)."""
        if record.status != "active" or not _ours(record):
            return ""
        match, _version, record = await self.store.load_match(record.id)
        module = games.get(record.game)
        view = match.view(None)
        names = seat_names(record)
        lines = [
            _("**Kokeshi #{number}** — {side}, {round}").format(
                number=record.id, side=module.setting_label("side", record.side), round=module.stage(view)
            )
        ]
        prompts = match.prompts()
        if prompts:
            prompt = prompts[0]
            lines.append(
                _("Waiting for **{player}**: {question}.").format(
                    player=escape(names[prompt.seat]), question=module.short_question(view, prompt)
                )
            )
            deadline = next((t for t in await self.store.timers(record.id) if t.kind == "deadline"), None)
            if deadline:
                lines.append(
                    _("Time left for this turn: {duration}.").format(duration=duration(deadline.due_at - now()))
                )
            away = await self.tables.away.note(record)
            if away:
                lines.append(away)
            # A bank clock's time left is on the caller's line of the list below it.
        else:
            lines.append(_("The game is over."))
        reach = await self.store.reach(record.id)
        if reach is not None and record.status == "active":
            lines.append(self.tables.reach.stuck_text(record, reach))
        for name, total in module.totals(match.standing(), names):
            lines.append(
                i18n.ngettext("• {player}: {total} point", "• {player}: {total} points", total).format(
                    player=escape(name), total=format_points(total)
                )
            )
        return "\n".join(lines)

    @app_commands.command(name="log", description="The last moves of a game")
    @app_commands.describe(count="How many moves (default 10)")
    async def log_(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 50] = 10, game: int | None = None
    ):
        async def run() -> None:
            record = await self.resolve(interaction, game, finished=True)
            await self.looks.log(interaction, record.id, count)

        await self.tables.guard(interaction, game, run())

    @app_commands.command(name="rules", description="Every tile and what it does")
    async def rules(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            # The rules for a phone, a few portrait pages that each fill the screen when tapped, then every tile on
            # one wide sheet: one message, well within Discord's 10 files (Kokeshi's own, as `/games rules` shows them).
            game = kokeshi()
            shown = await asyncio.to_thread(game.rules_pictures)
            files = [common.picture(p.png, render.filename(p.name), p.alt) for p in shown]
            await interaction.followup.send(game.rules_text() or "", files=files, ephemeral=True)

        await self.tables.guard(interaction, None, run())

    @app_commands.command(name="leaderboard", description="The best Kokeshi players, here or in the world")
    @app_commands.describe(
        scope="This server or everyone (default: this server; global outside servers)", board="What to rank by"
    )
    @app_commands.choices(
        scope=[Choice(name="this server", value="server"), Choice(name="global", value="global")],
        board=[
            Choice(name="wins", value="wins"),
            Choice(name="rating", value="rating"),
            Choice(name="best score", value="best"),
            Choice(name="best solo score", value="solo"),
            Choice(name="today's daily challenge", value="daily"),
            Choice(name="this week's challenge", value="weekly"),
        ],
    )
    async def leaderboard(
        self, interaction: discord.Interaction, scope: str | None = None, board: str | None = None
    ) -> None:
        await self.tables.guard(interaction, None, self.bot.community.leaderboard(interaction, scope, board))

    @app_commands.command(name="stats", description="A player's record, ratings and score history")
    @app_commands.describe(user="Whose stats (default: yours)")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        await self.tables.guard(interaction, None, self.bot.community.stats(interaction, user or interaction.user))

    @app_commands.command(name="daily", description="Today's solo challenge: the same game for everyone (UTC day)")
    async def daily(self, interaction: discord.Interaction) -> None:
        await self.tables.guard(
            interaction, None, self.bot.matches.lobbies.challenge(interaction, DEFAULT_GAME, "daily")
        )

    @app_commands.command(name="weekly", description="This week's solo challenge, on the advanced side")
    async def weekly(self, interaction: discord.Interaction) -> None:
        await self.tables.guard(
            interaction, None, self.bot.matches.lobbies.challenge(interaction, DEFAULT_GAME, "weekly")
        )

    notify = app_commands.Group(name="notify", description="DMs, quiet hours, muted games and the daily digest")

    async def _notify(self, interaction: discord.Interaction, setting: str) -> None:
        await self.store.set_user_setting(interaction.user.id, "notify", setting)
        # A DM at each turn, or none: either way, no daily digest any more.
        await self.store.set_digest(interaction.user.id, None)
        # Their own choice now: no need to tell them about DMs that were refused before.
        await self.store.set_user_setting(interaction.user.id, "dm_closed", None)
        # The DMs speak the language the player asked in.
        await self.store.set_user_setting(interaction.user.id, "language", i18n.resolve(interaction.locale))
        if setting == "on":
            text = _("I'll DM you when it's your turn.")
        else:
            text = _("No more DMs; the thread mention stays.")
        await self.tables.tell(interaction, text)

    @notify.command(name="on", description="Get a DM when it's your turn")
    async def notify_on(self, interaction: discord.Interaction) -> None:
        await self.tables.guard(interaction, None, self._notify(interaction, "on"))

    @notify.command(name="off", description="No DMs when it's your turn; the thread mention stays")
    async def notify_off(self, interaction: discord.Interaction) -> None:
        await self.tables.guard(interaction, None, self._notify(interaction, "off"))

    @notify.command(name="quiet", description="Quiet hours: pings come silently then, deadlines move to their end")
    @app_commands.describe(
        hours="From-to in your time, like 23:00-08:00; off ends quiet hours",
        timezone="Your time zone (start typing a city, e.g. Lisbon)",
    )
    async def notify_quiet(self, interaction: discord.Interaction, hours: str, timezone: str | None = None) -> None:
        async def run() -> None:
            await self.tables.tell(interaction, await self.tables.quiet.set(interaction.user.id, hours, timezone))

        await self.tables.guard(interaction, None, run())

    @notify_quiet.autocomplete("timezone")
    async def timezone_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return zone_choices(current)

    async def _mute(self, interaction: discord.Interaction, game: int | None, on: bool) -> None:
        record, _seat = await self._own_seat(interaction, game)
        await self.tables.tell(interaction, await self.tables.quiet.mute(interaction.user.id, record, on))

    @notify.command(name="mute", description="Mute one game: no pings, reminders or DMs about it")
    @app_commands.describe(game="The game's number (default: the game of this thread, or yours here)")
    async def notify_mute(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self.tables.guard(interaction, game, self._mute(interaction, game, True))

    @notify.command(name="unmute", description="Let one game's pings, reminders and DMs reach you again")
    @app_commands.describe(game="The game's number (default: the game of this thread, or yours here)")
    async def notify_unmute(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self.tables.guard(interaction, game, self._mute(interaction, game, False))

    @notify.command(name="digest", description="One DM a day listing the games where it's your turn")
    @app_commands.describe(time="When, like 08:00 (your quiet hours' time zone, else UTC); off stops it")
    async def notify_digest(self, interaction: discord.Interaction, time: str) -> None:
        async def run() -> None:
            user_id = interaction.user.id
            text = await self.tables.digests.set(user_id, time)
            # The digest speaks the language the player asked in; DMs refused before are their own choice now.
            await self.store.set_user_setting(user_id, "dm_closed", None)
            await self.store.set_user_setting(user_id, "language", i18n.resolve(interaction.locale))
            await self.tables.tell(interaction, text)

        await self.tables.guard(interaction, None, run())

    # Answered at once, from memory: nothing slow comes before this reply.
    @app_commands.command(name="help", description="How to play Kokeshi here", extras={"answer": Answer.SELF})
    async def help(self, interaction: discord.Interaction) -> None:
        with i18n.using(interaction.locale):
            # Whole lines per message: the help is longer than one message in some languages.
            first, *rest = in_messages(help_text())
            await self.tables.tell(interaction, first)
            answered(interaction)
            for piece in rest:
                await self.tables.tell(interaction, piece)
            await self.tables.dm_notice(interaction)

    # Every command with a `game` option offers the caller's games there, with the one autocomplete.
    for _command in [c for c in list(locals().values()) if isinstance(c, app_commands.Command)]:
        if any(p.name == "game" for p in _command.parameters):
            _command.autocomplete("game")(game_autocomplete)
    del _command


async def setup(bot: WiredClient) -> None:
    await bot.add_cog(Kokeshi(bot))
