"""Rules of setup, the turn, every tile type and the cascade, one test per rule."""

from __future__ import annotations

import pytest

from games.kokeshi.engine import CURRENT_RULES, IllegalAction, new_game
from games.kokeshi.engine.data import BONUS_SLOTS, COLORS, KOKESHI, TILE_BY_ID, TILES
from games.kokeshi.vocab import label
from tests.positions import (
    NAMES,
    conserved,
    filler,
    kinds,
    option_ids,
    play,
    quality,
    ready,
    set_offer,
    set_track,
    tile,
)

# ---------------------------------------------------------------- setup


def test_each_player_places_two_starting_tiles_on_two_different_tracks():
    g = new_game(NAMES[:3], seed=5)
    assert g.prompt.kind == "setup"
    first = g.prompt.player
    seat = g.names.index(first)
    dealt = [TILES[t].id for t, _ in g.reserve[seat]]
    assert len(dealt) == 2 and all(TILES[TILE_BY_ID[d]].kind == "starting" for d in dealt)
    play(g, f"place:{dealt[0]}:samurai")
    assert all(not a.endswith(":samurai") for a in option_ids(g))
    events = play(g, option_ids(g)[0])
    assert [len(t) for t in g.tracks[seat]].count(1) == 2
    assert "tile_placed" in kinds(events)
    assert g.prompt.player != first and g.prompt.kind == "setup"


def test_setup_ends_with_the_first_player_advancing_in_round_one():
    g = new_game(NAMES[:2], seed=9)
    while g.prompt.kind == "setup":
        play(g, option_ids(g)[0])
    assert g.round == 1 and g.prompt.kind == "advance" and g.prompt.player == g.names[0]
    assert option_ids(g) == [f"advance:{k}" for k in KOKESHI]


@pytest.mark.parametrize(
    ("players", "solo", "filled"),
    [
        (2, False, {"panda4", "fox4", "cat4", "rabbit4", "pandafox6", "catrabbit6"}),
        (3, False, {"panda4", "fox4", "cat4", "rabbit4"}),
        (4, False, {"pandafox6", "catrabbit6"}),
        (1, True, {"panda4", "fox4", "cat4", "rabbit4", "pandafox6", "catrabbit6"}),
    ],
)
def test_leftover_starting_tiles_fill_the_bonus_slots_by_player_count(players, solo, filled):
    g = new_game(NAMES[:players], seed=3, solo=solo)
    got = {BONUS_SLOTS[i].id for i, t in enumerate(g.slots) if t != -1}
    assert got == filled
    assert all(TILES[t].kind == "starting" for t in g.slots if t != -1)
    assert conserved(g)


def test_offer_holds_four_tiles_and_the_bag_the_other_forty_six():
    g = new_game(NAMES[:4], seed=11)
    assert all(t != -1 for t in g.offer) and len(g.bag) == 46
    assert all(TILES[t].kind == "normal" for t in g.bag + g.offer)


def test_first_player_is_drawn_from_the_seed():
    firsts = {new_game(NAMES[:4], seed=s).names[0] for s in range(40)}
    assert firsts == set(NAMES)
    assert new_game(NAMES[:4], seed=7).names == new_game(NAMES[:4], seed=7).names


def test_turn_order_keeps_the_seating_order():
    g = new_game(NAMES[:4], seed=2)
    i = NAMES.index(g.names[0])
    assert g.names == list(NAMES[i:] + NAMES[:i])


def test_solo_automa_starting_tiles_go_on_the_tracks_of_their_colour():
    for seed in range(10):
        g = new_game(["ana"], seed=seed, solo=True)
        automa_tiles = [(k, t) for k, track in enumerate(g.tracks[1]) for t in track]
        assert len(automa_tiles) == 2
        assert all(TILES[t].color == k for k, t in automa_tiles)
        assert g.prompt.player == "ana"


