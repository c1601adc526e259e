"""A turn told as a short story, and the others' turns summed up for a player coming back: pure, data in, text out.

The story of a turn keeps every step that explains points or the race (a kokeshi's move and where it landed, the
side chosen, a purchase and where it goes, a quality tile, a disc by the value printed where it stands, a red-line
crossing, a bonus tile, a lead won or lost, a top pass, a placement and its pairs, the end) and folds the routine
ones into the line they belong to: one line per move of a kokeshi, with the tile it activated and what that tile
did. Draws into the offer and "only one choice" steps are left out. Words come from `vocab` and `narrate`, in the
current language; the views are `Game.view()` dicts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.kokeshi.engine.data import ANIMAL_POINTS, ANIMALS, END_RECOGNITIONS, TOP_POINTS
from i18n import _, ngettext

from . import vocab
from .narrate import choice_words, describe_end

AUTOMA = vocab.AUTOMA_SEAT
ARROW = vocab.ARROW
# Detail levels of a story, most first: every tile named; tiles named only where bought; no tile names.
FULL, BOUGHT, BARE = 2, 1, 0


def _triplet(event: Any) -> tuple[str, str, Mapping[str, Any]]:
    if isinstance(event, Mapping):
        return str(event.get("kind", "")), str(event.get("player", "")), event.get("data") or {}
    return str(getattr(event, "kind", "")), str(getattr(event, "player", "")), getattr(event, "data", None) or {}


def _players(view: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {str(p.get("name")): p for p in view.get("players") or ()}


def _goal(view: Mapping[str, Any]) -> int:
    return END_RECOGNITIONS[min(max(2, len(view.get("players") or ())), 4)]


def _value(side: str, animal: str, position: int) -> int:
    """The points printed on the happiness board where a disc stands."""
    table = ANIMAL_POINTS.get(side) or ANIMAL_POINTS["basic"]
    return table[ANIMALS.index(animal)][max(0, min(position, len(table[0]) - 1))]


def _leaders(view: Mapping[str, Any]) -> dict[str, str | None]:
    """Who leads each animal track in a view (None: nobody left the start)."""
    found: dict[str, str | None] = dict.fromkeys(ANIMALS)
    for p in view.get("players") or ():
        for animal in p.get("leads") or ():
            found[animal] = str(p.get("name"))
    return found


def _capital(text: str) -> str:
    """A line starts with a capital letter (the automa's name is a common noun)."""
    return text[:1].upper() + text[1:] if text else text


@dataclass
class _Line:
    """One line of a story: a chain of steps joined by arrows, or a `lead` ("Places", "The automa") and a list."""

    parts: list[str] = field(default_factory=list)
    tiles: list[tuple[int, str]] = field(default_factory=list)  # (part index, the part without its tile name)
    bought: set[int] = field(default_factory=set)  # parts that name a tile bought: they keep it longest
    lead: str = ""

    def add(self, text: str, bare: str | None = None, bought: bool = False) -> None:
        if bare is not None:
            self.tiles.append((len(self.parts), bare))
        if bought:
            self.bought.add(len(self.parts))
        self.parts.append(text)

    def text(self, detail: int) -> str:
        parts = list(self.parts)
        for index, bare in self.tiles:
            if detail == BARE or (detail == BOUGHT and index not in self.bought):
                parts[index] = bare
        if self.lead:
            return _capital(_("{lead}: {steps}").format(lead=self.lead, steps="; ".join(parts)))
        return _capital(f" {ARROW} ".join(p for p in parts if p))


class _Story:
    """Events of one turn folded into lines."""

    def __init__(self, player: str, before: Mapping[str, Any], after: Mapping[str, Any], rules: int) -> None:
        self.player = player
        self.side = str(after.get("side") or before.get("side") or "basic")
        self.rules = rules
        self.goal = _goal(after)
        self.lines: list[_Line] = []
        self.moving: dict[str, int] = {}  # kokeshi -> its line, while its landing is not resolved
        self.active: int | None = None  # the line of the tile (or empty space) whose effects are being carried out
        self.automa: int | None = None
        self.placing: int | None = None
        self.discs: dict[tuple[str, str], int] = {}  # (player, animal) -> the line that moved it last
        players = _players(before)
        self.recognitions = {name: int(p.get("recognitions", 0) or 0) for name, p in players.items()}

    def _new(self, lead: str = "") -> int:
        self.lines.append(_Line(lead=lead))
        return len(self.lines) - 1

    def _tile(self, tile_id: str) -> str:
        return vocab.tile(tile_id, self.rules)

    def _recognition(self, who: str) -> str:
        self.recognitions[who] = self.recognitions.get(who, 0) + 1
        return vocab.recognition_count(self.recognitions[who], self.goal)

    def _where(self, who: str) -> int:
        """The line a step of `who` belongs to: the automa's own line, else the active tile's, else a new one."""
        if who == AUTOMA and self.player != AUTOMA:
            if self.automa is None:
                self.automa = self._new(lead=_("the automa"))
            return self.automa
        if self.active is None:
            self.active = self._new()
        return self.active

    def _part(self, line: int, text: str, bare: str | None = None, bought: bool = False) -> None:
        self.lines[line].add(text, bare, bought)

    def event(self, kind: str, who: str, d: Mapping[str, Any]) -> None:
        k = vocab.kokeshi
        if kind == "kokeshi_moved":
            name = d["kokeshi"]
            line = self.moving.get(name)
            move = _("{kokeshi} {start}→{to}").format(kokeshi=k(name), start=d["start"], to=d["to"])
            if line is None:
                line = self._new()
                self._part(line, move)
            else:  # a quality tile carried it on: the same line
                self._part(line, _("{start}→{to}").format(start=d["start"], to=d["to"]))
            self.moving[name] = line
        elif kind == "top_passed":
            name = d["kokeshi"]
            line = self.moving.pop(name, None)
            points = f"+{d.get('points', TOP_POINTS)}"
            if line is None:
                text = _("{kokeshi} {start}→top: {points}, home").format(
                    kokeshi=k(name), start=d["height"], points=points
                )
                self._part(self._new(), text)
            else:  # a quality tile carried it past the top
                self._part(line, _("past the top: {points}, home").format(points=points))
        elif kind == "kokeshi_home":
            line = self.moving.pop(d["kokeshi"], None)
            line = self._new() if line is None else line
            self._part(line, _("empty space, home"))
            self.active = line
        elif kind == "quality_step":
            line = self.moving.get(d["kokeshi"])
            line = self._new() if line is None else line
            self._part(line, _("quality tile: one more step"))
            self.moving[d["kokeshi"]] = line
        elif kind == "tile_activated":
            line = self.moving.pop(d["kokeshi"], None)
            line = self._new() if line is None else line
            tile = self._tile(d["tile"])
            self._part(line, _("tile ({tile})").format(tile=tile), _("tile"))
            self.active = line
        elif kind == "effect_chosen":
            choice = choice_words(d)
            choice = choice[:1].lower() + choice[1:]
            self._part(self._where(who), _("chooses: {choice}").format(choice=choice))
        elif kind in ("tile_bought", "quality_bought"):
            line = self._where(who)
            if kind == "quality_bought":
                text = _("takes the level {level} {kokeshi} quality tile: {recognition}").format(
                    level=d["level"], kokeshi=k(d["kokeshi"]), recognition=self._recognition(who)
                )
                self._part(line, text)
            elif d.get("track"):
                text = _("buys tile {slot} ({tile}) for the {kokeshi} track")
                bare = _("buys tile {slot} for the {kokeshi} track")
                values = {"slot": int(d["slot"]) + 1, "kokeshi": k(d["track"])}
                tile = self._tile(d["tile"])
                self._part(line, text.format(tile=tile, **values), bare.format(**values), bought=True)
            else:
                values = {"slot": int(d["slot"]) + 1}
                tile = self._tile(d["tile"])
                text = _("buys tile {slot} ({tile}) for any track").format(tile=tile, **values)
                self._part(line, text, _("buys tile {slot} for any track").format(**values), bought=True)
        elif kind == "quality_discarded":
            text = _("the other {kokeshi} quality tiles leave the game").format(kokeshi=k(d["kokeshi"]))
            self._part(self._where(who), text)
        elif kind == "disc_moved":
            animal = d["animal"]
            to = int(d["to"])
            line = self._where(who)
            text = _("{animal} disc {start}→{to}").format(
                animal=vocab.animal(animal),
                start=_value(self.side, animal, to - 1),
                to=_value(self.side, animal, to),
            )
            self._part(line, text)
            self.discs[(who, animal)] = line
        elif kind == "red_line_crossed":
            text = _("crosses the red line: {recognition}").format(recognition=self._recognition(who))
            self._part(self._where(who), text)
        elif kind == "bonus_taken":
            tile = self._tile(d["tile"])
            self._part(
                self._where(who), _("collects a bonus tile ({tile})").format(tile=tile), _("collects a bonus tile")
            )
        elif kind == "automa_tile":
            text = _("draws a tile ({tile}) for its {kokeshi} track").format(
                tile=self._tile(d["tile"]), kokeshi=k(d["kokeshi"])
            )
            bare = _("draws a tile for its {kokeshi} track").format(kokeshi=k(d["kokeshi"]))
            self._part(self._where(AUTOMA), text, bare)
        elif kind == "automa_quality":
            text = _("receives the {kokeshi} quality tile at height {height}: {recognition}").format(
                kokeshi=k(d["kokeshi"]), height=d["height"], recognition=self._recognition(AUTOMA)
            )
            self._part(self._where(AUTOMA), text)
        elif kind == "effect_skipped":
            self._part(self._where(who), _("nothing happens: {reason}").format(reason=vocab.reason(d)))
        elif kind == "tile_placed":
            self._placed(who, d)
        elif kind == "tile_discarded":
            text = _("a tile ({tile}) is discarded: {reason}").format(
                tile=self._tile(d["tile"]), reason=vocab.reason(d)
            )
            self._part(self._where(who) if self.placing is None else self.placing, text)
        elif kind == "bag_empty":
            self._part(self._new(), _("the bag is empty: the offer cannot be refilled"))
        elif kind == "idle_turn":
            # The end against stalling counts this turn (rules version 4 on): it explains the race.
            text = _("an idle turn: {count} of {limit}").format(count=d["count"], limit=d["limit"])
            self._part(self._new(), text)
        elif kind == "end_triggered":
            self._part(self._new(), describe_end(d, vocab.seat_name(who)).rstrip("."))

    def _placed(self, who: str, d: Mapping[str, Any]) -> None:
        if who == AUTOMA and self.player != AUTOMA:
            line = self._where(AUTOMA)
            text = _("places a bonus tile ({tile}) on its {kokeshi} track").format(
                tile=self._tile(d["tile"]), kokeshi=vocab.kokeshi(d["kokeshi"])
            )
            self._part(
                line, text, _("places a bonus tile on its {kokeshi} track").format(kokeshi=vocab.kokeshi(d["kokeshi"]))
            )
            return
        if self.placing is None:
            self.placing = self._new(lead=_("places"))
        values = {"kokeshi": vocab.kokeshi(d["kokeshi"]), "height": d["height"]}
        where = _("{kokeshi} track, height {height}").format(**values)
        pairs = int(d.get("pairs", 0) or 0)
        if pairs:
            where = _("{where}, {pairs}").format(where=where, pairs=vocab.pairs(pairs))
        text = _("a tile ({tile}) on the {where}").format(tile=self._tile(d["tile"]), where=where)
        self._part(self.placing, text, where)

    def leads(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
        """Leads won and lost this turn, on the line of the disc that won them (or a line of their own)."""
        old, new = _leaders(before), _leaders(after)
        for animal in ANIMALS:
            if old[animal] == new[animal]:
                continue
            leader = new[animal]
            if leader is None:
                continue
            if old[animal] is None:
                text = _("leads the {animal}").format(animal=vocab.animal(animal))
            else:
                text = _("takes the {animal} lead from {player}").format(
                    animal=vocab.animal(animal), player=vocab.seat_name(old[animal])
                )
            line = self.discs.get((leader, animal))
            if line is None:
                line = self._new(lead=vocab.seat_name(leader))
            self._part(line, text)

    def text(self, detail: int) -> list[str]:
        return [line.text(detail) for line in self.lines if line.parts]


def turn_story(
    events: Iterable[Any],
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any],
    *,
    rules: int | None = None,
    limit: int | None = None,
    games_log: bool = False,
) -> list[str]:
    """The lines of a turn (or of a turn so far): every step that explains points or the race, routine folded in.

    `before`/`after` are the views before the turn and after it (`before` None for a turn still going on: leads
    are then not compared). Past `limit` characters, tile names are left out, first where nothing was bought,
    then everywhere; never a line. Past even that, the last lines give way to a count that points to the log of
    the table the game is played at (`games_log`: the platform's `/games log`, else `/kokeshi log`).
    """
    events = list(events)
    player = next((p for _k, p, _d in map(_triplet, events) if p and p != AUTOMA), "")
    if not player:
        player = next((p for _k, p, _d in map(_triplet, events) if p), "")
    if before is None:
        before = _rewound(after, events)
    version = rules if rules is not None else int(after.get("rules") or before.get("rules") or 3)
    story = _Story(player, before, after, version)
    for event in events:
        kind, who, data = _triplet(event)
        try:
            story.event(kind, who, data)
        except (KeyError, TypeError, ValueError):
            continue  # an event of another engine version with other fields: told without it
    story.leads(before, after)
    for detail in (FULL, BOUGHT, BARE):
        lines = story.text(detail)
        if limit is None or sum(len(line) + 3 for line in lines) <= limit:
            return lines
    assert limit is not None  # else the first detail was returned
    # A chain longer than a message, even without tile names (it takes dozens of moves): whole lines from the end
    # give way to a count, never a line cut in two.
    kept: list[str] = []
    for line in lines:
        more = _more_lines(len(lines) - len(kept) - 1, games_log)
        if sum(len(x) + 3 for x in (*kept, line, more)) > limit:
            break
        kept.append(line)
    return [*kept, _more_lines(len(lines) - len(kept), games_log)]


def _more_lines(count: int, games_log: bool = False) -> str:
    if games_log:
        return ngettext(
            "…and {count} more line (`/games log` has them all)",
            "…and {count} more lines (`/games log` has them all)",
            count,
        ).format(count=count)
    return ngettext(
        "…and {count} more line (`/kokeshi log` has them all)",
        "…and {count} more lines (`/kokeshi log` has them all)",
        count,
    ).format(count=count)


def _rewound(view: Mapping[str, Any], events: list[Any]) -> dict[str, Any]:
    """The view's players with the recognitions they had before these events (the rest as it is now)."""
    gained: dict[str, int] = {}
    for kind, who, _d in map(_triplet, events):
        if kind in ("red_line_crossed", "quality_bought", "automa_quality"):
            gained[who] = gained.get(who, 0) + 1
    players = []
    for p in view.get("players") or ():
        name = str(p.get("name"))
        players.append({**p, "recognitions": int(p.get("recognitions", 0) or 0) - gained.get(name, 0)})
    return {**view, "players": players}


def score_change(player: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[int, int, list[str]]:
    """A player's total change, new total, and the score items that moved ("Animals +5", "Pairs −3")."""
    old = (_players(before).get(player) or {}).get("score") or {}
    new = (_players(after).get(player) or {}).get("score") or {}
    items = []
    for key in vocab.SCORE_ITEMS[:-1]:
        change = int(new.get(key, 0) or 0) - int(old.get(key, 0) or 0)
        if change:
            items.append(_("{item} {points}").format(item=vocab.score_item(key), points=_signed(change)))
    total = int(new.get("total", 0) or 0)
    return total - int(old.get("total", 0) or 0), total, items


def _number(value: int) -> str:
    """A number as the current language writes it, with a real minus sign."""
    return vocab.number(value)


def _signed(value: int) -> str:
    """+3, +0, −3 (a real minus sign)."""
    return f"+{value}" if value >= 0 else vocab.signed(value)


def record_head(
    player: str, when: str, before: Mapping[str, Any], after: Mapping[str, Any], label: str | None = None
) -> str:
    """The first line of a turn record: who (`label`, in bold), when, the points won and the items they came from."""
    change, total, items = score_change(player, before, after)
    head = ngettext(
        "**{player}** · {when} · {gained} → {total} point",
        "**{player}** · {when} · {gained} → {total} points",
        total,
    ).format(player=label or player, when=when, gained=_signed(change), total=_number(total))
    return f"{head} ({' · '.join(items)})" if items else head


# ---------------------------------------------------------------- "since your last turn"

MAX_SINCE_LINE = 180


@dataclass(frozen=True)
class Turn:
    """One finished turn for the ping: its player, events, and the views before and after it."""

    player: str
    events: Sequence[Any]
    before: Mapping[str, Any]
    after: Mapping[str, Any]


def _since_phrases(
    player: str, turns: Sequence[Turn], before: Mapping[str, Any], after: Mapping[str, Any]
) -> list[str]:
    """What `player` did in these turns that matters, most important first, each a whole phrase."""
    side = str(after.get("side") or "basic")
    goal = _goal(after)
    tops = 0
    quality = []
    discs: dict[str, int] = {}
    bought: list[str] = []
    placed: list[str] = []
    pairs = 0
    red = 0
    bonus = 0
    for turn in turns:
        for event in turn.events:
            kind, who, d = _triplet(event)
            if who != player:
                continue
            try:
                if kind == "top_passed":
                    tops += 1
                elif kind == "quality_bought":
                    quality.append(_("{kokeshi} quality tile").format(kokeshi=vocab.kokeshi(d["kokeshi"])))
                elif kind == "disc_moved":
                    discs[d["animal"]] = int(d["to"])
                elif kind == "red_line_crossed":
                    red += 1
                elif kind == "bonus_taken":
                    bonus += 1
                elif kind == "tile_bought" and d.get("track"):
                    bought.append(vocab.kokeshi(d["track"]))
                elif kind == "tile_bought":
                    bought.append(_("any track"))
                elif kind == "tile_placed":
                    pairs += int(d.get("pairs", 0) or 0)
                    placed.append(vocab.kokeshi(d["kokeshi"]))
            except (KeyError, TypeError, ValueError):
                continue
    phrases = []
    mine = _players(after).get(player) or {}
    recognitions = int(mine.get("recognitions", 0) or 0)
    if quality or red:
        phrases.append(vocab.recognition_count(recognitions, goal))
    phrases += quality
    if tops:
        phrases.append(
            ngettext("passes the top ({points})", "passes the top {count} times ({points})", tops).format(
                count=tops, points=f"+{tops * TOP_POINTS}"
            )
        )
    old, new = _leaders(before), _leaders(after)
    for animal, to in discs.items():
        phrases.append(vocab.disc_value(animal, _value(side, animal, to)))
        if new[animal] == player and old[animal] != player:
            phrases.append(vocab.lead_won(animal))
    for animal in ANIMALS:
        if new[animal] == player and old[animal] != player and animal not in discs:
            phrases.append(vocab.lead_won(animal))
        if old[animal] == player and new[animal] != player:
            phrases.append(vocab.lead_lost(animal))
    if bonus:
        phrases.append(ngettext("a bonus tile", "{count} bonus tiles", bonus).format(count=bonus))
    if pairs:
        phrases.append(vocab.pairs(pairs))
    if bought:
        phrases.append(_("buys for {tracks}").format(tracks=", ".join(dict.fromkeys(bought))))
    elif placed and not pairs:
        phrases.append(_("places on {tracks}").format(tracks=", ".join(dict.fromkeys(placed))))
    return phrases


def since_lines(me: str, turns: Sequence[Turn]) -> list[str]:
    """One line per other player for a 'your turn' ping: their points since `me`'s last turn and why, then who is
    close to the end. Each line is made of whole phrases (the least important left out when it is too long)."""
    if not turns:
        return []
    before, after = turns[0].before, turns[-1].after
    order = list(dict.fromkeys(t.player for t in turns if t.player != me))
    lines = []
    for player in order:
        change, total, _items = score_change(player, before, after)
        mine = [t for t in turns if t.player == player]
        phrases = _since_phrases(player, mine, before, after)
        head = _("{player} {gained} → {total}").format(
            player=vocab.seat_name(player), gained=_signed(change), total=_number(total)
        )
        while phrases and len(head) + 2 + len(", ".join(phrases)) > MAX_SINCE_LINE:
            phrases.pop()
        lines.append(f"{head}: {', '.join(phrases)}" if phrases else head)
    # Lost leads of the one coming back, taken by the others.
    old, new = _leaders(before), _leaders(after)
    lost = [a for a in ANIMALS if old[a] == me and new[a] != me]
    if lost:
        lines.append(_("You lose the lead on: {animals}").format(animals=", ".join(vocab.animal(a) for a in lost)))
    lines += near_the_end(after, me)
    return lines


def near_the_end(view: Mapping[str, Any], me: str | None = None) -> list[str]:
    """Who is one recognition from triggering the end, or that the end has been triggered."""
    if view.get("end_triggered"):
        last = view.get("final_round")
        return [_("The end is triggered: round {round} is the last.").format(round=last)] if last else []
    goal = _goal(view)
    close = []
    for p in view.get("players") or ():
        count = int(p.get("recognitions", 0) or 0)
        if count >= goal - 1:
            name = str(p.get("name"))
            if name == me:
                close.append(
                    _("You have {count} of {goal} recognitions: one more triggers the end.").format(
                        count=count, goal=goal
                    )
                )
            else:
                close.append(
                    _("{player} has {count} of {goal} recognitions: one more triggers the end.").format(
                        player=vocab.seat_name(name), count=count, goal=goal
                    )
                )
    return close


__all__ = ["BARE", "BOUGHT", "FULL", "Turn", "near_the_end", "record_head", "score_change", "since_lines", "turn_story"]
