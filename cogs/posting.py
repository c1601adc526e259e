"""A game's thread: a permanent record of every finished turn, and one live prompt that may be replaced.

Everything the thread shows follows from the stored game, so it can always be posted again: `show` brings the
thread up to the game's current version, whether after a click, an AI turn, a time-out, a failed post or a
restart. Records are posted before the prompt; the old prompt loses its buttons only once the new one is up.

After a decision, the caller hands the poster what the store computed (`Played`): the record, the state, the log and
the states after the latest turns; the poster reads back only what the thread shows. It is given, up front, where
to send (`Reach`), how to name seats (`Names`) and where the lobby message is refreshed (`Lobby`): it never calls
back into whoever asked it to show a game.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Sequence
from typing import Protocol

import discord

import render
from games.kokeshi import pictures, records, vocab
from games.kokeshi.engine import Game, idle_warning
from games.kokeshi.engine.preview import preview_all
from i18n import _, ngettext
from kit.locks import KeyedLocks
from service import Outcome
from storage import Applied, GameRecord, LoggedAction, Result, Store, TurnPosts
from storage.away import QUIET

from . import common
from .away import Aways
from .client import Client, home
from .clock import Clocks
from .common import pinging
from .components import QUESTIONS, prompt_view
from .finals import final_view
from .limits import MESSAGE, shorten
from .names import Names
from .narration import (
    narrate,
    prompt_alt,
    record_alt,
    record_picture,
    round_heading,
    since_last_turn,
    split_turns,
    turn_key,
    turn_line,
    turn_record,
)
from .quiet import in_quiet_hours, muted_in
from .reach import Reach, turn_timers
from .refusals import Refusal
from .speech import escape, speaking

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()


class Lobby(Protocol):
    """Where a game's lobby message is brought up to date (its status, its seats); nothing comes back from it."""

    async def refresh_lobby(self, record: GameRecord, found: tuple[int, int] | None = None) -> None: ...


@dataclasses.dataclass(frozen=True, slots=True)
class Played:
    """A decision just saved, handed to the poster with the request to show it: what the store computed on the way
    (`Applied`), and what the service said of it (`Outcome`), so that the poster reads none of it back."""

    applied: Applied
    outcome: Outcome | None = None


def unattended(record: GameRecord) -> bool:
    """Every seat is played by the AI: nobody is left to read the game turn by turn."""
    return bool(record.seats) and all(seat.ai for seat in record.seats)


