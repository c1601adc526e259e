"""Any game of the registry played in its thread, through the game contract only: turns, timers, AI seats, the end.

The Discord layer knows these games by `games.get(key)` and the store's matches (`Store.play_match`): nothing here
names a game. A table reaches its first turn through `cogs.match_lobbies`; its buttons are `cogs.match_items`'; the
answers about games rather than in one (status, boards, stats) are `cogs.match_boards`'. A turn has one live prompt
in the game's thread: the turn's story so far (the game's own narration), who must decide, the table's picture and
the choices, edited in place at each step of the turn and posted anew when a new turn starts (`Match.turn_key`); a
finished turn stays in the thread as its record (its narration and the table after it). A choice is a public
button when the deciding seat sees nothing a spectator does not; otherwise, and when several seats choose at once
and in secret, each seat opens its own choices privately. Many choices in
groups (a tile, then its track) are asked group first, each group's choices privately (`offer`). AI seats decide on
a copy in which everything they cannot see is redrawn (`Match.determinized`), in the bot's pool of worker
processes (`cogs.thinking`).

Everything a table posts, edits or opens goes out through `cogs.reach.Reach`, as Kokeshi's does: nothing for a server
that removed the bot (its timers stop; its tables show their turn again when it is added back), a sleeping thread
woken, a deleted one replaced by a new thread showing the live turn, and a refused turn tried again later (never on a
fixed clock) with its turn clock stopped until it is seen.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any

import discord

import games
from games.base import Event, GameModule, Match, Option, Prompt, Standing, Turn
from i18n import _, format_number, format_points, ngettext
from kit.locks import KeyedLocks
from service import Refused
from storage import (
    GameRecord,
    MatchDecision,
    MatchPlayed,
    Seat,
    StaleVersion,
    Store,
    ThreadPosts,
    TurnPosts,
    TurnShown,
)
from storage.away import QUIET, TURN_TIMERS
from storage.clock import bank_of
from storage.matches import seat_ranks

from .away import AWAY_MARK, Aways, stamp
from .choices import typed_choice, typed_choices
from .client import ChallengeDesk, Client, TableDesk, home
from .clock import Clocks
from .common import UserError, duration, game_name, level_word, may_manage, now, pinging
from .limits import MESSAGE, shorten
from .match_boards import MatchBoards
from .match_items import (
    Choice,
    MatchChoose,
    MatchHint,
    MatchRematch,
    MatchShare,
    MatchSince,
    MatchUndo,
    action_entry,
    choices_view,
    group_entry,
    groups_view,
    in_two_steps,
    private_message,
)
from .match_lobbies import MatchLobbies
from .match_turns import TurnViews, bulleted, heading, others_since, rounds, since_block, told, turn_ends
from .quiet import in_quiet_hours, muted_in
from .reach import Reach
from .refusals import Refusal
from .replay_items import ReplayButton
from .since import recap
from .speech import escape, escaped, quote, speaking

log = logging.getLogger(__name__)


# The timer of a turn, and the level that decides for a person whose time ran out (or who resigned: an AI seat
# with no level of its own plays at it).
DEADLINE = "deadline"
# The timer that tries a table's thread again after Discord refused a post (`Reach.failed`).
REPOST = "repost"
TIMEOUT_LEVEL = "normal"
# The reminders before a turn's deadline, as Kokeshi's: a ping at half the time and near its end (parts of the turn's
# time); with the deadline, the turn's timers (`storage.away.TURN_TIMERS`).
REMINDERS = (("reminder_half", 0.5), ("reminder_late", 0.9))
# After this many expired turns in a row the other people at the table choose what happens to the seat (none there:
# the AI takes it), as at Kokeshi's tables.
EXPIRED_TURNS_BEFORE_AI = 3
# A bank with less than this left (seconds) has run out: the turn's deadline came due for it.
SPENT = 1.0
# A moment in a message (`away.stamp`), as Discord shows it to each reader.
_STAMP = re.compile(r"<t:\d+:f> \(<t:\d+:R>\)")


def hints_allowed(record: GameRecord) -> bool:
    """Hints are for practice: never in a challenge, nor in a rated game (two or more people, one who resigned
    among them: the game stays rated)."""
    people = sum(s.user_id is not None and (not s.ai or s.resigned) for s in record.seats)
    return not record.challenge and people < 2


def seat_names(record: GameRecord) -> list[str]:
    """The players' names by seat, as the game's pictures, buttons and alt text take them."""
    return [s.name for s in sorted(record.seats, key=lambda s: s.seat)]


def worded_names(record: GameRecord) -> list[str]:
    """The players' names by seat as the game's words take them into a message: shown literally (a nickname's
    Markdown, such as `*` or `_`, formats nothing)."""
    return escaped(seat_names(record))


def places_text(module: GameModule, record: GameRecord, standing: Standing) -> str:
    """The final places, best first: "1. Aiko — 12 points"; a seat that resigned ranks after those that did not,
    as its result does (`storage.matches.seat_ranks`), whatever its score."""
    names = worded_names(record)
    resigned = [s.resigned for s in sorted(record.seats, key=lambda s: s.seat)]
    ranks = seat_ranks(standing, resigned)
    order = sorted(range(len(names)), key=lambda s: (ranks[s], s))
    lines = []
    for s in order:
        total = int(standing.scores[s].get("total", 0))
        points = ngettext("{n} point", "{n} points", total).format(n=format_points(total))
        # Alone at the table, a place says nothing the game's own words (against its opponent) do not.
        place = "" if len(names) == 1 else f"{ranks[s]}. "
        line = f"{place}**{names[s]}** — {points}"
        items = module.score_items(standing.scores[s])
        if items:
            line += f" ({items})"
        lines.append(_("{line} — resigned").format(line=line) if resigned[s] else line)
    # What the places leave out, in the game's words (a solo opponent's score), after the list of places.
    notes = module.standing_notes(standing, names)
    if notes and len(names) > 1:
        lines.append("")
    return "\n".join([*lines, *notes])


class Matches:
    """The tables of every contract game: created by `/games new`, played in their threads."""

    def __init__(self, bot: Client, tables: TableDesk, community: ChallengeDesk, reach: Reach, clocks: Clocks) -> None:
        self.bot = bot
        self.tables = tables
        self.community = community
        # Where the bot can be heard, shared with Kokeshi's tables: paused servers, refusals, sleeping threads.
        self.reach = reach
        self._locks: KeyedLocks[int] = KeyedLocks()
        # Time banks, the opponents' choice after a third expired turn, and rejoin: the clock every table shares.
        self.clocks = clocks
        clocks.serve(MatchClock(self))
        # `/games status`, `leaderboard` and `stats`: answers about games rather than in one.
        self.boards = MatchBoards(bot, tables, reach, clocks)
        # Lobbies, challenges and rematches: the tables before their first turn.
        self.lobbies = MatchLobbies(bot, tables, self, reach)
        # The views after the latest turns, for the games that word their turns themselves (`GameModule.reads_turns`).
        self.turn_views = TurnViews()

    @property
    def store(self) -> Store:
        return self.bot.store

    # ------------------------------------------------------------------ helpers

    async def guard(self, interaction: discord.Interaction, coro: Any) -> None:
        """Run a handler as the tables run theirs (the user's language, mistakes answered privately)."""
        await self.tables.guard(interaction, None, coro)

    async def tell(self, interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
        await self.tables.tell(interaction, text, **kwargs)

    async def _thread(self, record: GameRecord) -> Any:
        """Where the table is posted: its thread, or a new one when it was deleted (its record then names the new
        thread); None while its server has removed the bot, or when Discord refuses (noted)."""
        if self.reach.paused(record):
            return None
        thread = await self.reach.game_channel(record)
        self.reach.moved.pop(record.id, None)  # the record says where it moved
        return thread

    async def _send(self, record: GameRecord, thread: Any, text: str, **kwargs: Any) -> discord.Message | None:
        """A post in the table's thread (`Reach.send`): None when Discord refused it (noted)."""
        return await self.reach.send(record, thread, text, **kwargs)

    def _plan(self, record: GameRecord) -> list[tuple[str, float]]:
        """The reminders and deadline of a turn starting now, as the store sets them (none for a table without a
        turn timer, nor for one of a server that removed the bot: no timer runs there)."""
        if not record.turn_timer or self.reach.paused(record):
            return []
        start = now()
        return [
            *((kind, start + part * record.turn_timer) for kind, part in REMINDERS),
            (DEADLINE, start + record.turn_timer),
        ]

    async def begin(self, record: GameRecord, match: Match) -> None:
        """A table just dealt (`MatchLobbies`): its first turn posted, the AI seats' decisions before it made."""
        if record.moves == 0 and games.get(record.game).reads_turns():
            # The table as dealt, which its first turns' words start from: kept, so no replay brings it back.
            self.turn_views.keep(record.id, {0: match.view(None)})
        async with self._locks(record.id):
            await self._advance(record, match, [])

    # ------------------------------------------------------------------ choices

    async def on_choose(self, interaction: discord.Interaction, game_id: int) -> None:
        """A seat's own choices, privately: its picture and its options."""
        match, version, record = await self.store.load_match(game_id)
        seat, prompt = asked(record, match, interaction.user.id)
        await self._ask(interaction, record, match, version, seat.seat, prompt)

    async def _ask(
        self,
        interaction: discord.Interaction,
        record: GameRecord,
        match: Match,
        version: int,
        seat: int,
        prompt: Prompt,
        head: str = "",
    ) -> None:
        """A seat's decision asked privately: its picture, the question (under `head`, if any) and its options."""
        module = games.get(record.game)
        view = match.view(seat)
        names = seat_names(record)
        picture = await asyncio.to_thread(module.decision_picture, view, names, seat)
        question = module.question_named(view, prompt, names)
        alt = _("Your choice in {game} #{number}: {question}").format(
            game=module.name, number=record.id, question=question
        )
        await self.tell(
            interaction,
            "\n".join(line for line in (head, f"**{question}**") if line),
            view=offer(module, view, prompt, record.id, version, names),
            file=discord.File(_png(picture), filename=f"choice-{record.id}.png", description=shorten(alt, 1024)),
        )

    async def _moved_on(self, interaction: discord.Interaction, game_id: int) -> None:
        """A choice made on a prompt the game has since moved past: refused, and, when the caller has a decision to
        make now, its current prompt sent privately in the same answer, so the next click is the right one."""
        moved = _("That choice is no longer current: the game has moved on.")
        match, version, record = await self.store.load_match(game_id)
        seat = record.seat_of(interaction.user.id)
        prompt = next((p for p in match.prompts() if seat is not None and p.seat == seat.seat), None)
        if record.status == "finished":
            raise UserError(_("That choice is no longer current: the game is over."))
        if seat is None or seat.resigned or prompt is None or record.status != "active":
            raise UserError(moved)
        await self._ask(
            interaction, record, match, version, seat.seat, prompt, moved + " " + _("Here is your current one:")
        )

    async def on_group(self, interaction: discord.Interaction, game_id: int, version: int, group: str) -> None:
        """The second step of a choice in two steps (`offer`): the picked group's choices, privately (in place of
        the private message it was picked on), under the groups to pick another; the choice is then played as any
        other. A group of another version, or one the seat cannot pick, is refused and changes nothing."""
        match, current, record = await self.store.load_match(game_id)
        seat = record.seat_of(interaction.user.id)
        if seat is None:
            raise UserError(_("You are not playing in this game."))
        if seat.resigned:
            raise UserError(_("You have already resigned from this game."))
        if version != current:
            await self._moved_on(interaction, game_id)
            return
        _seat, prompt = asked(record, match, interaction.user.id)
        options = prompt.groups().get(group)
        if not options:
            raise UserError(_("That choice is not possible now."))
        module = games.get(record.game)
        view = match.view(seat.seat)
        question = module.question_named(view, prompt, seat_names(record))
        choices = [choice_of(module, view, o) for o in options]
        items = groups_view(game_id, version, _entries(module, view, prompt), question, group, choices)
        # The group as the first step named it, and the game's line under it there (a tile's tracks), if any.
        picked = [module.group_label(view, prompt, group), module.group_detail(view, prompt, group)]
        text = shorten("\n".join([f"**{question}**", *(line for line in picked if line)]), MESSAGE)
        if private_message(interaction):
            await interaction.edit_original_response(content=text, view=items)
        else:
            await self.tell(interaction, text, view=items)

    async def on_since(self, interaction: discord.Interaction, game_id: int) -> None:
        """The clicking seat's "since your last turn", privately: the game's narration of every event since its
        last turn, its own picture with them marked, and its choices if it decides now."""
        match, version, record = await self.store.load_match(game_id)
        seat = record.seat_of(interaction.user.id)
        if seat is None:
            raise UserError(_("You are not playing in this game."))
        decisions = await self.store.match_decisions(game_id)
        module = games.get(record.game)
        waiting = self._waiting(record, match)
        told = await asyncio.to_thread(
            recap, module, match, decisions, seat.seat, seat_names(record), record.id, waiting
        )
        file = discord.File(_png(told.picture), filename=f"since-{game_id}.png", description=shorten(told.alt, 1024))
        kwargs: dict[str, Any] = {"file": file}
        if told.prompt is not None:
            names = seat_names(record)
            kwargs["view"] = offer(module, match.view(seat.seat), told.prompt, game_id, version, names)
        await self.tell(interaction, told.text, allowed_mentions=discord.AllowedMentions.none(), **kwargs)

    async def on_hint(self, interaction: discord.Interaction, game_id: int) -> None:
        """The choice the strongest AI would make now for the caller's seat, privately."""
        match, _version, record = await self.store.load_match(game_id)
        if record.challenge:
            raise UserError(_("Hints are off in daily and weekly challenges: everyone plays those on their own."))
        if not hints_allowed(record):
            raise UserError(_("Hints are off in rated games (games with two or more people)."))
        seat, prompt = asked(record, match, interaction.user.id)
        module = games.get(record.game)
        level = module.levels[-1]
        # Answer at once, visibly: a search takes a second or two; its choice then replaces these words.
        thinking = _("🤔 Thinking… the {level} AI is weighing your choices.").format(level=level_word(level))
        if interaction.response.is_done():
            await interaction.edit_original_response(content=thinking)
        else:
            await interaction.response.send_message(thinking, ephemeral=True)
        action, gain = await self.tables.thinker.advise(record.game, match, seat.seat, level)
        option = next(o for o in prompt.options if o.id == action)
        label = module.label(match.view(seat.seat), option)
        text = _("Hint for {game} #{number} — the {level} AI would choose: **{action}**").format(
            game=module.name, number=game_id, level=level_word(level), action=label
        )
        if len(prompt.options) == 1:
            text += "\n" + _("It is the only choice you have.")
        elif gain is not None:
            text += "\n" + _(
                "By its reckoning, it leaves you about {gain} points better off at the end of the game than your other "
                "choices do on average."
            ).format(gain=format_number(round(gain, 1)))
        await interaction.edit_original_response(content=text)

    async def _game_here(self, interaction: discord.Interaction) -> GameRecord:
        """The other game played in the thread the command was used in."""
        channel = interaction.channel
        record = await self.store.game_by_thread(channel.id) if channel is not None else None
        if record is None or record.named_log:
            raise UserError(_("Use this in the thread of a game started with `/games new` or `/games challenge`."))
        return record

    async def choices_here(self, interaction: discord.Interaction, current: str) -> list[tuple[str, str]]:
        """(label, action) of the caller's choices in this thread's game that contain what was typed; none when
        there is nothing to choose (an autocomplete shows nothing rather than an error)."""
        try:
            record = await self._game_here(interaction)
        except Exception:  # noqa: BLE001 - an autocomplete answers with no choice rather than an error
            return []
        return [(label, action) for label, action, _version in await self.choices_in(interaction, record, current)]

    async def choices_in(
        self, interaction: discord.Interaction, record: GameRecord, current: str
    ) -> list[tuple[str, str, int]]:
        """(label, action, the game's version) of the caller's choices in this game that contain what was typed;
        none when there is nothing to choose."""
        try:
            match, version, record = await self.store.load_match(record.id)
        except Exception:  # noqa: BLE001 - an autocomplete answers with no choice rather than an error
            return []
        seat = record.seat_of(interaction.user.id)
        prompt = next((p for p in match.prompts() if seat is not None and p.seat == seat.seat), None)
        if prompt is None:
            return []
        module = games.get(record.game)
        return [
            (label, action, version)
            for label, action in typed_choices(module, match.view(prompt.seat), prompt, current)
        ]

    async def play(self, interaction: discord.Interaction, choice: str) -> None:
        """`/games play`: a choice by command, in the game's thread (the autocomplete offers them)."""
        await self.play_in(interaction, await self._game_here(interaction), choice)

    async def play_in(
        self, interaction: discord.Interaction, record: GameRecord, choice: str, version: int | None = None
    ) -> None:
        """A choice by command in this game; with `version`, refused as out of date once the game has moved on."""
        match, current, record = await self.store.load_match(record.id)
        _seat, prompt = asked(record, match, interaction.user.id)
        if version is not None and version != current:
            await self._moved_on(interaction, record.id)
            return
        module = games.get(record.game)
        view = match.view(prompt.seat)
        action = typed_choice(module, view, prompt, choice)
        if action is None:
            raise UserError(
                _(
                    "{choice} is not one of your choices now. {question}: start typing in `choice` and pick from the "
                    "list, or use the buttons in the game's thread."
                ).format(choice=quote(choice), question=module.question_named(view, prompt, seat_names(record)))
            )
        if await self.on_action(interaction, record.id, current, action):
            await self.tell(interaction, _("Your choice is in."))

    async def undo(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        """`/games undo` (in the thread) or the Undo button: the caller's last choice of this turn taken back."""
        record = await self.store.get_game(game_id) if game_id is not None else await self._game_here(interaction)
        seat = record.seat_of(interaction.user.id)
        if seat is None:
            raise UserError(_("You are not playing in this game."))
        if seat.resigned:
            raise UserError(_("You have already resigned from this game."))
        async with self._locks(record.id):
            match, _version = await self.store.undo_match(record.id, seat.seat)
            record = await self.store.get_game(record.id)
            thread = await self._thread(record)
            if thread is not None:
                with speaking(record):
                    note = _("{player} took back their last choice.").format(player=f"**{seat.name}**")
                await self._send(record, thread, note, allowed_mentions=discord.AllowedMentions.none())
            # The live prompt asks the step before again, in place: its buttons for the new version.
            shown = await self._show(record, match, [], turn_changed=False)
        await self.tell(interaction, _("Your last choice is taken back."))
        await self._tell_unshown(interaction, record, shown)

    async def resign(self, interaction: discord.Interaction) -> None:
        """`/games resign` in the thread, as `/kokeshi resign`: the caller's seat goes to the AI at the table's
        default level, which plays it to the end; the caller ranks last (a solo game counts as lost), and the thread
        says so."""
        await self.resign_in(interaction, await self._game_here(interaction))

    async def resign_in(self, interaction: discord.Interaction, record: GameRecord) -> None:
        """The caller resigns from this game (see `resign`)."""
        seat = record.seat_of(interaction.user.id)
        if seat is None:
            raise UserError(_("You are not playing in this game."))
        if record.status == "lobby":
            raise UserError(_("Only a game in progress can be resigned; leave or cancel a lobby instead."))
        if record.status != "active":
            raise UserError(_("This game is over."))
        if seat.resigned:
            raise UserError(_("You have already resigned from this game."))
        async with self._locks(record.id):
            await self.store.update_seat(record.id, seat.name, ai=True, resigned=True)
            match, _version, record = await self.store.load_match(record.id)
            thread = await self._thread(record)
            if thread is not None:
                with speaking(record):
                    if record.players == 1:
                        note = _("🏳️ **{player}** resigned; the AI plays on to the end, and the game counts as lost.")
                    else:
                        note = _("🏳️ **{player}** resigned; the AI plays their seat, and they rank last.")
                await self._send(
                    record,
                    thread,
                    note.format(player=escape(seat.name)),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            if seat.seat in match.waiting():
                # The AI takes the decision the seat was asked for; the turn's post follows (or the end).
                await self._advance(record, match, [])
        await self.tell(interaction, _("You resigned. Thanks for playing!"))

    async def cancel_in(self, interaction: discord.Interaction, record: GameRecord) -> None:
        """A lobby or a game in progress cancelled by its host (or someone who may manage threads here): unrated,
        its timers gone, its buttons taken away, and its thread and lobby message told."""
        if record.status not in ("lobby", "active"):
            raise UserError(_("This game is over."))
        if not may_manage(interaction, record):
            raise UserError(_("Only the host (or someone with Manage Threads) can cancel this game."))
        record = await MatchClock(self).end_unrated(record)
        told = _("{game} #{number} is cancelled.").format(game=game_name(record), number=record.id)
        await self.tell(interaction, told)
        thread = await self._thread(record)
        if thread is not None and record.thread_id:
            with speaking(record):
                note = _("This game was cancelled by {player}.").format(player=interaction.user.mention)
            await self._send(record, thread, note, allowed_mentions=discord.AllowedMentions.none())

    async def on_action(self, interaction: discord.Interaction, game_id: int, version: int, action: str) -> bool:
        """A seat's choice played (True), or refused as out of date, with the seat's current prompt (False); any
        other refusal is a `UserError`."""
        record = await self.store.get_game(game_id)
        seat = record.seat_of(interaction.user.id)
        if seat is None:
            raise UserError(_("You are not playing in this game."))
        if seat.resigned:
            # The AI plays the seat now: a button its player still has (a private choice opened before) does nothing.
            raise UserError(_("You have already resigned from this game."))
        async with self._locks(game_id):
            try:
                # The next turn's reminders and deadline, if the choice begins one, are set in the choice's commit.
                played = await self.store.play_match(game_id, version, seat.seat, action, timers=self._plan(record))
            except StaleVersion:
                played = None
            except Refused as refused:
                if refused.code == "not_your_turn":
                    raise UserError(await self._whose_turn(game_id)) from None
                raise UserError(_refusal(refused.code)) from None
            if played is not None:
                if private_message(interaction):
                    with contextlib.suppress(discord.HTTPException):
                        await interaction.edit_original_response(
                            content=_("Your choice is in."), view=None, attachments=[]
                        )
                shown = await self._advance(played.record, played.match, list(played.outcome.events), played)
        if played is None:
            # Another click of the same version was played first (a double click, another device): told, with the
            # prompt the game asks now, once the table is free.
            await self._moved_on(interaction, game_id)
            return False
        await self._tell_unshown(interaction, record, shown)
        return True

    async def _whose_turn(self, game_id: int) -> str:
        """A refusal of a choice out of turn, naming whom the game waits for (`whose_turn`)."""
        match, _version, record = await self.store.load_match(game_id)
        return whose_turn(record, match) or _refusal("not_your_turn")

    async def _tell_unshown(
        self, interaction: discord.Interaction, record: GameRecord, shown: GameRecord | None
    ) -> None:
        """After a choice, privately: that the thread could not show it (why, and that it is tried again), or that
        the game goes on in a new thread (its old one was deleted); nothing when the thread shows it as usual.
        `shown`: the record the thread showed it with (`_show`)."""
        if shown is None:
            await self.tell(interaction, await self.reach.saved_not_shown(record))
            return
        if shown.thread_id != record.thread_id:
            await self.tell(
                interaction,
                _(
                    "Your move is saved. The game's thread was deleted, so {game} #{number} goes on in a new "
                    "one: {thread}."
                ).format(game=game_name(shown), number=record.id, thread=self.tables.where(shown)),
            )

    async def _advance(
        self, record: GameRecord, match: Match, events: list[Event], played: MatchPlayed | None = None
    ) -> GameRecord | None:
        """AI seats decide while the match waits for them; then the thread shows the turn, or the end: the record it
        was shown with, None when the thread could not show it (tried again later)."""
        turn_changed = played is None or played.outcome.turn_changed
        # Where this call's decisions start in the log, and the table after each one that ended a turn, as it is
        # played: the pictures of the finished turns' records need no replay of the game.
        since = played.record.moves - 1 if played is not None else record.moves
        after: dict[int, dict[str, Any]] = {}
        if played is not None and played.outcome.turn_changed:
            after[played.record.moves] = played.match.view(None)
        # The earliest turn timer the decisions set in their commits: the timer loop is told once.
        due = _earliest(None, played)
        while not match.is_over:
            ai_seats = {s.seat: s for s in record.seats if s.ai}
            waiting = [s for s in match.waiting() if s in ai_seats]
            if not waiting:
                break
            seat = waiting[0]
            level = ai_seats[seat].ai_level or "normal"
            action = await self.tables.thinker.decide(record.game, match, seat, level)
            played = await self.store.play_match(
                record.id, record.version, seat, action, source="ai", timers=self._plan(record)
            )
            record, match = played.record, played.match
            due = _earliest(due, played)
            events += played.outcome.events
            if played.outcome.turn_changed:
                after[record.moves] = match.view(None)
            turn_changed = turn_changed or played.outcome.turn_changed
        if due is not None:
            self.bot.wake_timers(due)
        return await self._show(
            record, match, events, turn_changed=turn_changed, since=since, after=after, played=played
        )

    async def _show(
        self,
        record: GameRecord,
        match: Match,
        events: Sequence[Event],
        *,
        turn_changed: bool,
        full: bool = False,
        since: int | None = None,
        after: Mapping[int, dict[str, Any]] | None = None,
        played: MatchPlayed | None = None,
    ) -> GameRecord | None:
        """The thread shows the table as it is now (`_present`): the records of the turns that ended, then the
        live prompt (edited in place within its turn; `full`: posted anew) or the end. A thread Discord says is gone
        is replaced at once by a new one, where the whole turn is posted. Returns the record it was shown with (its
        thread the one it was shown in); None when Discord refused: the turn's clock stops and the thread is tried
        again later, later each time (`Reach.failed`).

        `since`: the last decision the thread may already have shown (a table shown before its thread kept records
        starts its records after it); `after`: the spectator's view after decisions that ended a turn, if known;
        `played`: the decision that brought the match here, as the store saved it (its log and what the live prompt
        says of its people: nothing is read back)."""
        module = games.get(record.game)
        handed = played if played is not None and played.record.version == record.version else None
        posted = await self.store.thread_posts(record.id)
        # A thread behind (its last posts were refused, its turn's clock stopped) ends its run of refusals when shown.
        behind = posted.refused
        if behind and bank_of(dict(record.settings)) is not None:
            # As Kokeshi's: the banks charge nothing for the time nobody could see the turn.
            await self.store.restart_bank_turns(record.id)
        for attempt in range(2):
            thread = await self._thread(record)
            if thread is None:
                break
            moved = thread.id != record.thread_id
            if moved:
                # A new thread (the old one was deleted): it shows nothing yet, so the whole turn goes there.
                record, full = await self.store.get_game(record.id), True
            if moved or attempt:
                posted = await self.store.thread_posts(record.id)
            with speaking(record):
                shown = await self._present(
                    thread,
                    module,
                    record,
                    match,
                    events,
                    posted,
                    turn_changed=turn_changed,
                    full=full,
                    since=record.moves if since is None else since,
                    after=after or {},
                    handed=handed,
                )
            if shown:
                await self.reach.succeeded(record, refused=behind)
                return record
            if thread.id not in self.reach.lost:
                break
        if not self.reach.paused(record):
            await self.reach.failed(await self.store.get_game(record.id))
        return None

    async def _present(
        self,
        thread: Any,
        module: GameModule,
        record: GameRecord,
        match: Match,
        events: Sequence[Event],
        posted: ThreadPosts,
        *,
        turn_changed: bool,
        full: bool,
        since: int,
        after: Mapping[int, dict[str, Any]],
        handed: MatchPlayed | None = None,
    ) -> bool:
        """Bring the thread up to date, as Kokeshi's own table keeps its threads calm: each turn that ended since
        the thread last showed one is kept as a record (its narration and the table after it); the live prompt,
        whose turn it was, becomes the first of them. Then the live prompt of the turn under way: edited in place
        while its turn goes on (its buttons for the new version), posted anew when a new turn begins (pinging whom
        it asks) or when it cannot be edited (deleted); or the end's post. The store keeps how far the records go
        and which turn the live prompt shows (`TurnPosts`), in one write once the thread is up to date (and when
        Discord refuses something, how far it went). False when Discord refused something (what was shown stays
        shown). `handed`: the decision that brought the match here, with its log and what the live prompt says of
        its people."""
        posts = posted.posts
        decisions = list(handed.decisions) if handed is not None else await self.store.match_decisions(record.id)
        recorded = posts.recorded_seq
        prompt = posted.prompt if posted.prompt is not None and posted.prompt[0] == thread.id else None
        # The live prompt: its turn is the first the records do not tell yet. One made a record shows no turn.
        live = prompt if posts.turn_key else None
        if not posts.turn_key and posts.shown_version < 0 and recorded == 0 and posted.prompt is not None:
            # A table its thread showed before it kept records: its posts told everything up to this call's
            # decisions, and its prompt is live.
            recorded = max((d.seq for d in decisions if d.ends_turn and d.seq <= since), default=0)
            live = prompt
        turns = _turns([d for d in decisions if d.seq > recorded])
        finished = [t for t in turns if t[-1].ends_turn]
        current = turns[-1] if turns and not turns[-1][-1].ends_turn else []
        # The last turn is told by the end's post; when nobody is left to read turn by turn (every seat is the AI's)
        # the turns come at once in the next post's story rather than as a burst of records, or, for a game that
        # tells its rounds, one post a round, the last round (the end's, whole or not) too, before the end's post.
        unread = not any(not s.ai for s in record.seats)
        reads = module.reads_turns()
        kept = finished[:-1] if match.is_over and not (unread and reads) else finished
        # A game that words its turns is handed each with the views before and after it.
        stories: list[Turn] = []
        if reads:
            self.turn_views.keep(record.id, after)
            if kept:
                views = await self.turn_views.after(self.store, record.id, turn_ends(kept, recorded))
                stories = told(kept, recorded, views)
        elif not unread:
            missing = [t[-1].seq for t in kept if t[-1].seq not in after]
            views = {**after, **(await self.store.match_views(record.id, missing) if missing else {})}
        if unread:
            shown, posts, kept = await self._post_rounds(thread, module, record, kept, stories, posts, match.is_over)
            if shown is not True:
                return shown is None  # None: the rest follows when the channel has room
        # The records below are stored with what follows them, in one write (or, when Discord refuses a post, as
        # far as they went).
        stored = posts

        async def keep_progress() -> None:
            """Discord refused a post: the records shown before it are stored, so none is posted twice."""
            if posts != stored:
                await self.store.set_turn_posts(posts)

        for i, turn in enumerate([] if unread else kept):
            worded = stories[i] if stories else None
            if not await self._post_record(thread, module, record, turn, views[turn[-1].seq], live, worded):
                await keep_progress()
                return False
            live = None
            posts = dataclasses.replace(posts, recorded_seq=turn[-1].seq, turn_key="")
        untold = [e for turn in finished[len(kept) :] for d in turn for e in d.events]
        done = dataclasses.replace(posts, recorded_seq=finished[-1][-1].seq if finished else recorded)
        if match.is_over:
            if unread and reads and not await self._room(record, thread):
                return True  # the end's post follows the rounds a few seconds later
            if not await self._post_end(thread, module, record, match, untold, posted.lobby):
                await keep_progress()
                return False
            self.turn_views.forget(record.id)
            await self.store.set_turn_posts(dataclasses.replace(done, shown_version=record.version, turn_key=""))
            if live is not None:
                await self._retire(record, thread, live[1])
            return True
        key = match.turn_key()
        shown_key = posted.posts.turn_key
        story = [*untold, *(e for d in current for e in d.events)]
        others: list[str] = []
        if reads and shown_key != key:
            others = await self._since(module, record, match, decisions)
        asking = await self._turn(
            module, record, match, events, story, decisions, others, handed.shown if handed is not None else None
        )
        if live is not None and not full and shown_key == key:
            edited = await self._edit_turn(record, thread, live[1], asking)
            if edited is not None:
                if edited:
                    await self.store.set_turn_posts(dataclasses.replace(done, shown_version=record.version))
                return edited
        # A new turn, or a prompt that could not be edited: posted anew, pinging whom it asks unless they were
        # already pinged for this turn.
        message = await self._post_turn(record, thread, asking, ping=turn_changed or shown_key != key)
        if message is None:
            await keep_progress()
            return False
        await self.store.set_turn_posts(
            dataclasses.replace(done, shown_version=record.version, turn_key=key), prompt=(thread.id, message.id)
        )
        if live is not None and live[1] != message.id:
            await self._retire(record, thread, live[1])
        if turn_changed:
            # A new turn: a DM to each person asked who wants one, by the rules of Kokeshi's (`Reach.notify`).
            for user_id in asking.people:
                await self.tables.turn_dm(record, user_id, message, asking.settings[user_id])
        return True

    async def show_again(self, game_id: int) -> bool:
        """The thread shows the table again as it is now: its live prompt posted anew (its buttons for the same
        version, its deadline kept, or a fresh one when the turn has none) or its end; in a new thread when the old
        one was deleted. After a refused post, a deleted thread, or the bot added back to the table's server."""
        async with self._locks(game_id):
            match, _version, record = await self.store.load_match(game_id)
            if record.status not in ("active", "finished") or self.reach.paused(record):
                return False
            return await self._show(record, match, [], turn_changed=False, full=True) is not None

    async def catch_up(self, shards: tuple[int, Sequence[int]] | None) -> None:
        """After a start: every game of these shards a stopped bot left midway goes on (`resume`), one by one."""
        for game_id in await self.store.matches_to_resume(shards):
            try:
                await self.resume(game_id)
            except Exception:
                log.exception("game %d: could not be resumed", game_id)

    async def resume(self, game_id: int) -> None:
        """A game a stopped bot left midway goes on: the AI seats the turn waits for decide (a turn cut short
        between two of their decisions), and the thread shows what it does not show yet (a move saved, its post
        never made), pinging whom a new turn asks. A game its thread already shows is left as it is."""
        async with self._locks(game_id):
            match, _version, record = await self.store.load_match(game_id)
            if record.status not in ("active", "finished") or self.reach.paused(record):
                return
            await self._go_on(record, match)

    async def _go_on(self, record: GameRecord, match: Match) -> None:
        """`resume`'s work, under the game's lock: the AI seats decide while the turn waits for them, then the
        thread shows what it does not show yet."""
        ai = {s.seat for s in record.seats if s.ai}
        if record.status == "active" and any(s in ai for s in match.waiting()):
            await self._advance(record, match, [])
        elif (await self.store.thread_posts(record.id)).posts.shown_version < record.version:
            await self._show(record, match, [], turn_changed=False)

    async def reopen(self, record: GameRecord) -> None:
        """Discord says the table's thread was deleted: the game goes on at once in a new thread of its channel."""
        await self.show_again(record.id)

    async def fire(self, game_id: int, kind: str, version: int) -> None:
        """A turn's timer came due. A reminder pings the people the turn still waits for; at the deadline the AI
        decides for every one of them (at the default level) until the turn is theirs no more, and the thread goes
        on. In a bank game the deadline is for the people whose bank ran out; the others keep choosing on theirs.
        After a third expired turn in a row the other people at the table choose what happens to the seat. A timer
        set for an older turn does nothing, and one due while someone it waits for is away waits."""
        record = await self.store.get_game(game_id)
        if kind == REPOST:
            # Set by a refused post (`Reach.failed`) or a change Discord announced: the thread is tried again.
            await self.store.clear_timer(game_id, kind, version)
            await self.show_again(game_id)
            return
        if record.status != "active" or kind not in TURN_TIMERS:
            await self.store.clear_timer(game_id, kind, version)
            return
        if self.reach.paused(record):
            # Its server removed the bot: no timer runs (its turn gets fresh ones if the bot is added back).
            await self.store.clear_timers(game_id)
            return
        async with self._locks(game_id):
            match, current, record = await self.store.load_match(game_id)
            if current != version:
                await self.store.clear_timer(game_id, kind, version)
                # Set for a turn that is over. When its own time-out failed after saving the decisions (the timer
                # loop tries it again at the turn's version), the thread may not show them yet: it does now, the AI
                # seats decide if the turn waits for them, and the new turn gets its timers.
                if (await self.store.thread_posts(game_id)).posts.shown_version < record.version:
                    await self._go_on(record, match)
                return
            people = {s.seat: s for s in record.seats if not s.ai}
            late = [s for s in match.waiting() if s in people]
            if not late:
                await self.store.clear_timer(game_id, kind, version)
                return
            if await self._hold(record, [people[s] for s in late], version, kind):
                return
            if kind != DEADLINE:
                with speaking(record):
                    await self._remind(record, [people[s] for s in late])
                await self.store.clear_timer(game_id, kind, version)
                return
            banked = bank_of(dict(record.settings)) is not None
            if banked:
                late = [s for s in late if await self._spent(record, people[s])]
                if not late:
                    # No bank ran out (time away came off it since): the turn's timers follow the banks again.
                    due = await self.store.set_match_timers(game_id, version, [(k, now()) for k in TURN_TIMERS])
                    self.bot.wake_timers(min(due.values()))
                    await self.show_deadline(record)
                    return
            events: list[Event] = []
            played: MatchPlayed | None = None
            # The late decide nothing more this turn: the AI plays each of their steps until the turn moves on.
            while not match.is_over:
                pending = [s for s in match.waiting() if s in late]
                if not pending:
                    break
                action = await self.tables.thinker.decide(record.game, match, pending[0], TIMEOUT_LEVEL)
                played = await self.store.play_match(game_id, record.version, pending[0], action, source="timeout")
                record, match = played.record, played.match
                events += played.outcome.events
                if played.outcome.turn_changed:
                    break
            still = [s for s in match.waiting() if s in people and s not in late]
            if (played is None or not played.outcome.turn_changed) and not (banked and still):
                # The late are done and the turn waits for the AI alone: its timers have nothing left to do. (In a
                # bank game the people still choosing have the timers of their banks, set with the decision.)
                await self.store.clear_timers(game_id, TURN_TIMERS)
            thread = await self._thread(record)
            asking, handed = await self._count_expired(record, [people[s] for s in late])
            record = await self.store.get_game(game_id)
            if thread is not None:
                with speaking(record):
                    names = ", ".join(f"**{escape(people[s].name)}**" for s in late)
                    note = _("Time ran out for {names}: the AI decided in their place.").format(names=names)
                    for seat in handed:
                        note += " " + ngettext(
                            "After {count} turn in a row, the AI now plays {player}'s seat for good.",
                            "After {count} turns in a row, the AI now plays {player}'s seat for good.",
                            EXPIRED_TURNS_BEFORE_AI,
                        ).format(count=EXPIRED_TURNS_BEFORE_AI, player=f"**{escape(seat.name)}**")
                await self._send(record, thread, note, allowed_mentions=discord.AllowedMentions.none())
            for seat in asking:
                await self.clocks.expired(record, seat, thread, EXPIRED_TURNS_BEFORE_AI)
            if played is not None:
                # The timers and seats changed since the time-out was saved: the live prompt reads them again.
                await self._advance(record, match, events, dataclasses.replace(played, shown=None))

    async def _spent(self, record: GameRecord, seat: Seat) -> bool:
        """Whether this person's bank ran out in the turn (a turn not begun on the bank has its whole bank)."""
        left = await self.store.bank_left(record.id, seat.name)
        return left is not None and left < SPENT

    async def _count_expired(self, record: GameRecord, late: Sequence[Seat]) -> tuple[list[Seat], list[Seat]]:
        """The late whose third expired turn in a row this was (the store counted it with the time-out), as
        (those the other people at the table are asked about, those the AI takes for good: nobody else is there to
        ask), the latter marked as the AI's."""
        record = await self.store.get_game(record.id)
        seats = {s.seat: s for s in record.seats}
        asking: list[Seat] = []
        handed: list[Seat] = []
        for old in late:
            seat = seats.get(old.seat)
            if seat is None or seat.ai or seat.expired < EXPIRED_TURNS_BEFORE_AI:
                continue
            if self.clocks.opponents(record, seat):
                asking.append(seat)
            else:
                await self.store.update_seat(record.id, seat.name, ai=True)
                handed.append(seat)
        return asking, handed

    async def _remind(self, record: GameRecord, late: Sequence[Seat]) -> None:
        """A reminder in the thread to the people the turn still waits for, as Kokeshi's: how long they have left
        (in a bank game, what is left in each one's bank); a ping that comes silently to those in their quiet hours
        (one post for them, one for the others), and none for those who muted the game (a reminder is nothing but a
        ping)."""
        thread = await self._thread(record)
        if thread is None:
            return
        people = [s.user_id for s in late if s.user_id is not None]
        settings = await self.store.ping_settings(people) if people else {}
        pinged = [u for u in people if not muted_in(settings[u], record.id)]
        if not pinged:
            return
        deadline = next((t for t in await self.store.timers(record.id) if t.kind == DEADLINE), None)
        # A bank game: each person has what is left in their own bank, said after the ping.
        banked = bank_of(dict(record.settings)) is not None
        quiet = [u for u in pinged if in_quiet_hours(settings[u].get(QUIET))]
        loud = [u for u in pinged if u not in quiet]
        module = games.get(record.game)
        for users, silent in ((loud, False), (quiet, True)):
            if not users:
                continue
            if deadline is None or banked:
                text = ngettext(
                    "⏰ {people}, {game} #{number} is waiting for you.",
                    "⏰ {people}, {game} #{number} is waiting for you.",
                    len(users),
                )
            else:
                text = ngettext(
                    "⏰ {people}, {game} #{number} is waiting for you. You have {duration} left.",
                    "⏰ {people}, {game} #{number} is waiting for you. You have {duration} left.",
                    len(users),
                )
            text = text.format(
                people=", ".join(f"<@{u}>" for u in users),
                game=module.name,
                number=record.id,
                duration=duration(deadline.due_at - now()) if deadline is not None else "",
            )
            if banked:
                names = [s.name for s in late if s.user_id in users]
                text = " ".join(t for t in (text, await self.clocks.prompt_note(record, names)) if t)
            await self._send(record, thread, shorten(text, MESSAGE), allowed_mentions=pinging(*users), silent=silent)

    async def _hold(self, record: GameRecord, late: Sequence[Seat], version: int, kind: str = DEADLINE) -> bool:
        """A turn's timer came due while someone it waits for is away (set in the instant the away began): it waits
        as Kokeshi's do, until the away period ends or for as long again as it lasts from now, whichever is later.
        True when it was moved."""
        aways = await self.store.aways(s.user_id for s in late if s.user_id is not None)
        if not aways:
            return False
        at = max(max(a.ends_at, now() + (a.ends_at - a.began_at)) for a in aways.values())
        await self.store.set_timer(record.id, kind, at, version)
        self.bot.wake_timers(at)
        log.info("game %d: the %s of an away player moved to %s", record.id, kind, at)
        return True

    # ------------------------------------------------------------------ posts

    @staticmethod
    def _story(module: GameModule, record: GameRecord, events: Sequence[Event]) -> list[str]:
        names = worded_names(record)
        return [line for line in (module.narrate(e, names) for e in events) if line]

    @staticmethod
    def _waiting(record: GameRecord, match: Match, *, mention: bool = False, plain: bool = False) -> str:
        """The seats the match waits for: people mentioned (with `mention`), names in bold (or `plain`, for alt
        text)."""
        seats = {s.seat: s for s in record.seats}
        out = []
        for s in match.waiting():
            seat = seats.get(s)
            if seat is None:
                continue
            if mention and not seat.ai and seat.user_id:
                out.append(f"<@{seat.user_id}>")
            else:
                out.append(seat.name if plain else f"**{seat.name}**")
        return ", ".join(out)

    async def show_lost(self, game_id: int) -> None:
        """Post the turn of an active table again (its post was lost: the sandbox's world saved just before a
        crash), with its buttons for the same version and its deadline unchanged."""
        if (await self.store.get_game(game_id)).status == "active":
            await self.show_again(game_id)

    async def _turn(
        self,
        module: GameModule,
        record: GameRecord,
        match: Match,
        events: Sequence[Event],
        story: Sequence[Event],
        decisions: Sequence[MatchDecision],
        since: Sequence[str] = (),
        shown: TurnShown | None = None,
    ) -> _Turn:
        """The live prompt of the turn under way: its story so far (`story`), whom it waits for, the picture (with
        `events`, those since the thread last showed the table, marked), the choices and, in a new turn's post, the
        game's summary of the others' turns since the seat's last (`since`, the lines as they show). A turn keeps
        its reminders and deadline from its first prompt to its end (the store carries them from a decision within
        the turn to the next); a new turn that waits for people gets its own (set with the decision that began it,
        `shown`: what the store read of the turn's people and timers with it; else read and set here)."""
        names = seat_names(record)
        version = record.version
        public = match.view(None)
        prompts = match.prompts()
        humans = {s.seat for s in record.seats if not s.ai}
        # The turn so far as the game tells a turn, where it does; else its narration.
        folded = await asyncio.to_thread(module.story_lines, public, list(story), worded_names(record))
        lines = bulleted(folded) if folded is not None else self._story(module, record, story)
        told = len(lines)
        lines.append(_("Your turn: {names}.").format(names=self._waiting(record, match, mention=True)))
        view: discord.ui.View | None = None
        if _asks_openly(match):
            # One open decision: asked in the thread, over the picture the deciding seat decides from.
            prompt: Prompt = prompts[0]
            seen = match.view(prompt.seat)
            picture = await asyncio.to_thread(module.decision_picture, seen, names, prompt.seat, list(events))
            question = module.question_named(seen, prompt, names)
            lines.append(f"**{question}**")
            lines += since
            if prompt.seat in humans:
                view = offer(module, seen, prompt, record.id, version, names)
                if hints_allowed(record):
                    view.add_item(MatchHint(record.id))
                # The same seat goes on with its turn (a solo seat's next turn is another turn): its last choice may
                # still be taken back, unless it drew something at random.
                mine = [d for d in decisions[-1:] if d.seat == prompt.seat and not d.ends_turn]
                if mine and not any(e.reveals for e in mine[0].events):
                    view.add_item(MatchUndo(record.id, version))
        else:
            picture = await asyncio.to_thread(module.table_picture, public, names, list(events))
            asked = [p.seat for p in prompts if p.seat in humans]
            if asked:
                if len(asked) == 1:
                    lines.append(_("Choose privately with the button below."))
                else:
                    lines.append(_("Each of you chooses privately with the button below."))
                view = discord.ui.View(timeout=None)
                view.add_item(MatchChoose(record.id, version))
        if view is not None and any(p.seat in humans for p in prompts):
            # Back after a while: what happened since your last turn, privately, instead of scrolling the thread.
            view.add_item(MatchSince(record.id))
        alt = _("The {game} table, move {moves}. Waiting for: {names}.").format(
            game=module.name, moves=format_number(record.moves), names=self._waiting(record, match, plain=True)
        )
        if _asks_openly(match):
            # The game's own words for the picture its seat decides from, where it gives them.
            described = module.decision_alt(match.view(prompts[0].seat), prompts[0], names)
            if described:
                alt = _("{game} #{number}, {picture}").format(game=module.name, number=record.id, picture=described)
        # The people asked, as Kokeshi's prompt pings its player: not those who muted the game, and silently when
        # one of them is in their quiet hours (one message pings them all).
        people = [s.user_id for s in record.seats if s.seat in match.waiting() and not s.ai and s.user_id is not None]
        if shown is not None and all(u in shown.settings for u in people):
            settings: Mapping[int, Mapping[str, str]] = shown.settings
        else:
            settings = await self.store.ping_settings(people) if people else {}
        pinged = [u for u in people if not muted_in(settings[u], record.id)]
        silent = any(in_quiet_hours(settings[u].get(QUIET)) for u in pinged)
        if shown is not None:
            kept = [shown.timers[DEADLINE]] if DEADLINE in shown.timers else []
        else:
            kept = [t.due_at for t in await self.store.timers(record.id) if t.kind == DEADLINE and t.version == version]
        if kept:
            lines.append(_("Decide by {when}.").format(when=stamp(kept[0])))
        elif any(p.seat in humans for p in prompts) and record.turn_timer:
            # The people asked have until then, reminded at half the time and near its end; past it the AI decides
            # for them (`fire`). The timers are stored, so a restart keeps them; the store moves them past their
            # away periods, and the deadline out of their quiet hours. In a bank game they come from the banks.
            due = await self.store.set_match_timers(record.id, version, self._plan(record))
            self.bot.wake_timers(min(due.values()))
            lines.append(_("Decide by {when}.").format(when=stamp(due[DEADLINE])))
        # A bank game: what is left in the banks of the people asked (their turn's time taken off).
        banks = await self.clocks.prompt_note(
            record, [s.name for s in record.seats if s.seat in match.waiting() and not s.ai]
        )
        if banks:
            lines.append(banks)
        away = await self._away_note(record, shown.aways if shown is not None else None)
        if away:
            lines.append(away)
        text = fit_story(lines[:told], lines[told:])
        filename = f"table-{record.id}.png"
        return _Turn(text, picture, filename, shorten(alt, 1024), view, people, settings, pinged, silent)

    async def _edit_turn(self, record: GameRecord, thread: Any, message_id: int, turn: _Turn) -> bool | None:
        """The live prompt edited in place to show `turn` (its new buttons replace the old, nobody is pinged again):
        True when done, False when Discord refused (a post would be refused just the same), None when it must be
        posted anew (deleted, or Discord failed the edit)."""
        none = discord.AllowedMentions.none()
        fields: dict[str, Any] = {"content": turn.text, "attachments": [turn.file()], "view": turn.view}
        if await self.reach.edit(record, thread, message_id, allowed_mentions=none, **fields):
            return True
        if self.reach.refusal(record.id) in (Refusal.GONE, Refusal.TRANSIENT, None):
            log.info("game %d: its prompt %d could not be edited; posting it anew", record.id, message_id)
            return None
        return False

    async def _post_turn(self, record: GameRecord, thread: Any, turn: _Turn, *, ping: bool) -> discord.Message | None:
        """The live prompt posted in the thread; `ping`: the people it asks are pinged (a new turn, or one they have
        not been pinged for). None when Discord refused it."""
        users = turn.pinged if ping else []
        mentions = discord.AllowedMentions(
            users=[discord.Object(u) for u in users], everyone=False, roles=False, replied_user=False
        )
        kwargs: dict[str, Any] = {"file": turn.file(), "allowed_mentions": mentions, "silent": turn.silent and ping}
        if turn.view is not None:
            kwargs["view"] = turn.view
        return await self._send(record, thread, turn.text, **kwargs)

    async def _post_record(
        self,
        thread: Any,
        module: GameModule,
        record: GameRecord,
        turn: Sequence[MatchDecision],
        view: Mapping[str, Any],
        live: tuple[int, int] | None,
        worded: Turn | None = None,
    ) -> bool:
        """A finished turn kept in the thread: its narration and the table after it, marked with what it changed;
        for a game that words its turns (`worded`, the turn as it takes it), under its heading, told in its own lines
        and with its own picture (`GameModule.turn_heading`, `turn_lines`, `turn_picture`). `live`: the live prompt
        of that turn, which becomes its record (its buttons go); a prompt Discord no longer has gives way to a new
        post. False when Discord refused it."""
        events = [e for d in turn for e in d.events]
        names = seat_names(record)
        moves = format_number(turn[-1].seq)
        if worded is not None:
            said = worded_names(record)
            head = heading(module, worded, said)
            # The game's own telling of the turn, one line a move, where it gives one; else its narration.
            lines = await asyncio.to_thread(module.turn_lines, worded, said)
            story = self._story(module, record, events) if lines is None else bulleted(lines)
            body = fit_story(story, [], MESSAGE - len(head) - 1)
            text = "\n".join(p for p in (head, body) if p)
            picture = await asyncio.to_thread(module.turn_picture, worded, names)
            player = names[worded.seat] if 0 <= worded.seat < len(names) else module.name
            alt = _("{game}, move {moves}: {player}'s turn and what it changed.").format(
                game=module.name, moves=moves, player=player
            )
            described = module.turn_alt(worded, names)
            if described:
                alt = _("{game} #{number}: {picture}").format(game=module.name, number=record.id, picture=described)
        else:
            text = fit_story(self._story(module, record, events), [])
            picture = await asyncio.to_thread(module.table_picture, view, names, events)
            alt = _("The {game} table after move {moves}.").format(game=module.name, moves=moves)
        filename = f"turn-{record.id}-{turn[-1].seq}.png"
        none = discord.AllowedMentions.none()

        def file() -> discord.File:
            return discord.File(_png(picture), filename=filename, description=shorten(alt, 1024))

        if live is not None:
            if await self.reach.edit(
                record, thread, live[1], content=text, attachments=[file()], view=None, allowed_mentions=none
            ):
                return True
            if self.reach.refusal(record.id) not in (Refusal.GONE, Refusal.TRANSIENT, None):
                return False
        return await self._send(record, thread, text, file=file(), allowed_mentions=none) is not None

    async def _post_rounds(
        self,
        thread: Any,
        module: GameModule,
        record: GameRecord,
        turns: Sequence[list[MatchDecision]],
        told_turns: Sequence[Turn],
        posts: TurnPosts,
        over: bool = False,
    ) -> tuple[bool | None, TurnPosts, list[list[MatchDecision]]]:
        """The finished `turns` of a game nobody reads turn by turn, for a game that tells its rounds
        (`GameModule.round_ends`, `round_summary`; `told_turns`, the same turns as it takes them): one post a whole
        round, no faster than Discord's per-channel rate; once the game is `over`, its last turns are the last round,
        told so before the end's post, as Kokeshi's own table tells it. Returns True when done, False when Discord
        refused a post, None when the rest must wait for room in the channel (a timer shows the table again then);
        the posts as they stand; and the turns told. A game that tells no rounds is told in the next post's story
        (the end's post), as before."""
        told: list[list[MatchDecision]] = []
        names = worded_names(record)
        none = discord.AllowedMentions.none()
        for size in rounds(module, told_turns, over=over) if told_turns else []:
            start = len(told)
            text = module.round_summary(told_turns[start : start + size], names)
            if text is None:
                break
            if not await self._room(record, thread):
                return None, posts, told
            if await self._send(record, thread, shorten(text, MESSAGE), allowed_mentions=none) is None:
                return False, posts, told
            told += turns[start : start + size]
            posts = dataclasses.replace(posts, recorded_seq=told[-1][-1].seq)
            await self.store.set_turn_posts(posts)
        return True, posts, told

    async def _room(self, record: GameRecord, thread: Any) -> bool:
        """Whether the thread has room for a post now at Discord's per-channel rate; if not, the table is shown
        again when it has (a repost timer)."""
        moment = self.reach.clock()
        at = self.reach.pace.free_at(thread.id, moment)
        if at <= moment:
            return True
        await self.store.set_timer(record.id, REPOST, at, record.version)
        self.bot.wake_timers(at)
        return False

    async def _since(
        self, module: GameModule, record: GameRecord, match: Match, decisions: Sequence[MatchDecision]
    ) -> list[str]:
        """For a new turn's post that asks one person openly: what the other seats did since that seat's last turn,
        in the game's words (`GameModule.since_summary`, the same window as its "Since your last turn" button)."""
        if not _asks_openly(match):
            return []
        seat = match.prompts()[0].seat
        if not any(s.seat == seat and not s.ai for s in record.seats):
            return []
        start, turns = others_since(decisions, seat)
        if not turns:
            return []
        views = await self.turn_views.after(self.store, record.id, turn_ends(turns, start))
        return since_block(module.since_summary(seat, told(turns, start, views), worded_names(record)))

    async def _retire(self, record: GameRecord, thread: Any, message_id: int) -> None:
        """A live prompt no turn shows any more (its turn is told by the end's post, or it was posted anew) goes;
        when Discord refuses to delete it, it at least loses its buttons (a click on them is refused as stale)."""
        if not await self.reach.delete(record, thread, message_id):
            await self.reach.edit(record, thread, message_id, view=None)

    async def _away_note(self, record: GameRecord, aways: Mapping[int, Any] | None = None) -> str:
        """One line per person at the table who is away (empty when nobody is), as Kokeshi's tables show it;
        `aways`: the away periods of the people seated, when already read."""
        if aways is None:
            people = [s.user_id for s in record.seats if s.user_id is not None and not s.ai]
            aways = await self.store.aways(people)
        return Aways.note_of(record, aways)

    async def show_deadline(self, record: GameRecord) -> None:
        """The live prompt edited in place (nobody pinged again) after an away period moved its deadline: the
        "Decide by" time it shows and who is away."""
        if record.status != "active" or record.thread_id is None:
            return
        posted = await self.store.thread_posts(record.id)
        found = posted.prompt
        if not posted.posts.turn_key and posted.posts.shown_version >= 0:
            return  # its last prompt is the record of its turn now; the next turn's is not posted yet
        thread = await self.reach.thread_of(record) if not self.reach.paused(record) else None
        if found is None or thread is None or found[0] != thread.id:  # type: ignore[attr-defined]
            return
        deadline = next((t for t in await self.store.timers(record.id) if t.kind == DEADLINE), None)
        try:
            message = await thread.fetch_message(found[1])
            kept = [line for line in message.content.split("\n") if not line.startswith(AWAY_MARK)]
            text = "\n".join(kept)
            if deadline is not None:
                text = _STAMP.sub(stamp(deadline.due_at), text)
            with speaking(record):
                away = await self._away_note(record)
            if away:
                text = f"{text}\n{away}"
            if text != message.content:
                await self.reach.edit(record, thread, message.id, content=shorten(text, MESSAGE))
        except discord.HTTPException as exc:
            log.info("game %d: its prompt could not show the moved deadline: %s", record.id, exc)

    async def _post_end(
        self,
        thread: Any,
        module: GameModule,
        record: GameRecord,
        match: Match,
        events: Sequence[Event],
        lobby: tuple[int, int] | None = None,
    ) -> bool:
        """The end's post: the last turn's story (every turn no record told), places and picture, with its Rematch
        (or Share) and Replay buttons; the lobby message then says it is finished. False when Discord refused it."""
        names = seat_names(record)
        standing = match.standing()
        picture = await asyncio.to_thread(module.record_picture, match.view(None), names, standing)
        lines = self._story(module, record, events)
        told = len(lines)
        lines.append(_("**{game} #{number} is over.**").format(game=module.name, number=record.id))
        lines.append(places_text(module, record, standing))
        closing: list[str] = []
        if record.challenge and record.host_id is not None:
            closing.append(
                await self.community.challenge_summary(record.id, record.challenge, record.host_id, record.game)
            )
        # The way back to where new games are opened, as a phone needs it at the end of a thread.
        closing.append(home(self.bot, record))
        closing = [line for line in closing if line]
        if closing and len(record.seats) > 1:
            # Markdown carries a numbered list on over the next line: a blank line ends the places first.
            lines.append("")
        lines += closing
        # Whoever cannot see the picture reads the places and totals it shows.
        ranks = seat_ranks(standing, [s.resigned for s in sorted(record.seats, key=lambda s: s.seat)])
        ranking = ", ".join(
            f"{names[s]} {format_number(int(standing.scores[s].get('total', 0)))}"
            for s in sorted(range(len(names)), key=lambda s: (ranks[s], s))
        )
        alt = _("{game} #{number}, final scores: {ranking}.").format(
            game=module.name, number=record.id, ranking=ranking
        )
        file = discord.File(_png(picture), filename=f"final-{record.id}.png", description=shorten(alt, 1024))
        kwargs: dict[str, Any] = {"file": file, "allowed_mentions": discord.AllowedMentions.none()}
        after = discord.ui.View(timeout=None)
        if record.challenge:
            after.add_item(MatchShare(record.id))
        else:
            after.add_item(MatchRematch(record.id, _("Play again") if record.players == 1 else _("Rematch")))
        # The whole game, turn by turn, is one tap away (`/games replay` too).
        after.add_item(ReplayButton(record.id, 0, "open", _("Replay")))
        kwargs["view"] = after
        message = await self._send(record, thread, fit_story(lines[:told], lines[told:]), **kwargs)
        if message is None:
            return False
        await self.lobbies.refresh(record, lobby)
        return True


@dataclasses.dataclass(frozen=True, slots=True)
class _Turn:
    """A live prompt as built for the turn under way, to be posted or edited in: its text, picture and buttons,
    the people it asks (user ids), their settings about pings, those it pings when posted, and whether silently."""

    text: str
    picture: bytes
    filename: str
    alt: str
    view: discord.ui.View | None
    people: list[int]
    settings: Mapping[int, Mapping[str, str]]
    pinged: list[int]
    silent: bool

    def file(self) -> discord.File:
        """The picture as a new attachment (a file is used up by the request that sends it)."""
        return discord.File(_png(self.picture), filename=self.filename, description=self.alt)


def _earliest(due: float | None, played: MatchPlayed | None) -> float | None:
    """The earlier of `due` and the earliest turn timer `played` set in its commit (None: neither)."""
    if played is None or played.shown is None or not played.shown.timers_set or not played.shown.timers:
        return due
    first = min(played.shown.timers.values())
    return first if due is None else min(due, first)


def _turns(decisions: Sequence[MatchDecision]) -> list[list[MatchDecision]]:
    """Decisions cut into turns, each ending with the decision that ended it; the last may be the turn under way."""
    turns: list[list[MatchDecision]] = [[]]
    for decision in decisions:
        turns[-1].append(decision)
        if decision.ends_turn:
            turns.append([])
    return [turn for turn in turns if turn]


class MatchClock:
    """The platform's tables as the clock (`cogs.clock.Clocks`) calls them."""

    def __init__(self, matches: Matches) -> None:
        self.matches = matches

    @staticmethod
    def serves(record: GameRecord) -> bool:
        return True  # every game is played at the platform's table

    @staticmethod
    def seat_word(name: str) -> str:
        return name

    def where(self, record: GameRecord) -> str:
        return self.matches.tables.where(record)

    async def game_channel(self, record: GameRecord) -> Any:
        return await self.matches._thread(record)

    async def send(self, record: GameRecord, channel: Any, content: str, **kwargs: Any) -> discord.Message | None:
        return await self.matches._send(record, channel, content, **kwargs)

    async def end_unrated(self, record: GameRecord) -> GameRecord:
        """Cancelled, its timers gone, its turn's buttons taken away and its lobby message told."""
        store = self.matches.store
        async with self.matches._locks(record.id):
            record = await store.cancel_game(record.id)
            await store.clear_timers(record.id)
        found = await store.get_message(record.id, "prompt")
        thread = await self.matches._thread(record)
        if found is not None and thread is not None:
            await self.matches.reach.edit(record, thread, found[1], view=None)
        await self.matches.lobbies.refresh(record)
        return record

    async def hand_over(self, record: GameRecord, seat: Seat) -> None:
        """When the game waits for the seat now, the AI decides in its place and the thread goes on."""
        async with self.matches._locks(record.id):
            match, _version, record = await self.matches.store.load_match(record.id)
            if seat.seat in match.waiting() and not match.is_over:
                await self.matches._advance(record, match, [])

    async def seat_back(self, record: GameRecord, seat: Seat) -> None:
        """Nothing to show: the AI took every decision the seat was asked, and its next turn pings it as usual."""
        return None


def fit_story(story: Sequence[str], tail: Sequence[str], limit: int = MESSAGE) -> str:
    """A post's story and what follows it (whose turn, the end) in one message: when a long run of events (a game
    the AI played out) does not fit, the newest lines of the story are kept and a line says how many earlier ones
    were left out; what follows the story always shows."""
    for dropped in range(len(story) + 1):
        kept = list(story[dropped:])
        if dropped:
            kept.insert(0, ngettext("… {n} earlier line", "… {n} earlier lines", dropped).format(n=dropped))
        text = "\n".join([*kept, *tail])
        if len(text) <= limit:
            return text
    return shorten("\n".join(tail), limit)


def asked(record: GameRecord, match: Match, user_id: int) -> tuple[Seat, Prompt]:
    """The caller's seat and the decision the match waits for from it; a player's mistake when they are not seated
    or have nothing to decide."""
    seat = record.seat_of(user_id)
    if seat is None:
        raise UserError(_("You are not playing in this game."))
    prompt = next((p for p in match.prompts() if p.seat == seat.seat), None)
    if prompt is None:
        raise UserError(whose_turn(record, match) or _("You have nothing to choose right now."))
    return seat, prompt


def whose_turn(record: GameRecord, match: Match) -> str | None:
    """A refusal of a choice out of turn that names whom the game waits for ("It's botan's turn, not yours."), as
    Kokeshi's own table says it; None when it waits for nobody (it is over)."""
    waiting = set(match.waiting())
    names = [escape(s.name) for s in sorted(record.seats, key=lambda s: s.seat) if s.seat in waiting]
    return _("It's {player}'s turn, not yours.").format(player=", ".join(names)) if names else None


def offer(
    module: GameModule,
    view: Mapping[str, Any],
    prompt: Prompt,
    game_id: int,
    version: int,
    names: Sequence[str] = (),
) -> discord.ui.View:
    """A prompt's choices for its deciding seat (`view`, the seat's): in one step, or the group first when its
    options come in groups and are many (`in_two_steps`). A menu's placeholder is the question as the game words
    it with the players' `names` at hand (`GameModule.question_named`: it may name another seat)."""
    question = module.question_named(view, prompt, names)
    if in_two_steps([o.group for o in prompt.options]):
        return groups_view(game_id, version, _entries(module, view, prompt), question)
    return choices_view(game_id, version, [choice_of(module, view, o) for o in prompt.options], question)


def choice_of(module: GameModule, view: Mapping[str, Any], option: Option) -> Choice:
    """An option as the deciding seat (`view`, its own) is offered it, in the game's words: its label on a button,
    its label and the line under it in a menu, its emoji on both."""
    return Choice(
        option.id,
        module.label(view, option),
        module.option_detail(view, option) or "",
        module.option_symbol(view, option),
        module.menu_label(view, option),
    )


def _entries(module: GameModule, view: Mapping[str, Any], prompt: Prompt) -> list[Choice]:
    """The first step of a choice in two steps: each group where its first option stands (with the game's line
    under it, or its count), and each option in none."""
    groups = prompt.groups()
    out = []
    for option in prompt.options:
        if not option.group:
            out.append(action_entry(choice_of(module, view, option)))
        elif option is groups[option.group][0]:
            label = module.group_label(view, prompt, option.group)
            detail = module.group_detail(view, prompt, option.group)
            out.append(group_entry(option.group, label, len(groups[option.group]), detail))
    return out


def _png(data: bytes) -> io.BytesIO:
    return io.BytesIO(data)


def _asks_openly(match: Match) -> bool:
    """Whether the match waits for one decision that the thread asks with its own buttons."""
    prompts = match.prompts()
    return len(prompts) == 1 and not prompts[0].secret


def _refusal(code: str) -> str:
    return {
        "stale": _("That choice is no longer current: the game has moved on."),
        "not_your_turn": _("It is not your turn."),
        "game_over": _("This game is over."),
        "illegal": _("That choice is not possible now."),
        "unknown_seat": _("You are not playing in this game."),
    }.get(code, _("That choice is not possible now."))


__all__ = ["Matches", "hints_allowed", "places_text", "seat_names"]
