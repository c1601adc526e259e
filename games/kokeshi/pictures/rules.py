"""The rules as portrait phone pages: a turn, every tile type, the marks of the pictures, scoring and the end.

900 px wide with no text under 28 px, like the decision pictures, so that `/kokeshi rules` reads on a phone. The
rules come as a few pages, each short enough (at most about 900×1950, a phone screen's shape) that a phone fitting
it to the screen shows it at the screen's full width.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

import games.kokeshi.vocab as vocab
from games.kokeshi.engine.data import END_RECOGNITIONS, IDLE_LIMIT
from i18n import _, current
from render import draw as dr
from render import text as tx

from . import icons, tiles
from . import model as m
from . import palette as pal
from .phone import PAD, TEXT, TITLE, WIDTH, _badge, _burst
from .sheets import _TYPE_ORDER, _TYPE_TEXT, _example_tiles

_ICON_W = 132  # the column of pictures at the left of each line
_LINE = 36  # height of a line of text


def _wrap(text: str, width: int, size: int = TEXT, bold: bool = False) -> list[str]:
    """Lines of `text` at most `width` pixels wide, broken at spaces."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if tx.width(candidate, size, bold) <= width or not line:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


class _Sheet:
    """Draws rows downwards: panels on a base, words and pictures on a layer above it, cropped to what was drawn."""

    def __init__(self) -> None:
        self.base = Image.new("RGB", (WIDTH, 6000), pal.BACKGROUND)
        self.img = Image.new("RGBA", (WIDTH, 6000), (0, 0, 0, 0))
        self.d = ImageDraw.Draw(self.img)
        self.y = 0
        self.panel_top = 0

    def title_bar(self, title: str, subtitle: str, page: str = "") -> None:
        dr.wood(self.base, (0, 0, WIDTH, 112))
        mark = tx.width(page, TITLE + 4, True) + 24 if page else 0
        tx.draw(
            self.d,
            (PAD + 8, 34),
            title,
            TITLE + 4,
            pal.CREAM,
            bold=True,
            anchor="lm",
            max_width=round(WIDTH - 2 * PAD - 16 - mark),
        )
        if page:
            tx.draw(self.d, (WIDTH - PAD - 8, 34), page, TITLE + 4, pal.GOLD_LIGHT, bold=True, anchor="rm")
        tx.draw(self.d, (PAD + 8, 84), subtitle, TEXT, pal.GOLD_LIGHT, anchor="lm", max_width=WIDTH - 2 * PAD - 16)
        self.y = 112 + PAD

    def open(self, heading: str) -> None:
        self.panel_top = self.y
        self.y += 12
        tx.draw(self.d, (PAD + 16, self.y), heading, TITLE, pal.INK, bold=True)
        self.y += 50

    def close(self) -> None:
        dr.panel(ImageDraw.Draw(self.base), (PAD, self.panel_top, WIDTH - PAD, self.y + 8))
        self.y += 8 + 14

    def row(self, sprite: Image.Image | None, text: str, bold_head: str = "") -> None:
        """A picture at the left and wrapped text beside it (a bold head first, when given)."""
        x = PAD + 16 + _ICON_W
        width = WIDTH - PAD - 16 - x
        top = self.y
        lines: list[tuple[str, bool]] = []
        if bold_head:
            lines += [(line, True) for line in _wrap(bold_head, width, TEXT, True)]
        lines += [(line, False) for line in _wrap(text, width)] if text else []
        for i, (line, bold) in enumerate(lines):
            tx.draw(self.d, (x, top + i * _LINE), line, TEXT, pal.INK, bold=bold)
        height = max(len(lines) * _LINE, sprite.height if sprite is not None else 0)
        if sprite is not None:
            dr.paste(self.img, sprite, PAD + 16 + (_ICON_W - 16 - sprite.width) / 2, top + (height - sprite.height) / 2)
        self.y = top + height + 14

    def done(self) -> Image.Image:
        box = (0, 0, WIDTH, self.y + PAD)
        sheet = self.base.crop(box)
        sheet.paste(self.img.crop(box), (0, 0), self.img.crop(box))
        return sheet


