"""The play service: one decision checked, applied and told back as an outcome, over the tiny game and Kokeshi."""

from __future__ import annotations

import pytest

import games
from service import Outcome, Refused, play

from .kit import SEED, Table, played


def test_a_secret_bid_is_taken_without_a_new_turn_and_the_last_one_starts_the_next():
    match = Table("bids", (), 2).deal()
    first = play("bids", match, 0, 0, "bid:2")
    assert isinstance(first, Outcome)
    assert [e.kind for e in first.events] == ["bid"] and not first.turn_changed
    assert first.version == 1 == match.version and first.waiting == (1,) and first.standing is None
    second = play("bids", match, 1, 1, "bid:1")
    assert second.turn_changed and second.version == 2 and second.waiting == (0, 1)
    kinds = [e.kind for e in second.events]
    assert kinds[:3] == ["bid", "bids_shown", "prize_won"] and second.events[2].seat == 0


def test_the_last_decision_gives_the_standing():
    table = Table("bids", (), 3)
    match = table.deal()
    actions = played(table).actions
    for seat, action in actions[:-1]:
        assert play("bids", match, match.version, seat, action).standing is None
    seat, action = actions[-1]
    outcome = play("bids", match, match.version, seat, action)
    assert outcome.standing == match.standing() and outcome.standing.over
    assert outcome.waiting == () and outcome.turn_changed


def test_a_button_from_an_older_version_is_refused_as_stale_and_changes_nothing():
    match = Table("bids", (), 2).deal()
    play("bids", match, 0, 0, "bid:3")
    before = match.to_json()
    with pytest.raises(Refused) as err:
        play("bids", match, 0, 1, "bid:3")
    assert err.value.code == "stale" and err.value.legal == ("bid:1", "bid:2", "bid:3", "bid:4")
    assert match.to_json() == before


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [(0, "bid:3", "not_your_turn"), (1, "bid:9", "illegal"), (5, "bid:1", "unknown_seat")],
)
def test_the_rules_refusals_come_back_coded_and_change_nothing(seat, action, code):
    match = Table("bids", (), 2).deal()
    play("bids", match, 0, 0, "bid:3")
    before = match.to_json()
    with pytest.raises(Refused) as err:
        play("bids", match, 1, seat, action)
    assert err.value.code == code
    assert match.to_json() == before


def test_an_unknown_game_or_another_games_match_is_refused():
    match = Table("bids", (), 2).deal()
    with pytest.raises(Refused) as err:
        play("chess", match, 0, 0, "bid:1")
    assert err.value.code == "unknown_game"
    with pytest.raises(Refused) as err:
        play("kokeshi", match, 0, 0, "bid:1")
    assert err.value.code == "unknown_game"
    assert match.version == 0


def test_a_kokeshi_turn_through_the_service():
    module = games.get("kokeshi")
    match = module.deal({"side": "advanced"}, SEED, 2)
    seen_turn = False
    while not seen_turn:
        (prompt,) = match.prompts()
        version = match.version
        outcome = play("kokeshi", match, version, prompt.seat, prompt.options[0].id)
        assert outcome.version == match.version > version and outcome.events
        assert all(e.seat in (0, 1) for e in outcome.events)
        seen_turn = outcome.turn_changed
    kinds = [e.kind for e in outcome.events]
    assert "setup_done" in kinds or "turn_ended" in kinds
    (prompt,) = match.prompts()
    assert outcome.waiting == (prompt.seat,)
    # A seat named in an event is a seat number, as everywhere in the contract.
    ended = next(e for e in outcome.events if e.kind in ("setup_done", "turn_ended"))
    assert ended.data["next"] == prompt.seat
    with pytest.raises(Refused) as err:
        play("kokeshi", match, match.version, 1 - prompt.seat, prompt.options[0].id)
    assert err.value.code == "not_your_turn"


def test_a_kokeshi_solo_game_ends_through_the_service_with_the_automa_placed():
    module = games.get("kokeshi")
    table = Table("kokeshi", (), 1)
    match = table.deal()
    outcome = None
    for seat, action in played(table).actions:
        outcome = play("kokeshi", match, match.version, seat, action)
    assert outcome is not None and outcome.standing is not None
    assert outcome.standing.places in ((1,), (2,))
    assert -1 in outcome.standing.details["ranking"] and "automa" in outcome.standing.details
    assert module.tallies(outcome.standing, 0)["won"] == int(outcome.standing.places == (1,))
