"""Accessibility of the pictures: seat colours apart in grey, no text under 14 px, and none under 28 px on phones."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.kokeshi.pictures import palette

ROOT = Path(__file__).resolve().parent.parent

# In a fresh process (no cached layers), record every font size any picture asks for.
PROBE = """
import json
import games.kokeshi.engine as engine
import games.kokeshi.pictures as pictures
import render
from render import text
sizes = []
font = text.font
def spy(size, bold=False):
    sizes.append(size)
    return font(size, bold)
text.font = spy
g = engine.new_game(["Ana", "Bo", "Cy", "Di"], seed=3)
policy = engine.RandomPolicy(3)
events = []
for _ in range(120):
    events = g.apply(g.prompt.player, policy.choose(g))
view = g.view()
pictures.table(view, events)
pictures.board(view, "Ana")
pictures.final(view, g.scores(), g.ranking())
pictures.glossary()
render.history("Ana", [(1.7e9, 40), (1.8e9, 55)])
print(json.dumps(sorted(set(sizes))))
"""


# Every phone picture (each decision kind with its choices marked, the table after a turn with every workshop,
# the rules sheet), in a fresh process, with all the font sizes it asks for.
PHONE_PROBE = """
import json
import render
from games.kokeshi import pictures
from games.kokeshi.engine.preview import preview_all
from render import text
from tests.golden import NAMES, decision, playout
sizes = []
font = text.font
def spy(size, bold=False):
    sizes.append(size)
    return font(size, bold)
text.font = spy
kinds = set()
for kind, names, seed in [("setup", NAMES, 1), ("advance", NAMES[:2], 2), ("effect", NAMES[:3], 3),
                          ("kokeshi", NAMES, 4), ("animal", NAMES, 5), ("buy", NAMES[:2], 6), ("place", NAMES[:1], 7)]:
    game, events = decision(names, seed, kind, solo=len(names) == 1)
    pictures.turn(game.view(), game.prompt, events=events, outcomes=preview_all(game))
    kinds.add(game.prompt.kind)
    game.idles[0] = game.stall_limit - 1  # the idle turns left, shown near the end against stalling
    pictures.turn(game.view(), game.prompt)
game, events = playout(NAMES, 7, turns=32)
pictures.table_phone(game.view(), events, others=True)
pictures.rules_phone()
print(json.dumps([sorted(set(sizes)), sorted(kinds)]))
"""


def _probe(script: str):
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_seat_colours_differ_in_grey_scale():
    def grey(rgb: tuple[int, int, int]) -> float:
        r, g, b = rgb
        return 0.299 * r + 0.587 * g + 0.114 * b

    for a, b in itertools.combinations(palette.SEAT, 2):
        assert abs(grey(a) - grey(b)) >= 30, (a, b)


@pytest.mark.slow
def test_no_picture_uses_text_smaller_than_14_px():
    sizes = _probe(PROBE)
    assert sizes and min(sizes) >= 14, sizes


@pytest.mark.slow
def test_no_phone_picture_uses_text_smaller_than_28_px():
    sizes, kinds = _probe(PHONE_PROBE)
    assert set(kinds) == {"setup", "advance", "effect", "kokeshi", "animal", "buy", "place"}
    assert sizes and min(sizes) >= 28, sizes
