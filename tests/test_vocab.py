"""The vocabulary is the single source of names: one spelling per colour and score item everywhere, and no
internal code (effect grammar, action ids) in a button label or a narration line."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import games.kokeshi.engine as engine
from games.kokeshi import vocab
from games.kokeshi.engine import options
from games.kokeshi.engine.data import ANIMALS, COLORS, CURRENT_RULES, KOKESHI, TILES
from games.kokeshi.engine.model import Prompt
from games.kokeshi.narrate import describe
from tests.own_table import narrate, prompt_view, tile_choices, track_view

ROOT = Path(__file__).resolve().parent.parent

# Internal codes a player must never read: the effect grammar of components.toml and the engine's short names.
CODES = re.compile(
    r"buy[-_ ]?any|buy[-_ ]?here|any/animal|any2|any×2|×2|&|\w/\w|\b(?:"
    + "|".join(KOKESHI + ANIMALS)
    + r")\b|\b(?:advance|effect|kokeshi|animal|market|quality|place):\w"
)
RETIRED = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in vocab.RETIRED_WORDS) + r")\b", re.IGNORECASE)


def _all_options() -> list[engine.Option]:
    found = list(options.ADVANCE) + list(options.EFFECT.values()) + list(options.ANIMAL_CHOICE)
    found += [o for row in options.KOKESHI_CHOICE for o in row]
    found += [o for rules in options.MARKETS.values() for row in rules for o in row]
    found += [o for row in options.QUALITY for o in row]
    found += [o for rules in options.PLACES.values() for row in rules for o in row]
    return found


def _games_events() -> list[engine.Event]:
    events: list[engine.Event] = []
    for names, seed, solo in (
        (["Aiko", "Botan"], 1, False),
        (["Aiko", "Botan", "Chiyo", "Daiki"], 2, False),
        (["Aiko"], 3, True),
    ):
        game = engine.new_game(names, seed=seed, solo=solo)
        policy = engine.RandomPolicy(seed)
        while game.prompt is not None:
            events += game.apply(game.prompt.player, policy.choose(game))
    return events


@pytest.fixture(scope="module")
def events() -> list[engine.Event]:
    return _games_events()


def test_every_button_label_is_plain_words_and_fits_discord():
    labels = [vocab.label(o) for o in _all_options()]
    assert len(labels) > 500
    for label in labels:
        assert not CODES.search(label), label
        assert not RETIRED.search(label), label
        assert 0 < len(label) <= 80, label


def test_buy_labels_name_the_slot_shown_in_the_picture_and_what_the_tile_does():
    sumo = next(t for t in TILES if t.kind == "normal" and t.color == KOKESHI.index("sumotori") and t.type == "right")
    option = options.MARKETS[CURRENT_RULES][2][sumo.index]
    assert vocab.label(option) == "Buy 3 · yellow: Sumotori or a kokeshi to the right"
    assert option.id == "market:2"
    batchan = next(t for t in TILES if t.kind == "normal" and t.color == KOKESHI.index("batchan"))
    assert vocab.tile(batchan.index).startswith("violet: ")


def test_the_discord_components_show_the_vocabulary():
    tiles = [t for t in TILES if t.kind == "normal"][:6]
    place = Prompt(
        "Aiko", "place", tuple(options.PLACES[CURRENT_RULES][t.index][k] for t in tiles for k in range(len(KOKESHI)))
    )
    buy = Prompt("Aiko", "buy", tuple(options.MARKETS[CURRENT_RULES][i][tiles[i].index] for i in range(4)))
    labels = [label for _, label in tile_choices(place)]
    for prompt in (place, buy):
        for item in prompt_view(1, 1, prompt).children:
            labels += [getattr(item.item, "label", None) or "", getattr(item.item, "placeholder", None) or ""]
            labels += [o.label for o in getattr(item.item, "options", [])]
    labels += [item.item.label for item in track_view(1, 1, place, tiles[0].id).children]
    assert vocab.tile(tiles[0].index) in labels
    for label in filter(None, labels):
        assert not CODES.search(label), label
        assert not RETIRED.search(label), label


def test_no_narration_line_contains_an_internal_code(events):
    kinds = {e.kind for e in events}
    assert {"tile_bought", "tile_placed", "tile_activated", "disc_moved", "game_over"} <= kinds
    lines = [describe(e) for e in events] + narrate(events, limit=10_000).splitlines()
    for line in lines:
        assert not CODES.search(line), line
        assert not RETIRED.search(line), line


def test_reasons_name_things_as_players_do():
    assert vocab.reason({"reason": "track_full", "kokeshi": "samurai"}) == "the Samurai track is full"
    automa = {"reason": "automa_track_full", "kokeshi": "batchan"}
    assert vocab.reason(automa) == "the automa's Batchan track is full"
    assert vocab.reason({"reason": "automa_track_full"}) == "the automa's track is full"
    assert vocab.reason({"reason": "disc_at_end", "animal": "fox"}) == "your Fox disc is at the end of its track"
    assert vocab.reason([("reason", "bag_empty")]) == "the bag is empty"


def test_every_reason_and_refusal_the_rules_give_has_words():
    values = {"kokeshi": "samurai", "animal": "fox"}
    said = {code: vocab.reason({"reason": code, **values}) for code in engine.REASONS}
    assert all(said.values()) and len(set(said.values())) == len(said)
    refusals = {code: vocab.illegal(engine.IllegalAction(code)) for code in engine.REFUSALS}
    assert len(set(refusals.values())) == len(refusals)


def test_setup_is_not_round_0():
    assert vocab.round_name(0) == "setup"
    assert vocab.round_name(3) == "round 3"


def _string_constants(path: Path) -> list[str]:
    """Every string literal of a module (f-string parts included), docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings
    ]


