"""Rules of buying, quality recognition, placement, the end of the game, scoring and the solo mode."""

from __future__ import annotations

import pytest

from games.kokeshi.engine import GreedyPolicy, RandomPolicy, new_game, play_out
from games.kokeshi.engine.data import ANIMALS, BONUS_SLOTS, KOKESHI, QUALITY_TILE, TILE_BY_ID, TILES
from games.kokeshi.vocab import label
from tests.positions import (
    conserved,
    detach,
    empty_bag,
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


def at_top(g, seat: int, kokeshi: str, ids: list[str]) -> None:
    """Give a track these tiles and put its kokeshi on the top one, so advancing it finds an empty space."""
    set_track(g, seat, kokeshi, ids)
    g.kokeshi[seat][KOKESHI.index(kokeshi)] = len(ids)


def finish_turn(g) -> None:
    """Answer the current player's remaining decisions with their first option."""
    player = g.prompt.player
    while g.prompt is not None and g.prompt.player == player and g.prompt.kind != "advance":
        play(g, option_ids(g)[0])


def slot_of(slot_id: str) -> int:
    return next(i for i, s in enumerate(BONUS_SLOTS) if s.id == slot_id)


# ---------------------------------------------------------------- buying


def test_purchase_is_skipped_when_the_track_is_full():
    g = ready()
    set_track(g, 0, "sumotori", [*filler(g, 6, "yellow"), tile("green", "buy_here")])
    g.kokeshi[0][4] = 6
    events = play(g, "advance:sumotori")
    skipped = [e for e in events if e.kind == "effect_skipped"]
    assert skipped and skipped[0].data == {"reason": "track_full", "kokeshi": "sumotori"}
    assert all(t != -1 for t in g.offer) and not g.reserve[0]


def test_purchase_counts_tiles_already_reserved_for_the_track():
    g = ready()
    at_top(g, 0, "samurai", [*filler(g, 5, "green"), tile("green", "buy_here")])
    g.kokeshi[0][3] = 5
    play(g, "advance:samurai")  # activates the top tile: samurai to 7 (pending), buy for this track
    assert g.prompt.kind == "buy"
    events = play(g, "market:0")
    # The samurai reached an empty 7th space; the reserved tile fills the track, so nothing more can be bought.
    assert "kokeshi_home" in kinds(events)
    assert [e.data for e in events if e.kind == "effect_skipped"] == [{"reason": "track_full", "kokeshi": "samurai"}]


def test_purchase_with_an_empty_offer_does_nothing():
    g = ready()
    set_offer(g, [None, None, None, None])
    empty_bag(g)
    events = play(g, "advance:batchan")
    assert [e.data for e in events if e.kind == "effect_skipped"] == [{"reason": "offer_empty"}]
    assert g.prompt.player == g.names[1]


def test_bought_tile_waits_in_its_track_reserve_until_the_end_of_the_turn():
    g = ready()
    set_track(g, 0, "princess", [tile("pink", "buy_here"), tile("blue", "plus1")])
    offered = g.offer[0]
    play(g, "advance:princess", "market:0")
    assert (offered, 0) in g.reserve[0] and g.prompt.kind == "effect"
    assert len(g.tracks[0][0]) == 2
    play(g, "effect:1")  # the princess again: she finds an empty space and buys once more
    finish_turn(g)
    assert not g.reserve[0] and offered in g.tracks[0][0][2:]


# ---------------------------------------------------------------- quality recognition


@pytest.mark.parametrize(("tiles", "levels"), [(1, []), (2, [1]), (4, [1, 2]), (6, [1, 2, 3])])
def test_quality_tile_can_be_bought_only_at_or_above_its_threshold(tiles, levels):
    g = ready()
    at_top(g, 0, "samurai", filler(g, tiles, "green"))
    play(g, "advance:samurai")
    assert [a for a in option_ids(g) if a.startswith("quality:")] == [f"quality:{lv}" for lv in levels]


def test_rules_1_quality_threshold_counts_tiles_reserved_for_the_track_this_turn():
    g = ready(rules=1)
    at_top(g, 0, "samurai", [*filler(g, 4, "green"), tile("green", "buy_here")])
    g.kokeshi[0][3] = 4
    play(g, "advance:samurai", "market:0")
    # Height 7 becomes the lowest free space once the bought tile is counted: level 3 is allowed.
    assert "quality:3" in option_ids(g)
    events = play(g, "quality:3")
    placed = [(e.data["tile"], e.data["height"]) for e in events if e.kind == "tile_placed"]
    assert placed[-1] == (quality("samurai", 3), 7) and len(placed) == 2


def test_a_track_holds_only_one_quality_tile():
    g = ready()
    five = filler(g, 5, "purple")
    at_top(g, 0, "batchan", [*five[:2], quality("batchan", 1), *five[2:]])
    play(g, "advance:batchan")
    assert not [a for a in option_ids(g) if a.startswith("quality:")]


def test_buying_a_quality_tile_is_a_recognition():
    g = ready()
    at_top(g, 0, "fisherman", filler(g, 4, "blue"))
    events = play(g, "advance:fisherman", "quality:2")
    assert g.recognitions[0] == 1 and "quality_bought" in kinds(events)
    assert g.tracks[0][2][-1] == QUALITY_TILE[2][1]


def _buy_quality(g, seat: int, kokeshi: str, level: int) -> list:
    at_top(g, seat, kokeshi, filler(g, 2 * level, None))
    events = play(g, f"advance:{kokeshi}", f"quality:{level}")
    finish_turn(g)
    return events


def test_two_players_compete_for_quality_the_first_purchase_discards_the_rest():
    g = ready(2)
    events = _buy_quality(g, 0, "samurai", 1)
    assert "quality_discarded" in kinds(events) and g.quality_supply[3] == []
    assert QUALITY_TILE[3][1] in g.discard and QUALITY_TILE[3][2] in g.discard
    assert conserved(g)


def test_three_players_the_second_purchase_discards_the_third():
    g = ready(3)
    assert "quality_discarded" not in kinds(_buy_quality(g, 0, "samurai", 1))
    assert g.quality_supply[3] == [2, 3]
    events = _buy_quality(g, 1, "samurai", 2)
    assert "quality_discarded" in kinds(events) and g.quality_supply[3] == []


def test_four_players_can_buy_all_three_quality_tiles_of_a_kokeshi():
    g = ready(4)
    for seat, level in ((0, 1), (1, 2), (2, 3)):
        assert "quality_discarded" not in kinds(_buy_quality(g, seat, "princess", level))
    assert g.quality_supply[0] == [] and not any(t in g.discard for t in QUALITY_TILE[0])
    assert g.recognitions[:3] == [1, 1, 1]


def test_quality_tile_may_go_higher_than_its_threshold_when_placed_last():
    g = ready()
    at_top(g, 0, "samurai", [*filler(g, 3, "green"), tile("green", "buy_here")])
    g.kokeshi[0][3] = 3
    bought = TILES[g.offer[0]].id
    play(g, "advance:samurai", "market:0")  # samurai goes to 5: empty; the bought tile is reserved below
    play(g, "quality:2")
    assert option_ids(g) == [f"place:{bought}:samurai", f"place:{quality('samurai', 2)}:samurai"]
    play(g, f"place:{bought}:samurai")
    heights = {TILES[t].id: i + 1 for i, t in enumerate(g.tracks[0][3])}
    assert heights[quality("samurai", 2)] == 6


def test_crossing_the_red_line_is_a_recognition():
    g = ready()
    g.discs[0][ANIMALS.index("cat")] = 3
    set_track(g, 0, "princess", [tile("pink", "any_animal")])
    events = play(g, "advance:princess", "effect:1", "animal:cat")
    assert "red_line_crossed" in kinds(events) and g.recognitions[0] == 1


def test_reaching_a_bonus_slot_takes_its_tile_to_the_side_reserve():
    g = ready()
    bonus = g.slots[slot_of("panda4")]
    assert bonus != -1
    g.discs[0][0] = 3
    set_track(g, 0, "princess", [tile("pink", "animal1")])  # princess & panda
    events = play(g, "advance:princess")
    assert "bonus_taken" in kinds(events) and g.slots[slot_of("panda4")] == -1
    assert (bonus, -1) in g.reserve[0]
    finish_turn(g)
    assert any(bonus in track for track in g.tracks[0])


def test_shared_bonus_slot_is_reached_from_either_track_it_covers():
    g = ready()
    bonus = g.slots[slot_of("pandafox6")]
    g.discs[0][1] = 5  # fox
    g.discs[1][0] = 5  # panda
    set_track(g, 0, "princess", [tile("pink", "animal2")])  # princess & fox
    events = play(g, "advance:princess")
    assert [e.data["tile"] for e in events if e.kind == "bonus_taken"] == [TILES[bonus].id]
    finish_turn(g)
    set_track(g, 1, "princess", [tile("pink", "animal1")])  # princess & panda
    events = play(g, "advance:princess")
    assert "bonus_taken" not in kinds(events)


def test_a_disc_at_the_end_of_its_track_cannot_advance():
    g = ready()
    g.discs[0] = [7, 7, 7, 7]
    set_track(g, 0, "princess", [tile("blue", "any_animal")])
    play(g, "advance:princess")
    # The animal side may still be chosen, and says that it does nothing.
    assert g.prompt.kind == "effect" and label(g.prompt.options[1]).endswith("(does nothing)")
    events = play(g, "effect:1")
    assert g.discs[0] == [7, 7, 7, 7] and "effect_skipped" in kinds(events)
    g2 = ready()
    g2.discs[0][0] = 7
    set_track(g2, 0, "princess", [tile("pink", "animal1")])
    events = play(g2, "advance:princess")
    assert "effect_skipped" in kinds(events) and g2.discs[0][0] == 7


# ---------------------------------------------------------------- placement


def test_player_chooses_the_order_of_placement():
    g = ready()
    set_track(g, 0, "princess", [tile("pink", "buy_here")])
    set_offer(g, [tile("blue", "plus1"), tile("green", "plus1"), tile("yellow", "plus1"), tile("purple", "plus1")])
    play(g, "advance:princess", "market:0")  # princess moves to 2 (empty): home, buy again
    play(g, "market:1")
    assert g.prompt.kind == "place"
    second = TILE_BY_ID[tile("green", "plus1")]
    assert option_ids(g) == [f"place:{tile('blue', 'plus1')}:princess", f"place:{tile('green', 'plus1')}:princess"]
    play(g, f"place:{TILES[second].id}:princess")
    assert g.tracks[0][0] == [TILE_BY_ID[tile("pink", "buy_here")], second, TILE_BY_ID[tile("blue", "plus1")]]


def test_side_reserve_tile_goes_only_where_the_tracks_own_tiles_still_fit():
    g = ready()
    set_track(g, 0, "batchan", filler(g, 6, "purple"))
    own, side = tile("green", "plus1"), tile("blue", "plus1")
    g.reserve[0] = [(detach(g, own), 1), (detach(g, side), -1)]
    g._ask(["place"], [])
    assert f"place:{own}:batchan" in option_ids(g)
    assert [a for a in option_ids(g) if a.startswith(f"place:{side}")] == [
        f"place:{side}:{k}" for k in KOKESHI if k != "batchan"
    ]
    assert conserved(g)


def test_side_tile_that_fits_on_no_track_is_discarded():
    g = ready()
    set_track(g, 0, "princess", [tile("blue", "any_animal"), *filler(g, 6, "pink")])
    for k in range(1, 5):
        set_track(g, 0, KOKESHI[k], filler(g, 7, None))
    bonus = g.slots[slot_of("cat4")]
    g.discs[0][2] = 3
    events = play(g, "advance:princess", "effect:1", "animal:cat")
    assert "bonus_taken" in kinds(events) and "tile_discarded" in kinds(events)
    assert bonus in g.discard and conserved(g)


def test_only_one_legal_placement_is_made_without_asking():
    g = ready()
    events = play(g, "advance:fisherman", "market:0")
    assert "tile_placed" in kinds(events) and g.prompt.kind == "advance"


def test_same_colour_neighbours_cost_three_points_a_pair_home_spaces_included():
    g = ready()
    set_track(g, 0, "princess", [tile("pink", "plus1")])  # on the pink home: 1 pair
    set_track(g, 0, "batchan", [tile("pink", "plus4")])  # beside the pink tile: 1 pair
    set_track(g, 0, "fisherman", [tile("purple", "plus1"), tile("purple", "plus4")])  # one above the other: 1 pair
    assert g.scores()[g.names[0]].adjacency == -9
    assert g.view()["players"][0]["adjacent_pairs"] == 3


# ---------------------------------------------------------------- the end


def _cross_red_line(g, seat: int) -> list:
    g.discs[seat][ANIMALS.index("rabbit")] = 3
    set_track(g, seat, "samurai", [tile("green", "animal2")])  # samurai & rabbit
    events = play(g, "advance:samurai")
    finish_turn(g)
    return events


@pytest.mark.parametrize(("players", "needed"), [(2, 5), (3, 5), (4, 4)])
def test_recognitions_needed_to_trigger_the_end(players, needed):
    g = ready(players)
    g.recognitions[0] = needed - 2
    assert "end_triggered" not in kinds(_cross_red_line(g, 0))
    g2 = ready(players)
    g2.recognitions[0] = needed - 1
    events = _cross_red_line(g2, 0)
    assert "end_triggered" in kinds(events) and g2.end_reason == "recognitions" and g2.final_round == 2


def test_the_end_finishes_the_round_then_plays_one_more_full_round():
    g = ready(3)
    play(g, "advance:princess")
    finish_turn(g)
    g.recognitions[1] = 4
    _cross_red_line(g, 1)  # the second player triggers the end in round 1
    assert g.final_round == 2 and not g.is_over
    while not g.is_over:
        play(g, option_ids(g)[0])
    assert g.turns == [2, 2, 2] and g.prompt is None and g.legal_actions() == []


def test_running_out_of_tiles_triggers_the_end_and_play_goes_on_with_the_offer():
    g = ready(2, seed=8)
    empty_bag(g)
    events = play(g, "advance:princess", "market:0")
    assert "bag_empty" in kinds(events) and g.end_reason == "bag"
    assert g.offer[0] == -1 and sum(t != -1 for t in g.offer) == 3
    policies = {n: RandomPolicy(1) for n in g.names}
    play_out(g, policies)
    assert g.is_over and g.turns[0] == g.turns[1] == 2 and conserved(g)


def test_game_over_refuses_every_action():
    g = new_game(["ana", "bo"], seed=3)
    play_out(g, {n: RandomPolicy(3) for n in g.names})
    from games.kokeshi.engine import IllegalAction

    with pytest.raises(IllegalAction) as info:
        g.apply("ana", "advance:princess")
    assert info.value.code == "game_over"


# ---------------------------------------------------------------- scoring


def test_tracks_score_3_5_7_at_heights_3_5_7_highest_only():
    g = ready()
    for k, height in zip(KOKESHI, (2, 3, 4, 6, 7), strict=True):
        set_track(g, 0, k, filler(g, height, None))
    assert g.scores()[g.names[0]].tracks == 0 + 3 + 3 + 5 + 7


def test_quality_tiles_score_5_8_and_11():
    g = ready(4)
    set_track(g, 0, "princess", [*filler(g, 2, "pink"), quality("princess", 1)])
    set_track(g, 0, "batchan", [*filler(g, 4, "purple"), quality("batchan", 2)])
    set_track(g, 0, "fisherman", [*filler(g, 6, "blue"), quality("fisherman", 3)])
    assert g.scores()[g.names[0]].quality == 24


@pytest.mark.parametrize(
    ("side", "discs", "points"), [("basic", [1, 3, 5, 7], 1 + 5 + 10 + 16), ("advanced", [2, 7, 5, 6], 4 + 13 + 9 + 15)]
)
def test_animal_tracks_score_the_points_printed_on_the_chosen_side(side, discs, points):
    g = ready(side=side)
    g.discs[0] = discs
    assert g.scores()[g.names[0]].animals == points


def test_lead_bonus_goes_to_the_disc_ahead_ties_to_the_first_to_arrive():
    g = ready(3)
    g.discs[0][0], g.arrived[0][0] = 4, 5
    g.discs[1][0], g.arrived[1][0] = 4, 2  # same space, arrived first: ahead
    g.discs[2][1], g.arrived[2][1] = 1, 9
    scores = g.scores()
    assert [scores[n].leads for n in g.names] == [0, 3, 3]


def test_nobody_leads_a_track_nobody_left_the_start_of():
    g = ready(2)
    assert all(s.leads == 0 for s in g.scores().values())


def test_rulebook_scoring_example_totals_69():
    g = ready(2)
    me = 0
    g.discs[me] = [7, 6, 3, 3]  # 16 + 13 + 5 + 5 = 39
    g.discs[1] = [0, 0, 4, 4]  # ahead of us on cat and rabbit: we lead panda and fox, +6
    yellow = [t.id for t in TILES if t.kind == "normal" and t.color == 4]
    green = [t.id for t in TILES if t.kind == "normal" and t.color == 3]
    purple = [t.id for t in TILES if t.kind == "normal" and t.color == 1]
    pink = [t.id for t in TILES if t.kind == "normal" and t.color == 0]
    blue = [t.id for t in TILES if t.kind == "normal" and t.color == 2]
    set_track(
        g, me, "princess", [yellow[0], green[0], yellow[1], green[1], yellow[2], green[2], quality("princess", 3)]
    )
    # Purple on the purple home and on itself: 2 pairs.
    set_track(g, me, "batchan", [purple[0], purple[1], pink[0], blue[0], pink[1]])
    # Two greens one above the other: 1 pair.
    set_track(g, me, "fisherman", [green[3], green[4], quality("fisherman", 1)])
    g.in_play[me] = 2
    s = g.scores()[g.names[me]]
    assert (s.animals, s.leads, s.tracks, s.quality, s.adjacency, s.in_play) == (39, 6, 15, 16, -9, 2)
    assert s.total == 69


def _boards_for_tie(g):
    """Give both players equal totals: 13 points each, made differently."""
    g.discs[0][0] = 5  # panda 10, leads panda +3 => 13
    g.discs[1][1] = 3  # fox 5, leads fox +3 ...
    set_track(g, 1, "samurai", [tile("pink", "plus1"), tile("blue", "plus1"), tile("pink", "plus4")])  # 3 points
    g.in_play[1] = 2  # ... 5 + 3 + 3 + 2 = 13


def test_tie_on_points_goes_to_the_most_animal_points():
    g = ready(2)
    _boards_for_tie(g)
    scores = g.scores()
    assert scores[g.names[0]].total == scores[g.names[1]].total == 13
    assert g.ranking() == [g.names[0], g.names[1]]


def test_rules_1_then_to_the_highest_track_points():
    g = ready(2, rules=1)
    set_track(g, 0, "samurai", [tile("pink", "plus1"), tile("blue", "plus1"), tile("pink", "plus4")])  # 3
    g.in_play[1] = 3
    scores = g.scores()
    assert scores[g.names[0]].total == scores[g.names[1]].total == 3
    assert g.ranking() == [g.names[0], g.names[1]]


def test_then_to_the_player_latest_in_turn_order():
    g = ready(4)
    assert g.ranking() == list(reversed(g.names))


# ---------------------------------------------------------------- solo


def test_solo_buying_also_gives_the_automa_a_tile_on_the_activated_track():
    g = ready(1, solo=True)
    before = len(g.tracks[1][3])
    events = play(g, "advance:samurai", "market:0")
    automa = [e for e in events if e.kind == "automa_tile"]
    assert len(automa) == 1 and automa[0].data["kokeshi"] == "samurai" and automa[0].reveals
    assert automa[0].player == "automa" and len(g.tracks[1][3]) == before + 1


def test_solo_automa_takes_the_highest_quality_tile_its_track_allows():
    g = ready(1, solo=True)
    set_track(g, 1, "samurai", filler(g, 4, None))  # lowest free space 5: levels 1 and 2 fit
    events = play(g, "advance:samurai", "market:0")
    got = [e for e in events if e.kind == "automa_quality"]
    assert got and got[0].data["tile"] == quality("samurai", 2)
    assert g.recognitions[1] == 1 and g.quality_supply[3] == [] and "quality_discarded" in kinds(events)


def test_solo_player_may_buy_only_level_2_or_3_quality_tiles():
    g = ready(1, solo=True)
    at_top(g, 0, "samurai", filler(g, 6, "green"))
    play(g, "advance:samurai")
    assert [a for a in option_ids(g) if a.startswith("quality")] == ["quality:2", "quality:3"]
    play(g, "quality:3")
    assert g.tracks[0][KOKESHI.index("samurai")][-1] == TILE_BY_ID[quality("samurai", 3)]


def test_solo_animal_tiles_move_the_automa_disc():
    g = ready(1, solo=True)
    set_offer(g, [tile("green", "animal1"), None, None, None])  # samurai & fox
    set_track(g, 1, "princess", [])
    events = play(g, "advance:princess")  # the only tile on offer is bought without asking
    moved = [e for e in events if e.kind == "disc_moved" and e.player == "automa"]
    assert moved[0].data["animal"] == "fox"
    assert g.discs[1][1] >= 1 and g.discs[0] == [0, 0, 0, 0]


def test_solo_automa_track_that_is_full_receives_nothing():
    g = ready(1, solo=True)
    set_track(g, 1, "batchan", filler(g, 7, None))
    bag = len(g.bag)
    events = play(g, "advance:batchan", "market:0")
    assert any(e.kind == "effect_skipped" and e.player == "automa" for e in events)
    assert len(g.bag) == bag - 1  # only the offer refill


def test_solo_automa_bonus_tile_goes_on_the_track_of_its_colour():
    g = ready(1, solo=True)
    bonus = g.slots[slot_of("fox4")]
    g.discs[1][1] = 3
    set_offer(g, [tile("green", "animal1"), None, None, None])
    events = play(g, "advance:princess")
    assert "red_line_crossed" in kinds(events) and g.recognitions[1] == 1
    assert bonus in g.tracks[1][TILES[bonus].color]


def test_solo_automa_ignores_the_adjacency_penalty():
    g = ready(1, solo=True)
    set_track(g, 1, "princess", [tile("pink", "plus1"), tile("pink", "plus4")])
    assert g.scores()["automa"].adjacency == 0


def test_rules_1_solo_tie_goes_to_the_automa():
    g = ready(1, solo=True, rules=1)
    for k in range(5):
        set_track(g, 1, KOKESHI[k], [])
    g.discs[0][0] = 2  # 3 points and the panda lead: 6
    set_track(g, 1, "samurai", [tile("pink", "plus1"), tile("blue", "plus1"), tile("pink", "plus4")])
    g.in_play[1] = 3  # 3 + 3 = 6
    scores = g.scores()
    assert scores["ana"].total == scores["automa"].total == 6 and scores["ana"].animals > scores["automa"].animals
    assert g.ranking() == ["automa", "ana"]


@pytest.mark.parametrize("side", ["basic", "advanced"])
def test_solo_game_plays_to_the_end_and_never_prompts_the_automa(side):
    g = new_game(["ana"], seed=17, side=side, solo=True)
    while g.prompt is not None:
        assert g.prompt.player == "ana"
        play(g, GreedyPolicy(2).choose(g))
    assert set(g.scores()) == {"ana", "automa"} and sorted(g.ranking()) == ["ana", "automa"]
    assert conserved(g)
