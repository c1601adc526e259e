"""Accessibility of the pictures: seat colours apart in grey, and no text smaller than 14 px."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

from render import palette

ROOT = Path(__file__).resolve().parent.parent

# In a fresh process (no cached layers), record every font size any picture asks for.
PROBE = """
import json
import engine, render
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
render.table(view, events)
render.board(view, "Ana")
render.final(view, g.scores(), g.ranking())
render.glossary()
render.history("Ana", [(1.7e9, 40), (1.8e9, 55)])
print(json.dumps(sorted(set(sizes))))
"""


def test_seat_colours_differ_in_grey_scale():
    def grey(rgb: tuple[int, int, int]) -> float:
        r, g, b = rgb
        return 0.299 * r + 0.587 * g + 0.114 * b

    for a, b in itertools.combinations(palette.SEAT, 2):
        assert abs(grey(a) - grey(b)) >= 30, (a, b)


def test_no_picture_uses_text_smaller_than_14_px():
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    sizes = json.loads(done.stdout.strip().splitlines()[-1])
    assert sizes and min(sizes) >= 14, sizes
