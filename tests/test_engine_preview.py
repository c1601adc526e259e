"""The preview of an option says what `apply` then does, up to the next decision or the first draw, and nothing
past it: checked on crafted positions, and against `apply` on clones for every option of many random positions."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.kokeshi.engine as engine
from games.kokeshi.engine.data import ANIMAL_POINTS, ANIMALS, HEIGHTS, KOKESHI, RED_LINE, TILE_BY_ID, TILES, TOP_POINTS
from games.kokeshi.engine.preview import AUTOMA_DRAW, EMPTY, OFFER_DRAW, QUALITY, TILE, TOP, preview, preview_all
from tests.positions import detach, filler, play, quality, ready, set_offer, set_track, tile

# ---------------------------------------------------------------- crafted positions


def test_an_advance_onto_an_empty_space_leads_to_a_purchase_for_that_track_at_its_next_height():
    g = ready()
    set_track(g, 0, "samurai", filler(g, 2, avoid_color="green"))
    g.kokeshi[0][3] = 2
    out = preview(g, "advance:samurai")
    assert out.landing == out.final
    assert (out.landing.kokeshi, out.landing.start, out.landing.to, out.landing.space) == ("samurai", 2, 3, EMPTY)
    assert out.next == "buy" and out.pending is not None
    assert (out.pending.track, out.pending.height) == ("samurai", 3)
    assert out.points == 0 and out.draw is None and not out.ends_turn


def test_an_advance_past_the_top_scores_three_and_ends_the_turn():
    g = ready()
    set_track(g, 0, "princess", filler(g, 7, avoid_color="pink"))
    g.kokeshi[0][0] = 7
    out = preview(g, "advance:princess")
    assert out.landing.space == TOP and out.landing.to == HEIGHTS + 1
    assert out.points == TOP_POINTS and dict(out.items) == {"in_play": TOP_POINTS}
    assert out.ends_turn and out.next is None


def test_a_quality_tile_carries_the_kokeshi_one_more_space():
    g = ready()
    set_track(g, 0, "fisherman", [*filler(g, 2, avoid_color="blue"), quality("fisherman", 1)])
    g.kokeshi[0][2] = 2
    out = preview(g, "advance:fisherman")
    assert [step.space for step in out.path] == [QUALITY, EMPTY]
    assert out.final.to == 4 and out.pending.track == "fisherman" and out.pending.height == 4


def test_a_tile_landing_names_the_tile_and_its_choice_comes_next():
    g = ready()
    right = tile("yellow", "right")
    set_track(g, 0, "sumotori", [right])
    out = preview(g, "advance:sumotori")
    assert (out.landing.space, out.landing.tile) == (TILE, right)
    assert out.next == "effect" and out.next_options == ("effect:0", "effect:1")


def test_buying_names_the_track_and_height_and_stops_before_the_refill_is_drawn():
    g = ready()
    set_track(g, 0, "batchan", filler(g, 1, avoid_color="purple"))
    g.kokeshi[0][1] = 1
    violet = tile("purple", "left")
    set_offer(g, [violet, *filler(g, 3, avoid_color="purple")])
    play(g, "advance:batchan")
    assert g.prompt.kind == "buy"
    counter = g.counter
    before = g.to_json()
    out = preview(g, "market:0")
    assert g.to_json() == before and g.counter == counter, "the preview leaves the game as it was and draws nothing"
    bought = out.purchases[0]
    assert (bought.tile, bought.track, bought.height) == (violet, "batchan", 2)
    assert out.draw == OFFER_DRAW and out.next is None
    # The violet tile would sit on the violet home space's track above a non-violet tile: no pair with it below,
    # but the preview checks the neighbours at that height too.
    assert bought.pairs == 0


def test_a_placement_warns_of_the_same_colour_pair_it_makes():
    g = ready()
    pink = tile("pink", "left")
    g.reserve[0].append((detach(g, pink), -1))
    g.decision = ["place"]
    g._options = g._compute_options(g.decision)
    outcomes = preview_all(g)
    on_princess = outcomes[f"place:{pink}:princess"]
    assert on_princess.placements[0].pairs == 1 and on_princess.points == -3
    assert outcomes[f"place:{pink}:fisherman"].placements[0].pairs == 0


def test_a_disc_crossing_the_red_line_shows_the_printed_value_the_recognition_and_the_lead():
    g = ready(side="advanced")
    fox = ANIMALS.index("fox")
    g.discs[0][fox] = g.discs[1][fox] = RED_LINE - 1
    g.arrived[0][fox], g.arrived[1][fox] = 2, 1  # bo arrived first: bo leads
    g.decision = ["animal"]
    g._options = g._compute_options(g.decision)
    out = preview(g, "animal:fox")
    step = out.discs[0]
    values = ANIMAL_POINTS["advanced"][ANIMALS.index("fox")]
    assert (step.start, step.to, step.value_start, step.value_to) == (RED_LINE - 1, RED_LINE, values[3], values[4])
    assert step.red_line and out.recognitions == 1
    assert out.leads_won() == ("fox",) and out.leads[0].before == "bo"
    assert step.bonus is not None, "two players: the fox4 bonus slot holds a tile"


def test_the_preview_of_a_game_over_or_an_unknown_option_is_refused():
    g = ready()
    with pytest.raises(engine.IllegalAction):
        preview(g, "advance:nobody")


# ---------------------------------------------------------------- against apply, on random positions

RESOLUTIONS = {"kokeshi_home": EMPTY, "tile_activated": TILE, "quality_step": QUALITY}
TURN_ENDS = {"turn_ended", "setup_done", "game_over"}


def _position(seed: int, players: int, side: str, rules: int, steps: int) -> engine.Game:
    solo = players == 1
    names = ["Aiko", "Botan", "Chiyo", "Daiki"][: max(1, players)]
    whole = engine.new_game(names, seed=seed, side=side, solo=solo, rules=rules)
    policy = engine.RandomPolicy(seed)
    actions = []
    while whole.prompt is not None:
        actions.append((whole.prompt.player, policy.choose(whole)))
        whole.apply(*actions[-1])
    # A position anywhere in the game, never past its end.
    return engine.replay(names, seed=seed, side=side, solo=solo, rules=rules, actions=actions[: steps % len(actions)])


def _rest_of_turn(g: engine.Game, player: str, rng: random.Random) -> list[engine.Event]:
    """Play the rest of `player`'s turn with random choices; the events."""
    events: list[engine.Event] = []
    while g.prompt is not None and g.prompt.player == player:
        got = g.apply(player, rng.choice(g.legal_actions()))
        events += got
        if any(e.kind in TURN_ENDS for e in got):
            break
    return events


