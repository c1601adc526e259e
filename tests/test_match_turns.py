"""The platform's finished turns as a game words them: which turns a new turn's post sums up, and how it cuts them."""

from __future__ import annotations

import games
from cogs.match_turns import others_since, rounds, since_block, turn_ends
from games.base import Turn
from storage import MatchDecision


def decision(seq: int, seat: int, ends: bool) -> MatchDecision:
    return MatchDecision(seq, seat, f"a{seq}", (), ends)


# Seat 0 takes two steps, seat 1 one, seat 2 two; then seat 0 starts its next turn.
LOG = [
    decision(1, 0, False),
    decision(2, 0, True),
    decision(3, 1, True),
    decision(4, 2, False),
    decision(5, 2, True),
    decision(6, 0, False),
]


def test_the_ping_sums_up_the_others_turns_since_the_seats_own_last_turn_ended():
    start, turns = others_since(LOG[:5], 0)
    assert start == 2
    assert [[d.seq for d in turn] for turn in turns] == [[3], [4, 5]]
    assert turn_ends(turns, start) == [2, 3, 5]


def test_nothing_is_summed_up_before_a_seats_first_turn_nor_for_a_turn_under_way():
    assert others_since(LOG[:2], 1) == (0, [])
    # Seat 1's own turn is the latest finished: the others' are under way or not begun.
    start, turns = others_since(LOG[:3], 1)
    assert (start, turns) == (3, [])


def test_the_summary_keeps_whole_lines_first_ones_first_and_says_how_many_it_left_out():
    lines = [f"Player {i} +{i} → {10 * i}: " + "x" * 150 for i in range(1, 9)]
    block = since_block(lines, room=600)
    assert block[0] == "**Since your last turn:**"
    shown = block[1:-1]
    assert shown == [f"• {line}" for line in lines[: len(shown)]] and 0 < len(shown) < len(lines)
    assert block[-1] == f"… {len(lines) - len(shown)} more lines: the button below tells all"
    assert len("\n".join(block[:-1])) <= 600
    assert since_block([]) == []
    assert since_block(["one"]) == ["**Since your last turn:**", "• one"]


def test_a_game_over_tells_its_last_turns_as_its_last_round_whole_or_not():
    # Kokeshi's rounds: a turn ends one when the next begins; here the game ends two turns into round 2.
    module = games.get("kokeshi")
    views = [{"round": 1, "phase": "play"}] * 3 + [{"round": 2, "phase": "play"}] * 2 + [{"round": 2, "phase": "over"}]
    ended = [Turn(0, (), before, after) for before, after in zip(views, views[1:], strict=False)]
    going = [Turn(0, (), views[0], views[1]), *ended[1:3], Turn(0, (), views[3], views[3])]
    # While the game goes on, the round under way is not told yet.
    assert rounds(module, going) == [3]
    # Once it is over, the end's round is told as a round (the end ends it).
    assert rounds(module, ended, over=True) == [3, 2]
    # A game whose rounds never end (the default) tells no rounds while it goes on, and its whole game as one once
    # it is over, which its `round_summary` (None by default) may decline.
    from tests.games.tiny import MODULE as bids

    assert rounds(bids, ended) == [] and rounds(bids, ended, over=True) == [5]
    assert bids.round_summary(ended, ["a", "b"]) is None


def test_the_places_write_a_negative_total_with_a_true_minus():
    from types import SimpleNamespace

    from cogs.matches import places_text
    from games.base import Standing
    from tests.games.tiny import MODULE as bids

    seats = [SimpleNamespace(seat=0, name="Aiko", resigned=False), SimpleNamespace(seat=1, name="AI 1", resigned=False)]
    record = SimpleNamespace(seats=seats)
    standing = Standing(True, (2, 1), ({"total": -4}, {"total": 1234}))
    text = places_text(bids, record, standing)
    assert "1. **AI 1** — 1,234 points" in text and "2. **Aiko** — \u22124 points" in text, text