def test_starting_tile_next_to_its_colour_home_costs_a_pair():
    g = new_game(NAMES[:2], seed=1)
    seat = g.names.index(g.prompt.player)
    t = TILES[g.reserve[seat][0][0]]
    events = play(g, f"place:{t.id}:{KOKESHI[t.color]}")
    assert events[-1].kind == "tile_placed" or "tile_placed" in kinds(events)
    placed = next(e for e in events if e.kind == "tile_placed")
    assert placed.data["pairs"] == 1
    assert g.scores()[g.names[seat]].adjacency == -3


def test_new_game_refuses_bad_options():
    with pytest.raises(ValueError, match="2 to 4"):
        new_game(["a"], seed=1)
    with pytest.raises(ValueError, match="2 to 4"):
        new_game(list("abcde"), seed=1)
    with pytest.raises(ValueError, match="exactly one"):
        new_game(["a", "b"], seed=1, solo=True)
    with pytest.raises(ValueError, match="side"):
        new_game(["a", "b"], seed=1, side="sideways")
    with pytest.raises(ValueError, match="distinct"):
        new_game(["a", "a"], seed=1)
    with pytest.raises(ValueError, match="automa"):
        new_game(["automa", "b"], seed=1)


# ---------------------------------------------------------------- the turn


def test_empty_space_sends_kokeshi_home_and_buys():
    g = ready()
    offer = [tile("blue", "plus1"), tile("green", "plus1"), tile("yellow", "plus1"), tile("purple", "plus1")]
    set_offer(g, offer)
    events = play(g, "advance:samurai")
    assert kinds(events) == ["kokeshi_moved", "kokeshi_home"]
    assert g.kokeshi[0][KOKESHI.index("samurai")] == 0
    assert g.prompt.kind == "buy" and option_ids(g) == ["market:0", "market:1", "market:2", "market:3"]
    events = play(g, "market:2")
    assert kinds(events)[:2] == ["tile_bought", "tile_drawn"]
    assert events[1].reveals
    assert g.offer[2] != TILE_BY_ID[offer[2]] and g.offer[2] != -1
    placed = next(e for e in events if e.kind == "tile_placed")
    assert placed.data == {"tile": offer[2], "kokeshi": "samurai", "height": 1, "pairs": 0}
    assert g.tracks[0][3] == [TILE_BY_ID[offer[2]]]
    assert g.prompt.player == g.names[1] and g.prompt.kind == "advance"


def test_buying_refills_the_offer_slot_from_the_bag():
    g = ready(seed=4)
    bag_before = len(g.bag)
    play(g, "advance:princess", "market:0")
    assert len(g.bag) == bag_before - 1 and all(t != -1 for t in g.offer)


def test_normal_tile_activates_and_the_kokeshi_stays_on_it():
    g = ready()
    set_track(g, 0, "batchan", [tile("purple", "plus1")])
    events = play(g, "advance:batchan")
    assert kinds(events) == ["kokeshi_moved", "tile_activated"]
    assert g.prompt.kind == "effect"
    assert [label(o) for o in g.prompt.options] == ["Advance the Batchan", "Advance the Fisherman"]
    play(g, "effect:1")
    assert g.kokeshi[0][KOKESHI.index("batchan")] == 1


def test_quality_tile_moves_the_kokeshi_one_more_space():
    g = ready()
    set_track(g, 0, "fisherman", [*filler(g, 2, "blue"), quality("fisherman", 1)])
    g.kokeshi[0][2] = 2
    events = play(g, "advance:fisherman")
    assert kinds(events)[:4] == ["kokeshi_moved", "quality_step", "kokeshi_moved", "kokeshi_home"]
    assert g.prompt.kind == "buy"


def test_passing_the_top_scores_three_points_and_sends_the_kokeshi_home():
    g = ready()
    set_track(g, 0, "sumotori", filler(g, 7, "yellow"))
    g.kokeshi[0][4] = 7
    events = play(g, "advance:sumotori")
    assert kinds(events)[0] == "top_passed"
    assert g.in_play[0] == 3 and g.kokeshi[0][4] == 0
    assert g.scores()[g.names[0]].in_play == 3


