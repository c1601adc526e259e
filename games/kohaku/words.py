"""Every word a Kōhaku player reads: tile names, cell names, option labels, questions, narration, score items.

The rules emit codes; this module turns them into sentences in the current language. Every string passes through
`_` or `ngettext` (`i18n`) as one whole format string with named placeholders, so a translation can reorder the
words. Pictures take their words from here too, so each thing has one name everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from i18n import N_, _, format_list, ngettext, pgettext

from .data import COLOURS, GOAL_VALUES, GOALS, KINDS, MISSING_GOALS, TILE_BY_ID, TILES
from .model import GOAL, PLACE, SCORE_KEYS, TAKE, ZONE, Event, Option

LABEL_LIMIT = 80  # Discord's limit for a button or select option label


_COLOUR = {
    "white": N_("white"),
    "yellow": N_("yellow"),
    "red": N_("red"),
    "black": N_("black"),
}
_KIND = {
    "flower": N_("flower"),
    "two_flowers": N_("two flowers"),
    "rocks": N_("rocks"),
    "statue": N_("statue"),
    "butterflies": N_("butterflies"),
    "frog": N_("frog"),
    "turtle": N_("turtle"),
}
# One emoji per kind of tile, beside a choice that takes or places one, so that it reads at a glance on a phone.
KIND_EMOJI = {
    "koi": "🐟",
    "flower": "🌸",
    "two_flowers": "💐",
    "rocks": "🪨",
    "statue": "🗿",
    "butterflies": "🦋",
    "frog": "🐸",
    "turtle": "🐢",
}
_KIND_PLURAL = {
    "flower": N_("Flowers"),
    "two_flowers": N_("Two flowers"),
    "rocks": N_("Rocks"),
    "statue": N_("Statues"),
    "butterflies": N_("Butterflies"),
    "frog": N_("Frogs"),
    "turtle": N_("Turtles"),
    "coins": N_("Coins"),
    "goal": N_("Goal card"),
    "total": N_("Total"),
}
_GOAL_NAME = {
    "rarest_colour": N_("Rarest colour"),
    "dragonflies": N_("Dragonflies"),
    "statues": N_("Statues"),
    "no_baby_koi": N_("No baby koi"),
    "no_dragonflies": N_("No dragonflies"),
    "flowers": N_("Flowers"),
    "frogs_and_turtles": N_("Frogs and turtles"),
    "shelter": N_("Shelter for baby koi"),
    "white_black": N_("White and black koi"),
    "yellow_red": N_("Yellow and red koi"),
    "feature_kinds": N_("Features"),
    "largest_square": N_("Largest square"),
}
_LEVEL = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


def colour(name: str) -> str:
    """A colour's name, as a noun: "2 per koi with {colour}"."""
    return _(_COLOUR[name])


# A colour said of a koi, a flower or butterflies has a context of its own: in many languages its word agrees with
# the thing's gender and number ("carpa branca", "borboletas brancas").
def _koi_colour(name: str) -> str:
    return {
        "white": pgettext("koi colour", "white"),
        "yellow": pgettext("koi colour", "yellow"),
        "red": pgettext("koi colour", "red"),
        "black": pgettext("koi colour", "black"),
    }[name]


def _flower_colour(name: str) -> str:
    return {
        "white": pgettext("flower colour", "white"),
        "yellow": pgettext("flower colour", "yellow"),
        "red": pgettext("flower colour", "red"),
        "black": pgettext("flower colour", "black"),
    }[name]


def _butterflies_colour(name: str) -> str:
    return {
        "white": pgettext("butterflies colour", "white"),
        "yellow": pgettext("butterflies colour", "yellow"),
        "red": pgettext("butterflies colour", "red"),
        "black": pgettext("butterflies colour", "black"),
    }[name]


def kind(name: str) -> str:
    """A feature kind's name, e.g. "frog", "two flowers"."""
    return _(_KIND[name])


def score_item(key: str) -> str:
    """The heading of one score item (`model.SCORE_KEYS`), e.g. "Frogs", "Coins", "Total"."""
    return _(_KIND_PLURAL[key])


def level(name: str) -> str:
    """A Danny difficulty level's name."""
    return _(_LEVEL[name])


def goal_name(goal: str) -> str:
    """A goal card's title."""
    return _(_GOAL_NAME[goal])


