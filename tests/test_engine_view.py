"""The engine's view() matches the public contract documented in engine/README.md."""

import json

import pytest

from games.kokeshi.engine import ANIMALS, AUTOMA, COLORS, KOKESHI, RandomPolicy, new_game

TOP_LEVEL = {
    "version",
    "rules",
    "side",
    "solo",
    "phase",
    "round",
    "end_triggered",
    "end_reason",
    "final_round",
    "current",
    "bag",
    "offer",
    "quality_supply",
    "bonus_slots",
    "discarded",
    "idle",
    "players",
    "prompt",
}
PLAYER = {
    "name",
    "automa",
    "in_play",
    "recognitions",
    "turns",
    "tracks",
    "kokeshi",
    "animals",
    "arrival",
    "leads",
    "reserve",
    "adjacent_pairs",
    "score",
}
TILE = {"id", "kind", "color", "type", "effect"}
QUALITY_TILE = TILE | {"level", "points"}
SCORE = {"in_play", "tracks", "quality", "animals", "leads", "adjacency", "total"}
ALL_TILES = 75
PREFIX = {"starting": "s", "normal": "n", "quality": "q"}

# (player names, solo, seed): one game of each size.
GAMES = [(["ann"], True, 3), (["ann", "bob"], False, 1), (["ann", "bob", "cy"], False, 2), (list("abcd"), False, 5)]


def _game(names, solo, seed):
    return new_game(names, seed=seed, solo=solo)


def _play(game, seed):
    """Play `game` to the end at random, yielding (player, action, events, view before, view after)."""
    policy = RandomPolicy(seed)
    before = game.view()
    while game.prompt is not None:
        player = game.prompt.player
        action = policy.choose(game)
        events = game.apply(player, action)
        after = game.view()
        yield player, action, events, before, after
        before = after


def _views(names, solo, seed):
    game = _game(names, solo, seed)
    yield game.view()
    for *_, after in _play(game, seed):
        yield after


def _tiles(view):
    """Every tile dict shown in a view, with where it was found."""
    for i, tile in enumerate(view["offer"]):
        if tile is not None:
            yield f"offer[{i}]", tile
    for slot in view["bonus_slots"]:
        if slot["tile"] is not None:
            yield f"bonus {slot['id']}", slot["tile"]
    for player in view["players"]:
        for kokeshi, track in player["tracks"].items():
            for tile in track:
                yield f"{player['name']} {kokeshi}", tile
        for entry in player["reserve"]:
            yield f"{player['name']} reserve", {k: v for k, v in entry.items() if k != "track"}


def _by_name(view):
    return {p["name"]: p for p in view["players"]}


@pytest.mark.parametrize(("names", "solo", "seed"), GAMES)
def test_view_is_json_safe(names, solo, seed):
    for view in _views(names, solo, seed):
        assert json.loads(json.dumps(view)) == view


@pytest.mark.parametrize(("names", "solo", "seed"), GAMES)
def test_view_has_the_documented_top_level_keys_and_types(names, solo, seed):
    game = _game(names, solo, seed)
    for view in _views(names, solo, seed):
        assert set(view) == TOP_LEVEL
        assert view["side"] in ("basic", "advanced")
        assert view["solo"] is solo
        assert view["phase"] in ("setup", "play", "over")
        assert (view["phase"] == "setup") == (view["round"] == 0)
        assert isinstance(view["end_triggered"], bool)
        assert view["end_triggered"] == (view["end_reason"] is not None)
        assert view["end_reason"] in (None, "recognitions", "bag", "stall")
        assert view["rules"] == game.rules
        assert (view["final_round"] is None) == (not view["end_triggered"])
        assert type(view["bag"]) is int and view["bag"] >= 0
        assert type(view["discarded"]) is int and view["discarded"] >= 0
        assert len(view["offer"]) == 4
        assert all(t is None or isinstance(t, dict) for t in view["offer"])
        assert list(view["quality_supply"]) == list(KOKESHI)
        assert all(set(levels) <= {1, 2, 3} for levels in view["quality_supply"].values())
        assert len(view["bonus_slots"]) == 6
        for slot in view["bonus_slots"]:
            assert set(slot) == {"id", "animals", "position", "tile"}
            assert set(slot["animals"]) <= set(ANIMALS)
        assert [p["name"] for p in view["players"]] == game.players
        idle = view["idle"]
        assert set(idle) == {"limit", "counts", "shared"} and idle["shared"] is False
        assert list(idle["counts"]) == [n for n in game.players if n != AUTOMA]
        assert all(type(c) is int and 0 <= c <= idle["limit"] for c in idle["counts"].values())
        if view["phase"] == "over":
            assert view["current"] is None and view["prompt"] is None
        else:
            assert view["current"] == view["prompt"]["player"]


