"""Scoring of hand-built ponds: the seven features, coins, the goal cards and what one placement changes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.kohaku import deal
from games.kohaku.plans import plans
from games.kohaku.scoring import cell, details, feature_points, gain, goal_points, total

from .kit import feature, koi, pond


def points_of(p: dict[int, int], x: int, y: int) -> int:
    return feature_points(p, cell(x, y), p[cell(x, y)])


def test_a_flower_scores_2_per_touching_koi_of_its_colour_and_12_for_four():
    # "Zdobywasz 2 punkty za każdą rybę mającą czerwony kolor, która sąsiaduje z tą płytką. Jeśli jednak 4 ryby
    # mające czerwony kolor sąsiadują z tą płytką, zdobywasz w sumie 12 punktów (zamiast 8 punktów)."
    # "Nie ma znaczenia, czy ryba … jest cała czerwona, czy np. czerwono-żółta"
    red = feature("flower", "red")
    p = pond((1, 0, red), (0, 0, koi("red", 1, 0)), (2, 0, koi("yellow red", 1, 1)), (1, 1, koi("white", 1, 0)))
    assert points_of(p, 1, 0) == 4
    p[cell(1, -1)] = koi("red black", 1, 1)
    assert points_of(p, 1, 0) == 6
    p[cell(1, 1)] = koi("white red", 1, 1)
    assert points_of(p, 1, 0) == 12  # worked example G: "4 sąsiadujące ryby mające czerwony kolor = 12 punktów"
    # Example F and K: the flower's own colour counts ("3 sąsiadujące ryby mające żółty kolor = 3×2 punkty").
    yellow = pond((1, 0, feature("flower", "yellow")), (0, 0, koi("yellow")), (2, 0, koi("white yellow", 1, 1)))
    yellow[cell(1, 1)] = koi("yellow black", 1, 1)
    assert points_of(yellow, 1, 0) == 6


def test_a_flower_scores_12_only_when_all_four_touching_koi_have_its_colour():
    # "Jeśli jednak 4 ryby mające czerwony kolor sąsiadują z tą płytką, zdobywasz w sumie 12 punktów": four koi
    # around the flower are not enough, all four must have its colour.
    p = pond(
        (1, 0, feature("flower", "red")),
        (0, 0, koi("red", 1, 0)),
        (2, 0, koi("yellow red", 1, 1)),
        (1, 1, koi("red black", 1, 1)),
        (1, -1, koi("white yellow", 1, 1)),
    )
    assert points_of(p, 1, 0) == 3 * 2


def test_two_flowers_score_2_per_koi_with_one_colour_and_3_with_both():
    # "Zdobywasz 2 punkty za każdą rybę mającą 1 z kolorów kwiatów (czerwony lub żółty), która sąsiaduje z tą
    # płytką. Zdobywasz 3 punkty za każdą rybę czerwono-żółtą, która sąsiaduje z tą płytką."
    p = pond(
        (1, 0, feature("two_flowers", "red black")),
        (0, 0, koi("red", 1, 0)),
        (2, 0, koi("white black", 1, 1)),
        (1, 1, koi("yellow red", 1, 1)),
        (1, -1, koi("red black", 1, 1)),
    )
    assert points_of(p, 1, 0) == 3 * 2 + 3  # worked example H: 3 × 2 + 3 = 9
    p[cell(1, 1)] = koi("white yellow", 1, 1)
    assert points_of(p, 1, 0) == 2 * 2 + 3


def test_two_flowers_have_no_bonus_for_four_koi():
    # The 12 points for four koi are stated for "1 KWIAT" only; "2 KWIATY" says 2 per koi with one of the colours
    # and 3 per koi with both, whatever their number.
    p = pond(
        (1, 0, feature("two_flowers", "white yellow")),
        (0, 0, koi("white", 1, 0)),
        (2, 0, koi("yellow", 1, 0)),
        (1, 1, koi("white red", 1, 1)),
        (1, -1, koi("yellow black", 1, 1)),
    )
    assert points_of(p, 1, 0) == 4 * 2
    # Worked example A: "sąsiadująca ryba żółta = 2 punkty, sąsiadująca ryba biało-żółta = 3 punkty".
    a = pond((1, 0, feature("two_flowers", "white yellow")), (0, 0, koi("yellow")), (2, 0, koi("white yellow", 1, 1)))
    assert points_of(a, 1, 0) == 5


def test_a_koi_is_the_big_fish_one_per_tile_and_baby_koi_do_not_count_as_koi():
    # "w instrukcji dużą rybę nazywamy „rybą”, a małą rybę nazywamy „narybkiem”": a statue, a flower and
    # butterflies count koi tiles, never the baby koi drawn on them.
    crowded = koi("white red", 3, 0)
    p = pond((1, 0, feature("statue")), (0, 0, crowded))
    assert points_of(p, 1, 0) == 1
    p = pond((1, 0, feature("flower", "red")), (0, 0, crowded))
    assert points_of(p, 1, 0) == 2
    p = pond((1, 0, feature("butterflies", "red")), (4, 0, crowded))
    assert points_of(p, 1, 0) == 2


def test_rocks_score_1_per_baby_koi_on_touching_tiles():
    # "Za każdą małą rybę na sąsiadujących płytkach zdobywasz 1 punkt."
    p = pond((1, 0, feature("rocks")), (0, 0, koi("white red", 3, 0)), (2, 0, koi("yellow", 1, 0)))
    p[cell(1, 1)] = koi("black", 0, 2)
    assert points_of(p, 1, 0) == 4


def test_a_frog_scores_1_per_dragonfly_on_touching_tiles():
    # "Za każdą ważkę na sąsiadujących płytkach zdobywasz 1 punkt."
    p = pond((1, 0, feature("frog")), (0, 0, koi("white red", 0, 3)), (2, 0, koi("yellow", 0, 2)))
    p[cell(1, 1)] = koi("black", 2, 0)
    p[cell(1, -1)] = koi("red black", 1, 1)
    assert points_of(p, 1, 0) == 6


@pytest.mark.parametrize(("touching", "points"), [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10)])
def test_a_statue_scores_by_the_number_of_touching_koi(touching, points):
    # "1 ryba = 1 punkt 2 ryby = 3 punkty 3 ryby = 6 punktów 4 ryby = 10 punktów"
    p = pond((1, 0, feature("statue")))
    kois = [koi("white", 1, 0), koi("black", 1, 0), koi("yellow red", 1, 1), koi("red black", 1, 1)]
    for (x, y), t in list(zip([(0, 0), (2, 0), (1, 1), (1, -1)], kois, strict=True))[:touching]:
        p[cell(x, y)] = t
    assert points_of(p, 1, 0) == points


def test_butterflies_score_2_per_koi_of_their_colour_in_their_row_or_column_gaps_included():
    # "Zdobywasz 2 punkty za każdą rybę mającą czerwony kolor, która znajduje się w tej samej kolumnie lub w tym
    # samym rzędzie co ta płytka."
    p = pond(
        (1, 0, feature("butterflies", "red")),
        (0, 0, koi("red", 1, 0)),  # row
        (6, 0, koi("white red", 1, 1)),  # row, far away past a gap
        (1, 3, koi("red black", 1, 1)),  # column
        (3, 1, koi("red", 0, 1)),  # neither
        (2, 0, koi("white", 1, 0)),  # row, but not red
    )
    assert points_of(p, 1, 0) == 3 * 2  # worked example E: 2 × 2 in the row + 1 × 2 in the column


def test_a_turtle_scores_5_whatever_touches_it():
    # "Zdobywasz 5 punktów za każdego żółwia niezależnie od tego, z jakimi płytkami sąsiaduje."
    assert points_of(pond((1, 0, feature("turtle"))), 1, 0) == 5
    assert points_of(pond((1, 0, feature("turtle")), (0, 0, koi("red", 1, 0))), 1, 0) == 5


def test_each_coin_is_a_point_and_the_details_add_up():
    # "każdy symbol monety = 1 punkt"
    p = pond(
        (0, 0, koi("red", 1, 0)),
        (1, 0, feature("flower", "red")),
        (2, 0, koi("white", 0, 1)),
        (1, 1, koi("white red", 1, 1)),
        (0, 1, feature("rocks")),
    )
    d = details(p)
    assert d["coins"] == 2
    assert d["flower"] == 4 and d["rocks"] == 2
    assert d["total"] == sum(v for k, v in d.items() if k != "total") == total(p)


# ---------------------------------------------------------------------- goal cards


def test_goal_rarest_colour_scores_3_per_koi_of_the_least_common_colour():
    # "Za każdą rybę (jednokolorową i dwukolorową) mającą ten kolor zdobywasz 3 punkty."; a colour on none of
    # the koi is the rarest (ruling).
    kois = [koi("white red", 1, 1), koi("yellow black", 1, 1), koi("red", 1, 0), koi("white", 1, 0)]
    p = pond(*[(2 * i, 0, t) for i, t in enumerate(kois)])
    assert goal_points(p, "rarest_colour") == 3 * 1  # white 2, yellow 1, red 2, black 1
    assert goal_points(pond((0, 0, koi("red", 1, 0))), "rarest_colour") == 0


def test_goal_dragonflies_counts_each_butterflies_tile_row_and_column():
    # "Każdą płytkę motyli rozpatruj osobno. Za każdą ważkę znajdującą się w tej samej kolumnie lub w tym samym
    # rzędzie co płytki motyli zdobywasz 1 punkt."
    p = pond(
        (1, 0, feature("butterflies", "white")),
        (0, 0, koi("white red", 0, 3)),
        (1, 1, koi("black", 0, 2)),
        (3, 3, koi("yellow", 0, 1)),
    )
    assert goal_points(p, "dragonflies") == 5
    p[cell(3, 0)] = feature("butterflies", "red")  # row 0 again (3) and column 3 (1)
    assert goal_points(p, "dragonflies") == 5 + 4


def test_goal_statues_adds_5_per_statue_touching_4_koi():
    # "Zdobycie 5 dodatkowych punktów za każdą rzeźbę sąsiadującą bokami z 4 rybami."
    p = pond((1, 0, feature("statue")), (0, 0, koi("white", 1, 0)), (2, 0, koi("black", 1, 0)))
    p[cell(1, 1)] = koi("red", 1, 0)
    assert goal_points(p, "statues") == 0
    p[cell(1, -1)] = koi("yellow", 1, 0)
    assert goal_points(p, "statues") == 5


def test_goals_no_baby_koi_and_no_dragonflies_score_2_per_koi_tile_without_them():
    # "Zdobywasz 2 punkty za każdą płytkę ryb, na której nie ma narybku." / "…, na której nie ma ważki."
    p = pond((0, 0, koi("white", 0, 2)), (2, 0, koi("red", 1, 0)), (4, 0, koi("white red", 1, 1)))
    assert goal_points(p, "no_baby_koi") == 2
    assert goal_points(p, "no_dragonflies") == 2


def test_goal_flowers_scores_5_per_set_of_four_colours_counting_both_flowers_of_a_pair():
    # "Zdobywasz 5 punktów za każdy zestaw składający się z kwiatów w 4 różnych kolorach."; the example pond
    # has "1 kwiat biały, 2 żółte, 2 czerwone i 2 czarne" from three 1-flower and two 2-flower tiles.
    tiles = [
        feature("flower", "yellow"),
        feature("flower", "red"),
        feature("flower", "black"),
        feature("two_flowers", "white yellow"),
        feature("two_flowers", "red black"),
    ]
    p = pond(*[(2 * i + 1, 0, t) for i, t in enumerate(tiles)])
    assert goal_points(p, "flowers") == 5


def test_goal_frogs_and_turtles_scores_3_per_pair():
    # "Zdobywasz 3 punkty za każdą parę żaba i żółw."
    from games.kohaku.data import FEATURES, KIND_OF

    frogs = [t for t in FEATURES if KIND_OF[t] == KIND_OF[feature("frog")]]
    p = pond((1, 0, frogs[0]), (3, 0, frogs[1]), (5, 0, feature("turtle")))
    assert goal_points(p, "frogs_and_turtles") == 3


def test_goal_shelter_rewards_baby_koi_beside_rocks_and_costs_a_point_otherwise():
    # "Jeśli sąsiaduje ona z kamieniami, zdobywasz 2 punkty za taką płytkę. Jeśli nie sąsiaduje ona z kamieniami,
    # tracisz 1 punkt za taką płytkę."
    p = pond(
        (1, 0, feature("rocks")),
        (0, 0, koi("white", 1, 0)),
        (2, 0, koi("black", 2, 0)),
        (4, 0, koi("red", 1, 0)),
        (6, 0, koi("yellow", 0, 1)),
    )
    assert goal_points(p, "shelter") == 2 + 2 - 1


# ---------------------------------------------------------------------- what one placement changes


def _random_pond(seed: int) -> tuple[dict[int, int], set[int], list[int]]:
    """A pond from a random game, its frontier, and tiles not in it."""
    rng = random.Random(seed)
    m = deal(2, seed=seed)
    while not m.is_over and len(m.ponds[0]) < rng.randrange(2, 30):
        seat = m.waiting()[0]
        m.apply(seat, rng.choice(m.legal_actions(seat)))
    used = set(m.ponds[0].values())
    spare = [t for t in range(120) if t not in used]
    return dict(m.ponds[0]), set(m.frontier[0]), spare


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_gain_is_the_change_of_the_pond_total(seed):
    p, frontier, spare = _random_pond(seed)
    rng = random.Random(seed)
    from games.kohaku.data import IS_KOI
    from games.kohaku.scoring import koi_cell

    for c in sorted(frontier):
        tile = rng.choice([t for t in spare if IS_KOI[t] == koi_cell(c)])
        after = dict(p)
        after[c] = tile
        assert gain(p, c, tile) == total(after) - total(p)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_every_plan_is_legal_and_scores_what_its_final_pond_adds(seed):
    p, frontier, spare = _random_pond(seed)
    if not p:
        return
    rng = random.Random(seed + 1)
    from games.kohaku.data import IS_KOI
    from games.kohaku.scoring import STEPS, koi_cell

    k_tile = rng.choice([t for t in spare if IS_KOI[t]])
    f_tile = rng.choice([t for t in spare if not IS_KOI[t]])
    found = plans(p, frontier, k_tile, f_tile)
    assert found
    for k, f, points in found:
        assert koi_cell(k) and not koi_cell(f) and k not in p and f not in p
        touches_k = any(k + s in p for s in STEPS)
        touches_f = any(f + s in p for s in STEPS)
        assert (touches_k and (touches_f or f - k in STEPS)) or (touches_f and k - f in STEPS)
        after = dict(p)
        after[k], after[f] = k_tile, f_tile
        assert points == total(after) - total(p)


# ---------------------------------------------------------------------- the rulebook's worked example


def test_the_worked_example_scores_79_item_by_item():
    # "Przykład: Gracz zdobył za swój staw 79 punktów:" — each lettered item rebuilt around its feature at (1, 0).
    around = [(0, 0), (2, 0), (1, 1), (1, -1)]

    def scored(tile: int, *kois: int) -> int:
        p = pond((1, 0, tile), *[(x, y, k) for (x, y), k in zip(around, kois, strict=False)])
        return points_of(p, 1, 0)

    red, yellow, black = koi("red", 1, 0), koi("yellow", 1, 0), koi("black", 1, 0)
    items = {
        # "A sąsiadująca ryba żółta = 2 punkty, sąsiadująca ryba biało-żółta = 3 punkty"
        "A": scored(feature("two_flowers", "white yellow"), yellow, koi("white yellow", 1, 1)),
        # "B żółw = 5 punktów" (printed „żółt”)
        "B": scored(feature("turtle")),
        # "C rzeźba sąsiadująca z 4 rybami = 10 punktów"
        "C": scored(feature("statue"), red, yellow, black, koi("white", 1, 0)),
        # "D 7 ważek na sąsiadujących płytkach = 7×1 punkt"
        "D": scored(feature("frog"), koi("white yellow", 0, 3), koi("white red", 0, 3), koi("yellow", 0, 1)),
        # "E 2 ryby mające czerwony kolor w tym rzędzie = 2×2 punkty, 1 ryba mająca czerwony kolor w tej kolumnie"
        "E": points_of(
            pond(
                (1, 0, feature("butterflies", "red")),
                (0, 0, red),
                (4, 0, koi("white red", 1, 1)),
                (1, 3, koi("red black", 1, 1)),
            ),
            1,
            0,
        ),
        # "F 3 sąsiadujące ryby mające żółty kolor = 3×2 punkty"
        "F": scored(feature("flower", "yellow"), yellow, koi("yellow red", 1, 1), koi("white yellow", 1, 1)),
        # "G 4 sąsiadujące ryby mające czerwony kolor = 12 punktów"
        "G": scored(
            feature("flower", "red"), red, koi("yellow red", 1, 1), koi("white red", 1, 1), koi("red black", 1, 1)
        ),
        # "H 3 sąsiadujące ryby mające 1 z kolorów kwiatów = 3×2 punkty, 1 sąsiadująca ryba czerwono-czarna = 3"
        "H": scored(feature("two_flowers", "red black"), red, black, koi("white red", 1, 1), koi("red black", 1, 1)),
        # "I sąsiadujący narybek = 6×1 punkt"
        "I": scored(feature("rocks"), koi("white yellow", 3, 0), koi("white red", 3, 0)),
        # "J rzeźba sąsiadująca z 3 rybami = 6 punktów"
        "J": scored(feature("statue"), red, yellow, black),
        # "K 2 sąsiadujące ryby mające czarny kolor = 2×2 punkty"
        "K": scored(feature("flower", "black"), black, koi("white black", 1, 1)),
        # "L na płytkach są 3 monety = 3×1 punkt"
        "L": details(pond((0, 0, red), (2, 0, yellow), (4, 0, black)))["coins"],
    }
    assert items == {
        "A": 5, "B": 5, "C": 10, "D": 7, "E": 6, "F": 6, "G": 12, "H": 9, "I": 6, "J": 6, "K": 4, "L": 3
    }  # fmt: skip
    assert sum(items.values()) == 79