def goal_rule(goal: str) -> str:
    """What a goal card scores, in one sentence."""
    v = GOAL_VALUES
    rules = {
        "rarest_colour": _("{n} per koi having the colour you have least of").format(n=v["rarest_colour"]),
        "dragonflies": _("{n} per dragonfly in the row or column of each butterflies tile").format(n=v["dragonflies"]),
        "statues": _("{n} more for each statue touching 4 koi").format(n=v["statues"]),
        "no_baby_koi": _("{n} per koi tile without baby koi").format(n=v["no_baby_koi"]),
        "no_dragonflies": _("{n} per koi tile without dragonflies").format(n=v["no_dragonflies"]),
        "flowers": _("{n} per set of flowers in all 4 colours").format(n=v["flowers"]),
        "frogs_and_turtles": _("{n} per pair of a frog and a turtle").format(n=v["frogs_and_turtles"]),
        "shelter": _("per koi tile with baby koi: {good} next to rocks, {bad} if not").format(
            good=signed(v["shelter_rocks"]), bad=signed(v["shelter_alone"])
        ),
    }
    return rules[goal]


def signed(value: int) -> str:
    """A number with its sign, and a true minus: "+2", "−1"."""
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


def missing_goals() -> list[tuple[str, str]]:
    """The goal cards left out of play (their printed tables are lost), with what the text gives of each."""
    return [(goal_name(g), known) for g, known in MISSING_GOALS]


