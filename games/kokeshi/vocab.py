"""Every name and phrase a player reads: colours, kokeshi, animals, score items, tiles and the choices of a prompt.

Text and pictures both take their words from here, so each thing has one name everywhere. The rules (`engine/`)
speak in codes with values (an option's `words`, an event's `reason`, an `IllegalAction`'s `code`); this module
words them. Every string passes
through `_` (`i18n`: the gettext catalog of the current language, English being the source) as a whole format
string with named placeholders, never as fragments glued together, so that a translation can reorder the words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from games.kokeshi.engine.data import (
    ADJACENCY_PENALTY,
    ADV,
    ANIMAL,
    ANIMAL_ANY,
    ANIMAL_NAMES,
    ANIMALS,
    ANY,
    ANY2,
    BUY_ANY,
    BUY_HERE,
    COLORS,
    CURRENT_RULES,
    KOKESHI,
    KOKESHI_NAMES,
    LEAD_BONUS,
    LEFT,
    QUALITY,
    QUALITY_POINTS,
    RIGHT,
    STARTING,
    TILE_BY_ID,
    TILESETS,
    TOP_POINTS,
    TRACK_SCORE,
    Atom,
)
from i18n import N_, _, format_points, ngettext, pgettext

# The names kept in `engine/components.toml`, marked here so that the catalog carries them.
_NAMES = (
    N_("Princess"),
    N_("Batchan"),
    N_("Fisherman"),
    N_("Samurai"),
    N_("Sumotori"),
    N_("Panda"),
    N_("Fox"),
    N_("Cat"),
    N_("Rabbit"),
)


class Names(Mapping[str, str]):
    """A read-only mapping whose values are looked up, in the current language, each time they are read."""

    def __init__(self, keys: Iterable[str], word: Callable[[str], Any]) -> None:
        self._keys = tuple(keys)
        self._word = word

    def __getitem__(self, key: str) -> Any:
        if key not in self._keys:
            raise KeyError(key)
        return self._word(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


# The rulebook names the colours "roxo, rosa, amarelo, verde e azul". The internal id of "roxo" is "purple";
# players read "violet", which also matches the letter V printed on those tiles (P is pink).
_COLOR_WORDS = {
    "pink": N_("pink"),
    "purple": N_("violet"),
    "blue": N_("blue"),
    "green": N_("green"),
    "yellow": N_("yellow"),
}
# Looked up with the context "colour letter" (one letter, or two where a language's colour names share initials).
_COLOR_LETTERS = {"pink": "P", "purple": "V", "blue": "B", "green": "G", "yellow": "Y"}
_LETTER_MESSAGES = (
    pgettext("colour letter", "P"),
    pgettext("colour letter", "V"),
    pgettext("colour letter", "B"),
    pgettext("colour letter", "G"),
    pgettext("colour letter", "Y"),
)

# Words that must never reach a player because the vocabulary names the same thing differently.
# Checked by the tests over every label, narration line, picture text and source string.
RETIRED_WORDS: tuple[str, ...] = ("purple", "adjacency", "in play")

# Score items in the order the pictures' score tables show them, then the total.
SCORE_ITEMS: tuple[str, ...] = ("in_play", "tracks", "quality", "animals", "leads", "adjacency", "total")
# One emoji per score item (the total aside): a score's one-line summary (a share card).
SCORE_EMOJI = {"in_play": "🔝", "tracks": "🪆", "quality": "💎", "animals": "🐼", "leads": "👑", "adjacency": "🔗"}
# One emoji per kokeshi and per animal, beside a choice that names one, so that it reads at a glance on a phone.
KOKESHI_EMOJI = {"princess": "👑", "batchan": "👵", "fisherman": "🎣", "samurai": "⚔️", "sumotori": "🥋"}
ANIMAL_EMOJI = {"panda": "🐼", "fox": "🦊", "cat": "🐱", "rabbit": "🐰"}


AUTOMA_SEAT = "automa"  # the engine's name for the solo opponent's seat


def seat_name(name: object) -> str:
    """A seat's name as players read it: the solo opponent is "the automa" (o jogador fictício), others as named."""
    return _("automa") if name == AUTOMA_SEAT else str(name)