def test_play_passes_to_the_next_player_in_turn_order():
    g = ready(players=3)
    for turn in range(6):
        assert g.prompt.player == g.names[turn % 3]
        play(g, "advance:princess")
        while g.prompt.player == g.names[turn % 3]:
            play(g, option_ids(g)[0])
    assert g.round == 3 and g.turns == [2, 2, 2]


# ---------------------------------------------------------------- every tile type, both sides


def _on_track(kokeshi: str, tile_id: str, seat_setup=None, rules: int = CURRENT_RULES):
    """A game whose first player has just activated `tile_id`, placed at height 1 of `kokeshi`'s track."""
    g = ready(seed=21, rules=rules)
    set_track(g, 0, kokeshi, [tile_id])
    if seat_setup:
        seat_setup(g)
    events = play(g, f"advance:{kokeshi}")
    return g, events


def _steps(events):
    """The events after the player's choice of side."""
    return [e for e in events if e.kind != "effect_chosen"]


def _height(g, kokeshi: str) -> int:
    return g.kokeshi[0][KOKESHI.index(kokeshi)]


@pytest.mark.parametrize(
    ("color", "type_", "side", "moved"),
    [
        ("pink", "plus1", 0, "princess"),
        ("pink", "plus1", 1, "batchan"),
        ("purple", "plus4", 0, "batchan"),
        ("purple", "plus4", 1, "princess"),
        ("blue", "start1", 0, "fisherman"),
        ("blue", "start1", 1, "samurai"),
        ("yellow", "start2", 0, "sumotori"),
        ("yellow", "start2", 1, "batchan"),
    ],
)
def test_kokeshi_choice_tiles_advance_the_chosen_kokeshi(color, type_, side, moved):
    g, _ = _on_track("fisherman", tile(color, type_))
    assert g.prompt.kind == "effect" and len(option_ids(g)) == 2
    before = _height(g, moved)
    events = _steps(play(g, f"effect:{side}"))
    assert events[0].kind == "kokeshi_moved" and events[0].data["kokeshi"] == moved
    assert events[0].data["to"] == before + 1


def test_left_tile_advances_a_kokeshi_on_a_track_to_its_left():
    g, _ = _on_track("fisherman", tile("green", "left"))
    assert [label(o) for o in g.prompt.options] == ["Advance a kokeshi to the left", "Advance the Samurai"]
    play(g, "effect:0")
    assert g.prompt.kind == "kokeshi" and option_ids(g) == ["kokeshi:princess", "kokeshi:batchan"]
    events = play(g, "kokeshi:batchan")
    assert events[0].data["kokeshi"] == "batchan"


def test_left_tile_other_side_advances_its_colour_kokeshi():
    g, _ = _on_track("fisherman", tile("green", "left"))
    events = _steps(play(g, "effect:1"))
    assert events[0].data["kokeshi"] == "samurai"


def test_right_tile_advances_a_kokeshi_on_a_track_to_its_right():
    g, _ = _on_track("batchan", tile("pink", "right"))
    play(g, "effect:1")
    assert option_ids(g) == ["kokeshi:fisherman", "kokeshi:samurai", "kokeshi:sumotori"]
    events = play(g, "kokeshi:sumotori")
    assert events[0].data["kokeshi"] == "sumotori"


def test_right_tile_other_side_advances_its_colour_kokeshi():
    g, _ = _on_track("batchan", tile("pink", "right"))
    events = _steps(play(g, "effect:0"))
    assert events[0].data["kokeshi"] == "princess"


def test_rules_1_left_with_no_track_to_the_left_does_nothing_so_the_other_side_is_taken():
    g, events = _on_track("princess", tile("yellow", "left"), rules=1)
    assert "auto_choice" in kinds(events)
    moved = [e for e in events if e.kind == "kokeshi_moved"]
    assert moved[-1].data["kokeshi"] == "sumotori"


def test_rules_1_right_with_no_track_to_the_right_does_nothing_so_the_other_side_is_taken():
    g, events = _on_track("sumotori", tile("blue", "right"), rules=1)
    assert "auto_choice" in kinds(events)
    assert [e for e in events if e.kind == "kokeshi_moved"][-1].data["kokeshi"] == "fisherman"


