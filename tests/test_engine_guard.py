"""The ends against stalling: rules 3's idle-turn end and rules 2's idle-round end; no policy keeps a game going."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import CURRENT_RULES, Game, GreedyPolicy, new_game
from engine.data import COLORS, IDLE_ROUNDS, IDLE_TURNS, KOKESHI, KOKESHI_NAMES, TOP_POINTS
from tests.positions import filler, play, ready, set_track, tile

# The issue's board: seven pink tiles on the Princess track, each with a Princess or an "any kokeshi" side.
STALL_TRACK = ["plus1", "plus4", "left", "right", "double", "any_animal", "buy_any"]
PURCHASES = ("tile_bought", "quality_bought")
# Every normal tile can be taken from the offer once: the 4 dealt to it and the 46 left in the bag.
OFFER_TILES = 50


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


class AlternatePolicy:
    """Climbs as `ClimbPolicy` on every other turn; on the others it buys: the greedy player's turn."""

    def __init__(self, seed: int) -> None:
        self._climb = ClimbPolicy()
        self._greedy = GreedyPolicy(seed)

    def choose(self, game: Game) -> str:
        seat = game.names.index(game.prompt.player)
        return (self._climb if game.turns[seat] % 2 == 0 else self._greedy).choose(game)


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


def _play_out(g: Game, policy, limit: int = 5_000) -> Game:
    for _ in range(limit):
        if g.is_over:
            break
        play(g, policy.choose(g))
    return g


# ---------------------------------------------------------------------- rules version 3: the idle-turn end


def test_the_issue_stall_ends_the_solo_game_after_the_idle_turns():
    g = ready(1, solo=True)
    give_stall_track(g, 0)
    _play_out(g, ClimbPolicy())
    assert g.rules == CURRENT_RULES == 3
    assert g.is_over and g.end_reason == "stall"
    # One idle turn per count, then the last round: one top pass each.
    assert g.turns[0] == IDLE_TURNS + 1
    assert g.in_play[0] == TOP_POINTS * (IDLE_TURNS + 1)


def test_alternating_climbs_and_purchases_no_longer_stretches_the_game():
    """Under rules 2 a purchase every other turn kept the idle count low; under rules 3 the count never goes
    down, so the climbing turns run out after `idle_turns` of them."""
    turns = {}
    for rules in (2, 3):
        g = ready(1, solo=True, seed=1, rules=rules)
        give_stall_track(g, 0)
        _play_out(g, AlternatePolicy(1))
        assert g.is_over
        turns[rules] = g.turns[0]
    assert turns[3] <= 2 * IDLE_TURNS
    assert turns[2] > 2 * turns[3]


def test_a_quality_tile_alone_does_not_reset_the_count_under_rules_3():
    """Only a tile taken from the offer draws from the bag; a turn that buys just a quality tile is idle."""
    for rules, after in ((2, 1), (3, 3)):
        g = ready(1, solo=True, rules=rules)
        set_track(g, 0, "samurai", filler(g, 6, "green"))
        g.kokeshi[0][KOKESHI.index("samurai")] = 6
        g.idle = 2
        play(g, "advance:samurai", "quality:3")
        while g.prompt.kind == "place":
            play(g, g.legal_actions()[0])
        assert g.turns[0] == 1 and g.idle == after, rules


def test_an_offer_purchase_leaves_the_count_where_it_is():
    g = ready(1, solo=True)
    g.idle = 5
    play(g, "advance:batchan", "market:0")
    while g.prompt.kind == "place":
        play(g, g.legal_actions()[0])
    assert g.turns[0] == 1 and g.idle == 5


def test_the_end_is_triggered_at_idle_turns_per_player_and_says_so():
    g = ready(2)
    give_stall_track(g, 0)
    give_stall_track(g, 1)
    g.idle = IDLE_TURNS * 2 - 1
    events = play(g, "advance:princess")
    while not any(e.kind == "turn_ended" for e in events):
        events += play(g, ClimbPolicy().choose(g))
    ends = [e for e in events if e.kind == "end_triggered"]
    assert len(ends) == 1 and ends[0].data == {"reason": "stall", "final_round": 2, "turns": IDLE_TURNS * 2}
    assert "turns went by without a tile taken from the offer" in ends[0].text


def test_every_player_stalling_ends_a_multiplayer_game():
    g = ready(3)
    for seat in range(3):
        give_stall_track(g, seat)
    policy = ClimbPolicy()
    while not g.is_over and g.round < 100:
        play(g, policy.choose(g))
    # 8 idle turns per player are reached during round 8; round 9 is the last.
    assert g.is_over and g.end_reason == "stall" and g.round == IDLE_TURNS + 1