def _space_sprite(kind: str) -> Image.Image:
    """The marks of a landing in the decision pictures: an empty space to buy for, a tile, a quality tile."""
    w, h = 104, 56
    img = Image.new("RGBA", (w + 12, h + 12), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    box = (6, 6, 6 + w, 6 + h)
    if kind == "empty":
        d.rounded_rectangle(box, radius=8, fill=pal.SLOT, outline=pal.SLOT_EDGE)
        for inset in (0, 2, 4):
            dr.dashed_rect(d, (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset), pal.GOLD, 2, 8)
        dr.paste_center(img, icons.side("buy_here", 40), 6 + w / 2, 6 + h / 2)
        return img
    sample: dict[str, Any] = {"kind": "normal", "color": "green", "type": "right", "effect": "samurai/right"}
    if kind == "quality":
        sample = {"kind": "quality", "color": "blue", "type": "quality", "effect": "quality", "level": 2, "points": 8}
    dr.paste(img, tiles.sprite(sample, w, h, TEXT), 6, 6)
    d.rounded_rectangle((1, 1, w + 11, h + 11), radius=12, outline=pal.GOLD, width=5)
    return img


def _your_turn(s: _Sheet) -> None:
    s.open(_("Your turn"))
    s.row(
        icons.kokeshi("princess", 40),
        _("Advance one of your kokeshi one space up its track. Where it arrives:"),
    )
    s.row(
        _space_sprite("empty"),
        _("it goes home, and you buy a tile from the offer for that track (or a quality tile, if it is high enough)."),
        _("An empty space:"),
    )
    s.row(_space_sprite("tile"), _("do one of its sides ('/') or both ('+')."), _("A tile:"))
    s.row(_space_sprite("quality"), _("the kokeshi moves up one more space."), _("A quality tile:"))
    s.row(
        _burst(f"+{m.TOP_POINTS}"),
        _("{points} points, and the kokeshi goes home.").format(points=m.TOP_POINTS),
        _("Past the top:"),
    )
    s.row(
        _badge(m.PAIR_LABEL, pal.VERMILION, pal.CREAM),
        _(
            "At the end of your turn, place the tiles you bought, each on the lowest free space of its track. Two "
            "tiles of one colour side by side (the home spaces count) cost {points} points at the end."
        ).format(points=m.ADJACENCY_PENALTY),
    )
    s.close()


def _the_tiles(s: _Sheet) -> None:
    s.open(_("The tiles"))
    examples = _example_tiles()
    for type_ in _TYPE_ORDER:
        title, body = (_(words) for words in _TYPE_TEXT[type_])
        if type_ == "quality":
            body = body.format(levels=len(m.LEVEL_AT), heights=" / ".join(map(str, m.LEVEL_THRESHOLDS)))
        s.row(tiles.sprite(examples[type_], 104, 72, TEXT), body, title)
    s.close()


def _in_the_pictures(s: _Sheet) -> None:
    s.open(_("In the pictures"))
    s.row(_space_sprite("empty"), _("where each kokeshi would land: buy there, a tile, or past the top (+3)."))
    s.row(_quality_chips(), _("the quality tiles of that kokeshi still to be had (levels 1, 2, 3)."))
    s.row(icons.crown(30), _("leads that animal track ({points} points at the end).").format(points=m.LEAD_BONUS))
    s.row(icons.star(34), _("recognitions, out of the number that ends the game."))
    s.row(dr.glow(60, 40, 8), _("changed during the last turn."))
    s.close()


def _scoring(s: _Sheet) -> None:
    s.open(_("Scoring"))
    for key in vocab.SCORE_ITEMS[:-1]:
        s.row(None, vocab.score_rule(key), vocab.score_item(key))
    s.close()


def _the_end(s: _Sheet) -> None:
    s.open(_("The end"))
    s.row(
        icons.star(34),
        _(
            "A player has {count} recognitions ({four} with 4 players): a quality tile, or a disc crossing the red "
            "line. Or the bag cannot refill the offer. Finish the round, then play one more."
        ).format(count=END_RECOGNITIONS[2], four=END_RECOGNITIONS[4]),
    )
    s.row(
        icons.bag(44),
        _(
            "This bot's rule against stalling: a turn in which one of your kokeshi passes the top, with no tile "
            "taken from the offer and no recognition gained, is an idle turn; at {limit} per player the end comes "
            "the same way."
        ).format(limit=IDLE_LIMIT),
    )
    s.close()


# The pages, whole sections each (never split): a turn and the marks a player meets in the decision pictures; every
# tile; how points are scored and when the game ends. The tiles alone fill a phone screen, so they are a page.
PAGES: tuple[tuple[Callable[[_Sheet], None], ...], ...] = (
    (_your_turn, _in_the_pictures),
    (_the_tiles,),
    (_scoring, _the_end),
)


@lru_cache(maxsize=4)
def _rules(locale: str = "en") -> tuple[Image.Image, ...]:
    pages = []
    for number, sections in enumerate(PAGES, 1):
        s = _Sheet()
        s.title_bar(_("Kokeshi: how to play"), _("'/' choose one side · '+' do both"), f"{number}/{len(PAGES)}")
        for section in sections:
            section(s)
        pages.append(s.done())
    return tuple(pages)


def _quality_chips() -> Image.Image:
    img = Image.new("RGBA", (124, 40), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    color = m.KOKESHI_COLOR["samurai"]
    for j in range(3):
        x = 2 + j * 40
        d.rounded_rectangle((x, 2, x + 36, 38), radius=8, fill=pal.TILE[color], outline=pal.TILE_DARK[color])
        tx.draw(d, (x + 18, 21), str(j + 1), TEXT, pal.INK, bold=True, anchor="mm")
    return img


def draw_rules_phone() -> list[Image.Image]:
    """The rules for a phone, page by page, in the current language (see `render.rules_phone`)."""
    return [page.copy() for page in _rules(current())]