def _key(value: int | str, ids: tuple[str, ...]) -> int:
    return value if isinstance(value, int) else ids.index(value)


def color(value: int | str) -> str:
    """A colour's name, by kokeshi index or internal colour id (`purple` reads `violet`)."""
    cid = COLORS[value] if isinstance(value, int) else value
    return _(_COLOR_WORDS[cid])


def color_letter(value: int | str) -> str:
    """The one letter printed on a tile of that colour, so colours read without seeing them."""
    cid = COLORS[value] if isinstance(value, int) else value
    return pgettext("colour letter", _COLOR_LETTERS[cid])


def kokeshi(value: int | str) -> str:
    """A kokeshi's name, by index or internal id."""
    return _(KOKESHI_NAMES[_key(value, KOKESHI)])


def animal(value: int | str) -> str:
    """An animal track's name, by index or internal id."""
    return _(ANIMAL_NAMES[_key(value, ANIMALS)])


def score_item(key: str) -> str:
    """The name of a score item (`in_play`, `tracks`, `quality`, `animals`, `leads`, `adjacency`, `total`)."""
    return {
        # "Trilhas de Animais"
        "animals": _("Animals"),
        # "Vitórias nas Trilhas de Animais"
        "leads": _("Leads"),
        # "Trilhas de Kokeshi"
        "tracks": _("Tracks"),
        # "Peças de Reconhecimento de Qualidade"
        "quality": _("Quality"),
        # "Pares de Peças Adjacentes da Mesma Cor"
        "adjacency": _("Pairs"),
        # "Pontos durante a partida": a kokeshi passing the top
        "in_play": _("Top"),
        "total": _("Total"),
    }[key]


def score_heading(key: str) -> str:
    """A score item's name as a narrow column heading of a score table (short where a language's word is long)."""
    return {
        "animals": pgettext("score column", "Animals"),
        "leads": pgettext("score column", "Leads"),
        "tracks": pgettext("score column", "Tracks"),
        "quality": pgettext("score column", "Quality"),
        "adjacency": pgettext("score column", "Pairs"),
        "in_play": pgettext("score column", "Top"),
        "total": pgettext("score column", "Total"),
    }[key]


def score_rule(key: str) -> str:
    """How a score item is counted, in a few words."""
    heights = sorted(h for h, _unused in TRACK_SCORE)
    points = [dict(TRACK_SCORE)[h] for h in heights]
    return {
        "in_play": _("{points} per kokeshi past the top").format(points=TOP_POINTS),
        "tracks": _("{points} for a track {heights} high").format(
            points=" / ".join(map(str, points)), heights=" / ".join(map(str, heights))
        ),
        "quality": _("points of the quality tiles placed"),
        "animals": _("the value under each disc"),
        "leads": _("{points} per animal track led").format(points=LEAD_BONUS),
        "adjacency": _("{penalty} per same-colour pair").format(penalty=signed(-ADJACENCY_PENALTY)),
        "total": "",
    }[key]


def score_line(score: object) -> str:
    """Every score item with its points, e.g. "Animals 21 · Leads 3 · … · Pairs −6 · Top 3"."""
    parts = []
    for key in SCORE_ITEMS[:-1]:
        value = int(score[key] if isinstance(score, dict) else getattr(score, key))
        parts.append(_("{item} {points}").format(item=score_item(key), points=signed(value)))
    return " · ".join(parts)


def signed(value: int) -> str:
    """A number with a real minus sign when negative."""
    return f"\u2212{-value}" if value < 0 else str(value)


def number(value: int) -> str:
    """A count of points as the current language writes numbers ("1,234", "1.234"), with a real minus sign."""
    return format_points(value)


