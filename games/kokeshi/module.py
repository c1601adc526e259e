"""Kokeshi as the platform knows it: the game contract (`games.base`) over `engine/`, the words and `pictures/`.

The engine names its seats; the contract numbers them. Seat s is the s-th name the game was dealt with (the
engine's `seating`, before its seeded rotation into turn order), and the automa is `NOBODY`. New matches are dealt
with the names `seat1`, `seat2`, … (the platform keeps the players' names); a game stored with real names loads
the same way, by its seating. Words and pictures put the platform's names back in.

The deciding seat's view carries what each of its options does at once (`previews`, the rules' own preview, which
stops before any draw): its labels say it ("Advance the Princess → tile: …", "Buy 2 → Samurai track, height 3") and
its picture marks it, as `/kokeshi`'s buttons and pictures do.

A finished turn is told as `/kokeshi` tells it (`games.kokeshi.records`): its record headed by who, the round and the
points, one line a move under it, over the player's own workshop drawn for a phone; a new turn's post sums up the
others' turns since the player's last; a game only the AI plays is told one round a post.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import i18n
from games.base import (
    NOBODY,
    Challenge,
    Event,
    GameModule,
    Match,
    Option,
    Picture,
    Prompt,
    Refusal,
    Setting,
    Standing,
    Turn,
)
from games.kokeshi import guide, records, story, vocab
from games.kokeshi import pictures as render
from games.kokeshi.engine import (
    AUTOMA,
    CURRENT_RULES,
    KOKESHI,
    LEVELS,
    RULES_VERSIONS,
    Game,
    IllegalAction,
    idle_warning,
    load_game,
    new_game,
    policy,
)
from games.kokeshi.engine import Event as EngineEvent
from games.kokeshi.engine import Option as EngineOption
from games.kokeshi.engine.preview import DiscStep, Landing, LeadChange, Outcome, Placement, Purchase, preview_all
from games.kokeshi.narrate import describe
from i18n import _, ngettext

# Engine event fields that name a seat, besides the event's own player.
# A hint searches with at most half the hard level's budget of simulated moves, so that it comes within two seconds
# even on a busy machine (`bench/hint_bench.py`), as `/kokeshi hint` always has.
HINT_BUDGET = 20_000
_SEAT_FIELDS = ("next",)
_SEAT_LISTS = ("ranking",)
_REFUSAL = {"unknown_player": "unknown_seat"}
# A label's room: a button's (what a choice does must show whole there), and a menu option's (all of it).
_BUTTON, _LABEL = 80, 100
# A record's heading: one line.
_HEADING = 300


class KokeshiMatch(Match):
    """A Kokeshi game behind the contract; `engine` is the engine's own `Game`."""

    game = "kokeshi"

    def __init__(self, engine_game: Game) -> None:
        self.engine = engine_game
        self._seat = {name: s for s, name in enumerate(engine_game.seating)}
        self._seat[AUTOMA] = NOBODY
        # The engine's own events of the last decision applied (its store and its thread keep and word those).
        self.engine_events: list[EngineEvent] = []
        # What each option of the current prompt does (`engine.preview`), as JSON, kept for the version it is of.
        self._previews: tuple[int, dict[str, Any]] | None = None

    # ---------------------------------------------------------------- names and seats

    def seat_of(self, name: str) -> int:
        """The seat of an engine name (`NOBODY` for the automa)."""
        return self._seat[name]

    def name_of(self, seat: int) -> str:
        """The engine's name of a seat (`AUTOMA` for `NOBODY`)."""
        return AUTOMA if seat == NOBODY else str(self.engine.seating[seat])

    def _event(self, event: EngineEvent) -> Event:
        data = dict(event.data)
        for key in _SEAT_FIELDS:
            if key in data:
                data[key] = self._seat[data[key]]
        for key in _SEAT_LISTS:
            if key in data:
                data[key] = [self._seat[n] for n in data[key]]
        return Event(event.kind, self._seat[event.player], data, event.reveals)

    # ---------------------------------------------------------------- the contract

    @property
    def seats(self) -> int:
        return len(self.engine.seating)

    @property
    def rules(self) -> int:
        return int(self.engine.rules)

    @property
    def version(self) -> int:
        return int(self.engine.version)

    def prompts(self) -> tuple[Prompt, ...]:
        prompt = self.engine.prompt
        if prompt is None:
            return ()
        # An option's code is the engine's own wording key: a vocab function's name and its arguments. A placement
        # ("place:<tile>:<kokeshi>") is grouped by its tile: the tile first, then its track.
        options = tuple(Option(o.id, o.words, _tile_of(o.id)) for o in prompt.options)
        return (Prompt(self._seat[prompt.player], prompt.kind, options),)

    def apply(self, seat: int, action: str) -> list[Event]:
        if not 0 <= seat < self.seats:
            raise Refusal("unknown_seat", self.engine.legal_actions())
        try:
            events = self.engine.apply(self.name_of(seat), action)
        except IllegalAction as err:
            raise Refusal(_REFUSAL.get(err.code, err.code), err.legal) from None
        self.engine_events = events
        return [self._event(e) for e in events]

    def view(self, seat: int | None) -> dict[str, Any]:
        # Nothing of Kokeshi is secret but the bag's order and the seed, which the engine's view never holds.
        view = self.engine.view()
        view["game"] = self.game
        view["seating"] = list(self.engine.seating)
        view["turn_key"] = self.turn_key()
        if seat is not None and seat in self.waiting():
            # The deciding seat's view says what each of its options does at once (where a kokeshi lands, where a
            # tile goes, the pairs and points it makes): the rules' own preview, which stops before any draw, so it
            # holds nothing the seat cannot see. Its labels and its picture read it.
            view["previews"] = self.previews()
        return view

    def previews(self) -> dict[str, Any]:
        """What each option of the current prompt does at once (`engine.preview.preview_all`), by action id, as
        JSON-safe dicts in the engine's names (empty once the match is over)."""
        version = int(self.engine.version)
        if self._previews is None or self._previews[0] != version:
            self._previews = (version, {a: dataclasses.asdict(o) for a, o in preview_all(self.engine).items()})
        return self._previews[1]

    def standing(self) -> Standing:
        game = self.engine
        ranking = game.ranking()
        scores = game.scores()
        places = tuple(ranking.index(name) + 1 for name in game.seating)
        details: dict[str, Any] = {"ranking": [self._seat[n] for n in ranking]}
        if game.solo:
            details["automa"] = scores[AUTOMA].to_dict()
        return Standing(game.is_over, places, tuple(scores[n].to_dict() for n in game.seating), details)

    def turn_key(self) -> str:
        game = self.engine
        if game.is_over:
            return "over"
        # The engine's turns count each seat's finished turns; setup is one turn per seat too.
        return f"r{game.round_number}:{self._seat[game.names[game.current]]}:{sum(game.turns)}"

    def to_json(self) -> str:
        return self.engine.to_json()

    def copy(self) -> KokeshiMatch:
        return type(self)(self.engine.clone())

    def determinized(self, seat: int | None, seed: int) -> KokeshiMatch:
        # Every seat sees the same: only the future draws are hidden, and the copy draws them from `seed`.
        return type(self)(self.engine.determinized(seed))


