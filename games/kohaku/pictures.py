"""Kōhaku's pictures, drawn with Pillow from a seat's view: phone-first, 900 px wide, no text under 28 px.

The turn picture shows one decision: a header with whose turn and the question, the tiles in hand (placing) or
the two goal cards (choosing one), the 3 x 4 board with its numbered spaces, the deciding player's pond with its
rows and columns named and every place a tile may go marked, and the scores. The table picture shows the board,
every pond and the scores, for anyone following the game. Words come from `games.kohaku.words`; fonts, text
fitting, panels and PNG encoding from `render`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from i18n import _, current, ngettext
from render import draw as dr
from render import encode, pen
from render import palette as pal
from render import text as tx
from render.pen import Pen

from . import words
from .data import TILE_BY_ID
from .model import GOAL, PLACE, SCORE_KEYS, ZONE
from .scoring import cell as pack
from .scoring import feature_points

WIDTH = 900
TEXT = 28  # the smallest text: about 12 px on a 390 px wide phone screen
TITLE = 32
PAD = 16
INNER = WIDTH - 2 * PAD  # a panel's width
BOARD_TILE = 184
BOARD_GAP = 16
POND_MAX_CELL = 124
POND_MAX_HEIGHT = 900
SCORE_ROW = 56

RGB = tuple[int, int, int]
WATER: RGB = (170, 210, 226)
WATER_EDGE: RGB = (88, 142, 170)
WATER_DEEP: RGB = (120, 178, 204)
POND_BG: RGB = (206, 228, 236)
PAD_GREEN: RGB = (112, 166, 86)
PAD_DARK: RGB = (70, 118, 56)
KOI_COLOUR: dict[str, RGB] = {
    "white": (250, 248, 242),
    "yellow": (247, 196, 38),
    "red": (216, 58, 42),
    "black": (44, 40, 46),
}
KOI_EDGE: dict[str, RGB] = {
    "white": (120, 120, 124),
    "yellow": (160, 118, 10),
    "red": (128, 28, 20),
    "black": (10, 8, 12),
}
BABY: RGB = (246, 148, 64)
BABY_EDGE: RGB = (150, 70, 20)
FLY_BODY: RGB = (34, 96, 126)
FLY_WING: RGB = (232, 246, 252)
STONE: RGB = (152, 150, 142)
STONE_DARK: RGB = (84, 82, 78)
CANDIDATE: RGB = (196, 120, 0)


# ---------------------------------------------------------------------- text


@lru_cache(maxsize=1024)
def _mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """A line of text as an alpha mask with its offset from the anchor point (cached: drawing text is costly)."""
    face = tx.font(size, bold)
    x0, y0, x1, y1 = (round(v) for v in face.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=face, fill=255, anchor=anchor)
    return mask, x0, y0


def _text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    *,
    bold: bool = False,
    anchor: str = "la",
    max_width: int | None = None,
) -> None:
    text = tx.fit(text, size, bold, max_width) if max_width is not None else _safe(text)
    mask, dx, dy = _mask(text, size, bold, anchor)
    img.paste(fill, (round(xy[0]) + dx, round(xy[1]) + dy), mask)


@lru_cache(maxsize=2048)
def _safe(text: str) -> str:
    return tx.sanitize(text)


def wrap(text: str, size: int, width: int, bold: bool = False, lines: int = 3) -> list[str]:
    """`text` broken into at most `lines` lines of at most `width` px (the last one shortened if need be)."""
    out: list[str] = []
    line = ""
    for word in tx.sanitize(text).split(" "):
        trial = f"{line} {word}" if line else word
        if tx.width(trial, size, bold) <= width or not line:
            line = trial
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    if len(out) > lines:
        out = out[: lines - 1] + [" ".join(out[lines - 1 :])]
    return [tx.fit(t, size, bold, width) for t in out]


# ---------------------------------------------------------------------- tile sprites


def _fish(pen: Pen, cx: float, cy: float, length: float, body: RGB, edge: RGB, patch: RGB | None) -> None:
    """A koi seen from above, head to the right, `length` design units long."""
    h = length * 0.42
    x0, x1 = cx - length * 0.36, cx + length * 0.5
    tail = cx - length * 0.5
    pen.poly(
        [(x0 + length * 0.08, cy), (tail, cy - h * 0.62), (tail + length * 0.09, cy), (tail, cy + h * 0.62)],
        fill=body,
        outline=edge,
        width=length * 0.025,
    )
    pen.poly(
        [(cx, cy - h * 0.42), (cx - length * 0.12, cy - h * 0.95), (cx + length * 0.1, cy - h * 0.44)],
        fill=body,
        outline=edge,
        width=length * 0.02,
    )
    pen.ellipse((x0, cy - h / 2, x1, cy + h / 2), fill=body, outline=edge, width=length * 0.03)
    if patch is not None:
        pen.ellipse((cx - length * 0.22, cy - h * 0.36, cx + length * 0.02, cy + h * 0.14), fill=patch)
        pen.ellipse((cx + length * 0.08, cy - h * 0.1, cx + length * 0.3, cy + h * 0.32), fill=patch)
    eye = edge if body != KOI_COLOUR["black"] else (230, 230, 230)
    pen.circle(x1 - length * 0.1, cy - h * 0.14, length * 0.035, fill=eye)


def _baby(pen: Pen, cx: float, cy: float, length: float) -> None:
    _fish(pen, cx, cy, length, BABY, BABY_EDGE, None)


def _dragonfly(pen: Pen, cx: float, cy: float, size: float) -> None:
    w = size * 0.5
    for dy, span in ((-0.18, 1.0), (0.12, 0.85)):
        y = cy + dy * size
        pen.ellipse(
            (cx - w * span, y - size * 0.12, cx - size * 0.04, y + size * 0.1),
            fill=FLY_WING,
            outline=FLY_BODY,
            width=1.2,
        )
        pen.ellipse(
            (cx + size * 0.04, y - size * 0.12, cx + w * span, y + size * 0.1),
            fill=FLY_WING,
            outline=FLY_BODY,
            width=1.2,
        )
    pen.line([(cx, cy - size * 0.42), (cx, cy + size * 0.55)], fill=FLY_BODY, width=size * 0.14)
    pen.circle(cx, cy - size * 0.42, size * 0.11, fill=FLY_BODY)


def _coin(pen: Pen, cx: float, cy: float, r: float) -> None:
    pen.circle(cx, cy, r, fill=pal.GOLD, outline=pal.INK, width=r * 0.18)
    pen.circle(cx, cy, r * 0.7, outline=pal.shade(pal.GOLD, 0.7), width=r * 0.1)
    s = r * 0.28
    pen.rect((cx - s, cy - s, cx + s, cy + s), fill=pal.CREAM, outline=pal.INK, width=r * 0.08)


def _water(pen: Pen, feature: bool) -> None:
    pen.rect((1.5, 2.5, 98.5, 98.5), fill=pal.shade(WATER_EDGE, 0.85), radius=9)
    pen.rect((1.5, 1.5, 98.5, 97), fill=WATER, outline=WATER_EDGE, width=1.6, radius=9)
    pen.arc((8, 62, 40, 84), 200, 340, fill=WATER_DEEP, width=1.4)
    pen.arc((60, 14, 92, 36), 20, 160, fill=WATER_DEEP, width=1.4)
    if feature:
        _lily_pad(pen)


def _lily_pad(pen: Pen) -> None:
    pen.pie((12, 14, 88, 90), 300, 250, fill=PAD_GREEN)
    pen.arc((12, 14, 88, 90), 300, 250, fill=PAD_DARK, width=1.6)
    pen.line([(50, 52), (62, 18)], fill=PAD_DARK, width=1.0)
    pen.line([(50, 52), (30, 20)], fill=PAD_DARK, width=1.0)


def _flower(pen: Pen, cx: float, cy: float, r: float, colour: str) -> None:
    petal, edge = KOI_COLOUR[colour], KOI_EDGE[colour]
    import math

    for i in range(6):
        a = math.radians(i * 60 + 15)
        px, py = cx + r * 0.62 * math.cos(a), cy + r * 0.62 * math.sin(a)
        pen.circle(px, py, r * 0.46, fill=petal, outline=edge, width=r * 0.07)
    centre = (250, 214, 90) if colour != "yellow" else (214, 110, 30)
    pen.circle(cx, cy, r * 0.34, fill=centre, outline=pal.shade(centre, 0.6), width=r * 0.06)


def _butterfly(pen: Pen, cx: float, cy: float, r: float, colour: str) -> None:
    wing, edge = KOI_COLOUR[colour], KOI_EDGE[colour]
    pen.ellipse((cx - r, cy - r * 0.95, cx - r * 0.06, cy + r * 0.05), fill=wing, outline=edge, width=r * 0.1)
    pen.ellipse((cx + r * 0.06, cy - r * 0.95, cx + r, cy + r * 0.05), fill=wing, outline=edge, width=r * 0.1)
    pen.ellipse((cx - r * 0.8, cy - r * 0.05, cx - r * 0.06, cy + r * 0.7), fill=wing, outline=edge, width=r * 0.1)
    pen.ellipse((cx + r * 0.06, cy - r * 0.05, cx + r * 0.8, cy + r * 0.7), fill=wing, outline=edge, width=r * 0.1)
    pen.line([(cx, cy - r * 0.75), (cx, cy + r * 0.7)], fill=pal.INK, width=r * 0.2)


def _paint_feature(pen: Pen, kind: str, colours: tuple[str, ...], background: bool = True) -> None:
    if background:
        _water(pen, False)
    _lily_pad(pen)
    if kind == "flower":
        _flower(pen, 50, 50, 28, colours[0])
    elif kind == "two_flowers":
        _flower(pen, 36, 38, 19, colours[0])
        _flower(pen, 63, 63, 19, colours[1])
    elif kind == "rocks":
        pen.ellipse((22, 46, 56, 74), fill=(120, 118, 112), outline=STONE_DARK, width=1.8)
        pen.ellipse((46, 30, 78, 60), fill=STONE, outline=STONE_DARK, width=1.8)
        pen.ellipse((44, 58, 76, 80), fill=(176, 172, 162), outline=STONE_DARK, width=1.8)
        pen.ellipse((52, 36, 62, 42), fill=pal.shade(STONE, 1.3))
    elif kind == "statue":
        pen.rect((34, 76, 66, 84), fill=STONE, outline=STONE_DARK, width=1.6, radius=2)
        pen.rect((44, 56, 56, 77), fill=STONE, outline=STONE_DARK, width=1.6)
        pen.rect((36, 38, 64, 57), fill=STONE, outline=STONE_DARK, width=1.6, radius=2)
        pen.rect((43, 42, 57, 53), fill=(255, 214, 120), outline=STONE_DARK, width=1.2)
        pen.poly([(26, 39), (50, 22), (74, 39)], fill=pal.shade(STONE, 0.9), outline=STONE_DARK, width=1.6)
        pen.circle(50, 19, 5, fill=STONE, outline=STONE_DARK, width=1.4)
    elif kind == "butterflies":
        _butterfly(pen, 36, 42, 15, colours[0])
        _butterfly(pen, 64, 64, 15, colours[0])
    elif kind == "frog":
        green, dark = (96, 176, 70), (40, 96, 30)
        for lx, ly, fx, fy in ((36, 64, 24, 78), (64, 64, 76, 78), (38, 42, 28, 32), (62, 42, 72, 32)):
            pen.line([(lx, ly), (fx, fy)], fill=dark, width=6)
            pen.circle(fx, fy, 4, fill=green, outline=dark, width=1.2)
        pen.ellipse((32, 36, 68, 74), fill=green, outline=dark, width=2)
        pen.ellipse((36, 28, 64, 50), fill=green, outline=dark, width=2)
        for ex in (42, 58):
            pen.circle(ex, 32, 6, fill=pal.CREAM, outline=dark, width=1.4)
            pen.circle(ex, 32, 2.8, fill=pal.INK)
    elif kind == "turtle":
        shell, dark, skin = (132, 142, 64), (70, 78, 30), (170, 178, 110)
        pen.circle(50, 22, 8, fill=skin, outline=dark, width=1.4)
        for lx, ly in ((30, 40), (70, 40), (32, 72), (68, 72)):
            pen.circle(lx, ly, 7, fill=skin, outline=dark, width=1.4)
        pen.ellipse((28, 28, 72, 80), fill=shell, outline=dark, width=2)
        pen.poly(
            [(50, 40), (60, 47), (60, 61), (50, 68), (40, 61), (40, 47)],
            fill=pal.shade(shell, 1.2),
            outline=dark,
            width=1.4,
        )
        for a, b in (
            ((50, 40), (50, 30)),
            ((60, 47), (69, 42)),
            ((40, 47), (31, 42)),
            ((60, 61), (68, 68)),
            ((40, 61), (32, 68)),
            ((50, 68), (50, 79)),
        ):
            pen.line([a, b], fill=dark, width=1.4)


def _paint_koi(pen: Pen, colours: tuple[str, ...], baby: int, flies: int, coin: int) -> None:
    _water(pen, False)
    body = KOI_COLOUR[colours[0]]
    patch = KOI_COLOUR[colours[1]] if len(colours) > 1 else None
    _fish(pen, 48, 51, 60, body, KOI_EDGE[colours[0]], patch)
    for i in range(flies):
        _dragonfly(pen, 17 + i * 24, 18, 23)
    for i in range(baby):
        _baby(pen, 19 + i * 26, 83, 24)
    if coin:
        _coin(pen, 83, 17, 12)


def _tile_key(tile: Mapping[str, Any]) -> tuple[Any, ...]:
    return (
        str(tile.get("kind")),
        tuple(tile.get("colours") or ()),
        int(tile.get("baby_koi", 0) or 0),
        int(tile.get("dragonflies", 0) or 0),
        int(tile.get("coin", 0) or 0),
    )


@lru_cache(maxsize=1024)
def _sprite(key: tuple[Any, ...], size: int, corner: bool) -> Image.Image:
    kind, colours, baby, flies, coin = key
    if kind == "koi":
        return pen.render(size, size, 100, lambda pen: _paint_koi(pen, colours, baby, flies, coin))
    if not corner:
        return pen.render(size, size, 100, lambda pen: _paint_feature(pen, kind, colours))
    # Room for a points badge in the bottom-right corner: the pad and its feature drawn smaller, up and left.
    img = pen.render(size, size, 100, lambda pen: _water(pen, False))
    small = round(size * 0.8)
    icon = pen.render(small, small, 100, lambda pen: _paint_feature(pen, kind, colours, False))
    img.alpha_composite(icon, (round(size * 0.02), round(size * 0.02)))
    return img


def sprite(tile: Mapping[str, Any], size: int, corner: bool = False) -> Image.Image:
    """The RGBA picture of a tile from a view, `size` px square (cached); `corner` leaves a feature's
    bottom-right corner free for a points badge."""
    return _sprite(_tile_key(tile), size, corner and tile.get("kind") != "koi")


# ---------------------------------------------------------------------- reading the view


def _names(view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    seats = int(view.get("seats", len(names)) or 1)
    return [names[s] if s < len(names) else _("Seat {n}").format(n=s + 1) for s in range(seats)]


def _events(events: Sequence[Any]) -> list[tuple[str, int, Mapping[str, Any]]]:
    out = []
    for e in events:
        if isinstance(e, Mapping):
            out.append((str(e["kind"]), int(e["seat"]), e["data"]))
        else:
            out.append((e.kind, e.seat, e.data))
    return out


def _prompt_kind(view: Mapping[str, Any]) -> str | None:
    prompt = view.get("prompt")
    return str(prompt["kind"]) if prompt else None


def _candidates(view: Mapping[str, Any]) -> list[tuple[int, int]]:
    """The pond cells the prompt's options name: every place a tile may go (a zone names a range)."""
    prompt = view.get("prompt") or {}
    out: list[tuple[int, int]] = []
    for option in prompt.get("options") or ():
        code = option["code"]
        if code[0] == "place":
            out.append((int(code[1]), int(code[2])))
    return out


