"""Property tests: seeded random and greedy playouts keep every rule invariant from setup to the final scores."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.kokeshi.engine import (
    AUTOMA,
    END_REASONS,
    REASONS,
    REFUSALS,
    RULES_VERSIONS,
    Game,
    GreedyPolicy,
    IllegalAction,
    RandomPolicy,
    load_game,
    new_game,
    replay,
)
from games.kokeshi.engine.data import (
    HEIGHTS,
    IS_QUALITY,
    LEVEL_THRESHOLDS,
    MAX_POSITION,
    N_TRACKS,
    QUALITY_TILE,
    TILE_LEVEL,
    TILES,
)

ROOT = Path(__file__).resolve().parent.parent
ALL_TILES = list(range(len(TILES)))
MAX_DECISIONS = 5_000  # far above any real game; a playout that needs more does not terminate
ROUND_TRIP_EVERY = 7  # JSON round trips are the slowest check, so only every few decisions
UNKNOWN = "nobody-at-this-table"
NOT_AN_ACTION = "no-such-action"


@dataclass
class Setup:
    """The inputs of one playout: enough to rebuild it with `engine.replay`."""

    players: list[str]
    seed: int
    side: str
    solo: bool

    def new(self) -> Game:
        """A fresh game from these inputs."""
        return new_game(self.players, seed=self.seed, side=self.side, solo=self.solo)


@dataclass
class Playout:
    """A finished game with the actions that made it and every event kind it produced."""

    setup: Setup
    game: Game
    actions: list[tuple[str, str]] = field(default_factory=list)
    kinds: Counter = field(default_factory=Counter)
    end_reasons: set[str] = field(default_factory=set)


def make_setup(count: int, seed: int, side: str) -> Setup:
    """`count` 1 means solo (one player against the automa), else that many players."""
    if count == 1:
        return Setup(["Aiko"], seed, side, True)
    return Setup(["Aiko", "Botan", "Chiyo", "Daiki"][:count], seed, side, False)


setups = st.builds(
    make_setup,
    count=st.sampled_from([1, 2, 3, 4]),
    seed=st.integers(min_value=-(2**63), max_value=2**65),  # the engine takes any int
    side=st.sampled_from(["basic", "advanced"]),
)


# ---------------------------------------------------------------------- invariants checked at every step


def tile_locations(g: Game) -> list[int]:
    """Every tile index the state holds, wherever it is (one entry per occurrence)."""
    tiles = list(g.bag)
    tiles += [t for t in g.offer if t != -1]
    tiles += [t for tracks in g.tracks for track in tracks for t in track]
    tiles += [t for reserve in g.reserve for t, _ in reserve]
    tiles += [t for t in g.slots if t != -1]
    tiles += list(g.discard)
    tiles += [QUALITY_TILE[k][level - 1] for k in range(N_TRACKS) for level in g.quality_supply[k]]
    return tiles


def check_tiles_conserved(g: Game) -> None:
    counts = Counter(tile_locations(g))
    missing = [TILES[t].id for t in ALL_TILES if counts[t] == 0]
    doubled = [TILES[t].id for t, n in counts.items() if n > 1]
    assert not missing and not doubled and len(counts) == len(TILES), f"missing {missing}, doubled {doubled}"
    assert g.bag == sorted(g.bag)


def check_tracks(g: Game) -> None:
    for p, tracks in enumerate(g.tracks):
        for k, track in enumerate(tracks):
            assert len(track) <= HEIGHTS, (p, k, track)
            quality = [(height, t) for height, t in enumerate(track, start=1) if IS_QUALITY[t]]
            assert len(quality) <= 1, (p, k, track)
            for height, t in quality:
                assert height >= LEVEL_THRESHOLDS[TILE_LEVEL[t] - 1], (p, k, track)


def check_positions(g: Game) -> None:
    for p in range(len(g.names)):
        assert all(0 <= h <= HEIGHTS for h in g.kokeshi[p]), g.kokeshi[p]
        assert all(0 <= d <= MAX_POSITION for d in g.discs[p]), g.discs[p]


def check_prompt(g: Game) -> None:
    prompt = g.prompt
    if g.is_over:
        assert prompt is None
        assert g.legal_actions() == []
        return
    assert prompt is not None
    assert prompt.player in g.names[: g.humans]
    assert prompt.player != AUTOMA
    ids = [o.id for o in prompt.options]
    assert len(ids) >= 2, "a decision with one option must be taken automatically"
    assert len(set(ids)) == len(ids), ids
    assert g.legal_actions() == ids


def check_rejections(g: Game) -> None:
    """Illegal inputs raise the right code and leave the state exactly as it was."""
    before = g.to_json()
    attempts: list[tuple[str, str, str]] = []
    if g.is_over:
        attempts.append((g.names[0], NOT_AN_ACTION, "game_over"))
    else:
        player = g.prompt.player
        legal = g.legal_actions()
        attempts.append((player, NOT_AN_ACTION, "illegal"))
        others = [n for n in g.names if n != player]
        attempts.append((others[0], legal[0], "not_your_turn"))
        # The legal action of the right player, sent by a stranger.
        attempts.append((UNKNOWN, legal[0], "unknown_player"))
    attempts.append((UNKNOWN, NOT_AN_ACTION, "unknown_player"))
    for player, action, code in attempts:
        with pytest.raises(IllegalAction) as caught:
            g.apply(player, action)
        assert caught.value.code == code, (player, action, caught.value.code)
        assert isinstance(caught.value, ValueError)
        assert g.to_json() == before, f"a rejected {code} action changed the state"


def check_round_trip(g: Game) -> None:
    text = g.to_json()
    copy = load_game(text)
    assert copy == g
    assert copy.to_json() == text
    assert copy.legal_actions() == g.legal_actions()


def check_step(g: Game, step: int) -> None:
    check_tiles_conserved(g)
    check_tracks(g)
    check_positions(g)
    check_prompt(g)
    check_rejections(g)
    if step % ROUND_TRIP_EVERY == 0 or g.is_over:
        check_round_trip(g)


# ---------------------------------------------------------------------- checks of a finished game


def check_final(play: Playout) -> None:
    g = play.game
    assert g.is_over
    human_turns = g.turns[: g.humans]
    assert len(set(human_turns)) == 1, f"seats took different numbers of turns: {human_turns}"
    scores = g.scores()
    assert set(scores) == set(g.names)
    for name, s in scores.items():
        assert s.total == s.in_play + s.tracks + s.quality + s.animals + s.leads + s.adjacency, name
        assert s.adjacency <= 0, name
    if g.solo:
        assert scores[AUTOMA].adjacency == 0
    ranking = g.ranking()
    assert sorted(ranking) == sorted(g.names)
    totals = [scores[name].total for name in ranking]
    assert totals == sorted(totals, reverse=True)
    s = play.setup
    again = replay(s.players, seed=s.seed, side=s.side, solo=s.solo, actions=play.actions)
    assert again == g
    assert again.to_json() == g.to_json()


def play_out_recorded(setup: Setup, policy: RandomPolicy | GreedyPolicy, *, checked: bool = True) -> Playout:
    """Play to the end with one policy for every seat, recording actions and events; with `checked`, the
    invariants are verified after each decision and at the end."""
    g = setup.new()
    play = Playout(setup, g)
    if checked:
        check_step(g, 0)
    for step in range(1, MAX_DECISIONS + 1):
        if g.is_over:
            break
        player = g.prompt.player
        action = policy.choose(g)
        play.actions.append((player, action))
        for event in g.apply(player, action):
            assert event.player in g.names, event
            play.kinds[event.kind] += 1
            if event.kind == "end_triggered":
                play.end_reasons.add(event.data["reason"])
        if checked:
            check_step(g, step)
    assert g.is_over, f"the game did not end within {MAX_DECISIONS} decisions"
    if checked:
        check_final(play)
    return play


# ---------------------------------------------------------------------- properties


def test_the_box_holds_75_tiles() -> None:
    assert len(TILES) == 75
    assert [t.index for t in TILES] == ALL_TILES
    assert len({t.id for t in TILES}) == 75


@settings(max_examples=75, deadline=None)
@given(setup=setups)
@pytest.mark.slow
def test_rules_hold_at_every_step_of_random_playouts(setup: Setup) -> None:
    play_out_recorded(setup, RandomPolicy(setup.seed))


@settings(max_examples=20, deadline=None)
@given(setup=setups)
@pytest.mark.slow
def test_rules_hold_at_every_step_of_greedy_playouts(setup: Setup) -> None:
    play_out_recorded(setup, GreedyPolicy(setup.seed))


def test_random_playouts_exercise_every_phase_of_the_rules() -> None:
    kinds: Counter = Counter()
    end_reasons: set[str] = set()
    for seed in range(40):
        setup = make_setup(2 + seed % 3, seed, "basic" if seed % 2 else "advanced")
        play = play_out_recorded(setup, RandomPolicy(seed), checked=False)
        kinds += play.kinds
        end_reasons |= play.end_reasons
    assert {"recognitions", "bag"} <= end_reasons
    for kind in (
        "quality_bought",
        "quality_discarded",
        "quality_step",
        "bonus_taken",
        "top_passed",
        "red_line_crossed",
        "kokeshi_home",
        "auto_choice",
        "bag_empty",
        "game_over",
    ):
        assert kinds[kind] > 0, f"no random playout produced {kind!r}"
    assert kinds["tile_discarded"] + kinds["effect_skipped"] > 0


def test_solo_playouts_exercise_the_automa() -> None:
    kinds: Counter = Counter()
    for seed in range(20):
        kinds += play_out_recorded(make_setup(1, seed, "basic"), RandomPolicy(seed), checked=False).kinds
    for kind in ("automa_tile", "automa_quality", "quality_discarded", "game_over"):
        assert kinds[kind] > 0, f"no solo playout produced {kind!r}"


_REPLAY_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
from games.kokeshi.engine import replay
spec = json.load(sys.stdin)
game = replay(spec["players"], seed=spec["seed"], side=spec["side"], solo=spec["solo"],
              actions=[tuple(a) for a in spec["actions"]])
sys.stdout.write(game.to_json())
"""