def _tile_of(action: str) -> str:
    """The tile a placement's action places ("place:<tile>:<kokeshi>"), or "" for any other action."""
    kind, _sep, rest = action.partition(":")
    return rest.partition(":")[0] if kind == "place" else ""


def _engine(match: Match) -> KokeshiMatch:
    if not isinstance(match, KokeshiMatch):
        raise TypeError(f"not a Kokeshi match: {match!r}")
    return match


def _display(view: Mapping[str, Any], names: Sequence[str]) -> dict[str, str]:
    """Engine names to the platform's names (the automa keeps its name: the pictures word it)."""
    out = {AUTOMA: AUTOMA}
    for s, name in enumerate(view.get("seating") or ()):
        out[str(name)] = names[s] if s < len(names) else str(name)
    return out


def named_view(view: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """A copy of a Kokeshi view with the platform's names where the engine's stand (for the pictures)."""
    to = _display(view, names)
    out = dict(view)
    out["players"] = [{**p, "name": to.get(p["name"], p["name"])} for p in view.get("players") or ()]
    if out.get("current") is not None:
        out["current"] = to.get(out["current"], out["current"])
    if out.get("prompt"):
        out["prompt"] = {**out["prompt"], "player": to.get(out["prompt"]["player"], out["prompt"]["player"])}
    if out.get("idle"):
        counts = out["idle"]["counts"]
        out["idle"] = {**out["idle"], "counts": {to.get(n, n): c for n, c in counts.items()}}
    return out


def outcomes(view: Mapping[str, Any], to: Mapping[str, str] | None = None) -> dict[str, Outcome]:
    """The previews a deciding seat's view holds, as `engine.preview.Outcome`s for the words and pictures; `to`
    renames the engine's seats (the pictures show the platform's names)."""
    to = to or {}

    def who(name: Any) -> Any:
        return to.get(name, name) if isinstance(name, str) else name

    out = {}
    for action, d in (view.get("previews") or {}).items():
        out[action] = Outcome(
            action=d["action"],
            kind=d["kind"],
            player=who(d["player"]),
            rules=d["rules"],
            landings=tuple(Landing(**x) for x in d["landings"]),
            purchases=tuple(Purchase(**{**x, "quality": tuple(x["quality"])}) for x in d["purchases"]),
            discs=tuple(DiscStep(**{**x, "player": who(x["player"])}) for x in d["discs"]),
            placements=tuple(Placement(**{**x, "player": who(x["player"])}) for x in d["placements"]),
            leads=tuple(LeadChange(x["animal"], who(x["before"]), who(x["after"])) for x in d["leads"]),
            recognitions=d["recognitions"],
            recognitions_total=d["recognitions_total"],
            recognitions_goal=d["recognitions_goal"],
            points=d["points"],
            items=tuple((k, v) for k, v in d["items"]),
            skipped=tuple(tuple((k, v) for k, v in pairs) for pairs in d["skipped"]),
            draw=d["draw"],
            next=d["next"],
            next_options=tuple(d["next_options"]),
        )
    return out


_cut = vocab.fit


def _name(names: Sequence[str], seat: int) -> str:
    if seat == NOBODY:
        return AUTOMA
    return names[seat] if 0 <= seat < len(names) else str(seat + 1)


def _told(turn: Turn, names: Sequence[str]) -> tuple[str, dict[str, Any], dict[str, Any], list[EngineEvent]]:
    """A finished turn in the engine's terms under the platform's names: who played it, the views before and after
    it, and its events."""
    return (
        _name(names, turn.seat),
        named_view(turn.before, names),
        named_view(turn.after, names),
        [engine_event(e, names) for e in turn.events],
    )


def engine_event(event: Event, names: Sequence[str]) -> EngineEvent:
    """The engine's form of a contract event, seats named by `names` (the automa by its engine name)."""
    data = dict(event.data)
    for key in _SEAT_FIELDS:
        if key in data:
            data[key] = _name(names, int(data[key]))
    for key in _SEAT_LISTS:
        if key in data:
            data[key] = [_name(names, int(s)) for s in data[key]]
    return EngineEvent(event.kind, _name(names, event.seat), data, event.reveals)


def whole_table(view: Mapping[str, Any], me: str | None, game: str) -> tuple[Picture, Picture]:
    """The whole table, as `/kokeshi table` shows it: for a phone, `me`'s workshop first (None: the one to play), then
    every other one, tiles in full; and every workshop at once in one wide picture. `view` names the players as
    they read their names; `game` names the game in the pictures' words ("Kokeshi #12")."""
    phone = render.table_phone(view, (), me, others=True)
    wide = render.table(view)
    return (
        Picture(
            phone,
            "table-phone",
            _(
                "{game} for a phone: your workshop, the happiness board, the offer, the scores and every other "
                "workshop."
            ).format(game=game),
        ),
        Picture(wide, "table", _("{game}: the whole table, every workshop at once.").format(game=game)),
    )


class Kokeshi(GameModule):
    """Kokeshi: 2–4 players, or solo against the automa; both sides of the happiness board."""

    key = "kokeshi"
    name = "Kokeshi"
    emoji = "🎎"
    players = (1, 2, 3, 4)
    rules_versions = tuple(RULES_VERSIONS)
    current_rules = int(CURRENT_RULES)
    settings = (Setting("side", ("basic", "advanced"), "basic"),)
    challenges = (Challenge("daily", {"side": "basic"}), Challenge("weekly", {"side": "advanced"}))
    levels = tuple(LEVELS)
    locales = ("en", "pt_BR")
    stat_keys = ("in_play", "tracks", "quality", "animals", "leads", "adjacency", "total")
    favourite_items = KOKESHI  # the kokeshi a player chooses to advance most often
    unseated_names = (AUTOMA,)
    # The match class it deals and loads: a module registered under another key deals matches of that key.
    match_type: ClassVar[type[KokeshiMatch]] = KokeshiMatch

    def __init__(self) -> None:
        # The last view's outcomes, menu lines, twins and labels (`_read`): its previews, the language, then those.
        self._kept: (
            tuple[Any, str, dict[str, Outcome], dict[str, tuple[str, str]], frozenset[str], dict[str, str]] | None
        ) = None

    def deal(self, options: Mapping[str, Any], seed: int, seats: int, rules: int | None = None) -> KokeshiMatch:
        if not isinstance(seats, int) or isinstance(seats, bool) or seats not in self.players:
            raise ValueError(f"Kokeshi seats 1 to 4 players, not {seats!r}")
        return self.deal_named(options, seed, [f"seat{s + 1}" for s in range(seats)], rules)

    def deal_named(
        self, options: Mapping[str, Any], seed: int, names: Sequence[str], rules: int | None = None
    ) -> KokeshiMatch:
        # `/kokeshi`'s games are dealt with their players' names (`Store.start_game`): the engine's state holds them.
        side = str(self.options(options)["side"])
        if len(names) not in self.players:
            raise ValueError(f"Kokeshi seats 1 to 4 players, not {len(names)}")
        version = CURRENT_RULES if rules is None else rules
        return self.match_type(new_game(list(names), seed=seed, side=side, solo=len(names) == 1, rules=version))

    def load(self, text: str) -> KokeshiMatch:
        return self.match_type(load_game(text))

    def decide(self, match: Match, seat: int, level: str, seed: int) -> str:
        m = _engine(match)
        if seat not in m.waiting():
            raise ValueError(f"seat {seat} has nothing to decide")
        # The levels search only copies with draws of their own (`Game.determinized`): never the hidden order.
        return str(policy(level, seed=seed).choose(m.engine))

    def advise(self, match: Match, seat: int, level: str, seed: int) -> tuple[str, float | None]:
        m = _engine(match)
        if seat not in m.waiting():
            raise ValueError(f"seat {seat} has nothing to decide")
        hint = policy(level, seed=seed, budget=None if level == "easy" else HINT_BUDGET).explain(m.engine)
        return str(hint.action), float(hint.gain)

    def label(self, view: Mapping[str, Any], option: Option) -> str:
        # As Kokeshi's own buttons say it: the choice and what it does (briefly when a button could not hold it
        # whole), then the tile it is about, which may be cut.
        said = self._read(view)[3].get(option.id)
        return said if said is not None else _cut(vocab.label(EngineOption(option.id, tuple(option.code))), _LABEL)

    def menu_label(self, view: Mapping[str, Any], option: Option) -> str:
        # As Kokeshi's own menus say it: the choice and its tile; what it does is the line under it.
        line = self._read(view)[1].get(option.id)
        return _cut(line[0] if line else vocab.label(EngineOption(option.id, tuple(option.code))), _LABEL)

    def option_detail(self, view: Mapping[str, Any], option: Option) -> str | None:
        line = self._read(view)[1].get(option.id)
        return _cut(line[1], _LABEL) if line and line[1] else None

    def option_symbol(self, view: Mapping[str, Any], option: Option) -> str | None:
        return vocab.option_emoji(option.id)

    def group_label(self, view: Mapping[str, Any], prompt: Prompt, group: str) -> str:
        # The tile, as `/kokeshi`'s tile menu names it: by what it does, under the rules it was dealt with.
        first = next(o for o in prompt.options if o.group == group)
        _name, (index, _track, rules) = first.code
        # A starting tile worded as another tile of the prompt is named one (`vocab.twins`).
        starting = first.id in self._read(view)[2]
        return _cut(vocab.tile_named(int(index), int(rules), starting), _LABEL)

    def group_detail(self, view: Mapping[str, Any], prompt: Prompt, group: str) -> str | None:
        # Under a tile, the tracks it may go on, as `/kokeshi`'s tile menu says it.
        tracks = vocab.tile_tracks(o.id for o in prompt.groups().get(group, ())).get(group)
        return _cut(tracks, _LABEL) if tracks else None

    def _read(
        self, view: Mapping[str, Any]
    ) -> tuple[dict[str, Outcome], dict[str, tuple[str, str]], frozenset[str], dict[str, str]]:
        """What a deciding seat's view says of its choices: each one's outcome, its menu line in the current
        language (`vocab.menu_lines`, briefly for all when one would not fit), the placements whose starting tile
        is named one, being worded as another tile of the prompt (`vocab.twins`), and its label (`vocab.labels`,
        each of its own). Kept for the last view read: a prompt's every label, menu line and detail read the same
        previews."""
        previews = view.get("previews")
        kept = self._kept
        if previews and kept is not None and kept[0] is previews and kept[1] == i18n.current():
            return kept[2], kept[3], kept[4], kept[5]
        said = outcomes(view)
        options = [EngineOption(o["id"], tuple(o["words"])) for o in (view.get("prompt") or {}).get("options") or ()]
        ids = [o.id for o in options]
        lines = dict(zip(ids, vocab.menu_lines(options, said, _LABEL), strict=True))
        marked = vocab.twins(options)
        labels = dict(zip(ids, vocab.labels(options, said, _LABEL, _BUTTON), strict=True))
        if previews:
            self._kept = (previews, i18n.current(), said, lines, marked, labels)
        return said, lines, marked, labels

    def question(self, view: Mapping[str, Any], prompt: Prompt) -> str:
        return self.question_named(view, prompt, ())

    def short_question(self, view: Mapping[str, Any], prompt: Prompt) -> str:
        # As `/kokeshi status` has always said whom a game waits for: the question alone, in lower case.
        return vocab.question(prompt.kind).lower()

    def stage(self, view: Mapping[str, Any]) -> str | None:
        return vocab.round_name(records.round_of(view))

    def turn_order(self, view: Mapping[str, Any]) -> tuple[int, ...] | None:
        # From the player drawn to start, round the table as they sat; the automa plays after its one player.
        seating = list(view["seating"])
        return tuple(seating.index(p["name"]) for p in view["players"] if p["name"] in seating)

    def question_named(self, view: Mapping[str, Any], prompt: Prompt, names: Sequence[str]) -> str:
        asked = vocab.question(prompt.kind)
        player = (view.get("prompt") or {}).get("player")
        near = idle_warning(view, player) if player is not None else None
        if near is None:
            return asked  # far from the end against stalling
        whose, left = near
        if whose in (None, player):
            # For the whole table or for the deciding seat: said with the question, as /kokeshi's prompt says it.
            count = vocab.idle_left(left)
        elif names:
            # Nearer for another seat: named, as /kokeshi's prompt names it.
            count = vocab.idle_left(left, _display(view, names).get(str(whose), str(whose)))
        else:
            return asked  # another seat's, and no names to say whose (the picture names it)
        asked = _("{question} (⏳ {left} before the end is triggered)").format(question=asked, left=count)
        if int(view.get("rules", 4)) >= 4:
            # What counts as idle since rules 4, as /kokeshi's prompt has always said it beside the count.
            asked += " " + _(
                "An idle turn: a kokeshi passes the top, with no tile taken from the offer and no recognition gained."
            )
        return asked

    def narrate(self, event: Event, names: Sequence[str]) -> str | None:
        return describe(engine_event(event, names))

    def standing_notes(self, standing: Standing, names: Sequence[str]) -> list[str]:
        # Solo: the automa's score, item by item, as /kokeshi's final post ranks it.
        automa = standing.details.get("automa")
        if not isinstance(automa, Mapping):
            return []
        total = int(automa.get("total", 0))
        ranking = list(standing.details.get("ranking") or ())
        won = bool(ranking) and ranking[0] != NOBODY
        return [
            ngettext("{player} — **{total}** point ({items})", "{player} — **{total}** points ({items})", total).format(
                player=vocab.seat_name(AUTOMA), total=vocab.number(total), items=vocab.score_line(dict(automa))
            ),
            _("You beat the automa! 🎉") if won else _("The automa wins this time."),
        ]

    def unseated(self, standing: Standing) -> list[tuple[str, int, Mapping[str, int]]]:
        # Solo: the automa's row, under its engine name and at its place in the ranking, as /kokeshi's results keep it.
        automa = standing.details.get("automa")
        ranking = list(standing.details.get("ranking") or ())
        if not isinstance(automa, Mapping) or NOBODY not in ranking:
            return []
        return [(AUTOMA, ranking.index(NOBODY) + 1, {k: int(v) for k, v in automa.items()})]

    def unseated_name(self, name: str) -> str:
        return vocab.seat_name(name)

    def rules_text(self) -> str | None:
        return guide.rules_text()

    def rules_pictures(self) -> tuple[Picture, ...]:
        # For a phone, a few portrait pages that each fill the screen when tapped, then every tile on one wide sheet.
        pages = render.rules_phone()
        out = [
            Picture(
                page,
                f"kokeshi-rules-{number}",
                _("The rules of Kokeshi, page {page} of {pages}.").format(page=number, pages=len(pages)),
            )
            for number, page in enumerate(pages, 1)
        ]
        out.append(Picture(render.glossary(), "kokeshi-tiles", _("Every Kokeshi tile and what it does.")))
        return tuple(out)

    def help_text(self) -> str | None:
        return guide.help_text()

    def setting_label(self, key: str, value: Any) -> str:
        if key == "side":
            return _("advanced side") if value == "advanced" else _("basic side")
        return str(value)

    def stat_label(self, key: str) -> str:
        return vocab.score_item(key)

    def stat_symbol(self, key: str) -> str | None:
        return vocab.SCORE_EMOJI.get(key)

    def score_items(self, score: Mapping[str, int]) -> str | None:
        # As /kokeshi's final post has always broken a score down.
        return vocab.score_line(dict(score))

    def solo_win(self) -> str | None:
        return _("beat the automa")

    def favourite_of(self, action: str) -> str | None:
        kind, _sep, kokeshi = action.partition(":")
        return kokeshi if kind == "advance" and kokeshi in KOKESHI else None

    def favourite_heading(self) -> str:
        return _("Favourite kokeshi")

    def favourite_label(self, item: str) -> str:
        return vocab.kokeshi(item)

    # ---------------------------------------------------------------- finished turns, as /kokeshi tells them

    def turn_heading(self, turn: Turn, names: Sequence[str]) -> str | None:
        player, before, after, _events = _told(turn, names)
        return _cut(records.record_head(player, before, after), _HEADING)

    def turn_lines(self, turn: Turn, names: Sequence[str]) -> list[str] | None:
        # As /kokeshi's records tell a turn: one line a move, routine folded in; a longer one points to `/games log`.
        _player, before, after, events = _told(turn, names)
        return records.record_story(events, before, after, games_log=True)

    def turn_picture(self, turn: Turn, names: Sequence[str]) -> bytes:
        player, before, after, events = _told(turn, names)
        return records.record_picture(player, before, after, events)

    def story_lines(self, view: Mapping[str, Any], events: Sequence[Event], names: Sequence[str]) -> list[str] | None:
        # As /kokeshi's prompt tells the turn so far: one line a move, routine folded in.
        told = [engine_event(e, names) for e in events]
        return story.turn_story(told, None, named_view(view, names), limit=records.SO_FAR_CHARS)

    def turn_alt(self, turn: Turn, names: Sequence[str]) -> str | None:
        return records.record_alt(_name(names, turn.seat))

    def decision_alt(self, view: Mapping[str, Any], prompt: Prompt, names: Sequence[str]) -> str | None:
        return records.decision_alt(_name(names, prompt.seat), prompt.kind)

    def since_summary(self, seat: int, turns: Sequence[Turn], names: Sequence[str]) -> list[str]:
        told = []
        for turn in turns:
            player, before, after, events = _told(turn, names)
            told.append(story.Turn(player, events, before, after))
        return records.since_lines(_name(names, seat), told)

    def round_ends(self, turn: Turn) -> bool:
        # A turn belongs to the round it began in; the setup (round 0) is a round of its own.
        return records.round_of(turn.after) != records.round_of(turn.before) or turn.after.get("phase") == "over"

    def round_summary(self, turns: Sequence[Turn], names: Sequence[str]) -> str | None:
        if not turns:
            return None
        lines = [records.round_heading(records.round_of(turns[0].before))]
        for turn in turns:
            player, before, after, events = _told(turn, names)
            told = records.turn_summary(player, events, before, after, games_log=True)
            lines.append("• " + _cut(told, records.MAX_LINE_CHARS))
        return "\n".join(lines)

    def decision_picture(
        self, view: Mapping[str, Any], names: Sequence[str], seat: int, events: Sequence[Event] = ()
    ) -> bytes:
        shown = named_view(view, names)
        marked = outcomes(view, _display(view, names))
        return render.turn(shown, None, _name(names, seat), [engine_event(e, names) for e in events], marked)

    def table_picture(self, view: Mapping[str, Any], names: Sequence[str], events: Sequence[Event] = ()) -> bytes:
        return render.table_phone(named_view(view, names), [engine_event(e, names) for e in events])

    def table_pictures(self, view: Mapping[str, Any], names: Sequence[str], seat: int | None) -> tuple[Picture, ...]:
        me = _name(names, seat) if seat is not None and 0 <= seat < len(names) else None
        return whole_table(named_view(view, names), me, self.name)

    def board_picture(self, view: Mapping[str, Any], names: Sequence[str], seat: int) -> Picture | None:
        # As `/kokeshi table player:` draws it: that player's workshop alone, large, with their score and discs.
        if not 0 <= seat < len(view.get("seating") or ()):
            return None
        player = _name(names, seat)
        return Picture(
            render.board(named_view(view, names), player),
            "workshop",
            _(
                "{player}'s workshop in Kokeshi, alone and large: its tracks, kokeshi, tiles and reserve, its score "
                "item by item and its discs on the happiness board."
            ).format(player=vocab.seat_name(player)),
        )

    def record_picture(self, view: Mapping[str, Any], names: Sequence[str], standing: Standing) -> bytes:
        shown = named_view(view, names)
        scores = {p["name"]: p["score"] for p in shown["players"]}
        ranking = [_name(names, s) for s in standing.details["ranking"]]
        return render.final(shown, scores, ranking)


MODULE = Kokeshi()