# ---------------------------------------------------------------------- parts


def _header(img: Image.Image, top: int, name: str, seat: int, lines: list[str], right: str) -> int:
    height = _header_height(lines)
    img.paste(_wood(height), (0, top))
    x = PAD + 4
    if seat >= 0:
        dr.paste(img, pen.seat_disc(seat, 44), x, top + 13)
        x += 56
    right_w = round(tx.width(right, TEXT))
    _text(img, (WIDTH - PAD - 4, top + 35), right, TEXT, pal.GOLD_LIGHT, anchor="rm")
    _text(img, (x, top + 35), name, TITLE + 2, pal.CREAM, bold=True, anchor="lm", max_width=WIDTH - x - right_w - 40)
    for i, line in enumerate(lines):
        _text(img, (PAD + 4, top + 88 + 40 * i), line, TEXT + 2, pal.CREAM, anchor="lm")
    return top + height


def _header_height(lines: Sequence[str]) -> int:
    return 70 + 40 * len(lines) + (10 if lines else 0)


@lru_cache(maxsize=8)
def _wood(height: int) -> Image.Image:
    img = Image.new("RGB", (WIDTH, height))
    dr.wood(img, (0, 0, WIDTH, height))
    return img


def _panel(
    img: Image.Image, top: int, height: int, title: str | None = None, left: int = PAD, width: int = INNER
) -> tuple[int, int, int, int]:
    box = (left, top, left + width, top + height)
    dr.panel(ImageDraw.Draw(img), box)
    if title:
        _text(img, (left + 16, top + 12), title, TITLE, pal.INK, bold=True, max_width=width - 32)
    return box