def effect(atom: Atom) -> str:
    """What one side of a tile advances or does, as a phrase inside a tile's description."""
    op, arg = atom
    if op == ADV:
        return kokeshi(arg)
    if op == ANIMAL:
        return _("the {animal} disc").format(animal=animal(arg))
    return {
        LEFT: _("a kokeshi to the left"),
        RIGHT: _("a kokeshi to the right"),
        ANY: _("any kokeshi"),
        ANY2: _("any kokeshi two spaces"),
        ANIMAL_ANY: _("a disc on an animal track"),
        BUY_ANY: _("buy a tile for any track"),
        BUY_HERE: _("buy a tile for this track"),
    }[op]


def effect_choice(atom: Atom) -> str:
    """One side of a tile as a button: what choosing it does."""
    op, arg = atom
    if op == ADV:
        return _("Advance the {kokeshi}").format(kokeshi=kokeshi(arg))
    if op == ANIMAL:
        return _("Advance your {animal} disc").format(animal=animal(arg))
    return {
        LEFT: _("Advance a kokeshi to the left"),
        RIGHT: _("Advance a kokeshi to the right"),
        ANY: _("Advance any kokeshi"),
        ANY2: _("Advance any kokeshi two spaces"),
        ANIMAL_ANY: _("Advance a disc on an animal track"),
        BUY_ANY: _("Buy a tile for any track"),
        BUY_HERE: _("Buy a tile for this track"),
    }[op]


def effect_void(atom: Atom) -> str:
    """One side of a tile as a button when choosing it does nothing here (it may still be chosen)."""
    return _("{choice} (does nothing)").format(choice=effect_choice(atom))


def tile(value: int | str, rules: int = CURRENT_RULES) -> str:
    """A tile by what it does, e.g. "yellow: Sumotori or a kokeshi to the right"; by index or tile id, as the
    tile is under that rules version."""
    t = TILESETS[rules][value if isinstance(value, int) else TILE_BY_ID[value]]
    if t.kind == QUALITY:
        return _("{kokeshi} quality tile, level {level} ({points} points)").format(
            kokeshi=kokeshi(t.color), level=t.level, points=QUALITY_POINTS[t.level - 1]
        )
    first, second = (effect(a) for a in t.atoms)
    if t.mode == "&":
        return _("{color}: {first}, then {second}").format(color=color(t.color), first=first, second=second)
    if t.atoms[0][0] in (BUY_ANY, BUY_HERE):
        # "buy a tile for any track or any kokeshi" would read as buying for a kokeshi: the second side is a move.
        return _("{color}: {first} or advance {second}").format(color=color(t.color), first=first, second=second)
    return _("{color}: {first} or {second}").format(color=color(t.color), first=first, second=second)


def tile_effects(value: int | str, rules: int = CURRENT_RULES) -> str:
    """What a tile does, without its colour: "Sumotori or a kokeshi to the right", "Princess, then the Panda disc"."""
    t = TILESETS[rules][value if isinstance(value, int) else TILE_BY_ID[value]]
    if t.kind == QUALITY:
        return _("quality tile, level {level} ({points} points)").format(
            level=t.level, points=QUALITY_POINTS[t.level - 1]
        )
    first, second = (effect(a) for a in t.atoms)
    if t.mode == "&":
        return _("{first}, then {second}").format(first=first, second=second)
    if t.atoms[0][0] in (BUY_ANY, BUY_HERE):
        return _("{first} or advance {second}").format(first=first, second=second)
    return _("{first} or {second}").format(first=first, second=second)


def buy(slot: int, value: int | str, rules: int = CURRENT_RULES) -> str:
    """The button to buy the tile in offer place `slot` (numbered from 1, as in the pictures)."""
    return _("Buy {slot} · {tile}").format(slot=slot, tile=tile(value, rules))


def place(value: int | str, track: int | str, rules: int = CURRENT_RULES, starting: bool = False) -> str:
    """The button to place a tile on a track; `starting` names it a starting tile (`twins`)."""
    return _("{kokeshi} track · {tile}").format(tile=tile_named(value, rules, starting), kokeshi=kokeshi(track))


