"""The platform's finished turns as a game words them: which turns a new turn's post sums up, and how it cuts them."""

from __future__ import annotations

from cogs.match_turns import others_since, since_block, turn_ends
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
