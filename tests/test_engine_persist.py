"""Saving and loading games: equal after a round trip, and a clear ValueError for anything malformed."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.kokeshi.engine import Game, RandomPolicy, load_game, new_game, replay
from tests.positions import play, ready, set_track, tile


def _mid_game(seed: int = 4, steps: int = 60) -> tuple[Game, list[tuple[str, str]]]:
    g = new_game(["ana", "bo", "cy"], seed=seed, side="advanced")
    policy = RandomPolicy(seed)
    log = []
    for _ in range(steps):
        action = policy.choose(g)
        log.append((g.prompt.player, action))
        g.apply(g.prompt.player, action)
    return g, log


def test_a_game_saved_mid_cascade_loads_equal_and_plays_on_identically():
    g = ready()
    set_track(g, 0, "princess", [tile("pink", "buy_here"), tile("pink", "plus1")])
    play(g, "advance:princess")
    assert g.queue, "the princess's new space is still waiting to be resolved"
    loaded = load_game(g.to_json())
    assert loaded == g and loaded.to_json() == g.to_json()
    assert [e.to_dict() for e in play(loaded, "market:1")] == [e.to_dict() for e in play(g, "market:1")]
    assert loaded.to_json() == g.to_json()


def test_replay_of_the_log_gives_the_same_game():
    g, log = _mid_game()
    again = replay(["ana", "bo", "cy"], seed=4, side="advanced", actions=log)
    assert again.to_json() == g.to_json()


@pytest.mark.parametrize(
    "text",
    ["", "not json", "[]", "null", '{"format": 99}', '{"format": 1}'],
)
def test_malformed_saves_are_refused_with_a_clear_message(text):
    with pytest.raises(ValueError, match="Kokeshi game"):
        load_game(text)


def test_a_save_that_loses_a_tile_is_refused():
    g, _ = _mid_game()
    data = json.loads(g.to_json())
    data["bag"] = data["bag"][1:]
    with pytest.raises(ValueError, match="tiles missing"):
        load_game(json.dumps(data))


def test_a_save_that_duplicates_a_tile_is_refused():
    g, _ = _mid_game()
    data = json.loads(g.to_json())
    data["discard"].append(data["bag"][0])
    with pytest.raises(ValueError, match="appears twice"):
        load_game(json.dumps(data))


_SAVED = json.loads(_mid_game()[0].to_json())
_JUNK = st.one_of(st.none(), st.booleans(), st.integers(-5, 80), st.text(max_size=4), st.lists(st.integers(0, 3)))


@settings(max_examples=300, deadline=None)
@given(key=st.sampled_from(sorted(_SAVED)), junk=_JUNK, drop=st.booleans())
@pytest.mark.slow
def test_any_corrupted_field_gives_a_value_error_or_a_valid_game(key, junk, drop):
    data = dict(_SAVED)
    if drop:
        del data[key]
    else:
        data[key] = junk
    try:
        loaded = load_game(json.dumps(data))
    except ValueError as exc:
        assert "Kokeshi game" in str(exc)
        return
    # Accepted: then it must be a playable, self-consistent game.
    assert load_game(loaded.to_json()) == loaded
    if loaded.prompt is not None:
        assert len(loaded.legal_actions()) >= 2