def tile_named(value: int | str, rules: int = CURRENT_RULES, starting: bool = False) -> str:
    """A tile by what it does (`tile`); `starting` names it a starting tile, as `twins` finds it needs."""
    if starting:
        return _("starting tile, {tile}").format(tile=tile(value, rules))
    return tile(value, rules)


def _tile_index(value: int | str) -> int:
    return value if isinstance(value, int) else TILE_BY_ID[value]


def twins(options: Iterable[Any]) -> frozenset[str]:
    """The placements among these options (a prompt's) whose tile reads as another tile they place: a starting
    tile and the pair tile of the same colour and sides are worded alike, and only the starting tile's white bar
    tells them apart. The starting one's words then say it is one (the action ids returned)."""
    options = list(options)
    alike: dict[tuple[Any, ...], set[int]] = {}
    placed: list[tuple[str, tuple[Any, ...], bool]] = []
    for option in options:
        words = getattr(option, "words", ())
        if not words or words[0] != "place":
            continue
        index, _track, rules = words[1]
        t = TILESETS[rules][_tile_index(index)]
        look = (t.color, t.atoms, t.mode, t.level)
        alike.setdefault(look, set()).add(t.index)
        placed.append((option.id, look, t.kind == STARTING))
    return frozenset(action for action, look, starting in placed if starting and len(alike[look]) > 1)


def advance(track: int | str, steps: int = 1) -> str:
    """The button to advance a kokeshi one or two spaces."""
    if steps == 2:
        return _("Advance the {kokeshi} two spaces").format(kokeshi=kokeshi(track))
    return _("Advance the {kokeshi}").format(kokeshi=kokeshi(track))


def move_disc(value: int | str) -> str:
    """The button to advance a disc on an animal track."""
    return _("Advance your {animal} disc").format(animal=animal(value))


def take_quality(track: int | str, level: int) -> str:
    """The button to take a quality tile."""
    return _("Take the level {level} {kokeshi} quality tile ({points} points)").format(
        level=level, kokeshi=kokeshi(track), points=QUALITY_POINTS[level - 1]
    )


def question(kind: str) -> str:
    """What a prompt of this kind asks, as a heading for its buttons and its picture."""
    return {
        "setup": _("Place your two starting tiles, on two different tracks"),
        "advance": _("Advance one of your kokeshi"),
        "effect": _("Choose one side of the tile"),
        "kokeshi": _("Choose the kokeshi to advance"),
        "animal": _("Choose the animal track for your disc"),
        "buy": _("Choose a tile to buy"),
        "place": _("Place the tiles you bought"),
    }.get(kind, _("Choose"))


_LABELS: dict[str, Callable[..., str]] = {}


def label(option: Any, starting: bool = False) -> str:
    """An engine option's button label in the current language, from its `words` (a code and its values);
    `starting`: a placement whose tile is named a starting tile (`twins`)."""
    words = getattr(option, "words", ())
    if starting and words and words[0] == "place":
        index, track, rules = words[1]
        return place(index, track, rules, starting=True)
    return label_of(words)


def label_of(words: Any) -> str:
    """A button label from an option's `words`, as the option holds them or as an event or a view carries them
    (lists for tuples)."""
    if not _LABELS:
        _LABELS.update(
            advance=advance,
            effect_choice=effect_choice,
            effect_void=effect_void,
            move_disc=move_disc,
            buy=buy,
            take_quality=take_quality,
            place=place,
        )
    if not words or words[0] not in _LABELS:
        raise ValueError(f"not an option's words: {words!r}")
    name, args = words
    if name in ("effect_choice", "effect_void"):
        args = [tuple(args[0])]
    return _LABELS[name](*args)


def points(value: int) -> str:
    """A number of points, e.g. "34 pts"."""
    return _("{points} pts").format(points=signed(value))


def quality_offer(levels: list[int]) -> str:
    """The quality tiles a buy prompt also offers, e.g. "or quality level 2, 3"."""
    return _("or quality level {levels}").format(levels=", ".join(map(str, levels)))


