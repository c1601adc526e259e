"""Finished turns as a contract game words them at the platform's table: records, the ping's summary, rounds.

A game that reads its turns (`GameModule.reads_turns`) is handed each finished `Turn` with the spectator's views
before and after it: its record's heading and picture, what the others did since a seat's last turn (in the post
that tells the seat its new turn has begun) and, for a game only computer players play, one post a round. The views
are those the table computed as the turns were played, kept a while per game, else one replay of the game's log
(`Store.match_views`, after a restart). Nothing here names a game.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from games.base import GameModule, Turn
from i18n import _, ngettext
from storage import MatchDecision, Store

from .limits import shorten
from .since import last_turn

# The views kept per game (the newest turns' ends), and the games kept (the most recently shown).
VIEWS_KEPT = 24
GAMES_KEPT = 64
# The room the "Since your last turn" lines may take in a new turn's post (the rest of it: whose turn, the question,
# the deadline, the turn so far).
SINCE_ROOM = 900
# A record's heading: one line; and each line of its body a game tells.
HEADING_ROOM = 300
LINE_ROOM = 500


class TurnViews:
    """The spectator's view after decisions that ended a turn, kept as the table plays them."""

    def __init__(self) -> None:
        self._kept: OrderedDict[int, dict[int, Mapping[str, Any]]] = OrderedDict()

    def keep(self, game_id: int, views: Mapping[int, Mapping[str, Any]]) -> None:
        """Views just computed (seq -> view after that decision)."""
        kept = self._kept.setdefault(game_id, {})
        self._kept.move_to_end(game_id)
        kept.update(views)
        for seq in sorted(kept)[:-VIEWS_KEPT]:
            del kept[seq]
        while len(self._kept) > GAMES_KEPT:
            self._kept.popitem(last=False)

    def forget(self, game_id: int) -> None:
        """A game over and shown: nothing more is asked of its views."""
        self._kept.pop(game_id, None)

    async def after(self, store: Store, game_id: int, seqs: Sequence[int]) -> dict[int, Mapping[str, Any]]:
        """The view after each decision of `seqs` (0: as dealt): kept ones, the rest from one replay."""
        kept = self._kept.get(game_id, {})
        missing = sorted({s for s in seqs if s not in kept})
        found = dict(kept)
        if missing:
            fetched = await store.match_views(game_id, missing)
            self.keep(game_id, fetched)
            found.update(fetched)
        return {s: found[s] for s in seqs}


def turn_ends(turns: Sequence[Sequence[MatchDecision]], start: int) -> list[int]:
    """The decisions each view of these finished turns is taken after: `start` (the one before the first turn),
    then the last decision of each turn."""
    return [start, *(turn[-1].seq for turn in turns)]


def told(turns: Sequence[Sequence[MatchDecision]], start: int, views: Mapping[int, Mapping[str, Any]]) -> list[Turn]:
    """These finished turns as the game's words take them, `start` being the decision before the first."""
    ends = turn_ends(turns, start)
    return [
        Turn(turn[0].seat, tuple(e for d in turn for e in d.events), views[ends[i]], views[ends[i + 1]])
        for i, turn in enumerate(turns)
    ]


def others_since(decisions: Sequence[MatchDecision], seat: int) -> tuple[int, list[list[MatchDecision]]]:
    """The finished turns since `seat`'s last (those its "Since your last turn" button tells) and the decision before
    the first of them; none before the seat's first turn."""
    index = last_turn(decisions, seat)
    if index is None:
        return 0, []  # the seat has finished no turn yet
    turns: list[list[MatchDecision]] = []
    current: list[MatchDecision] = []
    for decision in decisions[index:]:
        current.append(decision)
        if decision.ends_turn:
            turns.append(current)
            current = []
    # The first turn holds the seat's own last decision: what came after it is the others'.
    return turns[0][-1].seq if turns else 0, turns[1:]


def since_block(lines: Sequence[str], room: int = SINCE_ROOM) -> list[str]:
    """The summary of the others' turns for a new turn's post: a heading, then as many whole lines as `room`
    holds (the first ones: each game puts what matters most first), with a note of how many were left out."""
    if not lines:
        return []
    head = _("**Since your last turn:**")
    kept: list[str] = []
    for line in lines:
        bullet = "• " + shorten(line, room // 2)
        if len("\n".join([head, *kept, bullet])) > room:
            break
        kept.append(bullet)
    if not kept:
        return []
    left = len(lines) - len(kept)
    if left:
        kept.append(
            ngettext(
                "… {n} more line: the button below tells all", "… {n} more lines: the button below tells all", left
            ).format(n=left)
        )
    return [head, *kept]


def rounds(module: GameModule, turns: Sequence[Turn], *, over: bool = False) -> list[int]:
    """How many of these finished turns each whole round holds, in order. Turns after the last round's end are
    left out while the game goes on (their round is not over); once it is `over` (the last of `turns` ended it),
    they are its last round, whole or not."""
    sizes: list[int] = []
    count = 0
    for turn in turns:
        count += 1
        if module.round_ends(turn):
            sizes.append(count)
            count = 0
    if over and count:
        sizes.append(count)
    return sizes


def bulleted(lines: Sequence[str], room: int = LINE_ROOM) -> list[str]:
    """A record's lines as the game tells its turn (`GameModule.turn_lines`): one bullet each, a line cut to
    `room`, empty ones left out."""
    return ["• " + shorten(line.split("\n")[0], room) for line in lines if line.strip()]


def heading(module: GameModule, turn: Turn, names: Sequence[str]) -> str:
    """A record's heading, one line at most (empty when the game has none)."""
    head = module.turn_heading(turn, names)
    return shorten(head.split("\n")[0], HEADING_ROOM) if head else ""


__all__ = ["TurnViews", "bulleted", "heading", "others_since", "rounds", "since_block", "told", "turn_ends"]
