"""Replays of finished games: a private viewer that steps through the turns, and the whole game as an animation.

Every turn is rebuilt from the stored log (the store replays it) and shown as the table saw it when it was played:
the turn's record and its picture, from public views only, through the game's contract (`cogs.match_replay`), with
the animation a frame per turn (`render.animation`). A replay opens once the game is over, so it shows nothing the
players had not seen by then; the seed and the bag's order never leave the store.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections import OrderedDict

import discord
from discord import app_commands

import games as registry
import i18n
import render
import render.animation
from i18n import _
from kit.locks import KeyedLocks
from storage import DEFAULT_GAME, GameNotFound, GameRecord, challenge_key

from . import common
from .anywhere import bot_server
from .choices import game_choices
from .client import Client
from .common import UserError
from .limits import SELECT_OPTION, shorten
from .match_replay import film as match_film
from .match_replay import page as match_page
from .replay_items import REPLAY_ITEMS, ReplayButton, ReplaySelect, replay_view

log = logging.getLogger(__name__)

# The turn menu holds this many turns (Discord allows 25 options).
MENU_TURNS = 25
# Of those, the turns just before and after the one shown; the rest spread over the whole game, first and last
# included, so that any part of it is two choices away.
MENU_NEAR = 12
# Animations kept in memory, per game and language, so that a second click sends the same file at once.
FILMS_KEPT = 4


def menu_turns(shown: int, count: int, size: int = MENU_TURNS, near: int = MENU_NEAR) -> list[int]:
    """The turns the menu offers when turn `shown` of `count` is on screen: every one if they fit, else the `near`
    turns around it and as many others, evenly spread from the first to the last, as make `size`."""
    if count <= size:
        return list(range(1, count + 1))
    first = min(max(shown - near // 2, 1), count - near + 1)
    window = set(range(first, first + near))
    best = window
    for spread in range(2, count + 1):
        chosen = window | {1 + round(i * (count - 1) / (spread - 1)) for i in range(spread)}
        if len(chosen) > size:
            break
        best = chosen
    # Any room left goes to the turns nearest the one shown.
    rest = sorted(set(range(1, count + 1)) - best, key=lambda t: (abs(t - shown), t))
    return sorted(best | set(rest[: size - len(best)]))


class Replays:
    """Opens replays, steps through them and draws their animations; the slash command and the buttons call it."""

    def __init__(self, bot: Client) -> None:
        self.bot = bot
        self._films: OrderedDict[tuple[int, str], bytes] = OrderedDict()
        self._drawing: KeyedLocks[tuple[int, str]] = KeyedLocks()

    @property
    def store(self):
        return self.bot.store

    # ------------------------------------------------------------------ which game

    async def finished_game(self, interaction: discord.Interaction, game_id: int | None) -> GameRecord:
        """The finished game a replay is asked for (default: the caller's last one in this server), or a refusal
        that changes nothing."""
        if game_id is None:
            mine = [
                g for g in await self.store.games_for_user(interaction.user.id, ("finished",)) if _here(interaction, g)
            ]
            if not mine and bot_server(interaction) is None:
                raise UserError(_("You have no finished game yet: a replay opens once a game is over."))
            if not mine:
                raise UserError(_("You have no finished game in this server yet: a replay opens once a game is over."))
            return max(mine, key=lambda g: (g.finished_at or 0, g.id))
        try:
            record = await self.store.get_game(game_id)
        except GameNotFound:
            record = None
        # The same answer for a missing game, another server's game and a game in a channel the caller cannot read.
        if record is None or not _here(interaction, record) or not self._may_see(interaction, record):
            if bot_server(interaction) is None:
                raise UserError(
                    _("You played no game #{number}. `/kokeshi status` lists your games.").format(number=game_id)
                )
            raise UserError(
                _("There is no game #{number} in this server. `/kokeshi status` lists your games.").format(
                    number=game_id
                )
            )
        if record.challenge and record.seat_of(interaction.user.id) is None:
            kind, _colon, key = record.challenge.partition(":")
            if key == challenge_key(kind, discord.utils.utcnow()):
                # Everyone plays the same draws today (or this week): another player's game would show them.
                raise UserError(
                    _("This is a challenge still being played: its replay opens to others once it is over (UTC).")
                )
        if record.status != "finished":
            raise UserError(
                _(
                    "{game} #{number} is not over: its replay opens when the game ends. Its thread shows every "
                    "turn so far."
                ).format(game=_game_name(record), number=record.id)
            )
        return record

    def _may_see(self, interaction: discord.Interaction, record: GameRecord) -> bool:
        """The players, and whoever may read the channel the game was played in (its thread was theirs to read)."""
        if record.seat_of(interaction.user.id) is not None:
            return True
        channel = self.bot.get_channel(record.channel_id) if record.channel_id else None
        member = interaction.user
        if not isinstance(channel, discord.abc.GuildChannel) or not isinstance(member, discord.Member):
            return False
        return channel.permissions_for(member).read_messages

    # ------------------------------------------------------------------ the viewer

    async def open(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """A private viewer at the first turn."""
        record = await self.finished_game(interaction, game_id)
        content, file, view = await self._match_page(record, 1)
        await interaction.followup.send(content, file=file, view=view, ephemeral=True, allowed_mentions=_NO_PINGS)

    async def step(self, interaction: discord.Interaction, game_id: int, number: int) -> None:
        """The viewer, redrawn in place at turn `number`."""
        record = await self.finished_game(interaction, game_id)
        content, file, view = await self._match_page(record, number)
        await interaction.edit_original_response(
            content=content, attachments=[file], view=view, allowed_mentions=_NO_PINGS
        )

    async def _match_page(self, record: GameRecord, number: int) -> tuple[str, discord.File, discord.ui.View]:
        """A turn of the game's replay (`cogs.match_replay`), with its steps, menu and animation."""
        shown = await match_page(self.store, record, number)
        view = self._steps(record.id, shown.number, shown.count, shown.whose)
        return shown.content, shown.file, view

    def _steps(self, game_id: int, n: int, count: int, whose: tuple[str, ...]) -> discord.ui.View:
        """First, previous, next and last; the turn menu (`whose` names who played each turn); the animation."""
        view = discord.ui.View(timeout=None)
        steps = (
            ("first", 1, _("First"), n == 1),
            ("prev", n - 1, _("Previous"), n == 1),
            ("next", n + 1, _("Next"), n == count),
            ("last", count, _("Last"), n == count),
        )
        for op, target, label, disabled in steps:
            view.add_item(ReplayButton(game_id, max(target, 1), op, label, disabled=disabled))
        options = []
        for turn in menu_turns(n, count):
            label = _("Turn {turn}: {player}").format(turn=turn, player=whose[turn - 1])
            shown_label = shorten(label, SELECT_OPTION)
            options.append(discord.SelectOption(label=shown_label, value=str(turn), default=turn == n))
        menu = ReplaySelect(game_id, options)
        menu.item.row = 1
        view.add_item(menu)
        animated = ReplayButton(game_id, 0, "film", _("Whole game, animated"))
        animated.item.row = 2
        view.add_item(animated)
        return view

    # ------------------------------------------------------------------ the animation

    async def film(self, interaction: discord.Interaction, game_id: int) -> None:
        """The whole game as one animated picture, drawn in a worker, sent privately."""
        record = await self.finished_game(interaction, game_id)
        locale = i18n.current()
        data = await self.animation(record, locale)
        game = _game_name(record)
        await interaction.followup.send(
            _("{game} #{number}, turn by turn.").format(game=game, number=record.id),
            file=common.picture(
                data,
                f"{record.game}-{record.id}-replay.{render.animation.extension()}",
                _("{game} #{number}, the whole game animated, one turn after another.").format(
                    game=game, number=record.id
                ),
            ),
            ephemeral=True,
        )

    async def animation(self, record: GameRecord, locale: str) -> bytes:
        """The game's animation in `locale`: drawn once off the event loop, then kept for a while (it is made of
        public views only, and a finished game no longer changes)."""
        key = (record.id, locale)
        async with self._drawing(key):
            if key in self._films:
                self._films.move_to_end(key)
                return self._films[key]
            data, turns = await self._match_animation(record, locale)
            log.info("game %d: replay animation drawn, %d turns, %d bytes", record.id, turns, len(data))
            self._films[key] = data
            while len(self._films) > FILMS_KEPT:
                self._films.popitem(last=False)
        return data

    async def _match_animation(self, record: GameRecord, locale: str) -> tuple[bytes, int]:
        """The game's animation: its table picture after every turn, captioned, drawn through its contract in
        the pool (a thread for a game registered at run time); and how many turns it has."""
        shown = await match_film(self.store, record)
        draw = shown.module.table_picture
        try:
            data = await self.bot.tables.thinker.run_for(
                record.game, render.animation.film, draw, shown.steps, shown.title, shown.captions, locale
            )
        except render.animation.TooLarge:
            raise UserError(
                _("This game is too long to send as one animation: step through it turn by turn.")
            ) from None
        return data, len(shown.steps)

    # ------------------------------------------------------------------ the command's autocomplete

    async def autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        """The caller's finished games in this server, newest first."""
        games = [
            g for g in await self.store.games_for_user(interaction.user.id, ("finished",)) if _here(interaction, g)
        ]
        games.sort(key=lambda g: (g.finished_at or 0, g.id), reverse=True)
        return game_choices(interaction, current, games, _finished_label)


def _here(interaction: discord.Interaction, record: GameRecord) -> bool:
    """A game a replay may be asked for here: one of this server's, or, outside a server of the bot's (a DM, a place
    where only the player installed the app), one the caller played, wherever it was."""
    server = bot_server(interaction)
    if server is None:
        return record.seat_of(interaction.user.id) is not None
    return record.guild_id == server


def _finished_label(g: GameRecord) -> str:
    """A finished game as the replay command lists it: number, players and the day it ended (and the game, for
    any game but Kokeshi)."""
    date = i18n.format_date(dt.datetime.fromtimestamp(g.finished_at or g.updated_at, dt.UTC))
    if g.game != DEFAULT_GAME:
        players = ", ".join(s.name for s in sorted(g.seats, key=lambda s: s.seat))
        return _("#{number} {game} — {players} ({date})").format(
            number=g.id, game=_game_name(g), players=players, date=date
        )
    return _("#{number} — {players} ({date})").format(
        number=g.id, players=", ".join(s.name for s in g.seats), date=date
    )


def _game_name(record: GameRecord) -> str:
    """The game's title, or its key when this process does not know the game."""
    try:
        return registry.get(record.game).name
    except KeyError:
        return record.game


_NO_PINGS = discord.AllowedMentions.none()

__all__ = ["REPLAY_ITEMS", "ReplayButton", "ReplaySelect", "Replays", "menu_turns", "replay_view"]
