"""A look at another game's table without scrolling its thread: `/games table` and `/games log`, privately.

The game is the `game` option, else the one whose thread the command is used in, else the caller's newest game in
progress here. What is shown is what the thread shows or what the caller's own seat may see: the table picture
drawn from a spectator's view, or the decision picture of the caller's seat when it decides now; the log is the
game's own narration of its stored decisions, which tells a secret choice only by what the thread said of it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import discord
from discord import app_commands

import games
from games.base import GameModule, Match
from i18n import _, format_number, ngettext
from storage import GameNotFound, GameRecord, MatchDecision, Store

from . import common
from .anywhere import bot_server
from .choices import game_choices, matching_choices
from .client import Client, TableDesk
from .common import UserError, game_name
from .limits import MESSAGE, fit_files
from .matches import seat_names, worded_names
from .speech import escape, quote

# The most steps `/games log` is asked for; fewer show when they do not fit one message.
MOST_STEPS = 50


class MatchLooks:
    """`/games table` and `/games log`: each a private answer from a few store reads, changing nothing."""

    def __init__(self, bot: Client, tables: TableDesk) -> None:
        self.bot = bot
        self.tables = tables

    @property
    def store(self) -> Store:
        return self.bot.store

    # ------------------------------------------------------------------ which game

    async def _mine_here(self, interaction: discord.Interaction) -> list[GameRecord]:
        """The caller's games in progress here (in our DM: those of our DM), newest first: Kokeshi's, played at a
        table of its own, too (the store reads its games through the contract by their seating)."""
        place = bot_server(interaction)
        found = [g for g in await self.store.games_for_user(interaction.user.id, ("active",)) if g.guild_id == place]
        return sorted(found, key=lambda g: g.id, reverse=True)

    async def resolve(self, interaction: discord.Interaction, game_id: int | None) -> GameRecord:
        """The game `/games <command>` is about: the `game` option (a game of this server, or one the caller plays
        anywhere), else the thread's game, else the caller's newest game in progress here; a mistake in words
        otherwise (a game of another server is answered as one that does not exist: nothing leaks)."""
        record: GameRecord | None
        if game_id is not None:
            try:
                record = await self.store.get_game(game_id)
            except GameNotFound:
                record = None
            place = bot_server(interaction)
            # Outside a server of the bot's (our DM, a place only the caller installed the app), only their own games.
            here = place is not None and record is not None and record.guild_id == place
            if record is None or not (here or record.seat_of(interaction.user.id) is not None):
                raise UserError(
                    _("There is no game #{number} here. `/games status` lists your games.").format(number=game_id)
                )
        else:
            channel = interaction.channel
            record = await self.store.game_by_thread(channel.id) if isinstance(channel, discord.Thread) else None
            if record is None:
                mine = await self._mine_here(interaction)
                if not mine:
                    raise UserError(
                        _(
                            "You have no game in progress here. `/games status` lists your games, and `/games new` "
                            "starts one."
                        )
                    )
                record = mine[0]
        if record.status == "lobby":
            raise UserError(_("{game} #{number} has not started yet.").format(game=game_name(record), number=record.id))
        if record.seed is None:  # a lobby cancelled before its first turn: no table, no log
            raise UserError(
                _("{game} #{number} was cancelled before it began.").format(game=game_name(record), number=record.id)
            )
        return record

    async def autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        """The `game` option's choices: the caller's games in progress here, newest first, by name or number."""
        games_here = await self._mine_here(interaction)
        return game_choices(
            interaction,
            current,
            games_here,
            lambda g: _("{game} #{number}").format(game=game_name(g), number=g.id),
        )

    # ------------------------------------------------------------------ the table

    async def table(self, interaction: discord.Interaction, game_id: int | None, player: str | None = None) -> None:
        """`/games table`: privately, the table of a game in progress as the caller may see it now, in their
        language: their own decision picture when their seat decides now (with the question), else the table as
        anyone sees it (with whom it waits for). With `player` (a seat's name), that seat's board alone, large, where
        the game draws one (`GameModule.board_picture`; Kokeshi: its workshop, as `/kokeshi table player:` shows it);
        else the table as anyone sees it with that seat's board first (`GameModule.table_pictures`), or the caller's
        own choice when it is their seat."""
        record = await self.resolve(interaction, game_id)
        module = games.get(record.game)
        if record.status == "finished":
            raise UserError(
                _("{game} #{number} is over: `/games replay` steps through it.").format(
                    game=module.name, number=record.id
                )
            )
        if record.status != "active":
            raise UserError(_("{game} #{number} is over.").format(game=module.name, number=record.id))
        match, _version, record = await self.store.load_match(record.id)
        names = seat_names(record)
        seat = record.seat_of(interaction.user.id)
        first = seat.seat if seat is not None else None
        if player is not None:
            first = _seat_named(record, player)
            # That seat's board alone, large, where the game draws one (Kokeshi: its workshop), whoever's it is.
            board = await asyncio.to_thread(module.board_picture, match.view(None), names, first)
            if board is not None:
                text = _("**{player}'s board in {game} #{number}**").format(
                    player=escape(names[first]), game=module.name, number=record.id
                )
                files = [common.picture(board.png, f"{record.game}-{record.id}-{board.name}.png", board.alt)]
                await self.tables.tell(interaction, text, files=files, allowed_mentions=discord.AllowedMentions.none())
                return
        # A seat the AI plays (resigned, or taken over when its time ran out) decides nothing: its player looks on;
        # nor does a caller who asked for another seat's board first.
        prompt = next(
            (
                p
                for p in match.prompts()
                if seat is not None and not seat.ai and p.seat == seat.seat and first == seat.seat
            ),
            None,
        )
        head = _("**The table of {game} #{number}**").format(game=module.name, number=record.id)
        picture: bytes | None
        if prompt is not None:
            view = match.view(prompt.seat)
            question = module.question_named(view, prompt, names)
            picture = await asyncio.to_thread(module.decision_picture, view, names, prompt.seat)
            text = "\n".join((head, _("**Your turn:** {question}").format(question=question)))
            alt = _("Your choice in {game} #{number}: {question}").format(
                game=module.name, number=record.id, question=question
            )
            # The whole table beside it, the caller's board first, where the game draws it (every workshop at once).
            whole = await asyncio.to_thread(module.table_pictures, view, names, prompt.seat)
        else:
            view = match.view(None)
            # The whole table, the caller's board (or the one asked for) first, where the game draws it; else the
            # table anyone sees.
            whole = await asyncio.to_thread(module.table_pictures, view, names, first)
            picture = None if whole else await asyncio.to_thread(module.table_picture, view, names)
            text = "\n".join((head, _("Waiting for: {names}.").format(names=_waiting(record, match, bold=True))))
            alt = _("The {game} table, move {moves}. Waiting for: {names}.").format(
                game=module.name, moves=format_number(record.moves), names=_waiting(record, match)
            )
        stem = f"{record.game}-{record.id}"
        main = f"{stem}-turn.png" if prompt is not None else f"{stem}-table.png"
        files = [] if picture is None else [common.picture(picture, main, alt)]
        # As many as one message holds (Discord's count and size of attachments), the first ones first.
        sizes = [len(picture)] * len(files) if picture is not None else []
        shown = list(whole)[: max(0, fit_files(sizes + [len(p.png) for p in whole]) - len(files))]
        files += [common.picture(p.png, f"{stem}-{p.name}.png", p.alt) for p in shown]
        await self.tables.tell(interaction, text, files=files, allowed_mentions=discord.AllowedMentions.none())

    async def seat_choices(
        self, interaction: discord.Interaction, game_id: int | None, current: str
    ) -> list[app_commands.Choice[str]]:
        """The `player` option's choices: the seats of the game `/games table` is about, by name; none when there is
        no such game (an autocomplete shows nothing rather than an error)."""
        try:
            record = await self.resolve(interaction, game_id)
        except UserError:
            return []
        return matching_choices(interaction, current, seat_names(record), str, str)

    # ------------------------------------------------------------------ the log

    async def log(self, interaction: discord.Interaction, game_id: int | None, count: int) -> None:
        """`/games log`: privately, the last `count` steps of a game as its thread told them (the game's own
        narration, in the caller's language), each with the number of the move that led to it; as many as fit one
        message."""
        record = await self.resolve(interaction, game_id)
        module = games.get(record.game)
        decisions = await self.store.match_decisions(record.id)
        steps = narrated(module, decisions, worded_names(record))[-max(1, min(count, MOST_STEPS)) :]
        if not steps:
            raise UserError(
                _("Nothing has happened in {game} #{number} yet.").format(game=module.name, number=record.id)
            )
        lines = [f"`{seq:>3}` {line}" for seq, line in steps]
        head = ngettext(
            "📜 **{game} #{number}: the last step**",
            "📜 **{game} #{number}: the last {count} steps**",
            len(lines),
        ).format(game=module.name, number=record.id, count=format_number(len(lines)))
        await self.tables.tell(interaction, fit_log(head, lines), allowed_mentions=discord.AllowedMentions.none())


def narrated(module: GameModule, decisions: Sequence[MatchDecision], names: Sequence[str]) -> list[tuple[int, str]]:
    """(move number, sentence) of every event of these decisions that the game's narration tells, in order: what
    the thread told, and nothing a seat keeps secret (a step the narration leaves out stays out)."""
    return [
        (decision.seq, line)
        for decision in decisions
        for line in (module.narrate(event, names) for event in decision.events)
        if line
    ]


def fit_log(head: str, lines: Sequence[str], limit: int = MESSAGE) -> str:
    """`head` and the newest of `lines` that fit in one message, the first line saying how many were left out."""
    for dropped in range(len(lines) + 1):
        kept = list(lines[dropped:])
        if dropped:
            kept.insert(0, ngettext("… {n} earlier line", "… {n} earlier lines", dropped).format(n=dropped))
        text = "\n".join((head, *kept))
        if len(text) <= limit:
            return text
    return head[:limit]


def _seat_named(record: GameRecord, player: str) -> int:
    """The seat of the player named `player` (in any case); a mistake in words naming the players otherwise."""
    names = seat_names(record)
    found = [s for s, name in enumerate(names) if name.casefold() == player.strip().casefold()]
    if not found:
        raise UserError(
            _("No player called {player} in game #{number}: {players}.").format(
                player=quote(player), number=record.id, players=", ".join(map(escape, names))
            )
        )
    return found[0]


def _waiting(record: GameRecord, match: Match, *, bold: bool = False) -> str:
    """The names of the seats the match waits for (in bold with `bold`), as the thread's post names them."""
    seats = {s.seat: s.name for s in record.seats}
    names = [seats[s] for s in match.waiting() if s in seats]
    return ", ".join(f"**{n}**" if bold else n for n in names)


__all__ = ["MOST_STEPS", "MatchLooks", "fit_log", "narrated"]