@pytest.mark.parametrize(("names", "solo", "seed"), GAMES)
def test_every_player_has_the_documented_keys(names, solo, seed):
    for view in _views(names, solo, seed):
        for player in view["players"]:
            assert set(player) == PLAYER
            assert isinstance(player["name"], str)
            assert type(player["in_play"]) is int and type(player["recognitions"]) is int
            assert list(player["tracks"]) == list(KOKESHI)
            assert all(len(track) <= 7 for track in player["tracks"].values())
            assert list(player["kokeshi"]) == list(KOKESHI)
            assert all(0 <= h <= 7 for h in player["kokeshi"].values())
            assert list(player["animals"]) == list(ANIMALS)
            assert all(0 <= pos <= 7 for pos in player["animals"].values())
            assert list(player["arrival"]) == list(ANIMALS)
            assert set(player["leads"]) <= set(ANIMALS)
            assert set(player["score"]) == SCORE
            for entry in player["reserve"]:
                assert entry["track"] is None or entry["track"] in KOKESHI


@pytest.mark.parametrize(("names", "solo", "seed"), GAMES)
def test_tile_dicts_have_id_kind_color_effect_and_a_level_only_for_quality(names, solo, seed):
    seen = set()
    for view in _views(names, solo, seed):
        for where, tile in _tiles(view):
            kind = tile["kind"]
            assert set(tile) == (QUALITY_TILE if kind == "quality" else TILE), where
            assert tile["id"][0] == PREFIX[kind] and tile["id"][1:].isdigit(), where
            assert tile["color"] in COLORS, where
            if kind == "quality":
                assert tile["effect"] == "quality" and tile["level"] in (1, 2, 3)
            else:
                assert "/" in tile["effect"] or "&" in tile["effect"]
            seen.add(kind)
    assert seen == {"starting", "normal", "quality"}


@pytest.mark.parametrize(("names", "solo", "seed"), GAMES)
def test_every_tile_is_counted_exactly_once_in_the_view(names, solo, seed):
    for view in _views(names, solo, seed):
        ids = [tile["id"] for _, tile in _tiles(view)]
        assert len(ids) == len(set(ids))
        supply = sum(len(levels) for levels in view["quality_supply"].values())
        assert len(ids) + supply + view["bag"] + view["discarded"] == ALL_TILES


def test_setup_tiles_wait_in_the_side_reserve():
    view = new_game(["ann", "bob"], seed=1).view()
    for player in view["players"]:
        assert len(player["reserve"]) == 2
        assert all(entry["track"] is None and entry["kind"] == "starting" for entry in player["reserve"])


@pytest.mark.parametrize(("names", "solo", "seed"), GAMES)
def test_a_bought_tile_waits_in_the_reserve_with_its_track_until_placed(names, solo, seed):
    waited = 0
    for player, _, events, _, after in _play(_game(names, solo, seed), seed):
        seat = _by_name(after)[player]
        reserve = {entry["id"]: entry["track"] for entry in seat["reserve"]}
        placed = {tile["id"] for track in seat["tracks"].values() for tile in track}
        placed |= {event.data["tile"] for event in events if event.kind == "tile_discarded"}
        for event in events:
            if event.kind == "tile_bought" or (event.kind == "bonus_taken" and event.player == player):
                track = event.data.get("track")
                assert event.data["tile"] in placed or reserve.get(event.data["tile"], "missing") == track
                waited += event.data["tile"] in reserve
    assert waited > 0