def round_name(number: int, final: bool = False) -> str:
    """The stage of a game for status lines: "setup" before round 1."""
    if number <= 0:
        return _("setup")
    if final:
        return _("round {number} (the last)").format(number=number)
    return _("round {number}").format(number=number)


def idle_left(left: int, name: str | None = None) -> str:
    """How many idle turns are left before the end against stalling: a player's own (`name`), or the table's."""
    if name is None:
        return ngettext("{count} idle turn left", "{count} idle turns left", left).format(count=left)
    return ngettext("{name}: {count} idle turn left", "{name}: {count} idle turns left", left).format(
        name=seat_name(name), count=left
    )


def idle_warning(left: int, name: str | None = None, rules: int = CURRENT_RULES) -> str:
    """The prompt's line when the end against stalling is near: how many idle turns are left and what one is."""
    if rules >= 4:
        return _(
            "⏳ **{left}** before the end is triggered (an idle turn: a kokeshi passes the top, with no tile taken "
            "from the offer and no recognition gained)."
        ).format(left=idle_left(left, name))
    return _("⏳ **{left}** before the end is triggered.").format(left=idle_left(left, name))


# The engine's reasons (`engine.REASONS`: an event's `reason`, with the values it names beside it).
_REASON_WORDS = {
    "offer_empty": N_("the offer is empty"),
    "every_track_full": N_("every track is full"),
    "track_full": N_("the {kokeshi} track is full"),
    "every_disc_at_end": N_("every disc is at the end of its track"),
    "disc_at_end": N_("your {animal} disc is at the end of its track"),
    "no_track_on_side": N_("there is no track on that side"),
    "nothing_to_do": N_("nothing can be done"),
    "no_legal_space": N_("it has no legal space"),
    "no_room": N_("no track has room for it"),
    "bag_empty": N_("the bag is empty"),
    "automa_track_full": N_("the automa's track is full"),
    "empty_space": N_("empty space"),
}


