"""A game's thread: a permanent record of every finished turn, and one live prompt that may be replaced.

Everything the thread shows follows from the stored game, so it can always be posted again: `show` brings the
thread up to the game's current version, whether after a click, an AI turn, a time-out, a failed post or a
restart. Records are posted before the prompt; the old prompt loses its buttons only once the new one is up.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any, Protocol

import discord

import render
from engine import Game, idle_warning
from engine.preview import preview_all
from games.kokeshi import vocab
from i18n import _
from kit.locks import KeyedLocks
from storage import GameRecord, LoggedAction, Store, TurnPosts

from . import common
from .away import Aways
from .client import Client
from .clock import Clocks
from .common import pinging, turn_key
from .components import QUESTIONS, prompt_view
from .limits import MESSAGE, ChannelPace, shorten
from .narration import (
    escape,
    narrate,
    prompt_alt,
    record_alt,
    record_picture,
    since_last_turn,
    speaking,
    split_turns,
    turn_line,
    turn_record,
)
from .quiet import QuietHours
from .reach import Reach
from .refusals import Refusal

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()


class PosterTables(Protocol):
    """The tables (`cogs.tables.Tables`) as the poster calls them: names, channels, sends, timers, the final post."""

    @property
    def bot(self) -> Client: ...
    @property
    def store(self) -> Store: ...
    @property
    def reach(self) -> Reach: ...
    @property
    def pace(self) -> ChannelPace: ...
    @property
    def away(self) -> Aways: ...
    @property
    def quiet(self) -> QuietHours: ...
    @property
    def clocks(self) -> Clocks: ...

    def clock(self) -> float: ...

    def mention(self, record: GameRecord, name: str) -> str: ...

    async def load_levels(self, record: GameRecord) -> dict[int, str]: ...

    async def game_channel(self, record: GameRecord) -> discord.abc.Messageable | None: ...

    async def send(self, record: GameRecord, channel: Any, content: str, **kwargs: Any) -> discord.Message | None: ...

    async def wake(self, record: GameRecord, channel: Any) -> bool: ...

    async def post_final(self, record: GameRecord, game: Game, channel: Any) -> bool: ...

    async def start_turn_timers(self, record: GameRecord, version: int, player: str) -> None: ...

    async def notify(self, record: GameRecord, user_id: int, message: discord.Message) -> None: ...


def unattended(record: GameRecord) -> bool:
    """Every seat is played by the AI: nobody is left to read the game turn by turn."""
    return bool(record.seats) and all(seat.ai for seat in record.seats)


class Poster:
    """Brings a game's thread up to date; one game at a time, so two changes never post twice."""

    def __init__(self, tables: PosterTables) -> None:
        self.tables = tables
        # One game shown at a time; a game's lock goes when the last caller that wants it is done.
        self._locks: KeyedLocks[int] = KeyedLocks()

    @property
    def store(self):
        return self.tables.store

    async def show(self, game_id: int, *, prompt_lost: bool = False) -> bool:
        """Post what the thread lacks. False when Discord refused something; a retry is then scheduled.

        `prompt_lost`: the live prompt is gone although the game's records say it was posted (the sandbox started
        from a saved world older than its database): it is posted again, for the same turn and its timers.
        """
        async with self._locks(game_id):
            record = await self.store.get_game(game_id)
            reach = self.tables.reach
            if reach.paused(record):
                return True  # the bot is not in that server: nothing is sent there until it is back
            if prompt_lost:
                posts = await self.store.turn_posts(game_id)
                await self.store.set_turn_posts(dataclasses.replace(posts, shown_version=-1))
            # Everything the thread shows (words, buttons, pictures) speaks the game's language.
            with speaking(record):
                shown = await self._show(game_id)
            if shown is False:
                # Tried again later, later each time (never on a fixed clock); see `refusals`.
                await reach.failed(await self.store.get_game(game_id))
                return False
            await reach.succeeded(record)
            if shown is not True:
                # A long burst keeps Discord's per-channel rate: the rest goes out when the channel has room.
                await self.store.set_timer(game_id, "repost", shown, (await self.store.get_game(game_id)).version)
                self.tables.bot.wake_timers()
            return True

    async def _show(self, game_id: int) -> bool | float:
        """True when the thread is up to date, False when Discord refused a post, or the time at which the rest
        may go out (a burst kept to the channel's rate)."""
        record = await self.store.get_game(game_id)
        if record.status not in ("active", "finished"):
            return True
        await self.tables.load_levels(record)
        game, version = await self.store.load_game(game_id)
        posts = await self.store.turn_posts(game_id)
        if posts.shown_version >= version:
            return True
        channel = await self.tables.game_channel(record)
        if channel is None:
            return False
        entries = await self.store.log(game_id, since=posts.recorded_seq)
        turns, current = split_turns(entries)
        if turns:
            posted = await self._post_records(record, channel, posts, turns)
            if posted is not True:
                return posted
        posts = await self.store.turn_posts(game_id)
        if game.is_over:
            later = self._later(record, channel)
            if later is not None:
                return later
            if not await self.tables.post_final(record, game, channel):
                return False
            await self._retire_prompt(record)
            await self.store.clear_timers(game_id)
            await self.store.set_turn_posts(dataclasses.replace(posts, shown_version=version, turn_key=turn_key(game)))
            return True
        return await self._show_prompt(record, channel, game, version, posts, current)

    def _later(self, record: GameRecord, channel) -> float | None:
        """For a game nobody reads any more (every seat is the AI's): when the channel has room for its next post,
        if not now. A game with a person in it is never held back."""
        if not unattended(record):
            return None
        now = self.tables.clock()
        at = self.tables.pace.free_at(channel.id, now)
        return at if at > now else None

    async def _post_records(self, record: GameRecord, channel, posts: TurnPosts, turns) -> bool | float:
        ends = [turn[-1].seq for turn in turns]
        states = await self.store.states_after(record.id, [posts.recorded_seq, *ends])
        if unattended(record):
            return await self._post_rounds(record, channel, posts, turns, states)
        before = states[posts.recorded_seq]
        for turn in turns:
            after = states[turn[-1].seq]
            events = [e for entry in turn for e in entry.events]
            text = turn_record(turn, before, after)
            # The board of the player who just played, drawn for a phone, with what the turn changed marked.
            picture = await asyncio.to_thread(record_picture, turn[0].player, before, after, events)
            file = common.picture(
                picture,
                render.filename(f"kokeshi-{record.id}-turn-{turn[-1].seq}"),
                record_alt(record.id, turn[0].player),
            )
            if await self.tables.send(record, channel, text, file=file, allowed_mentions=NO_PINGS) is None:
                return False
            posts = dataclasses.replace(posts, recorded_seq=turn[-1].seq)
            await self.store.set_turn_posts(posts)
            before = after
        return True

    async def _post_rounds(self, record: GameRecord, channel, posts: TurnPosts, turns, states) -> bool | float:
        """The records of a game only the AI plays: one short message per round, without pictures, at most as
        fast as Discord's per-channel rate allows (the rest follows a few seconds later)."""
        rounds: list[tuple[int, list[str], int]] = []  # (round, lines, seq of its last turn)
        before = states[posts.recorded_seq]
        for turn in turns:
            after = states[turn[-1].seq]
            line = "• " + turn_line(turn, before, after)
            if rounds and rounds[-1][0] == before.round_number:
                rounds[-1][1].append(line)
                rounds[-1] = (rounds[-1][0], rounds[-1][1], turn[-1].seq)
            else:
                rounds.append((before.round_number, [line], turn[-1].seq))
            before = after
        for number, lines, last in rounds:
            later = self._later(record, channel)
            if later is not None:
                return later
            head = _("**{round}** · the AI plays every seat").format(round=vocab.round_name(number))
            if (
                await self.tables.send(record, channel, _fit("\n".join([head, *lines])), allowed_mentions=NO_PINGS)
                is None
            ):
                return False
            posts = dataclasses.replace(posts, recorded_seq=last)
            await self.store.set_turn_posts(posts)
        return True

    async def _show_prompt(
        self, record: GameRecord, channel, game: Game, version: int, posts: TurnPosts, current: list[LoggedAction]
    ) -> bool:
        prompt = game.prompt
        assert prompt is not None, "a finished game has no prompt to show"
        key = turn_key(game)
        question = _("{player} — {question}.").format(
            player=self.tables.mention(record, prompt.player), question=QUESTIONS[prompt.kind].lower()
        )
        public = game.view()
        # The end against stalling, once it is near: how many idle turns are left (the player's own, or whose).
        near = idle_warning(public, prompt.player)
        warning = ""
        if near is not None:
            whose, left = near
            warning = vocab.idle_warning(left, None if whose in (None, prompt.player) else escape(whose), game.rules)
        # Who at the table is away, and until when: the others know why a turn waits.
        warning = "\n".join(p for p in (warning, await self.tables.away.note(record)) if p)
        # A bank clock: what is left in the bank of the player to move (`cogs.clock`).
        warning = "\n".join(p for p in (warning, await self.tables.clocks.note(record, prompt.player)) if p)
        # The prompt's picture is made for a phone: what this decision needs, the player's workshop, the scores.
        events = [e for entry in current for e in entry.events]
        so_far = narrate(events, public, limit=1200)  # room left for the ping and the since lines
        # What each choice does, from the rules: said by the buttons and marked in the picture.
        outcomes = preview_all(game)
        picture = await asyncio.to_thread(render.turn, public, prompt, None, events, outcomes)
        name = render.filename(f"kokeshi-{record.id}-{version}")
        alt = prompt_alt(record.id, prompt.player, prompt.kind)
        view = prompt_view(record.id, version, prompt, outcomes=outcomes)
        found = await self.store.get_message(record.id, "prompt")
        if key == posts.turn_key and found is not None and found[0] == channel.id:
            content = "\n\n".join(p for p in (question, warning, so_far) if p)
            edited = await self._edit_prompt(record, channel, found[1], content, (picture, name, alt), view)
            if edited is not None:
                if edited:
                    await self.store.set_turn_posts(dataclasses.replace(posts, shown_version=version))
                return edited
        # A new turn (or a lost prompt): a new message that pings the player, with what happened since their turn.
        since = await self._since_last_turn(record.id, prompt.player)
        mention = self.tables.mention(record, prompt.player)
        # The ping's first line (what a lock screen shows) says it is their turn and what to decide; then one line
        # per other player since their last turn.
        opening = _("{player} — **your turn**: {question}.").format(
            player=mention, question=QUESTIONS[prompt.kind].lower()
        )
        if since:
            opening = "\n".join((opening, _("**Since your last turn:**"), since))
        content = "\n\n".join(p for p in (opening, warning, so_far) if p)
        seat = record.seat_named(prompt.player)
        user_id = seat.user_id if seat is not None and not seat.ai else None
        muted = await self.tables.quiet.muted(record.id, user_id)  # the prompt names a player who muted it, unpinged
        mentions = pinging(user_id) if user_id is not None and not muted else NO_PINGS
        file = common.picture(picture, name, alt)
        # Inside the player's quiet hours the ping comes silently (no sound, no push).
        silent = await self.tables.quiet.silent(user_id)
        message = await self.tables.send(
            record, channel, _fit(content), file=file, view=view, allowed_mentions=mentions, silent=silent
        )
        if message is None:
            return False
        await self._retire_prompt(record)
        await self.store.set_message(record.id, "prompt", message.channel.id, message.id)
        turn_version = version if key != posts.turn_key else posts.turn_version
        await self.store.set_turn_posts(
            dataclasses.replace(posts, shown_version=version, turn_key=key, turn_version=turn_version)
        )
        if key != posts.turn_key:
            await self.tables.start_turn_timers(record, turn_version, prompt.player)
            if user_id is not None:
                await self.tables.notify(record, user_id, message)
        return True

    async def _edit_prompt(
        self, record: GameRecord, channel, message_id: int, content: str, picture: tuple[bytes, str, str], view
    ) -> bool | None:
        """Edit the live prompt in place: True when done, False when Discord refuses (a post would be refused just
        the same), None when it must be posted anew (deleted, or Discord failed the edit). A thread that went to
        sleep (archived) is woken and the edit made again."""
        for attempt in range(2):
            try:
                await channel.get_partial_message(message_id).edit(
                    content=_fit(content),
                    attachments=[common.picture(*picture)],
                    view=view,
                    allowed_mentions=NO_PINGS,
                )
            except discord.HTTPException as exc:
                kind = self.tables.reach.note(record.id, exc)
                if kind in (Refusal.FORBIDDEN, Refusal.LOCKED):
                    return False
                if kind is Refusal.ARCHIVED:
                    if attempt == 0 and await self.tables.wake(record, channel):
                        continue
                    return False
                log.warning("game %d: could not edit the prompt, posting it anew: %s", record.id, exc)
                return None
            else:
                self.tables.reach.last.pop(record.id, None)
                return True
        return None

    async def _since_last_turn(self, game_id: int, player: str) -> str:
        """One line per other player since this player's last turn (AI seats included); nothing before the
        player's first turn."""
        turns, _current = split_turns(await self.store.log(game_id))
        own = [i for i, turn in enumerate(turns) if turn[0].player == player]
        others = turns[own[-1] + 1 :] if own else []
        if not others:
            return ""
        starts = [others[0][0].seq - 1] + [turn[-1].seq for turn in others]
        states = await self.store.states_after(game_id, starts)
        return since_last_turn(player, others, [states[seq] for seq in starts])

    async def _retire_prompt(self, record: GameRecord) -> None:
        """The previous prompt goes once its successor is up: deleted, or at least stripped of its buttons."""
        found = await self.store.get_message(record.id, "prompt")
        channel = self.tables.bot.get_channel(found[0]) if found else None
        if channel is None:
            return
        message = channel.get_partial_message(found[1])  # type: ignore[union-attr]  # a game's thread
        try:
            await message.delete()
        except discord.NotFound:
            pass
        except discord.HTTPException:
            try:
                await message.edit(view=None)
            except discord.HTTPException as exc:
                log.info("game %d: the old prompt keeps its buttons (%s); they answer 'out of date'", record.id, exc)


def _fit(text: str, limit: int = MESSAGE) -> str:
    """Discord's message limit; the start (the ping and the question) matters most."""
    return shorten(text, limit)
