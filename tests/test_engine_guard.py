"""The idle-count end (rules version 2): no policy, stalling or not, keeps a game from ending."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, GreedyPolicy, new_game
from engine.data import COLORS, IDLE_ROUNDS, KOKESHI, KOKESHI_NAMES, TOP_POINTS
from tests.positions import play, ready, set_track, tile

# The issue's board: seven pink tiles on the Princess track, each with a Princess or an "any kokeshi" side.
STALL_TRACK = ["plus1", "plus4", "left", "right", "double", "any_animal", "buy_any"]
PURCHASES = ("tile_bought", "quality_bought")


def give_stall_track(g: Game, seat: int) -> str:
    """Seat n gets the seven climbing tiles of colour n on the track of that colour's kokeshi (the issue's pink
    Princess track for seat 0), that kokeshi at home; returns the kokeshi."""
    kokeshi = KOKESHI[seat]
    set_track(g, seat, kokeshi, [tile(COLORS[seat], t) for t in STALL_TRACK])
    g.kokeshi[seat][seat] = 0
    return kokeshi


def _buys(game: Game, action: str) -> bool:
    trial = game.clone()
    return any(e.kind in PURCHASES for e in trial.apply(trial.prompt.player, action))


class ClimbPolicy:
    """The stalling line of the issue: always the seat's climbing kokeshi, and never a side that buys."""

    def choose(self, game: Game) -> str:
        ids = game.legal_actions()
        kokeshi = KOKESHI[game.names.index(game.prompt.player)]
        name = KOKESHI_NAMES[KOKESHI.index(kokeshi)]
        for action in (f"advance:{kokeshi}", f"kokeshi:{kokeshi}"):
            if action in ids:
                return action
        free = [a for a in ids if not _buys(game, a)]
        if game.prompt.kind == "effect":
            # Prefer the side that moves a kokeshi (the Princess climbs); else any side that buys nothing.
            labels = {o.id: o.label for o in game.prompt.options if not o.label.endswith("(does nothing)")}
            moving = [a for a, label in labels.items() if name in label]
            moving += [a for a, label in labels.items() if "any kokeshi" in label]
            return next((a for a in moving if a in free), (free or ids)[0])
        return (free or ids)[0]


class StallPolicy:
    """An adversary: with probability `stall` it takes an option that buys nothing (when there is one), else a
    random one."""

    def __init__(self, seed: int, stall: float) -> None:
        self._rng = random.Random(seed)
        self._stall = stall

    def choose(self, game: Game) -> str:
        ids = game.legal_actions()
        if self._rng.random() < self._stall:
            free = [a for a in ids if not _buys(game, a)]
            if free:
                return self._rng.choice(free)
        return self._rng.choice(ids)


def test_the_issue_stall_ends_the_solo_game_after_the_idle_count():
    g = ready(1, solo=True)
    give_stall_track(g, 0)
    policy = ClimbPolicy()
    for _ in range(1_000):
        if g.is_over:
            break
        play(g, policy.choose(g))
    assert g.is_over and g.end_reason == "stall"
    # One idle turn per count, then the last round: at most one top pass each.
    assert g.turns[0] == IDLE_ROUNDS + 1
    assert g.in_play[0] == TOP_POINTS * (IDLE_ROUNDS + 1)


def test_rules_1_keep_their_old_behaviour_and_never_end_the_stall():
    g = ready(1, solo=True, rules=1)
    give_stall_track(g, 0)
    policy = ClimbPolicy()
    for _ in range(400):
        play(g, policy.choose(g))
    assert not g.is_over and g.end_reason is None and g.in_play[0] >= 3 * 40


def test_every_player_stalling_ends_a_multiplayer_game():
    g = ready(3)
    for seat in range(3):
        give_stall_track(g, seat)
    policy = ClimbPolicy()
    while not g.is_over and g.round < 100:
        play(g, policy.choose(g))
    assert g.is_over and g.end_reason == "stall" and g.round == IDLE_ROUNDS + 1


def test_normal_play_is_not_cut_short_by_the_idle_count():
    for seed in range(6):
        g = new_game(["ana", "bo"] if seed % 2 else ["ana"], seed=seed, solo=not seed % 2)
        policy = GreedyPolicy(seed)
        while g.prompt is not None:
            g.apply(g.prompt.player, policy.choose(g))
        assert g.end_reason in ("recognitions", "bag"), seed


def test_stalling_scores_less_than_playing_on():
    """From the same stall-ready position, the climbing line ends the game with fewer points than greedy play."""
    for seed in range(3):
        stalled, greedy = ready(1, solo=True, seed=seed), ready(1, solo=True, seed=seed)
        for g, policy in ((stalled, ClimbPolicy()), (greedy, GreedyPolicy(seed))):
            give_stall_track(g, 0)
            while g.prompt is not None:
                play(g, policy.choose(g))
        assert stalled.scores()["ana"].total < greedy.scores()["ana"].total, seed


@settings(max_examples=100, deadline=None)
@given(
    count=st.sampled_from([1, 2, 3, 4]),
    seed=st.integers(min_value=0, max_value=2**128),
    stall=st.floats(min_value=0.0, max_value=1.0),
    stall_tracks=st.booleans(),
)
def test_no_policy_pushes_a_game_past_the_guard(count: int, seed: int, stall: float, stall_tracks: bool) -> None:
    g = ready(count, solo=count == 1, seed=seed)
    if stall_tracks:
        for seat in range(g.humans):
            give_stall_track(g, seat)
    policy = StallPolicy(seed, stall)
    limit = IDLE_ROUNDS * g.humans
    purchase_turns = idle_turns = 0
    bought = False
    for _ in range(20_000):
        if g.is_over:
            break
        for event in play(g, policy.choose(g)):
            bought |= event.kind in PURCHASES
            if event.kind in ("turn_ended", "game_over"):
                purchase_turns += bought
                idle_turns += not bought
                bought = False
        # The count never passes its limit without the end being triggered, and the end always comes.
        assert g.end_reason is not None or g.idle < limit
        if g.end_reason is not None:
            assert g.round <= g.final_round
    assert g.is_over
    # Every idle turn past the limit was paid for by a purchase, which the bag (46 tiles) and the quality supply
    # (15) bound; the end then gives at most two more rounds.
    assert idle_turns <= purchase_turns + limit + 2 * g.humans
    assert purchase_turns <= 46 + 15 + 2 * g.humans
