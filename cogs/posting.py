"""A game's thread: a permanent record of every finished turn, and one live prompt that may be replaced.

Everything the thread shows follows from the stored game, so it can always be posted again: `show` brings the
thread up to the game's current version, whether after a click, an AI turn, a time-out, a failed post or a
restart. Records are posted before the prompt; the old prompt loses its buttons only once the new one is up.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
from typing import TYPE_CHECKING

import discord

import render
from engine import Game
from i18n import _
from storage import GameRecord, LoggedAction, TurnPosts

from .components import QUESTIONS, prompt_view
from .narration import narrate, since_last_turn, speaking, split_turns, turn_line, turn_record

if TYPE_CHECKING:
    from .tables import Tables


log = logging.getLogger(__name__)

# After a failed post the thread is tried again this much later (and at every start of the bot).
RETRY_SECONDS = 60.0
NO_PINGS = discord.AllowedMentions.none()


def pinging(*user_ids: int) -> discord.AllowedMentions:
    """Allowed mentions for a message meant to ping exactly these users (and never everyone, here or a role)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(u) for u in user_ids], replied_user=False
    )


def turn_key(game: Game) -> str:
    """Which turn the game is in: its round, how many turns have ended, and who is to move."""
    prompt = game.prompt
    return f"{game.round_number}:{sum(game.turns)}:{prompt.player if prompt else '-'}"