SOURCES = [
    *sorted((ROOT / "cogs").glob("*.py")),
    *sorted((ROOT / "render").glob("*.py")),
    *sorted((ROOT / "games" / "kokeshi" / "pictures").glob("*.py")),
    ROOT / "games" / "kokeshi" / "narrate.py",
    ROOT / "games" / "kokeshi" / "story.py",
    ROOT / "games" / "kokeshi" / "engine" / "options.py",
    ROOT / "bot.py",
]


@pytest.mark.slow
def test_no_source_string_spells_a_colour_or_score_item_another_way():
    for path in SOURCES:
        for text in _string_constants(path):
            if re.fullmatch(r"[a-z_]+", text) and text in engine.Score.__dataclass_fields__:
                continue  # a score item's key, e.g. score["adjacency"]: an identifier, never shown
            found = RETIRED.search(text)
            assert not found, f"{path.relative_to(ROOT)}: {text!r} says {found.group(0)!r}"
    for doc in (
        ROOT / "README.md",
        ROOT / "games" / "kokeshi" / "engine" / "README.md",
        *sorted((ROOT / "docs").glob("*.md")),
    ):
        prose = re.sub(r"`[^`]*`", "", doc.read_text(encoding="utf-8"))  # code spans are identifiers
        prose = re.sub(r"```.*?```", "", prose, flags=re.DOTALL)
        assert not RETIRED.search(prose), f"{doc.relative_to(ROOT)}: {RETIRED.search(prose).group(0)!r}"


def test_the_readme_names_every_score_item_and_colour_as_the_vocabulary_does():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for key in vocab.SCORE_ITEMS:
        assert f"**{vocab.score_item(key)}**" in readme, key
    assert ", ".join(vocab.color(c) for c in COLORS[:-1]) + " and " + vocab.color(COLORS[-1]) in readme


def test_one_name_per_colour_and_score_item():
    words = [vocab.color(c) for c in COLORS]
    assert len(set(words)) == len(COLORS) and "violet" in words
    letters = [vocab.color_letter(c) for c in COLORS]
    assert len(set(letters)) == len(COLORS) and all(w[0].upper() == L for w, L in zip(words, letters, strict=True))
    names = [vocab.score_item(k) for k in vocab.SCORE_ITEMS]
    assert len(set(names)) == len(names)
    assert set(engine.Score.__dataclass_fields__) == set(vocab.SCORE_ITEMS)


# In a fresh process (no cached layers), every line of text every picture draws.
PROBE = """
import json
from PIL import ImageDraw
import games.kokeshi.engine as engine
import games.kokeshi.pictures as render
from tests.golden import NAMES, decision
drawn = []
text = ImageDraw.ImageDraw.text
def spy(self, xy, t, *args, **kwargs):
    drawn.append(str(t))
    return text(self, xy, t, *args, **kwargs)
ImageDraw.ImageDraw.text = spy
g = engine.new_game(["Ana", "Bo", "Cy", "Di"], seed=3)
policy = engine.RandomPolicy(3)
events = []
while g.prompt is not None:
    events = g.apply(g.prompt.player, policy.choose(g))
view = g.view()
render.table(view, events)
render.board(view, "Ana")
render.final(view, g.scores(), g.ranking())
render.glossary()
for kind, names, seed in [("setup", NAMES, 1), ("advance", NAMES[:2], 2), ("animal", NAMES, 5), ("buy", NAMES[:2], 6),
                          ("place", NAMES[:1], 7)]:
    game, _ = decision(names, seed, kind, solo=len(names) == 1)
    render.turn(game.view(), game.prompt)
print(json.dumps(drawn))
"""


@pytest.mark.slow
def test_pictures_use_the_vocabulary():
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    drawn = json.loads(done.stdout.strip().splitlines()[-1])
    for line in drawn:
        assert not RETIRED.search(line), line
    for key in vocab.SCORE_ITEMS:
        assert vocab.score_item(key) in drawn, key
    for c in COLORS:
        assert vocab.color(c) in drawn, c


def test_a_disc_is_told_by_the_value_printed_where_it_stands_and_the_automa_starts_a_sentence_with_a_capital():
    moved = engine.Event("disc_moved", "Aiko", {"animal": "fox", "to": 6})
    assert describe(moved, "basic") == "Aiko's Fox disc advances to 13."
    assert describe(moved, "advanced") == "Aiko's Fox disc advances to 14."
    automa = engine.Event("disc_moved", "automa", {"animal": "cat", "to": 1})
    assert describe(automa, "basic") == "Automa's Cat disc advances to 1."


async def _log_after_a_few_moves(world):
    from tests.botkit import answer, open_game

    game_id, thread = await open_game(world, players=2)
    for _ in range(30):
        await answer(world, game_id, thread)
    return (await world.members[0].slash(thread, "kokeshi log", count=20)).response.content


@pytest.mark.slow
async def test_the_log_joins_whole_sentences(world):
    text = await _log_after_a_few_moves(world)
    # Each step a whole sentence of its own, on its own line.
    assert ".;" not in text and text.count(".\n") > 3, text