def reason(data: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> str:
    """An engine's reason for a skipped effect or a discarded tile: its `reason` code and the values it names (an
    event's data, or its pairs), with every name in its player-facing form."""
    d = dict(data)
    code = d["reason"]
    if code == "automa_track_full" and d.get("kokeshi"):
        return _("the automa's {kokeshi} track is full").format(kokeshi=kokeshi(d["kokeshi"]))
    template = _REASON_WORDS[code]
    if code == "track_full":
        return _(template).format(kokeshi=kokeshi(d["kokeshi"]))
    if code == "disc_at_end":
        return _(template).format(animal=animal(d["animal"]))
    return _(template)


def illegal(exc: Any) -> str:
    """The engine's refusal of an action (an `IllegalAction`, by its code), in the current language."""
    return {
        "game_over": _("The game is over."),
        "not_your_turn": _("It is not your turn."),
        "unknown_player": _("You are not playing in this game."),
    }.get(exc.code, _("That is not possible now. Choose one of the buttons of the current prompt."))


# ------------------------------------------------------------------ what an option will do (engine.preview)

ARROW = "→"


def signed_points(value: int) -> str:
    """A change of score, always signed: "+5 pts", "−3 pts", "+0 pts"."""
    return _("{points} pts").format(points=f"+{value}" if value >= 0 else signed(value))


def pairs(count: int) -> str:
    """Same-colour pairs a placement makes, with what they cost: "makes a pair (−3)"."""
    return ngettext("makes a pair ({points})", "makes {count} pairs ({points})", count).format(
        count=count, points=signed(-ADJACENCY_PENALTY * count)
    )


def track_height(track: str | int | None, height: int | None) -> str:
    """Where a bought tile goes: "Samurai track, height 3", or the side reserve."""
    if track is None or height is None:
        return _("any track (you choose it when placing)")
    return _("{kokeshi} track, height {height}").format(kokeshi=kokeshi(track), height=height)


def recognition_count(total: int, goal: int) -> str:
    """A player's recognitions against the number that ends the game: "recognition 3 of 5"."""
    return _("recognition {count} of {goal}").format(count=total, goal=goal)


def disc_value(animal_id: str, value: int) -> str:
    """A disc by the value printed where it stands: "Fox disc to 13"."""
    return _("{animal} disc to {value}").format(animal=animal(animal_id), value=value)


def lead_won(animal_id: str) -> str:
    """Taking the lead on an animal track."""
    return _("leads the {animal}").format(animal=animal(animal_id))


def lead_lost(animal_id: str) -> str:
    """Losing the lead on an animal track."""
    return _("loses the {animal} lead").format(animal=animal(animal_id))


def either(names: list[str]) -> str:
    """Names joined as a choice: "Samurai or Sumotori", "Princess, Batchan or Fisherman"."""
    if len(names) == 1:
        return names[0]
    return _("{names} or {last}").format(names=", ".join(names[:-1]), last=names[-1])


def _empty_space(outcome: Any) -> str:
    """An empty space reached: the purchase it leads to, or why there is none."""
    pending = outcome.pending
    skipped = next((p for p in outcome.purchases if p.skipped), None)
    if pending is None and skipped is not None:
        why = reason({"reason": skipped.skipped, "kokeshi": skipped.track})
        return _("empty space: nothing to buy ({reason})").format(reason=why)
    if pending is not None and pending.quality:
        return _("empty space: buy, {quality}").format(quality=quality_offer(list(pending.quality)))
    return _("empty space: buy for this track")


def landing(outcome: Any, brief: bool = False) -> str:
    """Where the chosen kokeshi arrives, quality steps followed: "quality tile: one more step → past the top: +3"
    (`brief`: "quality tile → past the top: +3")."""
    from games.kokeshi.engine import preview as pv

    parts = []
    for step in outcome.path:
        if step.space == pv.QUALITY:
            parts.append(_("quality tile") if brief else _("quality tile: one more step"))
        elif step.space == pv.EMPTY:
            parts.append(_empty_space(outcome))
        elif step.space == pv.TILE:
            parts.append(_("tile: {effects}").format(effects=tile_effects(step.tile, outcome.rules)))
        else:
            parts.append(_("past the top: {points}").format(points=f"+{TOP_POINTS}"))
    return f" {ARROW} ".join(parts)


def _notes(outcome: Any, said: set[str], brief: bool = False) -> list[str]:
    """What else the option brings at once: recognitions, leads, the end, the points (`brief`: the end and the
    points only)."""
    notes = []
    ends = outcome.end is not None and outcome.end != "bag"
    if outcome.recognitions and "recognition" not in said and not brief:
        count = recognition_count(outcome.recognitions_total, outcome.recognitions_goal)
        if ends:
            count = _("{recognition}: the end").format(recognition=count)
            ends = False
        notes.append(count)
    if not brief:
        notes += [lead_won(a) for a in outcome.leads_won()]
        notes += [lead_lost(a) for a in outcome.leads_lost()]
    if ends:
        notes.append(_("triggers the end"))
    items = dict(outcome.items)
    # Points already told: passing the top ("+3"), or only the pairs a placement makes ("(−3)").
    told = (items == {"in_play": TOP_POINTS} and "top" in said) or (set(items) == {"adjacency"} and "pairs" in said)
    if outcome.points and not told:
        notes.append(signed_points(outcome.points))
    return notes


def consequence(outcome: Any, brief: bool = False) -> str:
    """What an option does at once, in a few words, as `engine.preview` found it (no arrow, no sentence).
    `brief` leaves out what the pictures also show (recognition counts, leads) and shortens a quality tile's step;
    where a kokeshi lands, where a tile goes, the pairs it makes and the points stay."""
    from games.kokeshi.engine import preview as pv

    said: set[str] = set()
    head = ""
    mine = [d for d in outcome.discs if d.player == outcome.player]
    made = [p for p in outcome.purchases if p.tile is not None]
    placed = [p for p in outcome.placements if p.player == outcome.player]
    if outcome.landings:
        head = landing(outcome, brief)
        if outcome.final.space == pv.TOP:
            said.add("top")
    elif made:
        p = made[0]
        # Briefly: every purchase of a prompt goes to the same track (the picture names it); its height stays.
        head = _("height {height}").format(height=p.height) if brief and p.height else track_height(p.track, p.height)
        if p.pairs:
            head = _("{where}, {pairs}").format(where=head, pairs=pairs(p.pairs))
            said.add("pairs")
    elif outcome.pending is not None and outcome.pending.track is not None:
        # The choice says it buys ("Buy a tile for this track"): where the tile goes.
        p = outcome.pending
        head = track_height(p.track, p.height)
    elif mine:
        step = mine[0]
        head = str(step.value_to)
        if step.red_line:
            head = _("{value}, crosses the red line").format(value=head)
        if step.bonus:
            head = _("{value}, bonus tile").format(value=head)
    elif placed:
        p = placed[0]
        head = _("height {height}").format(height=p.height)
        # A tile left with one place only goes there at once: said too, since its points count now.
        for q in placed[1:] if not brief else ():
            head = _("{first}, then {then}").format(first=head, then=track_height(q.track, q.height))
        count = sum(q.pairs for q in placed)
        if count:
            head = _("{where}, {pairs}").format(where=head, pairs=pairs(count))
            said.add("pairs")
    elif outcome.next == "kokeshi":
        names = [kokeshi(o.split(":")[1]) for o in outcome.next_options]
        if len(names) < len(KOKESHI):
            head = _("choose: {names}").format(names=either(names))
    elif outcome.skipped:
        head = _("does nothing ({reason})").format(reason=reason(outcome.skipped[0]))
    notes = _notes(outcome, said, brief)
    return " · ".join(p for p in (head, ", ".join(notes)) if p)


def option_parts(option: Any, outcome: Any = None, brief: bool = False, starting: bool = False) -> tuple[str, str, str]:
    """An option in three parts: what it is ("Buy 3"), the tile it is about (or ""), and what it does (or "").
    `starting`: a placement whose tile is named a starting tile, as `twins` finds it needs."""
    words: tuple[Any, ...] = getattr(option, "words", ())
    name: str = words[0] if words else ""
    args: tuple[Any, ...] = words[1] if words else ()
    if name == "take_quality":
        head, detail = (
            _("Take quality tile {level} ({points} points)").format(level=args[1], points=QUALITY_POINTS[args[1] - 1]),
            "",
        )
    elif name == "buy":
        head, detail = _("Buy {slot}").format(slot=args[0]), tile(args[1], args[2])
    elif name == "place":
        # The tile's colour beside its track: two bought tiles bound for the same track differ only by the tile,
        # and a long consequence must not push what tells them apart out of the button.
        t = TILESETS[args[2]][args[0] if isinstance(args[0], int) else TILE_BY_ID[args[0]]]
        if starting:
            head = _("{kokeshi} track · {color} starting tile").format(kokeshi=kokeshi(args[1]), color=color(t.color))
        else:
            head = _("{kokeshi} track · {tile}").format(kokeshi=kokeshi(args[1]), tile=color(t.color))
        detail = tile_effects(args[0], args[2])
    elif name == "advance" and brief:
        # The question says what is advanced; the kokeshi's name is enough beside what it leads to.
        k, steps = (args[0], args[1]) if len(args) > 1 else (args[0], 1)
        head = kokeshi(k) if steps == 1 else _("{kokeshi}, two spaces").format(kokeshi=kokeshi(k))
        detail = ""
    elif name == "effect_choice" and brief and args[0][0] == ADV:
        head, detail = kokeshi(args[0][1]), ""
    elif name == "effect_void" and outcome is not None:
        # The consequence says it does nothing, and why.
        head, detail = effect_choice(*args), ""
    else:
        head, detail = label(option), ""
    return head, detail, consequence(outcome, brief) if outcome is not None else ""


def option_core(option: Any, outcome: Any = None, brief: bool = False, starting: bool = False) -> str:
    """What a button must show whole: the choice and what it does (the tile it is about may be cut after it)."""
    head, _detail, result = option_parts(option, outcome, brief, starting)
    return f"{head} {ARROW} {result}" if result else head


def option_button(option: Any, outcome: Any = None, brief: bool = False, starting: bool = False) -> str:
    """A button's whole text: the choice, what it does, then the tile it is about (cut from the end to fit)."""
    _head, detail, _result = option_parts(option, outcome, brief, starting)
    text = option_core(option, outcome, brief, starting)
    return f"{text} · {detail}" if detail else text


def fit(text: str, limit: int) -> str:
    """`text` cut at a word to fit `limit` characters, with "…" when cut."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    space = head.rfind(" ")
    return (head[:space] if space > limit // 2 else head).rstrip(" ·,") + "…"


def labels(
    options: Sequence[Any],
    outcomes: Mapping[str, Any],
    room: int,
    button: int | None = 80,
    cut: Callable[[str, int], str] = fit,
) -> list[str]:
    """A prompt's labels on one line each, in order, cut (`cut`) to `room` characters: the choice and what it does
    (briefly when that would not fit a `button` whole; None: never), then the tile it is about (`option_button`), a
    starting tile worded as another named one (`twins`). Two that would read alike once cut (the tile's words past
    the room) are said briefly, and if still alike, with the tile's words before what it does."""
    marked = twins(options)

    def told(option: Any, brief: bool | None) -> str:
        outcome, starting = outcomes.get(option.id), option.id in marked
        if outcome is None:
            return cut(label(option, starting), room)
        if brief is None:
            brief = button is not None and len(option_core(option, outcome, starting=starting)) > button
        return cut(option_button(option, outcome, brief, starting), room)

    def tile_first(option: Any) -> str:
        head, result = option_menu(option, outcomes.get(option.id), True, option.id in marked)
        return cut(f"{head} {result}" if result else head, room)

    said = [told(o, None) for o in options]
    for again in (lambda o: told(o, True), tile_first):
        alike = {text for text in said if said.count(text) > 1}
        if not alike:
            break
        said = [again(o) if text in alike else text for o, text in zip(options, said, strict=True)]
    return said


def option_menu(option: Any, outcome: Any = None, brief: bool = False, starting: bool = False) -> tuple[str, str]:
    """A menu line: its label (the choice and its tile) and its description (what it does)."""
    _head, _detail, result = option_parts(option, outcome, brief)
    return label(option, starting), f"{ARROW} {result}" if result else ""


def menu_lines(options: Sequence[Any], outcomes: Mapping[str, Any], room: int) -> list[tuple[str, str]]:
    """A menu's lines, one per option in order: its label and what it does (`option_menu`), said whole when every
    option's description fits `room` characters, else each briefly; a starting tile worded as another tile of the
    menu is named one (`twins`)."""
    brief = any(len(option_menu(o, outcomes.get(o.id))[1]) > room for o in options)
    marked = twins(options)
    return [option_menu(o, outcomes.get(o.id), brief, o.id in marked) for o in options]


def option_emoji(action: str) -> str | None:
    """A choice's emoji, from its action id: the kokeshi or animal it names last, a cart to buy from the market, a
    medal for a quality tile; None for any other."""
    parts = action.split(":")
    for word in reversed(parts):
        found = KOKESHI_EMOJI.get(word) or ANIMAL_EMOJI.get(word)
        if found:
            return found
    return {"market": "🛒", "quality": "🏅"}.get(parts[0])


def tile_tracks(actions: Iterable[str]) -> dict[str, str]:
    """For each tile that these actions place ("place:<tile>:<kokeshi>", others passed over), in order, the tracks
    it may go on, as a line under the tile in a menu: "→ Samurai or Sumotori"."""
    tracks: dict[str, list[str]] = {}
    for action in actions:
        kind, _sep, rest = action.partition(":")
        if kind == "place":
            tile_id, _sep, track = rest.partition(":")
            tracks.setdefault(tile_id, []).append(kokeshi(track))
    return {tile_id: f"{ARROW} {either(names)}" for tile_id, names in tracks.items()}
