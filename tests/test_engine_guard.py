"""The ends against stalling: rules 4's idle turns per player, rules 3's idle-turn end and rules 2's idle-round end;
no policy keeps a game going."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.kokeshi.engine import CURRENT_RULES, Game, GreedyPolicy, idle_warning, load_game, new_game
from games.kokeshi.engine.data import (
    COLORS,
    END_RECOGNITIONS,
    HEIGHTS,
    IDLE_LIMIT,
    IDLE_ROUNDS,
    IDLE_TURNS,
    KOKESHI,
    KOKESHI_NAMES,
    RED_LINE,
    TOP_POINTS,
)
from games.kokeshi.narrate import describe
from games.kokeshi.vocab import label
from tests.positions import filler, play, ready, set_track, tile

# The issue's board: seven pink tiles on the Princess track, each with a Princess or an "any kokeshi" side.
STALL_TRACK = ["plus1", "plus4", "left", "right", "double", "any_animal", "buy_any"]
PURCHASES = ("tile_bought", "quality_bought")
RECOGNITIONS = ("quality_bought", "red_line_crossed")
HOMES = ("top_passed", "kokeshi_home")
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
            labels = {o.id: label(o) for o in game.prompt.options if not label(o).endswith("(does nothing)")}
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
    """An adversary: with probability `stall` it takes an option that buys nothing (when there is one), with
    probability `dodge` one that gains a recognition or steps a disc (turns rules 4 does not count), else a random
    one."""

    def __init__(self, seed: int, stall: float, dodge: float = 0.0) -> None:
        self._rng = random.Random(seed)
        self._stall = stall
        self._dodge = dodge

    def choose(self, game: Game) -> str:
        ids = game.legal_actions()
        roll = self._rng.random()
        if roll < self._dodge:
            dodging = []
            for a in ids:
                trial = game.clone()
                kinds = {e.kind for e in trial.apply(trial.prompt.player, a)}
                if kinds & {*RECOGNITIONS, "disc_moved"} and "tile_bought" not in kinds:
                    dodging.append(a)
            if dodging:
                return self._rng.choice(dodging)
        if roll < self._dodge + self._stall:
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


def _finish_turn(g: Game, events: list) -> list:
    """Place what the turn bought (first option each time) until the turn ends."""
    while not any(e.kind in ("turn_ended", "game_over") for e in events):
        events += play(g, g.legal_actions()[0])
    return events


def _top_ready(g: Game, seat: int = 0, top: str = "buy_any") -> None:
    """Seat's Princess track full (its top tile of type `top`), the Princess at height 7: advancing it passes the
    top (or, with a pink `&` tile at the top, lands there from height 6)."""
    ids = [tile("pink", t) for t in STALL_TRACK[:6]] + [tile("pink", top)]
    set_track(g, seat, "princess", ids)
    g.kokeshi[seat][0] = HEIGHTS


# ---------------------------------------------------------------------- rules version 4: idle turns per player


def test_a_turn_that_only_passes_the_top_is_an_idle_turn():
    g = ready(1, solo=True)
    assert g.rules == CURRENT_RULES == 4
    _top_ready(g)
    events = play(g, "advance:princess")
    assert [e.kind for e in events][:2] == ["top_passed", "idle_turn"]
    idle = next(e for e in events if e.kind == "idle_turn")
    assert idle.player == "ana" and idle.data == {"count": 1, "limit": IDLE_LIMIT}
    assert "idle turn for ana (1 of" in describe(idle)
    assert g.idles == [1, 0] and g.view()["idle"] == {"limit": IDLE_LIMIT, "counts": {"ana": 1}, "shared": False}


def test_a_top_pass_with_a_recognition_is_not_an_idle_turn():
    """A turn that gains a recognition moves the game toward its own end, and at most 9 can: it never counts."""
    g = ready(1, solo=True)
    _top_ready(g, top="animal1")  # pink K&A1: the Princess, then the panda disc
    g.kokeshi[0][0] = HEIGHTS - 1
    g.discs[0][0] = RED_LINE - 1
    events = _finish_turn(g, play(g, "advance:princess"))
    kinds = [e.kind for e in events]
    assert "top_passed" in kinds and "red_line_crossed" in kinds and "idle_turn" not in kinds
    assert g.idles == [0, 0] and g.turns[0] == 1


def test_a_top_pass_with_a_tile_from_the_offer_is_not_an_idle_turn():
    g = ready(1, solo=True)
    _top_ready(g)
    # The Batchan lands on a pink K&BUY_HERE tile: the Princess passes the top, then a tile for the Batchan track.
    set_track(g, 0, "batchan", [tile("purple", "plus1"), tile("pink", "buy_here")])
    g.kokeshi[0][1] = 1
    events = _finish_turn(g, play(g, "advance:batchan", "market:0"))
    kinds = [e.kind for e in events]
    assert "top_passed" in kinds and "tile_bought" in kinds and "idle_turn" not in kinds
    assert g.idles == [0, 0]


def test_a_turn_without_a_top_pass_is_not_an_idle_turn():
    """Climbing onto tiles and stepping discs cannot go on for ever: only passing the top can."""
    g = ready(1, solo=True)
    give_stall_track(g, 0)
    # The Princess lands on the K/K+1 tile at height 1; the Batchan side sends the Batchan home to an empty space
    # (a purchase), so take the Princess again, onto K/K+4 at height 2: the Sumotori side ends the climb there.
    events = play(g, "advance:princess", "effect:0")
    assert g.prompt.kind == "effect" and g.kokeshi[0][0] == 2
    events += play(g, "effect:0" if "Sumotori" in label(g.prompt.options[0]) else "effect:1")
    events = _finish_turn(g, events) if g.prompt.kind != "advance" else events
    kinds = [e.kind for e in events]
    assert "top_passed" not in kinds and "idle_turn" not in kinds
    assert g.turns[0] == 1 and g.idles == [0, 0]


def test_the_issue_stall_ends_the_solo_game_after_the_idle_limit():
    g = ready(1, solo=True)
    give_stall_track(g, 0)
    _play_out(g, ClimbPolicy())
    assert g.is_over and g.end_reason == "stall"
    # One top pass a turn: the limit's idle turns, then the last round's turn (no longer counted).
    assert g.turns[0] == IDLE_LIMIT + 1 and g.idles[0] == IDLE_LIMIT
    assert g.in_play[0] == TOP_POINTS * (IDLE_LIMIT + 1)


def test_each_player_counts_their_own_idle_turns_and_the_limit_ends_the_game_for_all():
    g = ready(2)
    give_stall_track(g, 0)
    g.idles = [IDLE_LIMIT - 1, 3]
    events = play(g, "advance:princess")
    while not any(e.kind == "turn_ended" for e in events):
        events += play(g, ClimbPolicy().choose(g))
    ends = [e for e in events if e.kind == "end_triggered"]
    assert len(ends) == 1 and ends[0].player == g.names[0]
    assert ends[0].data == {"reason": "stall", "final_round": 2, "turns": IDLE_LIMIT, "limit": IDLE_LIMIT}
    assert f"{g.names[0]} has played {IDLE_LIMIT} idle turns, the limit" in describe(ends[0])
    assert g.idles == [IDLE_LIMIT, 3] and g.view()["idle"]["counts"] == dict(zip(g.names, g.idles, strict=True))


def test_the_count_stops_once_the_end_is_coming():
    g = ready(2)
    give_stall_track(g, 0)
    give_stall_track(g, 1)
    g.idles = [IDLE_LIMIT - 1, IDLE_LIMIT - 1]
    policy = ClimbPolicy()
    _play_out(g, policy)
    assert g.is_over and g.end_reason == "stall" and g.round == 2
    # The first seat reached the limit; the second's idle turns in the last rounds no longer count.
    assert g.idles == [IDLE_LIMIT, IDLE_LIMIT - 1]


def test_the_warning_starts_in_the_last_quarter_and_names_the_closest_count():
    g = ready(2)
    quarter = max(1, IDLE_LIMIT // 4)
    g.idles = [IDLE_LIMIT - quarter - 1, 0]
    assert idle_warning(g.view()) is None
    g.idles = [IDLE_LIMIT - quarter, 2]
    assert idle_warning(g.view(), g.names[1]) == (g.names[0], quarter)
    g.idles = [IDLE_LIMIT - 1, IDLE_LIMIT - 1]  # the turn before it would trigger, for both
    assert idle_warning(g.view(), g.names[1]) == (g.names[1], 1)
    assert idle_warning(g.view(), g.names[0]) == (g.names[0], 1)
    g.end_reason, g.final_round = "bag", 2
    assert idle_warning(g.view()) is None
    g.end_reason, g.final_round = None, 0
    g.stall_limit = None  # the guard off (measurement only): nothing to show
    assert g.view()["idle"] is None and idle_warning(g.view()) is None


def test_the_view_carries_each_rules_versions_count_and_limit():
    assert new_game(["ana", "bo"], seed=1, rules=1).view()["idle"] is None
    two = ready(2, rules=2)
    two.idle = 5
    assert two.view()["idle"] == {"limit": IDLE_ROUNDS * 2, "counts": {n: 5 for n in two.names}, "shared": True}
    three = ready(3, rules=3)
    three.idle = IDLE_TURNS * 3 - 2
    assert three.view()["idle"]["counts"] == dict.fromkeys(three.names, IDLE_TURNS * 3 - 2)
    assert idle_warning(three.view()) == (None, 2)
    solo = ready(1, solo=True)
    assert solo.view()["idle"] == {"limit": IDLE_LIMIT, "counts": {"ana": 0}, "shared": False}


def test_a_save_in_the_middle_of_an_idle_turn_keeps_what_the_turn_did():
    """The turn's marks are saved with it: a top pass followed by a bonus tile to place still counts after a
    reload."""
    g = ready(1, solo=True)
    _top_ready(g, top="animal1")  # the Princess passes the top, then the panda disc steps onto a bonus tile
    g.kokeshi[0][0] = HEIGHTS - 1
    g.discs[0][0] = 5  # panda: 6 holds the pandafox6 bonus tile in a solo game
    events = play(g, "advance:princess")
    assert g.prompt.kind == "place" and "bonus_taken" in [e.kind for e in events]
    saved = load_game(g.to_json())
    assert saved == g and saved.marks == g.marks != 0
    events = _finish_turn(saved, [])
    assert [e.kind for e in events].count("idle_turn") == 1 and saved.idles[0] == 1


@pytest.mark.slow
def test_greedy_play_rarely_meets_the_idle_limit():
    """Greedy games end by recognitions or the bag: of these 16 deals (solo and 2-player, both sides), none ends
    by the idle turns (`bench/guard_bench.py honest` measures the `normal` and `hard` levels)."""
    reasons = []
    for seed in range(16):
        solo = seed % 2 == 0
        side = ("basic", "advanced")[seed % 4 // 2]
        g = new_game(["ana"] if solo else ["ana", "bo"], seed=seed, solo=solo, side=side)
        policy = GreedyPolicy(seed)
        while g.prompt is not None:
            g.apply(g.prompt.player, policy.choose(g))
        reasons.append(g.end_reason)
    assert "stall" not in reasons and set(reasons) <= {"recognitions", "bag"}


@pytest.mark.slow
def test_pure_stalling_scores_less_than_playing_on_and_every_stalling_line_ends():
    """From the stall-ready board, pure climbing scores less than greedy play over these deals, in a game of the
    idle limit and one turn more; climbing every other turn ends within twice the limit. (Against the greedy
    player, whose buying feeds the automa, alternating pays; against the `normal` level it does not:
    `bench/guard_bench.py stall` measures it as `every2`.) Under rules 2 alternating beat greedy too, in games of
    any length."""
    totals: dict[str, list[int]] = {}
    for seed in range(8):
        for name, rules, policy in (
            ("greedy", 4, GreedyPolicy(seed)),
            ("climb", 4, ClimbPolicy()),
            ("alternate", 4, AlternatePolicy(seed)),
            ("greedy2", 2, GreedyPolicy(seed)),
            ("alternate2", 2, AlternatePolicy(seed)),
        ):
            g = ready(1, solo=True, seed=seed, rules=rules)
            give_stall_track(g, 0)
            _play_out(g, policy)
            assert g.is_over
            totals.setdefault(name, []).append(g.scores()["ana"].total)
            if rules == 4 and name == "climb":
                assert g.turns[0] == IDLE_LIMIT + 1, (name, seed)
            if rules == 4 and name == "alternate":
                assert g.turns[0] <= 2 * IDLE_LIMIT + 2, (name, seed)
    assert sum(totals["climb"]) < sum(totals["greedy"]), totals
    assert any(a > g for a, g in zip(totals["alternate2"], totals["greedy2"], strict=True)), totals


# ---------------------------------------------------------------------- rules version 3: the idle-turn end


def test_rules_3_stall_ends_the_solo_game_after_the_idle_turns():
    g = ready(1, solo=True, rules=3)
    give_stall_track(g, 0)
    _play_out(g, ClimbPolicy())
    assert g.is_over and g.end_reason == "stall"
    # One idle turn per count, then the last round: one top pass each.
    assert g.turns[0] == IDLE_TURNS + 1
    assert g.in_play[0] == TOP_POINTS * (IDLE_TURNS + 1)


def test_rules_3_alternating_climbs_and_purchases_no_longer_stretches_the_game():
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


def test_an_offer_purchase_leaves_the_rules_3_count_where_it_is():
    g = ready(1, solo=True, rules=3)
    g.idle = 5
    play(g, "advance:batchan", "market:0")
    while g.prompt.kind == "place":
        play(g, g.legal_actions()[0])
    assert g.turns[0] == 1 and g.idle == 5


def test_rules_3_end_is_triggered_at_idle_turns_per_player_and_says_so():
    g = ready(2, rules=3)
    give_stall_track(g, 0)
    give_stall_track(g, 1)
    g.idle = IDLE_TURNS * 2 - 1
    events = play(g, "advance:princess")
    while not any(e.kind == "turn_ended" for e in events):
        events += play(g, ClimbPolicy().choose(g))
    ends = [e for e in events if e.kind == "end_triggered"]
    assert len(ends) == 1 and ends[0].data == {"reason": "stall", "final_round": 2, "turns": IDLE_TURNS * 2}
    assert "turns without taking a tile from the offer, counted over the whole game (not in a row)" in describe(ends[0])


def test_rules_3_every_player_stalling_ends_a_multiplayer_game():
    g = ready(3, rules=3)
    for seat in range(3):
        give_stall_track(g, seat)
    policy = ClimbPolicy()
    while not g.is_over and g.round < 100:
        play(g, policy.choose(g))
    # 8 idle turns per player are reached during round 8; round 9 is the last.
    assert g.is_over and g.end_reason == "stall" and g.round == IDLE_TURNS + 1


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

# Rules 4: the most turns a game of n players can last, whatever anyone does. Before the end is triggered every
# turn of a player p is one of:
#   A: it takes a tile from the offer: at most 50 such turns in the whole game (the 50 normal tiles);
#   B: no offer tile, a recognition: at most E per player (E = END_RECOGNITIONS: the E-th triggers the end);
#   C: an idle turn (a top pass, no offer tile, no recognition): at most L per player (L = IDLE_LIMIT);
#   D: no top pass, no offer tile, no recognition. Before the end the bag is not empty, so the offer is full, and a
#      kokeshi that finds an empty space makes its player buy (an offer tile: A, or a quality tile: B). So in a D
#      turn no kokeshi goes home: every move lands on a tile and raises H_p, the sum of p's five kokeshi heights
#      (0 to 35, 0 at the start), by at least 1. A turn's moves form one chain (each tile moves at most one
#      kokeshi), so any other turn sends at most one kokeshi home and lowers H_p by at most 7. Hence
#      D_p <= 35 + 7 (A_p + B_p + C_p).
# Summing, the turns before the end are at most sum_p (35 + 8 (A_p + B_p + C_p)) <= 8 * 50 + n (35 + 8 E + 8 L), and
# after it come the rest of that round and one more: fewer than 2 n turns.


def turn_bound(n: int) -> int:
    """The most turns a rules-4 game of `n` players (1: solo) can last, by the argument above."""
    e = END_RECOGNITIONS[max(2, n)]
    return 8 * OFFER_TILES + n * (35 + 8 * e + 8 * IDLE_LIMIT) + 2 * n


@settings(max_examples=100, deadline=None)
@given(
    count=st.sampled_from([1, 2, 3, 4]),
    seed=st.integers(min_value=0, max_value=2**128),
    stall=st.floats(min_value=0.0, max_value=1.0),
    dodge=st.floats(min_value=0.0, max_value=0.5),
    stall_tracks=st.booleans(),
    side=st.sampled_from(["basic", "advanced"]),
)
@pytest.mark.slow
def test_no_policy_pushes_a_rules_4_game_past_its_bound(
    count: int, seed: int, stall: float, dodge: float, stall_tracks: bool, side: str
) -> None:
    g = ready(count, solo=count == 1, seed=seed, side=side)
    if stall_tracks:
        for seat in range(g.humans):
            give_stall_track(g, seat)
        g.offer = [g.bag.pop(0) if t == -1 else t for t in g.offer]  # the tracks may have taken offer tiles
    policy = StallPolicy(seed, stall, dodge)
    e = END_RECOGNITIONS[max(2, count)]
    kinds: dict[str, list[int]] = {k: [0] * g.humans for k in "ABCD"}
    turn: set[str] = set()
    homes = 0
    heights = sum(g.kokeshi[0])
    started = None  # the end reason when the current turn started
    for _ in range(50_000):
        if g.is_over:
            break
        seat = g.current
        for event in play(g, policy.choose(g)):
            if event.player == g.names[seat]:
                turn.add(event.kind)
            homes += event.kind in HOMES
            if event.kind in ("turn_ended", "game_over"):
                assert homes <= 1, "a turn sends at most one kokeshi home"
                if started is None:
                    if "tile_bought" in turn:
                        kind = "A"
                    elif turn & set(RECOGNITIONS):
                        kind = "B"
                    elif "top_passed" in turn:
                        kind = "C"
                    else:
                        kind = "D"
                        assert sum(g.kokeshi[seat]) > heights, "a D turn raises the kokeshi"
                    kinds[kind][seat] += 1
                turn, homes, started = set(), 0, g.end_reason
                heights = sum(g.kokeshi[g.current])
    assert g.is_over
    a, b, c, d = (kinds[k] for k in "ABCD")
    assert sum(a) <= OFFER_TILES
    for p in range(g.humans):
        assert b[p] <= e and c[p] == g.idles[p] <= IDLE_LIMIT
        assert d[p] <= 35 + 7 * (a[p] + b[p] + c[p])
    assert sum(g.turns) <= turn_bound(count)


@settings(max_examples=60, deadline=None)
@given(
    count=st.sampled_from([1, 2, 3, 4]),
    seed=st.integers(min_value=0, max_value=2**128),
    stall=st.floats(min_value=0.0, max_value=1.0),
    stall_tracks=st.booleans(),
    rules=st.sampled_from([2, 3]),
)
@pytest.mark.slow
def test_no_policy_pushes_a_rules_2_or_3_game_past_the_guard(
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