def test_single_kokeshi_to_the_left_is_advanced_without_asking():
    g, _ = _on_track("batchan", tile("blue", "left"))
    events = _steps(play(g, "effect:0"))
    assert kinds(events)[0] == "auto_choice"
    assert [e for e in events if e.kind == "kokeshi_moved"][0].data["kokeshi"] == "princess"


def test_double_advance_moves_two_spaces_and_resolves_only_the_second():
    def setup(g):
        set_track(g, 0, "samurai", [tile("pink", "plus1"), tile("yellow", "plus4")])

    g, _ = _on_track("fisherman", tile("purple", "double"), setup)
    assert [label(o) for o in g.prompt.options] == ["Advance the Batchan", "Advance any kokeshi two spaces"]
    play(g, "effect:1")
    assert g.prompt.kind == "kokeshi" and label(g.prompt.options[3]) == "Advance the Samurai two spaces"
    events = play(g, "kokeshi:samurai")
    assert events[0].data == {"kokeshi": "samurai", "start": 0, "to": 2}
    activated = [e.data["tile"] for e in events if e.kind == "tile_activated"]
    assert activated == [tile("yellow", "plus4")]


def test_double_advance_past_the_top_scores_three():
    def setup(g):
        set_track(g, 0, "samurai", filler(g, 7, "green"))
        g.kokeshi[0][3] = 6

    g, _ = _on_track("fisherman", tile("purple", "double"), setup)
    events = _steps(play(g, "effect:1", "kokeshi:samurai"))
    assert events[0].kind == "top_passed" and g.in_play[0] == 3 and _height(g, "samurai") == 0


def test_any_animal_tile_advances_any_kokeshi():
    g, _ = _on_track("princess", tile("blue", "any_animal"))
    assert [label(o) for o in g.prompt.options] == ["Advance any kokeshi", "Advance a disc on an animal track"]
    play(g, "effect:0")
    assert option_ids(g) == [f"kokeshi:{k}" for k in KOKESHI]
    events = play(g, "kokeshi:sumotori")
    assert events[0].data["kokeshi"] == "sumotori"


def test_any_animal_tile_advances_a_disc_of_your_choice():
    g, _ = _on_track("princess", tile("blue", "any_animal"))
    play(g, "effect:1")
    assert option_ids(g) == ["animal:panda", "animal:fox", "animal:cat", "animal:rabbit"]
    events = play(g, "animal:rabbit")
    assert events[0].kind == "disc_moved" and g.discs[0] == [0, 0, 0, 1]


def test_buy_any_tile_buys_for_the_side_reserve():
    g, _ = _on_track("princess", tile("purple", "buy_any"))
    assert [label(o) for o in g.prompt.options] == ["Buy a tile for any track", "Advance any kokeshi"]
    play(g, "effect:0")
    assert g.prompt.kind == "buy" and all(a.startswith("market:") for a in option_ids(g))
    events = play(g, "market:1")
    assert events[0].data["track"] is None
    assert g.prompt.kind == "place" and len(option_ids(g)) == 5


def test_buy_any_tile_other_side_advances_any_kokeshi():
    g, _ = _on_track("princess", tile("purple", "buy_any"))
    play(g, "effect:1")
    assert g.prompt.kind == "kokeshi" and len(option_ids(g)) == 5


def test_buy_here_tile_advances_its_kokeshi_and_buys_for_its_own_track():
    g, events = _on_track("samurai", tile("blue", "buy_here"))
    assert [e.kind for e in events][-1] == "kokeshi_moved" and events[-1].data["kokeshi"] == "fisherman"
    assert g.prompt.kind == "buy"
    events = play(g, "market:0")
    assert events[0].data["track"] == "samurai"