def _board_height(tile: int) -> int:
    return 60 + 3 * tile + 2 * BOARD_GAP + 16


def _board(img: Image.Image, top: int, view: Mapping[str, Any], fresh: set[int], tile: int = BOARD_TILE) -> int:
    height = _board_height(tile)
    box = _panel(img, top, height, _("Board"))
    right = _("{koi} koi · {features} features left").format(koi=view["koi_stack"], features=view["feature_stack"])
    _text(img, (box[2] - 16, top + 16), right, TEXT, pal.INK_SOFT, anchor="ra")
    width = 4 * tile + 3 * BOARD_GAP
    x0 = (WIDTH - width) // 2
    y0 = top + 60
    for space, t in enumerate(view["board"]):
        r, c = divmod(space, 4)
        x, y = x0 + c * (tile + BOARD_GAP), y0 + r * (tile + BOARD_GAP)
        if t is None:
            dr.dashed_rect(ImageDraw.Draw(img), (x + 4, y + 4, x + tile - 4, y + tile - 4), pal.INK_SOFT)
        else:
            if space in fresh:
                dr.paste_center(img, dr.glow(tile, tile, 12, width=6), x + tile / 2, y + tile / 2)
            dr.paste(img, sprite(t, tile), x, y)
        badge = dr.pill(words.space(space), TEXT, pal.WOOD_DARK, pal.CREAM, min_w=44)
        dr.paste(img, badge, x + tile - badge.width + 6, y + tile - badge.height + 6)
    return top + height