def _tile(tile: str | Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(tile, str):
        t = TILES[TILE_BY_ID[tile]]
        out: dict[str, Any] = {"id": t.id, "kind": t.kind_name, "colours": list(t.colour_names)}
        if t.koi:
            out.update(baby_koi=t.baby_koi, dragonflies=t.dragonflies, coin=t.coin)
        return out
    return tile


def koi_colours(colours: Sequence[str]) -> str:
    """A koi's colours, as said of a koi: "white", "white–red"."""
    if len(colours) == 1:
        return _koi_colour(colours[0])
    return _("{first}–{second}").format(first=_koi_colour(colours[0]), second=_koi_colour(colours[1]))


def tile_name(tile: str | Mapping[str, Any]) -> str:
    """A tile's short name: "white–red koi", "red flower", "yellow–black flowers", "frog"."""
    t = _tile(tile)
    colours = list(t["colours"])
    if t["kind"] == "koi":
        return _("{colours} koi").format(colours=koi_colours(colours))
    if t["kind"] == "flower":
        return _("{colour} flower").format(colour=_flower_colour(colours[0]))
    if t["kind"] == "two_flowers":
        return _("{first} and {second} flowers").format(
            first=_flower_colour(colours[0]), second=_flower_colour(colours[1])
        )
    if t["kind"] == "butterflies":
        return _("{colour} butterflies").format(colour=_butterflies_colour(colours[0]))
    return kind(str(t["kind"]))


def koi_extras(tile: str | Mapping[str, Any]) -> str:
    """What a koi tile carries besides its koi: "2 baby koi, 1 dragonfly, coin" (empty for a feature)."""
    t = _tile(tile)
    if t["kind"] != "koi":
        return ""
    parts = []
    if t["baby_koi"]:
        parts.append(ngettext("{n} baby koi", "{n} baby koi", t["baby_koi"]).format(n=t["baby_koi"]))
    if t["dragonflies"]:
        parts.append(ngettext("{n} dragonfly", "{n} dragonflies", t["dragonflies"]).format(n=t["dragonflies"]))
    if t["coin"]:
        parts.append(_("coin"))
    return _(", ").join(parts)


def tile_full(tile: str | Mapping[str, Any]) -> str:
    """A tile's name with what a koi carries: "white–red koi (2 baby koi, coin)"."""
    extras = koi_extras(tile)
    name = tile_name(tile)
    return _("{name} ({extras})").format(name=name, extras=extras) if extras else name


def feature_rule(tile: str | Mapping[str, Any]) -> str:
    """What a feature scores, in one short sentence."""
    t = _tile(tile)
    k = t["kind"]
    colours = list(t["colours"])
    if k == "flower":
        return _("2 per touching koi with {colour}; 12 for four").format(colour=colour(colours[0]))
    if k == "two_flowers":
        return _("2 per touching koi with {first} or {second}; 3 if it has both").format(
            first=colour(colours[0]), second=colour(colours[1])
        )
    if k == "rocks":
        return _("1 per baby koi on touching koi tiles")
    if k == "frog":
        return _("1 per dragonfly on touching koi tiles")
    if k == "statue":
        return _("1, 3, 6 or 10 for 1, 2, 3 or 4 touching koi")
    if k == "butterflies":
        return _("2 per koi with {colour} in the same row or column").format(colour=colour(colours[0]))
    if k == "turtle":
        return _("5 points")
    return ""


# ---------------------------------------------------------------------- places: board spaces and pond cells


def space(number: int) -> str:
    """A board space (0-11) as players see it numbered (1-12)."""
    return str(number + 1)


def frame(pond: Sequence[Sequence[Any]]) -> tuple[int, int, int, int]:
    """The part of a pond a picture shows and cells are named in: its tiles with one cell of water around.

    `pond` is a view's pond tile list ([x, y, tile], ...). Returns (min_x, min_y, max_x, max_y), inclusive.
    """
    if not pond:
        return (-1, -1, 1, 1)
    xs = [int(t[0]) for t in pond]
    ys = [int(t[1]) for t in pond]
    return (min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1)


def column_name(index: int) -> str:
    """Column letters: A-Z, then AA, AB, …"""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def cell_name(x: int, y: int, box: tuple[int, int, int, int]) -> str:
    """A pond cell as the picture labels it: a column letter and a row number, e.g. "C4"."""
    return f"{column_name(x - box[0])}{y - box[1] + 1}"


# ---------------------------------------------------------------------- prompts


def question(kind_: str, view: Mapping[str, Any] | None = None) -> str:
    """The question a prompt asks."""
    if kind_ == GOAL:
        return _("Which goal card do you keep? It stays secret until the end.")
    if kind_ == TAKE:
        return _("Which two touching tiles do you take from the board?")
    if kind_ == ZONE:
        return _("Where in your pond? Choose a part of it first.")
    if kind_ == PLACE:
        hand = list((view or {}).get("hand") or [])
        if len(hand) == 2:
            return _("Where do you put a tile? The {koi} or the {feature}, each touching your pond.").format(
                koi=tile_name(hand[0]), feature=tile_name(hand[1])
            )
        if hand:
            return _("Where do you put the {tile}?").format(tile=tile_name(hand[0]))
        return _("Where do you put the tile?")
    raise ValueError(f"unknown prompt kind {kind_!r}")


def points_now(points: int) -> str:
    """What an option scores at once: "+3 now", "0 now"."""
    if points > 0:
        return _("+{n} now").format(n=points)
    if points < 0:
        return _("−{n} now").format(n=-points)
    return _("0 now")


def _fit(text: str) -> str:
    return text if len(text) <= LABEL_LIMIT else text[: LABEL_LIMIT - 1].rstrip() + "…"


def label(option: Option | Mapping[str, Any], view: Mapping[str, Any], seat: int | None = None) -> str:
    """A button or menu label for an option: what it does and what it scores at once (at most 80 characters).

    `option` is a `model.Option` or its view form ({"id", "code"}); `view` the deciding seat's view.
    """
    code = list(option.code if isinstance(option, Option) else option["code"])
    what = code[0]
    if what == "goal":
        return _fit(
            _("Keep “{name}”: {rule} (now {points})").format(
                name=goal_name(code[1]), rule=goal_rule(code[1]), points=code[2]
            )
        )
    if what == "take":
        a, b, koi, feature, best = code[1:6]
        return _fit(
            _("{a}+{b}: {koi} + {feature} · up to {points}").format(
                a=space(a), b=space(b), koi=tile_name(koi), feature=tile_name(feature), points=points_now(best)
            )
        )
    if what == "zone":
        first, last, count = code[1], code[2], code[3]
        box = _box(view, seat)
        top, bottom = first[1] - box[1] + 1, last[1] - box[1] + 1
        if first == last:
            where = cell_name(first[0], first[1], box)
        elif top == bottom:
            where = _("Row {row}, {first} to {last}").format(
                row=top, first=column_name(first[0] - box[0]), last=column_name(last[0] - box[0])
            )
        else:
            where = _("Rows {top} to {bottom}").format(top=top, bottom=bottom)
        return _fit(ngettext("{where}: {n} place", "{where}: {n} places", count).format(where=where, n=count))
    if what == "place":
        x, y, tile, points = code[1:5]
        box = _box(view, seat)
        return _fit(
            _("{tile} → {cell} · {points}").format(
                tile=tile_name(tile).capitalize(), cell=cell_name(x, y, box), points=points_now(points)
            )
        )
    raise ValueError(f"unknown option code {what!r}")


def option_emoji(option: Option | Mapping[str, Any]) -> str | None:
    """An option's emoji: the feature a take brings beside its koi, the tile a placement places; None for a goal
    card or a zone."""
    code = list(option.code if isinstance(option, Option) else option["code"])
    if code[0] == "take":
        return KIND_EMOJI.get(str(_tile(code[4])["kind"]))
    if code[0] == "place":
        return KIND_EMOJI.get(str(_tile(code[3])["kind"]))
    return None


def _box(view: Mapping[str, Any], seat: int | None) -> tuple[int, int, int, int]:
    prompt = view.get("prompt") or {}
    who = prompt.get("seat", seat if seat is not None else view.get("current"))
    if who is None:
        return frame([])
    return frame(view["ponds"][who]["tiles"])


# ---------------------------------------------------------------------- narration


def _name(names: Sequence[str], seat: int) -> str:
    if seat < 0:
        return _("Danny")
    return names[seat] if seat < len(names) else _("Seat {n}").format(n=seat + 1)


def narrate(event: Event | Mapping[str, Any], names: Sequence[str]) -> str | None:
    """One sentence for an event, or None for the steps a reader need not be told about.

    `names` maps seats to player names.
    """
    if isinstance(event, Event):
        kind_, seat, data = event.kind, event.seat, event.data
    else:
        kind_, seat, data = event["kind"], event["seat"], event["data"]
    who = _name(names, seat)
    if kind_ == "goal_kept":
        return _("{name} kept a goal card.").format(name=who)
    if kind_ == "took":
        return _("{name} took the {koi} and the {feature}.").format(
            name=who, koi=tile_full(data["koi"]), feature=tile_name(data["feature"])
        )
    if kind_ == "placed":
        tile = tile_name(data["tile"])
        if data["gain"]:
            return _("{name} placed the {tile}: {points}.").format(
                name=who,
                tile=tile,
                points=ngettext("{n} point", "{n} points", abs(data["gain"])).format(n=signed(data["gain"])),
            )
        return _("{name} placed the {tile}.").format(name=who, tile=tile)
    if kind_ == "drawn":
        return _("New on space {space}: {tile}.").format(space=space(data["space"]), tile=tile_full(data["tile"]))
    if kind_ == "danny_revealed":
        return _("Danny turned up the {tile}.").format(tile=tile_full(data["tile"]))
    if kind_ == "danny_took":
        count = len(data["tiles"])
        if not count:
            return _("Danny found no match on the board and keeps only that tile.")
        return ngettext(
            "Danny took {n} matching tile from the board: {tiles}.",
            "Danny took {n} matching tiles from the board: {tiles}.",
            count,
        ).format(n=count, tiles=_(", ").join(tile_name(t) for t in data["tiles"]))
    if kind_ == "danny_nothing":
        return _("Danny's stack is empty: he turns up nothing.")
    if kind_ == "turn_started":
        return _("{name}'s turn.").format(name=who)
    if kind_ == "game_over":
        return game_over(data, names)
    return None  # moved, zone_chosen, turn_ended: shown by the pictures


# The events a round's post tells of each turn: what was kept, taken and placed, and Danny's part of a solo turn.
# The refills are left to the pictures, and the end to the end's post.
_TOLD_IN_A_LINE = ("goal_kept", "took", "placed", "danny_revealed", "danny_took", "danny_nothing")


def turn_heading(name: str, number: int, gain: int, total: int) -> str:
    """A finished turn's record heading: who, the round, the points it won and the total as anyone sees it (a goal
    card counts once the game is over): "**aiko** · round 5 · +9 → 45 points"."""
    points = ngettext("{total} point", "{total} points", abs(total)).format(total=signed(total).lstrip("+"))
    return _("**{name}** · round {number} · {gain} → {points}").format(
        name=name, number=number, gain=f"+{gain}" if gain >= 0 else signed(gain), points=points
    )


def round_heading(number: int) -> str:
    """The heading of a round's post (each seat once round the table) in a game only the AI plays."""
    return _("**Round {number}** · the AI plays every seat").format(number=number)


def turn_line(events: Sequence[Event | Mapping[str, Any]], names: Sequence[str]) -> str:
    """A finished turn in one line of a round's post: its sentences of what was kept, taken and placed."""
    told = []
    for event in events:
        kind_ = event.kind if isinstance(event, Event) else event["kind"]
        if kind_ in _TOLD_IN_A_LINE:
            sentence = narrate(event, names)
            if sentence:
                told.append(sentence)
    return " ".join(told)


def game_over(data: Mapping[str, Any], names: Sequence[str]) -> str:
    """The end of the game in one or two sentences: who won, or how the solo game went at each level; with goal
    cards, the card each player kept (secret until now) and what it scored."""
    told = _game_over(data, names)
    goals = data.get("goals")
    if not goals:
        return told
    scores = data["outcome"]["scores"]
    kept = [
        _("{name}: {card} ({points})").format(
            name=_name(names, seat), card=goal_name(card), points=signed(int(scores[seat].get("goal", 0)))
        )
        for seat, card in enumerate(goals)
        if card
    ]
    return f"{told} " + _("Goal cards kept: {cards}.").format(cards=format_list(kept)) if kept else told


def _game_over(data: Mapping[str, Any], names: Sequence[str]) -> str:
    outcome = data["outcome"]
    totals = [s["total"] for s in outcome["scores"]]
    if "danny" in outcome:
        danny = outcome["danny"]
        beaten = [level(lv) for lv in ("easy", "medium", "hard") if outcome["beaten"][lv]]
        mine = totals[0]
        scores = _(", ").join(
            _("{level} {points}").format(level=level(lv), points=danny[lv]) for lv in ("easy", "medium", "hard")
        )
        if not beaten:
            return _("The game is over: {points} points. Danny scored {scores}: he wins at every level.").format(
                points=mine, scores=scores
            )
        return ngettext(
            "The game is over: {points} points. Danny scored {scores}: you beat him at {levels}.",
            "The game is over: {points} points. Danny scored {scores}: you beat him at {levels}.",
            len(beaten),
        ).format(points=mine, scores=scores, levels=format_list(beaten))
    winners = [i for i, p in enumerate(outcome["places"]) if p == 1]
    if len(winners) == 1:
        return _("The game is over: {name} wins with {points} points.").format(
            name=_name(names, winners[0]), points=totals[winners[0]]
        )
    return _("The game is over: {names} share the victory with {points} points.").format(
        names=format_list([_name(names, w) for w in winners]), points=totals[winners[0]]
    )


def score_lines(score: Mapping[str, int]) -> list[tuple[str, int]]:
    """A score's items that are not zero, with their headings, and the total last."""
    return [(score_item(k), score[k]) for k in SCORE_KEYS if k == "total" or score.get(k)]


def kinds() -> tuple[str, ...]:
    """Every feature kind, in the rulebook's order."""
    return KINDS


def colours() -> tuple[str, ...]:
    """Every colour, in the pictures' order."""
    return COLOURS


def goals() -> tuple[str, ...]:
    """The goal cards in play."""
    return GOALS


def rules_text() -> str:
    """The rules in brief (`/games rules` with Kōhaku), in the current language."""
    return _(
        "Build the finest koi pond. **Your turn** take two touching tiles from the board, always one koi and one "
        "feature, and add them to your pond: koi and features alternate like a checkerboard, and each new tile "
        "touches one already there (your first two are placed for you). The two middle spaces of the board are then "
        "refilled. The game ends when the board cannot be refilled.\n"
        "**Scoring** at the end, each feature scores the tiles around it: **1 flower** 2 per touching koi of its "
        "colour (12 for four) · **2 flowers** 2 per touching koi of one of their colours, 3 of both · **rocks** 1 "
        "per baby koi on touching tiles · **frog** 1 per touching dragonfly · **statue** 1, 3, 6 or 10 for 1 to 4 "
        "touching koi · **butterflies** 2 per koi of their colour in the same row or column · **turtle** 5 · and 1 "
        "per coin. Most points wins; a tie goes to the most coins, then is shared.\n"
        "**Solo** after each of your turns, Danny turns up a koi tile and takes it with every koi of the same "
        "colours on the board (none: he turns up a feature tile and takes every feature of its kind), then the "
        "board is refilled. You beat him at a level when you score more "
        "than he does: easy, normal and hard count his tiles differently.\n"
        "**Goal cards** (a variant for 2–4 players) each player keeps one of two cards in secret, scored at the end."
    )