@pytest.mark.parametrize(("type_", "animal"), [("animal1", "fox"), ("animal2", "rabbit")])
def test_animal_tiles_advance_their_kokeshi_and_their_animal(type_, animal):
    g, events = _on_track("princess", tile("green", type_))
    # The samurai moves first, the disc second, and only then does the samurai's new (empty) space resolve.
    assert [e.kind for e in events][-3:] == ["kokeshi_moved", "disc_moved", "kokeshi_home"]
    assert events[-3].data["kokeshi"] == "samurai" and events[-2].data == {"animal": animal, "to": 1}


def test_every_colour_has_ten_tile_types_and_the_box_has_75_tiles():
    assert len(TILES) == 75
    for c in range(len(COLORS)):
        types = [t.type for t in TILES if t.color == c and t.kind == "normal"]
        assert len(types) == len(set(types)) == 10


# ---------------------------------------------------------------- the cascade


def test_cascade_rulebook_example_princess_passes_the_top():
    """Princess lands on a tile that advances her again, then on an any-kokeshi tile; advancing her once more
    reaches a level 3 quality tile at the top, which moves her past the top: home and 3 points."""
    g = ready()
    princess_track = [
        *filler(g, 4, "pink"),
        tile("pink", "plus1"),
        tile("yellow", "any_animal"),
        quality("princess", 3),
    ]
    set_track(g, 0, "princess", princess_track)
    g.kokeshi[0][0] = 4
    events = play(g, "advance:princess")
    assert kinds(events) == ["kokeshi_moved", "tile_activated"] and g.prompt.kind == "effect"
    events = _steps(play(g, "effect:0"))
    assert kinds(events) == ["kokeshi_moved", "tile_activated"] and events[1].data["height"] == 6
    play(g, "effect:0")
    events = play(g, "kokeshi:princess")
    # A turn that passed the top with no purchase and no recognition: an idle turn (rules 4), then the turn ends.
    assert kinds(events)[:5] == ["kokeshi_moved", "quality_step", "top_passed", "idle_turn", "turn_ended"]
    assert g.in_play[0] == 3 and g.kokeshi[0][0] == 0


def test_a_tile_finishes_all_its_effects_before_the_reached_tile_activates():
    g = ready()
    set_track(g, 0, "princess", [tile("pink", "buy_here"), tile("pink", "plus1")])
    events = play(g, "advance:princess")
    # The princess is already on height 2, but its tile waits until the purchase is done.
    assert g.kokeshi[0][0] == 2 and "tile_activated" in kinds(events)
    assert [e.data["tile"] for e in events if e.kind == "tile_activated"] == [tile("pink", "buy_here")]
    assert g.prompt.kind == "buy"
    events = play(g, "market:0")
    order = kinds(events)
    assert order.index("tile_bought") < order.index("tile_activated")
    assert g.prompt.kind == "effect"


def test_animal_step_happens_before_the_moved_kokeshi_resolves():
    g = ready()
    set_track(g, 0, "princess", [tile("pink", "animal1"), tile("pink", "plus1")])
    events = play(g, "advance:princess")
    order = kinds(events)
    assert order.index("disc_moved") < order.index("tile_activated", 2)


def test_effect_side_choice_is_refused_when_not_offered():
    g, _ = _on_track("princess", tile("yellow", "plus1"))
    before = g.to_json()
    with pytest.raises(IllegalAction) as info:
        g.apply(g.names[0], "effect:2")
    assert info.value.code == "illegal" and info.value.legal == ["effect:0", "effect:1"]
    assert g.to_json() == before


def test_errors_name_their_cause_and_change_nothing():
    g = ready()
    before = g.to_json()
    cases = [
        (g.names[1], "advance:princess", "not_your_turn", {"player": g.names[1], "current": g.names[0]}),
        ("zed", "advance:princess", "unknown_player", {"player": "zed"}),
        (g.names[0], "advance:dragon", "illegal", {"action": "advance:dragon"}),
        (g.names[0], "market:0", "illegal", {"action": "market:0"}),
    ]
    for player, action, code, params in cases:
        with pytest.raises(IllegalAction) as info:
            g.apply(player, action)
        assert info.value.code == code and isinstance(info.value, ValueError) and info.value.params == params
        assert str(info.value).startswith(code)
        assert g.to_json() == before