def test_normal_play_rarely_meets_the_idle_turns():
    """Greedy games end mostly by recognitions or the bag: of these 16 deals (solo and 2-player, both sides), at
    most two end by the idle-turn end (bench/guard_bench.py: 36 of 400 solo deals, 5 of 200 2-player ones)."""
    reasons = []
    for seed in range(16):
        solo = seed % 2 == 0
        side = ("basic", "advanced")[seed % 4 // 2]
        g = new_game(["ana"] if solo else ["ana", "bo"], seed=seed, solo=solo, side=side)
        policy = GreedyPolicy(seed)
        while g.prompt is not None:
            g.apply(g.prompt.player, policy.choose(g))
        reasons.append(g.end_reason)
    assert reasons.count("stall") <= 2 and set(reasons) <= {"recognitions", "bag", "stall"}


def test_stalling_scores_less_than_playing_on():
    """From the stall-ready board, both stalling lines score less than greedy play over these deals, and each of
    their games is short; under rules 2 alternating beat greedy on some of them."""
    totals: dict[str, list[int]] = {}
    for seed in range(8):
        for name, rules, policy in (
            ("greedy", 3, GreedyPolicy(seed)),
            ("climb", 3, ClimbPolicy()),
            ("alternate", 3, AlternatePolicy(seed)),
            ("greedy2", 2, GreedyPolicy(seed)),
            ("alternate2", 2, AlternatePolicy(seed)),
        ):
            g = ready(1, solo=True, seed=seed, rules=rules)
            give_stall_track(g, 0)
            _play_out(g, policy)
            totals.setdefault(name, []).append(g.scores()["ana"].total)
            if rules == 3 and name != "greedy":
                assert g.turns[0] <= 2 * IDLE_TURNS, (name, seed)
    assert sum(totals["climb"]) < sum(totals["greedy"]) and sum(totals["alternate"]) < sum(totals["greedy"]), totals
    assert any(a > g for a, g in zip(totals["alternate2"], totals["greedy2"], strict=True)), totals


# ---------------------------------------------------------------------- rules version 2: the idle-round end


def test_rules_2_stall_ends_after_the_idle_rounds():
    g = ready(1, solo=True, rules=2)
    give_stall_track(g, 0)
    _play_out(g, ClimbPolicy())
    assert g.is_over and g.end_reason == "stall"
    assert g.turns[0] == IDLE_ROUNDS + 1
    assert g.in_play[0] == TOP_POINTS * (IDLE_ROUNDS + 1)


def test_rules_1_keep_their_old_behaviour_and_never_end_the_stall():
    g = ready(1, solo=True, rules=1)
    give_stall_track(g, 0)
    policy = ClimbPolicy()
    for _ in range(400):
        play(g, policy.choose(g))
    assert not g.is_over and g.end_reason is None and g.in_play[0] >= 3 * 40


# ---------------------------------------------------------------------- any policy


@settings(max_examples=100, deadline=None)
@given(
    count=st.sampled_from([1, 2, 3, 4]),
    seed=st.integers(min_value=0, max_value=2**128),
    stall=st.floats(min_value=0.0, max_value=1.0),
    stall_tracks=st.booleans(),
    rules=st.sampled_from([2, 3]),
)
def test_no_policy_pushes_a_game_past_the_guard(
    count: int, seed: int, stall: float, stall_tracks: bool, rules: int
) -> None:
    g = ready(count, solo=count == 1, seed=seed, rules=rules)
    if stall_tracks:
        for seat in range(g.humans):
            give_stall_track(g, seat)
    policy = StallPolicy(seed, stall)
    limit = (IDLE_TURNS if rules == 3 else IDLE_ROUNDS) * g.humans
    offer_turns = purchase_turns = idle_turns = 0
    bought = took = False
    for _ in range(20_000):
        if g.is_over:
            break
        for event in play(g, policy.choose(g)):
            bought |= event.kind in PURCHASES
            took |= event.kind == "tile_bought"
            if event.kind in ("turn_ended", "game_over"):
                purchase_turns += bought
                offer_turns += took
                idle_turns += not (took if rules == 3 else bought)
                bought = took = False
        # The count never reaches its limit without the end being triggered, and the end always comes.
        assert g.end_reason is not None or g.idle < limit
        if g.end_reason is not None:
            assert g.round <= g.final_round
    assert g.is_over
    if rules == 3:
        # Every turn is idle (fewer than the limit before the end, then at most two rounds) or takes one of the
        # 50 offer tiles: a bound on the game's length whatever the players do.
        assert g.idle == idle_turns and idle_turns < limit + 2 * g.humans
        assert sum(g.turns) == idle_turns + offer_turns <= OFFER_TILES + limit + 2 * g.humans
    else:
        # Every idle turn past the limit was paid for by a purchase, which the bag (46 tiles) and the quality
        # supply (15) bound; the end then gives at most two more rounds.
        assert idle_turns <= purchase_turns + limit + 2 * g.humans
        assert purchase_turns <= 46 + 15 + 2 * g.humans
