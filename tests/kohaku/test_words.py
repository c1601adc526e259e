"""Kōhaku's words: every option labelled within Discord's limits, every event narrated, in any language."""

from __future__ import annotations

import random

import pytest

from games.kohaku import deal, words
from games.kohaku.data import TILES
from games.kohaku.model import KINDS
from i18n import using

NAMES = ["Aiko", "Botan", "Chiyo", "Daiki"]


@pytest.mark.slow
def test_every_option_has_a_label_saying_what_it_scores_at_once():
    for seats in (1, 2, 3, 4):
        m = deal(seats, seed=40 + seats, goals=seats == 4)
        rng = random.Random(seats)
        while not m.is_over:
            for seat in m.waiting():
                view = m.view(seat)
                prompt = view["prompt"]
                assert words.question(prompt["kind"], view)
                labels = [words.label(o, view) for o in prompt["options"]]
                assert all(0 < len(label) <= words.LABEL_LIMIT for label in labels)
                assert len(set(labels)) == len(labels)
                if prompt["kind"] in ("take", "place"):
                    assert all(label.endswith(" now") for label in labels)
            seat = m.waiting()[0]
            m.apply(seat, rng.choice(m.legal_actions(seat)))


def test_every_event_is_narrated_or_deliberately_silent():
    seen = set()
    for seats in (1, 2, 4):
        m = deal(seats, seed=seats, goals=seats == 2)
        rng = random.Random(seats)
        while not m.is_over:
            seat = m.waiting()[0]
            for event in m.apply(seat, rng.choice(m.legal_actions(seat))):
                text = words.narrate(event, NAMES)
                seen.add(event.kind)
                if event.kind in ("moved", "zone_chosen", "turn_ended"):
                    assert text is None
                else:
                    assert text and text[-1] in ".!"
                assert words.narrate(event.to_dict(), NAMES) == text
    assert {"took", "placed", "drawn", "danny_revealed", "danny_took", "game_over", "goal_kept"} <= seen


def test_questions_exist_for_every_prompt_kind():
    for kind in KINDS:
        assert words.question(kind)


def test_words_work_in_portuguese_too():
    m = deal(2, seed=2, goals=True)
    with using("pt_BR"):
        view = m.view(0)
        assert all(words.label(o, view) for o in view["prompt"]["options"])
        assert words.tile_full("k17") and words.goal_rule("shelter")


def test_cells_are_named_like_the_picture_labels_them():
    box = words.frame([[0, 0, {}], [1, 0, {}]])
    assert box == (-1, -1, 2, 1)
    assert words.cell_name(-1, -1, box) == "A1" and words.cell_name(1, 0, box) == "C2"
    assert words.column_name(25) == "Z" and words.column_name(26) == "AA"


def test_missing_goal_cards_are_named_with_what_the_text_gives():
    missing = dict(words.missing_goals())
    assert len(missing) == 4 and "7 kinds: 15" in missing.values()


def test_portuguese_colours_agree_with_the_thing_they_describe():
    # Each colour said of a koi, a flower or butterflies is its own message, so Portuguese can make it agree.
    koi = next(t.id for t in TILES if t.koi and t.colour_names == ("white", "red"))
    flower = next(t.id for t in TILES if t.kind_name == "flower" and t.colour_names == ("white",))
    butterflies = next(t.id for t in TILES if t.kind_name == "butterflies" and t.colour_names == ("black",))
    with using("pt_BR"):
        assert words.tile_name(koi) == "carpa branca e vermelha"
        assert words.tile_name(flower) == "flor branca"
        assert words.tile_name(butterflies) == "borboletas pretas"
        assert words.feature_rule(flower) == "2 por carpa vizinha com branco; 12 se forem 4"
    assert (words.tile_name(koi), words.tile_name(flower), words.tile_name(butterflies)) == (
        "white–red koi",
        "white flower",
        "black butterflies",
    )


def test_the_end_of_a_game_lists_names_and_levels_as_the_language_does():
    scores = [{"total": 40}, {"total": 40}, {"total": 30}]
    shared = {"outcome": {"scores": scores, "places": [1, 1, 3]}}
    solo = {
        "outcome": {
            "scores": [{"total": 50}],
            "places": [1],
            "danny": {"easy": 30, "medium": 45, "hard": 60},
            "beaten": {"easy": True, "medium": True, "hard": False},
        }
    }
    assert words.game_over(shared, NAMES) == "The game is over: Aiko and Botan share the victory with 40 points."
    assert words.game_over(solo, NAMES).endswith("you beat him at easy and medium.")
    with using("pt_BR"):
        assert words.game_over(shared, NAMES) == "Fim de jogo: Aiko e Botan dividem a vitória com 40 pontos."
        assert words.game_over(solo, NAMES).endswith("você venceu nos níveis fácil e médio.")
        solo["outcome"]["beaten"]["medium"] = False
        assert words.game_over(solo, NAMES).endswith("você venceu no nível fácil.")


def test_the_end_of_a_game_with_goal_cards_reveals_the_card_each_player_kept():
    scores = [{"total": 40, "goal": 9}, {"total": 35, "goal": 0}]
    data = {"outcome": {"scores": scores, "places": [1, 2]}, "goals": ["rarest_colour", "statues"]}
    told = words.game_over(data, NAMES)
    assert told == (
        "The game is over: Aiko wins with 40 points. Goal cards kept: Aiko: Rarest colour (+9) and Botan: Statues (0)."
    )
    with using("pt_BR"):
        assert "Cartas de objetivo guardadas: Aiko: " in words.game_over(data, NAMES)