HAND_TILE = 112
HAND_TEXT = INNER - 32 - HAND_TILE - 20  # the width of a tile's name and rule beside its picture
LINE = 38  # from one line of TEXT to the next


def _hand_rows(view: Mapping[str, Any]) -> list[tuple[Mapping[str, Any], list[str], list[str], int]]:
    """Each tile in hand with its name and its rule, each on one or two lines, and the row's height."""
    rows = []
    for t in view.get("hand") or []:
        name = words.tile_full(t)
        rule = words.feature_rule(t) if t["kind"] != "koi" else _("touching features score for it")
        name_lines = wrap(name[:1].upper() + name[1:], TEXT, HAND_TEXT, bold=True, lines=2)
        rule_lines = wrap(rule, TEXT, HAND_TEXT, lines=2)
        rows.append((t, name_lines, rule_lines, max(HAND_TILE + 16, LINE * (len(name_lines) + len(rule_lines)) + 52)))
    return rows


def _hand(img: Image.Image, top: int, view: Mapping[str, Any]) -> int:
    rows = _hand_rows(view)
    height = _hand_height(view)
    box = _panel(img, top, height, ngettext("Tile to place", "Tiles to place", len(rows)))
    x = box[0] + 16
    tx0 = x + HAND_TILE + 20
    y = top + 58
    for t, name_lines, rule_lines, row in rows:
        dr.paste(img, sprite(t, HAND_TILE), x, y)
        for i, line in enumerate(name_lines):
            _text(img, (tx0, y + 14 + LINE * i), line, TEXT, pal.INK, bold=True)
        below = y + 14 + LINE * len(name_lines) + 8
        for i, line in enumerate(rule_lines):
            _text(img, (tx0, below + LINE * i), line, TEXT, pal.INK_SOFT)
        y += row
    return top + height


