"""The component data agrees with every count the Polish rulebook states, and marks what is reconstructed."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from games.kohaku.data import (
    COLOURS,
    CURRENT_RULES,
    FEATURES,
    KINDS,
    KOI,
    KOI_RECONSTRUCTED,
    MAX_STONES,
    REMOVED,
    RULES_VERSIONS,
    STONES_BY_RULES,
    TILES,
    koi_in_box,
)

TOML = Path(__file__).resolve().parents[2] / "games" / "kohaku" / "components.toml"


def test_the_box_holds_58_koi_and_62_features_of_seven_kinds():
    # "58 płytek ryb"; "62 płytki ozdób – jest 7 rodzajów tych płytek: 1 kwiat (24 płytki) 2 kwiaty (6 płytek)
    # kamienie (6 płytek) rzeźba (6 płytek) motyle (8 płytek) żaba (6 płytek) żółw (6 płytek)"
    assert len(KOI) == 58
    assert len(FEATURES) == 62
    kinds = Counter(KINDS[TILES[t].kind] for t in FEATURES)
    assert kinds == {
        "flower": 24,
        "two_flowers": 6,
        "rocks": 6,
        "statue": 6,
        "butterflies": 8,
        "frog": 6,
        "turtle": 6,
    }


def test_tile_ids_are_unique_and_short():
    ids = [t.id for t in TILES]
    assert len(set(ids)) == len(ids) == 120
    assert all(len(i) == 3 for i in ids)


def test_flowers_and_butterflies_come_in_the_four_colours():
    # "kwiatów w 4 różnych kolorach"; one 2-flower tile per pair of colours (reconstructed)
    assert COLOURS == ("white", "yellow", "red", "black")
    single = Counter(TILES[t].colour_names for t in FEATURES if KINDS[TILES[t].kind] == "flower")
    assert single == {(c,): 6 for c in COLOURS}
    pairs = Counter(TILES[t].colour_names for t in FEATURES if KINDS[TILES[t].kind] == "two_flowers")
    assert len(pairs) == 6 and set(pairs.values()) == {1} and all(len(p) == 2 for p in pairs)
    butterflies = Counter(TILES[t].colour_names for t in FEATURES if KINDS[TILES[t].kind] == "butterflies")
    assert butterflies == {(c,): 2 for c in COLOURS}


def test_every_koi_is_one_or_two_colours_and_only_single_colours_carry_a_coin():
    # "ryba jednokolorowa lub dwukolorowa"; "symbol monety (dający 1 punkt na koniec gry)"
    for t in KOI:
        tile = TILES[t]
        assert len(tile.colour_names) in (1, 2)
        assert tile.coin == (1 if len(tile.colour_names) == 1 else 0)
        assert tile.baby_koi + tile.dragonflies >= 1 and 0 <= tile.baby_koi <= 3 and 0 <= tile.dragonflies <= 3
    colourings = Counter(TILES[t].colour_names for t in KOI)
    assert sum(1 for c in colourings if len(c) == 1) == 4 and sum(1 for c in colourings if len(c) == 2) == 6
    assert {n for c, n in colourings.items() if len(c) == 1} == {4}
    assert {n for c, n in colourings.items() if len(c) == 2} == {7}


def test_the_stone_marks_give_every_player_twelve_turns_at_every_player_count():
    # "jeśli gracze w 2 osoby: odłóżcie do pudełka wszystkie płytki ryb z 3 i 4 kamieniami w rogu, … 7 z nich";
    # "jeśli gracze w 3 osoby: … z 4 kamieniami w rogu, … 5 z nich"; "jeśli gracze w 4 osoby: … 5 z nich";
    # "Gra kończy się, gdy nie ma możliwości uzupełnienia 2 płytek na planszy." With four players the text alone
    # fixes the length: 58 - 5 = 53 koi, 6 on the board, 47 refills, so 48 turns, 12 each. The marks are the
    # only split that gives two and three players the same twelve turns.
    assert REMOVED == {1: 0, 2: 7, 3: 5, 4: 5}
    marks = Counter(TILES[t].stones for t in KOI)
    assert marks == {0: 36, 3: 10, 4: 12}
    for seats in (2, 3, 4):
        in_play = sum(1 for t in KOI if TILES[t].stones <= MAX_STONES[seats]) - REMOVED[seats]
        turns = in_play - 6 + 1  # six on the board, one refill per turn, the turn whose refill fails is the last
        assert turns == 12 * seats, (seats, turns)
    assert STONES_BY_RULES[CURRENT_RULES] == tuple(TILES[t].stones for t in KOI)


def test_rules_version_1_keeps_its_own_stone_marks():
    # Games stored under rules version 1 were dealt with the first reconstruction (8 koi with 3 stones, 6 with 4):
    # they must still deal and replay as they were played.
    assert RULES_VERSIONS == (1, 2) and CURRENT_RULES == 2
    old = STONES_BY_RULES[1]
    assert Counter(old) == {0: 44, 3: 8, 4: 6}
    assert [TILES[t].id for t in KOI if old[t] == 4] == ["k20", "k28", "k34", "k42", "k48", "k56"]
    assert [len(koi_in_box(seats, 1)) for seats in (1, 2, 3, 4)] == [44, 44, 52, 58]
    assert [len(koi_in_box(seats, 2)) for seats in (1, 2, 3, 4)] == [36, 36, 46, 58]


def test_every_player_count_keeps_the_colours_and_critters_balanced():
    for rules in RULES_VERSIONS:
        for seats in (1, 2, 3, 4):
            tiles = [TILES[t] for t in koi_in_box(seats, rules)]
            counts = {c: sum(1 for t in tiles if c in t.colour_names) for c in COLOURS}
            assert len(set(counts.values())) == 1, (rules, seats, counts)
            assert sum(t.baby_koi for t in tiles) == sum(t.dragonflies for t in tiles)
            assert any(t.baby_koi and t.dragonflies for t in tiles)  # the example pond has a tile with both


def test_reconstructed_values_are_tagged_in_the_data_file():
    text = TOML.read_text(encoding="utf-8")
    assert KOI_RECONSTRUCTED
    assert text.count("[R]") >= 4
    assert "reconstructed = true" in text
