"""Properties of random Kōhaku games: they end, prompts are sound, saves round-trip, views hide what they must."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.kohaku import IllegalAction, Match, deal, load_match, replay
from games.kohaku.data import TILES
from games.kohaku.model import KINDS
from games.kohaku.rules import MAX_OPTIONS

from .kit import fingerprints

ROOT = Path(__file__).resolve().parents[2]

setups = st.tuples(
    st.sampled_from([1, 2, 3, 4]),
    st.integers(min_value=-(2**63), max_value=2**70),
    st.booleans(),
)


def _deal(seats: int, seed: int, goals: bool) -> Match:
    return deal(seats, seed=seed, goals=goals and seats > 1)


def _hidden_ids(m: Match) -> set[str]:
    return {TILES[t].id for t in m.koi_stack + m.box + m.feature_stack}


@settings(max_examples=20, deadline=None)
@given(setup=setups, choice_seed=st.integers(0, 2**32))
@pytest.mark.slow
def test_random_games_end_and_every_prompt_is_sound(setup, choice_seed):
    m = _deal(*setup)
    rng = random.Random(choice_seed)
    for step in range(3000):
        waiting = m.waiting()
        if not waiting:
            break
        prompts = m.prompts()
        assert [p.seat for p in prompts] == list(waiting)
        for prompt in prompts:
            assert prompt.kind in KINDS
            assert 2 <= len(prompt.options) <= MAX_OPTIONS
            ids = [o.id for o in prompt.options]
            assert ids == m.legal_actions(prompt.seat) and len(set(ids)) == len(ids)
            assert all(len(i) <= 20 for i in ids)  # room in a 100-character custom_id
        seat = waiting[rng.randrange(len(waiting))]
        options = m.legal_actions(seat)
        if step % 5 == 0:
            # Every option has a legal continuation: it is accepted, and the match then waits for someone or ends.
            for action in options:
                trial = m.clone()
                trial.apply(seat, action)
                assert trial.is_over or trial.waiting()
        m.apply(seat, rng.choice(options))
    else:
        raise AssertionError("the game did not end")
    assert m.is_over and m.outcome() is not None
    assert m.prompt is None and m.prompts() == ()


@settings(max_examples=15, deadline=None)
@given(setup=setups, choice_seed=st.integers(0, 2**32))
@pytest.mark.slow
def test_json_round_trip_at_every_step_and_replay_gives_the_same_match(setup, choice_seed):
    seats, seed, goals = setup
    m = _deal(seats, seed, goals)
    rng = random.Random(choice_seed)
    actions = []
    while not m.is_over:
        text = m.to_json()
        back = load_match(text)
        assert back == m and back.to_json() == text
        assert back.legal_actions(m.waiting()[0]) == m.legal_actions(m.waiting()[0])
        seat = rng.choice(m.waiting())
        action = rng.choice(m.legal_actions(seat))
        m.apply(seat, action)
        actions.append((seat, action))
    assert load_match(m.to_json()) == m
    assert replay(seats, seed=seed, actions=actions, goals=goals and seats > 1) == m


@settings(max_examples=8, deadline=None)
@given(setup=setups, choice_seed=st.integers(0, 2**32))
@pytest.mark.slow
def test_views_leak_nothing_hidden(setup, choice_seed):
    seats, seed, goals = setup
    m = _deal(seats, seed, goals)
    rng = random.Random(choice_seed)
    while True:
        hidden = _hidden_ids(m)
        for seat in [*range(seats), None]:
            view = m.view(seat)
            text = json.dumps(view)
            assert not [t for t in hidden if f'"{t}"' in text]
            assert "seed" not in text and "counter" not in text
            assert abs(seed) < 10**7 or str(abs(seed)) not in text  # small numbers occur anyway
            if "goal_cards" in view and not m.is_over:
                cards = view["goal_cards"]
                for other in range(seats):
                    if other != seat:
                        assert cards["kept"][other] is None
                assert cards["mine"] == ([] if seat is None else [m.view(seat)["goal_cards"]["mine"]][0])
            if seat is not None and seat not in m.waiting():
                assert view["prompt"] is None
        if m.is_over:
            break
        seat = rng.choice(m.waiting())
        m.apply(seat, rng.choice(m.legal_actions(seat)))


def test_bad_saves_are_refused_with_a_reason():
    m = deal(2, seed=3)
    state = json.loads(m.to_json())
    for key, value in [
        ("seats", 7),
        ("board", state["board"][:5]),
        ("koi_stack", state["koi_stack"] + state["koi_stack"][:1]),
        ("phase", "dancing"),
        ("hand", ["k01"]),
    ]:
        bad = dict(state, **{key: value})
        try:
            load_match(json.dumps(bad))
        except ValueError as err:
            assert str(err)
        else:
            raise AssertionError(f"accepted a bad {key}")
    for text in ("", "[]", "{}", "not json"):
        try:
            load_match(text)
        except ValueError:
            pass
        else:
            raise AssertionError(f"accepted {text!r}")


def test_illegal_input_never_changes_the_match():
    rng = random.Random(5)
    m = deal(3, seed=5, goals=True)
    while not m.is_over:
        for seat, action in [(rng.randrange(-2, 6), "t:1-2"), (m.waiting()[0], "p:99:99"), (m.waiting()[0], "z:7")]:
            before = m.to_json()
            try:
                m.apply(seat, action)
            except IllegalAction:
                assert m.to_json() == before
            if m.is_over:
                return
        seat = rng.choice(m.waiting())
        m.apply(seat, rng.choice(m.legal_actions(seat)))


_SCRIPT = "from tests.kohaku.kit import fingerprints; print(fingerprints())"


def test_games_are_the_same_in_every_process():
    runs = set()
    for hash_seed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(ROOT))
        done = subprocess.run([sys.executable, "-c", _SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        runs.add(done.stdout.strip())
    assert runs == {fingerprints()}