def _goals(img: Image.Image, top: int, view: Mapping[str, Any]) -> int:
    prompt = view.get("prompt") or {}
    options = [o for o in prompt.get("options") or () if o["code"][0] == "goal"]
    card_w = (INNER - 48) // 2
    rules = [wrap(words.goal_rule(o["code"][1]), TEXT, card_w - 32, lines=4) for o in options]
    height = _goals_height(view)
    box = _panel(img, top, height, _("Goal cards: keep one"))
    d = ImageDraw.Draw(img)
    for i, (option, rule) in enumerate(zip(options, rules, strict=True)):
        x0 = box[0] + 16 + i * (card_w + 16)
        y0 = top + 58
        d.rounded_rectangle((x0, y0, x0 + card_w, box[3] - 14), radius=14, fill=pal.CREAM, outline=pal.GOLD, width=3)
        _text(
            img, (x0 + 16, y0 + 14), words.goal_name(option["code"][1]), TEXT, pal.INK, bold=True, max_width=card_w - 32
        )
        for j, line in enumerate(rule):
            _text(img, (x0 + 16, y0 + 60 + 38 * j), line, TEXT, pal.INK_SOFT)
    return top + height


def _goals_height(view: Mapping[str, Any]) -> int:
    prompt = view.get("prompt") or {}
    card_w = (INNER - 48) // 2
    body = max(
        (len(wrap(words.goal_rule(o["code"][1]), TEXT, card_w - 32, lines=4)) for o in prompt.get("options") or ()),
        default=1,
    )
    return 60 + 60 + 38 * body + 32


def _hand_height(view: Mapping[str, Any]) -> int:
    return 60 + sum(row for *_lines, row in _hand_rows(view)) + 8


def _scores_height(view: Mapping[str, Any], me: int) -> int:
    rows = int(view["seats"]) + (1 if view.get("solo") else 0)
    return 56 + rows * SCORE_ROW + (44 if _own_goal(view, me) else 0) + 10


@dataclass(frozen=True)
class PondLayout:
    """Where and how large a pond panel is drawn: its left edge and width, the tallest grid, the largest cell,
    and whether rows and columns are named (turn pictures) or not (the table)."""

    left: int = PAD
    width: int = INNER
    max_h: int = POND_MAX_HEIGHT
    max_cell: int = POND_MAX_CELL
    labels: bool = True

    @property
    def axis(self) -> int:
        return 44 if self.labels else 0

    @property
    def head(self) -> int:
        return 60 + (40 if self.labels else 0)


TURN_POND = PondLayout()
_EMPTY_POND = 116