@pytest.mark.parametrize("count, side", [(4, "basic"), (1, "advanced")])
def test_same_inputs_give_the_same_game_in_every_process(count: int, side: str) -> None:
    setup = make_setup(count, 20240611, side)
    play = play_out_recorded(setup, RandomPolicy(7), checked=False)
    expected = play.game.to_json()
    spec = json.dumps({**setup.__dict__, "actions": play.actions})
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        result = subprocess.run(
            [sys.executable, "-c", _REPLAY_SCRIPT, str(ROOT)],
            input=spec,
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=60,
            check=True,
        )
        assert result.stdout == expected, f"PYTHONHASHSEED={hash_seed} gave a different game"


def _strings(value: object) -> list[str]:
    """Every string inside a JSON-like value (keys and leaves)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return []


@pytest.mark.parametrize("rules", RULES_VERSIONS)
def test_the_rules_speak_in_codes_and_values_never_in_sentences(rules: int) -> None:
    """Events, prompts and refusals hold codes, ids, names and numbers: no string with a space, every reason one of
    the engine's codes. Words are the game's own affair (`games.kokeshi.vocab`)."""
    reasons: Counter[str] = Counter()
    for names, seed, solo in ((["ana", "bo"], 11, False), (["ana"], 12, True), (["ana", "bo", "cy"], 13, False)):
        game = new_game(names, seed=seed, solo=solo, rules=rules)
        policy = RandomPolicy(seed)
        while game.prompt is not None:
            said = _strings(game.view()["prompt"])
            for event in game.apply(game.prompt.player, policy.choose(game)):
                said += _strings(event.to_dict())
                if "reason" in event.data:
                    reasons[event.data["reason"]] += 1
                    known = END_REASONS if event.kind == "end_triggered" else REASONS
                    assert event.data["reason"] in known, event
            assert not [s for s in said if " " in s], said
        with pytest.raises(IllegalAction) as refused:
            game.apply("ana", "advance:princess")
        assert refused.value.code == "game_over" and refused.value.params == {}
        with pytest.raises(IllegalAction) as refused:
            game.apply("zed", "advance:princess")
        assert refused.value.code in REFUSALS and refused.value.params == {"player": "zed"}
    assert reasons["empty_space"] and len(reasons) > 2