class Poster:
    """Brings a game's thread up to date; one game at a time, so two changes never post twice."""

    def __init__(self, bot: Client, reach: Reach, names: Names, lobby: Lobby) -> None:
        self.bot = bot
        self.reach = reach
        self.names = names
        self.lobby = lobby
        # One game shown at a time; a game's lock goes when the last caller that wants it is done.
        self._locks: KeyedLocks[int] = KeyedLocks()

    @property
    def store(self) -> Store:
        return self.bot.store

    async def show(self, game_id: int, *, prompt_lost: bool = False, played: Played | None = None) -> bool:
        """Post what the thread lacks. False when Discord refused something; a retry is then scheduled.

        `played`: the decision that was just saved, as the store and the service told it; used if it is still the
        game's latest version (else the game is read as stored). `prompt_lost`: the live prompt is gone although the
        game's records say it was posted (the sandbox started from a saved world older than its database): it is
        posted again, for the same turn and its timers.
        """
        async with self._locks(game_id):
            if played is not None and self.store.held_version(game_id) != played.applied.version:
                played = None  # the game moved on since: show it as it is now
            record = played.applied.record if played is not None else await self.store.get_game(game_id)
            reach = self.reach
            if reach.paused(record):
                return True  # the bot is not in that server: nothing is sent there until it is back
            thread = await self.store.thread_posts(game_id)
            if prompt_lost:
                await self.store.set_turn_posts(dataclasses.replace(thread.posts, shown_version=-1))
                thread = await self.store.thread_posts(game_id)
            # Everything the thread shows (words, buttons, pictures) speaks the game's language.
            with speaking(record):
                shown = await self._show(record, thread.posts, thread.prompt, thread.lobby, played)
            if shown is False:
                # Tried again later, later each time (never on a fixed clock); see `refusals`.
                await reach.failed(await self.store.get_game(game_id))
                return False
            await reach.succeeded(record, refused=thread.refused)
            if shown is not True:
                # A long burst keeps Discord's per-channel rate: the rest goes out when the channel has room.
                await self.store.set_timer(game_id, "repost", shown, (await self.store.get_game(game_id)).version)
                self.bot.wake_timers()
            return True

    async def _show(
        self,
        record: GameRecord,
        posts: TurnPosts,
        prompt: tuple[int, int] | None,
        lobby: tuple[int, int] | None,
        played: Played | None,
    ) -> bool | float:
        """True when the thread is up to date, False when Discord refused a post, or the time at which the rest
        may go out (a burst kept to the channel's rate)."""
        game_id = record.id
        if record.status not in ("active", "finished"):
            return True
        await self.names.load_levels(record)
        if played is not None:
            game, version = played.applied.game, played.applied.version
        else:
            game, version = await self.store.load_game(game_id)
        if posts.shown_version >= version:
            return True
        channel = await self.reach.game_channel(record)
        if channel is None:
            return False
        if record.thread_id and channel.id != record.thread_id:  # type: ignore[attr-defined]  # a new thread
            # The thread was deleted and a new one opened: it shows nothing yet, and the game is read afresh.
            record = await self.store.get_game(game_id)
            thread = await self.store.thread_posts(game_id)
            posts, prompt, lobby, played = thread.posts, thread.prompt, thread.lobby, None
        log = _Log(self.store, game_id, played)
        entries = await log.since(posts.recorded_seq)
        turns, current = split_turns(entries)
        if turns:
            recorded = await self._post_records(record, channel, posts, turns, log)
            if recorded is not True:
                return recorded
            posts = dataclasses.replace(posts, recorded_seq=turns[-1][-1].seq)
        if game.is_over:
            later = self._later(record, channel)
            if later is not None:
                return later
            results = played.applied.results if played is not None else None
            if not await self.post_final(record, game, channel, results, lobby):
                return False
            await self._retire_prompt(record, prompt)
            if played is None:
                await self.store.clear_timers(game_id)  # else cleared with the commit that ended the game
            await self.store.set_turn_posts(dataclasses.replace(posts, shown_version=version, turn_key=turn_key(game)))
            return True
        return await self._show_prompt(record, channel, game, version, posts, prompt, current, log, played)

    def _later(self, record: GameRecord, channel) -> float | None:
        """For a game nobody reads any more (every seat is the AI's): when the channel has room for its next post,
        if not now. A game with a person in it is never held back."""
        if not unattended(record):
            return None
        now = self.reach.clock()
        at = self.reach.pace.free_at(channel.id, now)
        return at if at > now else None

    async def _post_records(self, record: GameRecord, channel, posts: TurnPosts, turns, log: _Log) -> bool | float:
        ends = [turn[-1].seq for turn in turns]
        states = await log.states([posts.recorded_seq, *ends])
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
            if await self.reach.send(record, channel, text, file=file, allowed_mentions=NO_PINGS) is None:
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
            head = round_heading(number)
            if (
                await self.reach.send(record, channel, _fit("\n".join([head, *lines])), allowed_mentions=NO_PINGS)
                is None
            ):
                return False
            posts = dataclasses.replace(posts, recorded_seq=last)
            await self.store.set_turn_posts(posts)
        return True

    async def _show_prompt(
        self,
        record: GameRecord,
        channel,
        game: Game,
        version: int,
        posts: TurnPosts,
        found: tuple[int, int] | None,
        current: list[LoggedAction],
        log: _Log,
        played: Played | None,
    ) -> bool:
        prompt = game.prompt
        assert prompt is not None, "a finished game has no prompt to show"
        key = turn_key(game)
        mention = self.names.mention(record, prompt.player)
        question = _("{player} — {question}.").format(player=mention, question=QUESTIONS[prompt.kind].lower())
        public = game.view()
        # The end against stalling, once it is near: how many idle turns are left (the player's own, or whose).
        near = idle_warning(public, prompt.player)
        warning = ""
        if near is not None:
            whose, left = near
            warning = vocab.idle_warning(left, None if whose in (None, prompt.player) else escape(whose), game.rules)
        # What the prompt says of the people at the table: read with the move that began the turn, if it did.
        applied = played.applied if played is not None else None
        facts = applied.facts if applied is not None and applied.facts is not None else None
        if facts is None:
            facts = await self.store.turn_facts(record, prompt.player)
        # Who at the table is away, and until when: the others know why a turn waits.
        warning = "\n".join(p for p in (warning, Aways.note_of(record, facts.aways)) if p)
        # A bank clock: what is left in the bank of the player to move (`cogs.clock`).
        warning = "\n".join(p for p in (warning, Clocks.note_of(record, prompt.player, facts.bank_left)) if p)
        # The prompt's picture is made for a phone: what this decision needs, the player's workshop, the scores.
        events = [e for entry in current for e in entry.events]
        so_far = narrate(events, public, limit=records.SO_FAR_CHARS)  # room left for the ping and the since lines
        # What each choice does, from the rules: said by the buttons and marked in the picture.
        outcomes = preview_all(game)
        picture = await asyncio.to_thread(pictures.turn, public, prompt, None, events, outcomes)
        name = render.filename(f"kokeshi-{record.id}-{version}")
        alt = prompt_alt(record.id, prompt.player, prompt.kind)
        view = prompt_view(record.id, version, prompt, outcomes=outcomes)
        if key == posts.turn_key and found is not None and found[0] == channel.id:
            content = "\n\n".join(p for p in (question, warning, so_far) if p)
            edited = await self._edit_prompt(record, channel, found[1], content, (picture, name, alt), view)
            if edited is not None:
                if edited:
                    await self.store.set_turn_posts(dataclasses.replace(posts, shown_version=version))
                return edited
        # A new turn (or a lost prompt): a new message that pings the player, with what happened since their turn.
        since = await self._since_last_turn(prompt.player, log)
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
        muted = muted_in(facts.settings, record.id)  # the prompt names a player who muted it, unpinged
        mentions = pinging(user_id) if user_id is not None and not muted else NO_PINGS
        file = common.picture(picture, name, alt)
        # Inside the player's quiet hours the ping comes silently (no sound, no push).
        silent = user_id is not None and in_quiet_hours(facts.settings.get(QUIET))
        message = await self.reach.send(
            record, channel, _fit(content), file=file, view=view, allowed_mentions=mentions, silent=silent
        )
        if message is None:
            return False
        await self._retire_prompt(record, found)
        turn_version = version if key != posts.turn_key else posts.turn_version
        await self.store.set_turn_posts(
            dataclasses.replace(posts, shown_version=version, turn_key=key, turn_version=turn_version),
            prompt=(message.channel.id, message.id),
        )
        if key != posts.turn_key:
            # The move that began this turn usually set its timers in its own commit: then there is nothing to do.
            if applied is None or not applied.timers_set or applied.version != turn_version:
                await self.start_turn_timers(record, turn_version, prompt.player)
            elif applied.first_timer is not None:
                self.bot.wake_timers(applied.first_timer)
            if user_id is not None:
                await self.reach.notify(record, user_id, message, facts.settings)
        return True

    async def start_turn_timers(self, record: GameRecord, version: int, player: str) -> None:
        """The reminders and deadline of the turn just shown (none for an AI seat or a game without a timer)."""
        seat = record.seat_named(player)
        if not record.turn_timer or seat is None or seat.ai:
            if await self.store.timers(record.id):
                await self.store.clear_timers(record.id)
            return
        # Usually already written with the move that started the turn: then this commits nothing.
        await self.store.set_turn_timers(record.id, version, turn_timers(record), user_id=seat.user_id)
        if (await self.store.get_game(record.id)).status != "active":
            # Cancelled (or ended) while its prompt was being posted: no timers for a game that is over.
            await self.store.clear_timers(record.id)
            return
        self.bot.wake_timers()

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
                kind = self.reach.note(record.id, exc)
                if kind in (Refusal.FORBIDDEN, Refusal.LOCKED):
                    return False
                if kind is Refusal.ARCHIVED:
                    if attempt == 0 and await self.reach.wake(record, channel):
                        continue
                    return False
                log.warning("game %d: could not edit the prompt, posting it anew: %s", record.id, exc)
                return None
            else:
                self.reach.last.pop(record.id, None)
                return True
        return None

    async def _since_last_turn(self, player: str, log: _Log) -> str:
        """One line per other player since this player's last turn (AI seats included); nothing before the
        player's first turn."""
        turns, _current = split_turns(await log.since(0))
        own = [i for i, turn in enumerate(turns) if turn[0].player == player]
        others = turns[own[-1] + 1 :] if own else []
        if not others:
            return ""
        starts = [others[0][0].seq - 1] + [turn[-1].seq for turn in others]
        states = await log.states(starts)
        return since_last_turn(player, others, [states[seq] for seq in starts])

    async def _retire_prompt(self, record: GameRecord, found: tuple[int, int] | None) -> None:
        """The previous prompt goes once its successor is up: deleted, or at least stripped of its buttons."""
        channel = self.bot.get_channel(found[0]) if found else None
        if channel is None:
            return
        message = channel.get_partial_message(found[1])  # type: ignore[union-attr,index]  # a game's thread
        try:
            await message.delete()
        except discord.NotFound:
            pass
        except discord.HTTPException:
            try:
                await message.edit(view=None)
            except discord.HTTPException as exc:
                log.info("game %d: the old prompt keeps its buttons (%s); they answer 'out of date'", record.id, exc)

    async def post_final(
        self,
        record: GameRecord,
        game: Game,
        channel,
        results: Sequence[Result] | None = None,
        lobby: tuple[int, int] | None = None,
    ) -> bool:
        """The final scores and picture, with the final message's buttons (replay, rematch or share); the lobby message
        then says it is finished. `results`: the game's results, if known (else read); `lobby`: where the lobby
        message is, if known."""
        scores = game.scores()
        if results is None:
            results = await self.store.results(record.id)
        ranking = [r.name for r in results] or game.ranking()
        picture = await asyncio.to_thread(pictures.final, game.view(), scores, ranking)
        medals = ["🥇", "🥈", "🥉", "4."]
        lines = []
        for i, name in enumerate(ranking):
            s = scores[name]
            resigned = any(r.name == name and r.resigned for r in results)
            line = ngettext(
                "{place} {player} — **{total}** point ({items})",
                "{place} {player} — **{total}** points ({items})",
                s.total,
            ).format(
                place=medals[i],
                player=self.names.mention(record, name),
                total=vocab.number(s.total),
                items=vocab.score_line(s),
            )
            lines.append(_("{line} — resigned").format(line=line) if resigned else line)
        headline = _("**Kokeshi #{number} is over!**").format(number=record.id)
        if record.solo:
            human = next(n for n in ranking if n != "automa")
            headline += " " + (_("You beat the automa! 🎉") if ranking[0] == human else _("The automa wins this time."))
            if record.challenge and record.host_id is not None:
                summary = await self.bot.community.challenge_summary(record.id, record.challenge, record.host_id)
                headline += f"\n{summary}" if summary else ""
        back = home(self.bot, record)
        content = "\n\n".join(p for p in (headline, "\n".join(lines), back) if p)[: MESSAGE - 10]
        message = await self.reach.send(
            record,
            channel,
            content,
            file=common.picture(
                picture,
                render.filename(f"kokeshi-{record.id}-final"),
                _("Kokeshi #{number}, final scores: {ranking}.").format(
                    number=record.id,
                    ranking=", ".join(f"{vocab.seat_name(n)} {vocab.number(scores[n].total)}" for n in ranking),
                ),
            ),
            view=final_view(record),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if record.status != "finished":
            record = await self.store.get_game(record.id)
        await self.lobby.refresh_lobby(record, lobby)
        return message is not None


class _Log:
    """A game's log and the states after its turns, as the poster reads them: from the decision just played when
    it holds them, else from the store."""

    def __init__(self, store: Store, game_id: int, played: Played | None) -> None:
        self.store = store
        self.game_id = game_id
        # What the store returned holds the whole log unless it did not hold it in memory.
        self.applied = played.applied if played is not None and played.applied.log else None
        self._entries: list[LoggedAction] | None = None

    async def since(self, seq: int) -> list[LoggedAction]:
        if self.applied is not None:
            return [e for e in self.applied.log if e.seq > seq]
        if self._entries is None:
            self._entries = await self.store.log(self.game_id)
        return [e for e in self._entries if e.seq > seq]

    async def states(self, seqs: Sequence[int]) -> dict[int, Game]:
        held = self.applied.states if self.applied is not None else {}
        if all(seq in held for seq in seqs):
            return {seq: held[seq].clone() for seq in seqs}
        return await self.store.states_after(self.game_id, seqs)


def _fit(text: str, limit: int = MESSAGE) -> str:
    """Discord's message limit; the start (the ping and the question) matters most."""
    return shorten(text, limit)