def _pond_cell(view: Mapping[str, Any], seat: int, g: PondLayout) -> tuple[tuple[int, int, int, int], int]:
    box = words.frame(view["ponds"][seat]["tiles"])
    cols, rows = box[2] - box[0] + 1, box[3] - box[1] + 1
    cell = min(g.max_cell, (g.width - 32 - g.axis) // cols, g.max_h // rows)
    # A few sizes only, so that tile sprites are drawn once per size and reused.
    return box, max(24, cell // 8 * 8)


def _pond_height(view: Mapping[str, Any], seat: int, g: PondLayout = TURN_POND) -> int:
    if not view["ponds"][seat]["tiles"]:
        return _EMPTY_POND
    box, cell = _pond_cell(view, seat, g)
    return g.head + (box[3] - box[1] + 1) * cell + 22


def _pond(
    img: Image.Image,
    top: int,
    view: Mapping[str, Any],
    seat: int,
    title: str,
    *,
    marks: Sequence[tuple[int, int]] = (),
    fresh: Sequence[Sequence[int]] = (),
    g: PondLayout = TURN_POND,
    badges: bool = True,
) -> int:
    pond = view["ponds"][seat]
    points = _("{points} pts").format(points=pond["score"]["total"])
    points_w = round(tx.width(points, TITLE, True))
    if not pond["tiles"]:
        _panel(img, top, _EMPTY_POND, None, g.left, g.width)
        _text(img, (g.left + 16, top + 12), title, TITLE, pal.INK, bold=True, max_width=g.width - 48 - points_w)
        _text(img, (g.left + 16, top + 62), _("Empty so far."), TEXT, pal.INK_SOFT)
        return top + _EMPTY_POND
    box, cell = _pond_cell(view, seat, g)
    cols, rows = box[2] - box[0] + 1, box[3] - box[1] + 1
    height = _pond_height(view, seat, g)
    panel = _panel(img, top, height, None, g.left, g.width)
    _text(img, (g.left + 16, top + 12), title, TITLE, pal.INK, bold=True, max_width=g.width - 48 - points_w)
    _text(img, (panel[2] - 16, top + 12), points, TITLE, pal.INK, bold=True, anchor="ra")
    gx = g.left + (g.width + g.axis - cols * cell) // 2
    gy = top + g.head
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((gx - 6, gy - 6, gx + cols * cell + 6, gy + rows * cell + 6), radius=12, fill=POND_BG)
    if g.labels:
        every = 1 if cell >= 40 else 2
        for c in range(0, cols, every):
            _text(img, (gx + c * cell + cell / 2, gy - 8), words.column_name(c), TEXT, pal.INK_SOFT, anchor="ms")
        for r in range(0, rows, every):
            _text(img, (gx - 12, gy + r * cell + cell / 2), str(r + 1), TEXT, pal.INK_SOFT, anchor="rm")
    placed = {tuple(int(v) for v in p) for p in fresh}
    packed = {pack(int(x), int(y)): TILE_BY_ID[t["id"]] for x, y, t in pond["tiles"]}
    inset = max(2, cell // 30)
    for x, y, t in pond["tiles"]:
        px, py = gx + (int(x) - box[0]) * cell, gy + (int(y) - box[1]) * cell
        if (int(x), int(y)) in placed:
            dr.paste_center(img, dr.glow(cell - 2 * inset, cell - 2 * inset, 10, width=5), px + cell / 2, py + cell / 2)
        badge = badges and t["kind"] != "koi" and cell >= 72
        dr.paste(img, sprite(t, cell - 2 * inset, badge), px + inset, py + inset)
        if badge:
            value = feature_points(packed, pack(int(x), int(y)), TILE_BY_ID[t["id"]])
            pill = dr.pill(str(value), TEXT, pal.WOOD_DARK if value else pal.INK_SOFT, pal.CREAM, min_w=36)
            dr.paste(img, pill, px + cell - pill.width, py + cell - pill.height)
    hand = list(view.get("hand") or [])
    for x, y in marks:
        px, py = gx + (x - box[0]) * cell, gy + (y - box[1]) * cell
        spot = (px + 5, py + 5, px + cell - 5, py + cell - 5)
        d.rounded_rectangle(spot, radius=10, fill=pal.shade(pal.GOLD_LIGHT, 1.25))
        dr.dashed_rect(d, spot, CANDIDATE, width=3, dash=8)
        if cell < 56:
            continue
        name = words.cell_name(x, y, box)
        if len(hand) == 2 and cell >= 96:
            # Both tiles may go somewhere: a small picture says which one goes here.
            tile = hand[0] if (x + y) % 2 == 0 else hand[1]
            mini = sprite(tile, 40)
            dr.paste(img, mini, px + (cell - mini.width) / 2, py + 12)
            _text(img, (px + cell / 2, py + cell - 30), name, TEXT, CANDIDATE, bold=True, anchor="mm")
        else:
            _text(img, (px + cell / 2, py + cell / 2), name, TEXT, CANDIDATE, bold=True, anchor="mm")
    return top + height


def _sheet_height(view: Mapping[str, Any]) -> int:
    kept = [k for k in _kept_goals(view) if k]
    return 60 + 44 * (len(_sheet_rows(view)) + 1) + (GOAL_LINE * len(kept) + 10 if kept else 0) + 12


# Under a finished game's score sheet, one line per player names the goal card they kept (its points are in the
# sheet's goal row; a card's name does not fit a column of four).
GOAL_LINE = 38


def _kept_goals(view: Mapping[str, Any]) -> list[str | None]:
    """The goal card each seat kept, once the game is over and they are shown to all; empty before (or without)."""
    cards = view.get("goal_cards")
    if not cards or view.get("phase") != "over":
        return []
    kept = list(cards.get("kept") or ())
    return kept if any(kept) else []


def _sheet_rows(view: Mapping[str, Any]) -> list[str]:
    keys = [k for k in SCORE_KEYS if k != "goal" or view.get("goals")]
    return keys


def _sheet(img: Image.Image, top: int, view: Mapping[str, Any], names: list[str]) -> int:
    """The final score sheet: one column per player (and Danny's three levels in solo), one row per item."""
    height = _sheet_height(view)
    box = _panel(img, top, height, _("Score sheet"))
    seats = int(view["seats"])
    label_w = 250
    cols = seats if not view.get("solo") else 1
    col_w = (box[2] - box[0] - 32 - label_w) // max(cols, 1)
    x0 = box[0] + 16 + label_w
    y0 = top + 58
    d = ImageDraw.Draw(img)
    for s in range(cols):
        cx = x0 + s * col_w + col_w / 2
        _text(img, (cx, y0 + 20), names[s], TEXT, pal.INK, bold=True, anchor="mm", max_width=col_w - 8)
    for i, key in enumerate(_sheet_rows(view)):
        y = y0 + 44 * (i + 1)
        last = key == "total"
        if last:
            d.line((box[0] + 16, y - 2, box[2] - 16, y - 2), fill=pal.INK_SOFT, width=2)
        _text(img, (box[0] + 16, y + 20), words.score_item(key), TEXT, pal.INK, bold=last, anchor="lm")
        for s in range(cols):
            value = int(view["ponds"][s]["score"].get(key, 0))
            cx = x0 + s * col_w + col_w / 2
            _text(
                img,
                (cx, y + 20),
                words.signed(value) if key == "goal" else str(value),
                TEXT,
                pal.INK,
                bold=last,
                anchor="mm",
            )
    y = y0 + 44 * (len(_sheet_rows(view)) + 1) + 10
    for s, goal in enumerate(_kept_goals(view)):
        if goal:
            line = _("{player}'s goal card: {goal}").format(player=names[s], goal=words.goal_name(goal))
            _text(img, (box[0] + 16, y + GOAL_LINE / 2), line, TEXT, pal.INK_SOFT, anchor="lm", max_width=INNER - 32)
            y += GOAL_LINE
    return top + height


def _scores(img: Image.Image, top: int, view: Mapping[str, Any], names: list[str], me: int) -> int:
    seats = int(view["seats"])
    solo = bool(view.get("solo"))
    goal_line = _own_goal(view, me)
    height = _scores_height(view, me)
    box = _panel(img, top, height, _("Scores"))
    d = ImageDraw.Draw(img)
    x0, _unused, x1, _unused = box
    outcome = view.get("outcome")
    for s in range(seats):
        y = top + 54 + s * SCORE_ROW
        if s == me:
            d.rounded_rectangle((x0 + 8, y, x1 - 8, y + SCORE_ROW - 4), radius=10, fill=pal.shade(pal.GOLD_LIGHT, 1.3))
        dr.paste(img, pen.seat_disc(s, 40), x0 + 16, y + (SCORE_ROW - 44) / 2)
        pond = view["ponds"][s]
        total = int(pond["score"]["total"])
        pts = dr.pill(_("{points} pts").format(points=total), TEXT, pal.WOOD_DARK, pal.CREAM, min_w=130)
        dr.paste(img, pts, x1 - 16 - pts.width, y + (SCORE_ROW - 4 - pts.height) / 2)
        coins = str(pond["coins"])
        cw = round(tx.width(coins, TEXT, True))
        cx = x1 - 16 - pts.width - 24 - cw
        _text(img, (cx, y + (SCORE_ROW - 4) / 2), coins, TEXT, pal.INK, bold=True, anchor="lm")
        dr.paste(img, _coin_icon(30), cx - 38, y + (SCORE_ROW - 4 - 30) / 2)
        name = names[s]
        if outcome and outcome["places"][s] == 1 and not solo:
            name = _("{name} wins").format(name=name)
        _text(
            img,
            (x0 + 68, y + (SCORE_ROW - 4) / 2),
            name,
            TEXT,
            pal.INK,
            bold=True,
            anchor="lm",
            max_width=cx - 40 - x0 - 68 - 12,
        )
    if solo:
        danny = view["danny"]["scores"]
        y = top + 54 + seats * SCORE_ROW
        text = _("Danny: {easy} · {medium} · {hard}").format(
            easy=_("{level} {points}").format(level=words.level("easy"), points=danny["easy"]),
            medium=_("{level} {points}").format(level=words.level("medium"), points=danny["medium"]),
            hard=_("{level} {points}").format(level=words.level("hard"), points=danny["hard"]),
        )
        _text(img, (x0 + 20, y + (SCORE_ROW - 4) / 2), text, TEXT, pal.INK, anchor="lm", max_width=INNER - 40)
    if goal_line:
        _text(img, (x0 + 20, box[3] - 30), goal_line, TEXT, pal.INK_SOFT, anchor="lm", max_width=INNER - 40)
    return top + height


def _own_goal(view: Mapping[str, Any], me: int) -> str:
    cards = view.get("goal_cards")
    if not cards or me < 0:
        return ""
    kept = cards["kept"][me]
    if not kept:
        return ""
    points = view["ponds"][me]["score"].get("goal", 0)
    if view.get("phase") == "over":
        return _("Goal: {name}, {points}").format(name=words.goal_name(kept), points=words.signed(points))
    return _("Goal: {name}, {points} now").format(name=words.goal_name(kept), points=words.signed(points))


@lru_cache(maxsize=8)
def _coin_icon(size: int) -> Image.Image:
    return pen.render(size, size, 100, lambda pen: _coin(pen, 50, 50, 46))


# ---------------------------------------------------------------------- the pictures


def _fresh_spaces(events: Sequence[Any]) -> set[int]:
    return {int(data["space"]) for kind, _unused, data in _events(events) if kind == "drawn"}


def draw_turn(
    view: Mapping[str, Any], names: Sequence[str], seat: int | None = None, events: Sequence[Any] = ()
) -> Image.Image:
    """The phone picture of one decision, from the deciding seat's view (or whose pond `seat` says).

    `names` maps seats to names; `events` since the last picture mark the tiles just drawn onto the board.
    """
    everyone = _names(view, names)
    kind = _prompt_kind(view)
    prompt = view.get("prompt") or {}
    if seat is not None:
        me = seat
    elif prompt:
        me = int(prompt["seat"])
    else:
        me = int(view.get("current") or 0)
    if kind is not None:
        question = words.question(kind, view)
    elif view.get("phase") == "over":
        question = words.game_over({"outcome": view["outcome"]}, everyone)
    else:
        waiting = view.get("waiting") or []
        question = _("Waiting for {name}.").format(name=everyone[waiting[0]] if waiting else "")
    lines = wrap(question, TEXT + 2, INNER - 8, lines=3)
    placing = kind in (PLACE, ZONE)
    board_tile = 132 if placing else BOARD_TILE
    marks = _zone_cells(view) if kind == ZONE else _candidates(view) if kind == PLACE else []
    title = _("{name}'s pond").format(name=tx.fit(everyone[me], TITLE, True, 480))
    parts: list[tuple[int, Any]] = []
    if kind == GOAL:
        parts.append((_goals_height(view), lambda img, y: _goals(img, y, view)))
    if placing:
        parts.append((_hand_height(view), lambda img, y: _hand(img, y, view)))
    pond = (
        _pond_height(view, me),
        lambda img, y: _pond(img, y, view, me, title, marks=marks, fresh=view.get("placed") or []),
    )
    board = (_board_height(board_tile), lambda img, y: _board(img, y, view, _fresh_spaces(events), board_tile))
    if view.get("phase") == "over":
        board = (_sheet_height(view), lambda img, y: _sheet(img, y, view, everyone))
    parts += [pond, board] if placing else [board, pond]
    parts.append((_scores_height(view, me), lambda img, y: _scores(img, y, view, everyone, me)))
    height = _header_height(lines) + sum(h + PAD for h, _unused in parts) + PAD
    img = Image.new("RGB", (WIDTH, height), pal.BACKGROUND)
    stack = int(view["koi_stack"])
    y = _header(img, 0, everyone[me], me, lines, ngettext("{n} koi left", "{n} koi left", stack).format(n=stack))
    for _unused, part in parts:
        y = part(img, y + PAD)
    return img


def _zone_cells(view: Mapping[str, Any]) -> list[tuple[int, int]]:
    """Every candidate cell of a zone prompt: the cells between each zone's first and last, in reading order."""
    prompt = view.get("prompt") or {}
    me = int(prompt.get("seat", 0))
    tiles = view["ponds"][me]["tiles"]
    taken = {(int(x), int(y)) for x, y, _t in tiles}
    near: set[tuple[int, int]] = set()
    hand = view.get("hand") or []
    want = {t["kind"] == "koi" for t in hand}
    for x, y, _t in tiles:
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            c = (int(x) + dx, int(y) + dy)
            if c not in taken and ((c[0] + c[1]) % 2 == 0) in want:
                near.add(c)
    return sorted(near, key=lambda c: (c[1], c[0]))


def draw_table(view: Mapping[str, Any], names: Sequence[str], events: Sequence[Any] = ()) -> Image.Image:
    """The whole table for anyone following: the board (the score sheet once over), every pond, the scores.
    Two or more ponds are drawn two to a row."""
    everyone = _names(view, names)
    current = view.get("current")
    me = int(current) if current is not None else -1
    over = view.get("phase") == "over"
    if over:
        title = _("The game is over")
    elif me >= 0:
        title = _("{name}'s turn").format(name=everyone[me])
    else:
        title = _("Choosing goal cards")
    seats = int(view["seats"])
    half = (INNER - PAD) // 2
    layouts = [
        TABLE_SOLO
        if seats == 1
        else PondLayout(left=PAD + (s % 2) * (half + PAD), width=half, max_h=440, max_cell=80, labels=False)
        for s in range(seats)
    ]
    heights = [_pond_height(view, s, layouts[s]) for s in range(seats)]
    rows = [max(heights[i : i + 2]) for i in range(0, seats, 2)]
    top_part = _sheet_height(view) if over else _board_height(TABLE_TILE)
    total = _header_height([]) + PAD + top_part + sum(h + PAD for h in rows) + PAD + _scores_height(view, me) + PAD
    img = Image.new("RGB", (WIDTH, total), pal.BACKGROUND)
    y = _header(img, 0, title, me, [], _("turn {n}").format(n=int(view.get("turn", 0)) + 1))
    if over:
        y = _sheet(img, y + PAD, view, everyone)
    else:
        y = _board(img, y + PAD, view, _fresh_spaces(events), TABLE_TILE)
    for r, row_h in enumerate(rows):
        for s in range(2 * r, min(seats, 2 * r + 2)):
            fresh = (view.get("placed") or []) if s == me else []
            heading = everyone[s] if seats > 1 else _("{name}'s pond").format(name=everyone[s])
            _pond(img, y + PAD, view, s, heading, fresh=fresh, g=layouts[s], badges=False)
        y += PAD + row_h
    _scores(img, y + PAD, view, everyone, me)
    return img


TABLE_TILE = 150
TABLE_SOLO = PondLayout(max_h=720, max_cell=96, labels=False)


def turn(view: Mapping[str, Any], names: Sequence[str], seat: int | None = None, events: Sequence[Any] = ()) -> bytes:
    """The phone picture of one decision as PNG bytes (see `draw_turn`)."""
    return encode(draw_turn(view, names, seat, events))


def table(view: Mapping[str, Any], names: Sequence[str], events: Sequence[Any] = ()) -> bytes:
    """The table picture as PNG bytes (see `draw_table`)."""
    return encode(draw_table(view, names, events))


def locale() -> str:
    """The language pictures are drawn in now (text is cached per language by the caller's keys)."""
    return current()


__all__ = ["draw_table", "draw_turn", "sprite", "table", "turn", "wrap"]