def _public_ids(view: dict) -> str:
    return json.dumps(view)


def _check(g: engine.Game, action: str, out, rng: random.Random) -> None:
    player = g.prompt.player
    seat = g.names.index(player)
    trial = g.clone()
    scores_before = trial.scores()[player]
    events = trial.apply(player, action)
    # The events the preview may know: up to the first draw, and up to the end of the turn.
    prefix: list[engine.Event] = []
    drawn = None
    ended = False
    for e in events:
        if e.reveals:
            drawn = e.kind
            break
        prefix.append(e)
        if e.kind in TURN_ENDS:
            ended = True
            break
    assert out.events == tuple(e.kind for e in prefix), (action, out.events, [e.kind for e in events])
    assert out.ends_turn == ended
    if drawn is None:
        assert out.draw is None
    else:
        assert out.draw == (OFFER_DRAW if drawn == "tile_drawn" else AUTOMA_DRAW)
    moves = [e for e in prefix if e.kind in ("kokeshi_moved", "top_passed")]
    assert len(moves) == len(out.landings)
    for e, landing in zip(moves, out.landings, strict=True):
        assert landing.kokeshi == e.data["kokeshi"]
        if e.kind == "top_passed":
            assert landing.space == TOP and landing.start == e.data["height"]
        else:
            assert (landing.start, landing.to) == (e.data["start"], e.data["to"]) and landing.space != TOP
    discs = [e for e in prefix if e.kind == "disc_moved"]
    assert [(d.player, d.animal, d.to) for d in out.discs] == [
        (e.player, e.data["animal"], e.data["to"]) for e in discs
    ]
    values = ANIMAL_POINTS[g.side]
    for d in out.discs:
        assert d.value_to == values[ANIMALS.index(d.animal)][d.to]
        assert d.red_line == (d.to == RED_LINE)
    placed = [e for e in prefix if e.kind in ("tile_placed", "automa_quality")]
    assert [(p.player, p.tile, p.track, p.height) for p in out.placements] == [
        (e.player, e.data["tile"], e.data["kokeshi"], e.data["height"]) for e in placed
    ]
    for p, e in zip(out.placements, placed, strict=True):
        assert p.pairs == e.data.get("pairs", 0)
    bought = [e for e in prefix if e.kind in ("tile_bought", "quality_bought")]
    made = [p for p in out.purchases if p.tile is not None]
    assert [p.tile for p in made] == [e.data["tile"] for e in bought]
    if drawn is None:
        # Nothing past a draw changes the score, so the whole effect of the option is known.
        after = trial.scores()[player]
        assert out.points == after.total - scores_before.total
        assert out.recognitions_total == trial.recognitions[seat]
        if not ended:
            assert trial.prompt is not None and trial.prompt.player == player
            assert out.next == trial.prompt.kind
            assert out.next_options == tuple(trial.legal_actions())
    pending = out.pending
    if pending is not None and drawn is None and not ended:
        assert trial.prompt.kind == "buy"
        levels = tuple(int(a.split(":")[1]) for a in trial.legal_actions() if a.startswith("quality:"))
        assert levels == pending.quality
    # The rest of the turn: each landing resolves as previewed, each purchase lands where previewed.
    later = events + _rest_of_turn(trial, player, rng) if not ended else events
    for landing in out.landings:
        if landing.space == TOP:
            continue
        for i, e in enumerate(later):
            if e.kind == "kokeshi_moved" and e.data["kokeshi"] == landing.kokeshi and e.data["to"] == landing.to:
                found = next(
                    (x for x in later[i + 1 :] if x.kind in RESOLUTIONS and x.data.get("kokeshi") == landing.kokeshi),
                    None,
                )
                if found is not None:
                    assert RESOLUTIONS[found.kind] == landing.space, (landing, found)
                    if landing.space in (TILE, QUALITY):
                        assert found.data["tile"] == landing.tile
                break
    placements = {e.data["tile"]: e for e in later if e.kind == "tile_placed" and e.player == player}
    for p in made:
        if p.track is None or p.tile not in placements:
            continue
        placement = placements[p.tile]
        assert placement.data["kokeshi"] == p.track
        # Alone on its track this turn, the tile goes exactly where the preview said (other tiles placed on the
        # same track later in the turn may push it up, and tiles placed beside it may add pairs).
        same = [e for e in placements.values() if e.data["kokeshi"] == p.track]
        reserved_same = sum(1 for _t, k in g.reserve[seat] if k == KOKESHI.index(p.track))
        if len(same) == 1 and reserved_same == 0:
            assert placement.data["height"] == p.height
            assert placement.data["pairs"] >= p.pairs


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.sampled_from([1, 2, 3, 4]),
    side=st.sampled_from(["basic", "advanced"]),
    rules=st.sampled_from(engine.RULES_VERSIONS),
    steps=st.integers(0, 10_000),
)
@pytest.mark.slow
def test_the_preview_of_every_option_agrees_with_apply_and_reveals_nothing(seed, players, side, rules, steps):
    g = _position(seed, players, side, rules, steps)
    if g.prompt is None:
        return
    before = g.to_json()
    public = _public_ids(g.view())
    outcomes = preview_all(g)
    assert g.to_json() == before, "previews change nothing and draw nothing"
    assert set(outcomes) == set(g.legal_actions())
    rng = random.Random(seed)
    for action, out in outcomes.items():
        # Every tile a preview names is on the table already: nothing comes out of the bag.
        named = [x.tile for x in out.landings if x.tile] + [p.tile for p in out.purchases if p.tile]
        named += [p.tile for p in out.placements] + [d.bonus for d in out.discs if d.bonus]
        for tile_id in named:
            spec = TILES[TILE_BY_ID[tile_id]]
            if spec.kind == "quality" and spec.level in g.view()["quality_supply"][KOKESHI[spec.color]]:
                continue  # the quality tiles left are shown beside the board
            assert f'"{tile_id}"' in public, (action, tile_id)
        _check(g, action, out, rng)