class Poster:
    """Brings a game's thread up to date; one game at a time, so two changes never post twice."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        # One lock per game being shown, with how many callers want it; dropped when the last one is done.
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    @property
    def store(self):
        return self.tables.store

    async def show(self, game_id: int, *, prompt_lost: bool = False) -> bool:
        """Post what the thread lacks. False when Discord refused something; a retry is then scheduled.

        `prompt_lost`: the live prompt is gone although the game's records say it was posted (the sandbox started
        from a saved world older than its database): it is posted again, for the same turn and its timers.
        """
        lock, users = self._locks.get(game_id, (asyncio.Lock(), 0))
        self._locks[game_id] = (lock, users + 1)
        try:
            async with lock:
                if prompt_lost:
                    posts = await self.store.turn_posts(game_id)
                    await self.store.set_turn_posts(dataclasses.replace(posts, shown_version=-1))
                # Everything the thread shows (words, buttons, pictures) speaks the game's language.
                with speaking(await self.store.get_game(game_id)):
                    shown = await self._show(game_id)
                if not shown:
                    version = (await self.store.get_game(game_id)).version
                    await self.store.set_timer(game_id, "repost", self.tables.clock() + RETRY_SECONDS, version)
                    self.tables.bot.wake_timers()
                return shown
        finally:
            lock, users = self._locks[game_id]
            if users == 1:
                del self._locks[game_id]
            else:
                self._locks[game_id] = (lock, users - 1)

    async def _show(self, game_id: int) -> bool:
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
        if turns and not await self._post_records(record, channel, posts, turns):
            return False
        posts = await self.store.turn_posts(game_id)
        if game.is_over:
            if not await self.tables.post_final(record, game, channel):
                return False
            await self._retire_prompt(record)
            await self.store.clear_timers(game_id)
            await self.store.set_turn_posts(dataclasses.replace(posts, shown_version=version, turn_key=turn_key(game)))
            return True
        return await self._show_prompt(record, channel, game, version, posts, current)

    async def _post_records(self, record: GameRecord, channel, posts: TurnPosts, turns) -> bool:
        ends = [turn[-1].seq for turn in turns]
        states = await self.store.states_after(record.id, [posts.recorded_seq, *ends])
        before = states[posts.recorded_seq]
        for turn in turns:
            after = states[turn[-1].seq]
            events = [e for entry in turn for e in entry.events]
            text = turn_record(turn, before, after)
            picture = await asyncio.to_thread(render.table, after.view(), events)
            file = discord.File(
                io.BytesIO(picture), filename=render.filename(f"kokeshi-{record.id}-turn-{turn[-1].seq}")
            )
            if await self.tables.send(record, channel, text, file=file, allowed_mentions=NO_PINGS) is None:
                return False
            posts = dataclasses.replace(posts, recorded_seq=turn[-1].seq)
            await self.store.set_turn_posts(posts)
            before = after
        return True

    async def _show_prompt(
        self, record: GameRecord, channel, game: Game, version: int, posts: TurnPosts, current: list[LoggedAction]
    ) -> bool:
        prompt = game.prompt
        key = turn_key(game)
        question = _("{player} — {question}.").format(
            player=self.tables.mention(record, prompt.player), question=QUESTIONS[prompt.kind].lower()
        )
        so_far = narrate([e for entry in current for e in entry.events])
        # The prompt's picture is made for a phone: what this decision needs, the player's workshop, the scores.
        events = [e for entry in current for e in entry.events]
        picture = await asyncio.to_thread(render.turn, game.view(), prompt, None, events)
        name = render.filename(f"kokeshi-{record.id}-{version}")
        file = discord.File(io.BytesIO(picture), filename=name)
        view = prompt_view(record.id, version, prompt)
        found = await self.store.get_message(record.id, "prompt")
        if key == posts.turn_key and found is not None and found[0] == channel.id:
            content = "\n\n".join(p for p in (question, so_far) if p)
            try:
                await channel.get_partial_message(found[1]).edit(
                    content=_fit(content), attachments=[file], view=view, allowed_mentions=NO_PINGS
                )
            except discord.HTTPException as exc:
                # Deleted by someone, or Discord failed the edit: post the prompt anew below.
                log.warning("game %d: could not edit the prompt, posting it anew: %s", record.id, exc)
            else:
                await self.store.set_turn_posts(dataclasses.replace(posts, shown_version=version))
                return True
        # A new turn (or a lost prompt): a new message that pings the player, with what happened since their turn.
        since = await self._since_last_turn(record.id, prompt.player)
        mention = self.tables.mention(record, prompt.player)
        # The ping opens with what happened since the player's last turn: that is what a lock screen shows.
        opening = question
        if since:
            opening = _("{player} — {since}\n**Your turn:** {question}.").format(
                player=mention, since=since, question=QUESTIONS[prompt.kind].lower()
            )
        content = "\n\n".join(p for p in (opening, so_far) if p)
        seat = record.seat_named(prompt.player)
        person = seat is not None and seat.user_id is not None and not seat.ai
        mentions = pinging(seat.user_id) if person else NO_PINGS
        file = discord.File(io.BytesIO(picture), filename=name)
        message = await self.tables.send(
            record, channel, _fit(content), file=file, view=view, allowed_mentions=mentions
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
            if person:
                await self.tables.notify(record, seat.user_id, message)
        return True

    async def _since_last_turn(self, game_id: int, player: str) -> str:
        """One line per turn played by the others since this player's last turn (AI and automa included)."""
        turns, _current = split_turns(await self.store.log(game_id))
        own = [i for i, turn in enumerate(turns) if turn[0].player == player]
        others = turns[own[-1] + 1 :] if own else turns
        if not others:
            return ""
        starts = [others[0][0].seq - 1] + [turn[-1].seq for turn in others]
        states = await self.store.states_after(game_id, starts)
        lines = [turn_line(turn, states[starts[i]], states[turn[-1].seq]) for i, turn in enumerate(others)]
        return since_last_turn(lines)

    async def _retire_prompt(self, record: GameRecord) -> None:
        """The previous prompt goes once its successor is up: deleted, or at least stripped of its buttons."""
        found = await self.store.get_message(record.id, "prompt")
        channel = self.tables.bot.get_channel(found[0]) if found else None
        if channel is None:
            return
        message = channel.get_partial_message(found[1])  # type: ignore[union-attr]
        try:
            await message.delete()
        except discord.NotFound:
            pass
        except discord.HTTPException:
            try:
                await message.edit(view=None)
            except discord.HTTPException as exc:
                log.info("game %d: the old prompt keeps its buttons (%s); they answer 'out of date'", record.id, exc)


def _fit(text: str, limit: int = 2000) -> str:
    """Discord's message limit; the start (the ping and the question) matters most."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