@pytest.mark.parametrize(("names", "solo", "seed"), GAMES)
def test_a_placed_tile_is_appended_at_the_top_of_its_track_in_the_view(names, solo, seed):
    placed = 0
    for _, _, events, before, after in _play(_game(names, solo, seed), seed):
        grown = {}
        for event in events:
            if event.kind in ("tile_placed", "automa_tile", "automa_quality"):
                key = (event.player, event.data["kokeshi"])
                grown.setdefault(key, []).append((event.data["height"], event.data["tile"]))
        for name, player in _by_name(after).items():
            for kokeshi, track in player["tracks"].items():
                old = _by_name(before)[name]["tracks"][kokeshi]
                new = grown.get((name, kokeshi), [])
                assert track[: len(old)] == old
                assert [(h, t["id"]) for h, t in enumerate(track[len(old) :], len(old) + 1)] == new
                placed += len(new)
    assert placed > 0


def test_placing_a_starting_tile_puts_it_at_height_one():
    game = new_game(["ann", "bob"], seed=7)
    player = game.prompt.player
    tile = game.view()["players"][0]["reserve"][0]
    game.apply(player, f"place:{tile['id']}:samurai")
    seat = _by_name(game.view())[player]
    assert [t["id"] for t in seat["tracks"]["samurai"]] == [tile["id"]]
    assert tile["id"] not in [t["id"] for t in seat["reserve"]]


def test_the_automa_is_in_the_view_and_the_scores_but_never_prompted():
    game = new_game(["ann"], seed=3, solo=True)
    view = game.view()
    assert [p["name"] for p in view["players"]] == ["ann", AUTOMA]
    assert [p["automa"] for p in view["players"]] == [False, True]
    assert set(game.scores()) == {"ann", AUTOMA}
    prompted = set()
    for player, _, _, _, after in _play(game, 3):
        prompted.add(player)
        assert after["prompt"] is None or after["prompt"]["player"] == "ann"
        assert _by_name(after)[AUTOMA]["adjacent_pairs"] == 0
        assert _by_name(after)[AUTOMA]["score"] == game.scores()[AUTOMA].to_dict()
    assert prompted == {"ann"}
    assert game.is_over and set(game.ranking()) == {"ann", AUTOMA}


def test_the_automa_starts_with_its_tiles_on_the_tracks_of_their_colour():
    game = new_game(["ann"], seed=3, solo=True)
    automa = _by_name(game.view())[AUTOMA]
    assert sum(len(t) for t in automa["tracks"].values()) == 2  # its starting tiles, on their own colour
    for kokeshi, track in automa["tracks"].items():
        assert all(t["color"] == COLORS[KOKESHI.index(kokeshi)] for t in track)
    assert automa["reserve"] == []


@pytest.mark.parametrize(("names", "solo", "seed"), GAMES)
def test_the_view_changes_after_every_action(names, solo, seed):
    for _, _, _, before, after in _play(_game(names, solo, seed), seed):
        assert after["version"] == before["version"] + 1
        assert {k: v for k, v in after.items() if k != "version"} != {k: v for k, v in before.items() if k != "version"}


@pytest.mark.parametrize(("names", "solo", "seed"), GAMES)
def test_the_view_prompt_and_scores_match_the_game(names, solo, seed):
    game = _game(names, solo, seed)
    policy = RandomPolicy(seed)
    while True:
        view = game.view()
        scores = game.scores()
        assert {p["name"]: p["score"] for p in view["players"]} == {n: s.to_dict() for n, s in scores.items()}
        prompt = game.prompt
        if prompt is None:
            assert view["prompt"] is None
            break
        assert view["prompt"] == {
            "player": prompt.player,
            "kind": prompt.kind,
            "options": [{"id": o.id, "words": json.loads(json.dumps(o.words))} for o in prompt.options],
        }
        game.apply(prompt.player, policy.choose(game))


def test_the_view_is_a_copy_that_does_not_touch_the_game():
    game = new_game(["ann", "bob"], seed=1)
    saved = game.to_json()
    view = game.view()
    view["offer"][0] = None
    view["players"][0]["tracks"]["princess"].append({"id": "x"})
    view["quality_supply"]["princess"].clear()
    assert game.to_json() == saved
    assert game.view() != view
