"""Kokeshi's words for a game's status, as the contract gives them to `/kokeshi status`: the question a status waits
on, the automa's name and every player's total, best first."""

from __future__ import annotations

import pytest

import i18n
from games.base import Prompt, Standing
from games.kokeshi import engine, vocab
from games.kokeshi.engine import AUTOMA
from games.kokeshi.module import MODULE, KokeshiMatch

KINDS = ("setup", "advance", "effect", "kokeshi", "animal", "buy", "place")


def _played(seats: int, moves: int, seed: int = 7) -> KokeshiMatch:
    """A match of `seats` players after `moves` decisions of the easy AI."""
    match = MODULE.deal({"side": "basic"}, seed, seats)
    for n in range(moves):
        if match.is_over:
            break
        seat = match.waiting()[0]
        match.apply(seat, MODULE.decide(match, seat, "easy", seed + n))
    return match


@pytest.mark.parametrize("locale", ["en", "pt_BR"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_status_asks_each_question_in_lower_case(kind: str, locale: str) -> None:
    prompt = Prompt(0, kind, ())
    with i18n.using(locale):
        assert MODULE.short_question({}, prompt) == vocab.question(kind).lower()


def test_a_status_leaves_out_the_idle_turns_the_question_counts() -> None:
    match = MODULE.deal({"side": "basic"}, 3, 2)
    (prompt,) = match.prompts()
    # The deciding seat is one idle turn from the end against stalling: its question says so, a status does not.
    match.engine.idles[match.engine.names.index(match.name_of(prompt.seat))] = engine.data.IDLE_LIMIT - 1
    view = match.view(None)
    assert "⏳" in MODULE.question(view, prompt)
    assert MODULE.short_question(view, prompt) == "place your two starting tiles, on two different tracks"


def test_the_automa_is_named_in_the_current_language() -> None:
    assert MODULE.unseated_name(AUTOMA) == "automa"
    with i18n.using("pt_BR"):
        assert MODULE.unseated_name(AUTOMA) == "jogador fictício"


@pytest.mark.parametrize("seats", [1, 2, 4])
def test_totals_name_every_player_best_first_the_automa_among_them(seats: int) -> None:
    match = _played(seats, 40)
    names = [f"Player {s + 1}" for s in range(seats)]
    scores = match.engine.scores()

    def shown(name: str) -> str:
        return "automa" if name == AUTOMA else names[match.seat_of(name)]

    expected = [(shown(n), scores[n].total) for n in match.engine.ranking()]
    assert MODULE.totals(match.standing(), names) == expected
    assert len(expected) == seats + (seats == 1)


def test_totals_rank_the_seats_by_place_and_keep_the_seat_order_in_a_tie() -> None:
    standing = Standing(False, (2, 1, 2), ({"total": 3}, {"total": -1}, {"total": 3}))
    assert MODULE.totals(standing, ["Aiko", "Botan", "Chiyo"]) == [("Botan", -1), ("Aiko", 3), ("Chiyo", 3)]
