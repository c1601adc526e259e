"""Kōhaku as the platform knows it: the game contract (`games.base`) over the rules, AI, words and pictures here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.base import Challenge, Event, GameModule, Match, Option, Prompt, Refusal, Setting, Standing, Turn
from i18n import _

from . import ai, pictures, words
from .data import CURRENT_RULES, GOALS, RULES_VERSIONS
from .model import GOAL, PLACE, SCORE_KEYS, IllegalAction
from .persist import load_match
from .rules import OVER
from .rules import Match as Rules
from .rules import deal as deal_match
from .scoring import coins


def _event(event: Any) -> Event:
    return Event(event.kind, event.seat, event.data, event.reveals)


class KohakuMatch(Match):
    """A Kōhaku match behind the contract; `inner` is the rules' own `games.kohaku.Match`."""

    game = "kohaku"

    def __init__(self, inner: Rules) -> None:
        self.inner = inner

    @property
    def seats(self) -> int:
        return self.inner.seats

    @property
    def rules(self) -> int:
        return self.inner.rules

    @property
    def version(self) -> int:
        return self.inner.version

    def prompts(self) -> tuple[Prompt, ...]:
        # The goal cards a seat is dealt are its secret: the seat chooses among them privately, even when the other
        # seats have chosen already and it is the only one asked. A placement is grouped by the tile it places:
        # with both tiles taken in hand, the tile first, then where.
        return tuple(
            Prompt(
                p.seat,
                p.kind,
                tuple(Option(o.id, o.code, str(o.code[3]) if p.kind == PLACE else "") for o in p.options),
                secret=p.kind == GOAL,
            )
            for p in self.inner.prompts()
        )

    def waiting(self) -> tuple[int, ...]:
        return self.inner.waiting()

    def legal_actions(self, seat: int) -> list[str]:
        return self.inner.legal_actions(seat) if seat in self.inner.waiting() else []

    def apply(self, seat: int, action: str) -> list[Event]:
        try:
            return [_event(e) for e in self.inner.apply(seat, action)]
        except IllegalAction as err:
            raise Refusal(err.code, err.legal) from None

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.inner.view(seat)

    def standing(self) -> Standing:
        m = self.inner
        outcome = m.outcome()
        if outcome is not None:
            places, scores, tie = outcome.places, outcome.scores, outcome.coins
        else:
            # While playing, nobody's secret goal card counts: the standing is public.
            scores = tuple(m.score(s, with_goal=False) for s in range(m.seats))
            tie = tuple(coins(m.ponds[s]) for s in range(m.seats))
            keys = [(scores[s]["total"], tie[s]) for s in range(m.seats)]
            places = tuple(1 + sum(1 for other in keys if other > keys[s]) for s in range(m.seats))
        details: dict[str, Any] = {"coins": list(tie)}
        if m.solo:
            danny = m.danny_scores()
            beaten = {level: scores[0]["total"] > points for level, points in danny.items()}
            details.update(danny=danny, beaten=beaten)
            # Solo: first only by beating Danny at the hard level, as the outcome's winners say.
            places = (1 if beaten["hard"] else 2,)
        return Standing(outcome is not None, tuple(places), tuple(scores), details)

    def turn_key(self) -> str:
        return self.inner.turn_key()

    def to_json(self) -> str:
        return self.inner.to_json()

    def copy(self) -> KohakuMatch:
        return KohakuMatch(self.inner.clone())

    def determinized(self, seat: int | None, seed: int) -> KohakuMatch:
        return KohakuMatch(self.inner.determinized(seat, seed))


def _inner(match: Match) -> Rules:
    if not isinstance(match, KohakuMatch):
        raise TypeError(f"not a Kōhaku match: {match!r}")
    return match.inner


class Kohaku(GameModule):
    """Kōhaku (Danny Devine): 1–4 players, solo against Danny, goal cards as an option."""

    key = "kohaku"
    name = "Kōhaku"
    players = (1, 2, 3, 4)
    rules_versions = RULES_VERSIONS
    current_rules = CURRENT_RULES
    settings = (Setting("goals", (False, True), False),)
    challenges = (Challenge("daily", {"goals": False}), Challenge("weekly", {"goals": False}))
    stat_keys = SCORE_KEYS
    favourite_items = GOALS  # the goal card a player keeps most often, of the two dealt (goal-card games only)
    locales = ("en", "pt_BR")

    def deal(self, options: Mapping[str, Any], seed: int, seats: int, rules: int | None = None) -> KohakuMatch:
        goals = bool(self.options(options)["goals"])
        version = CURRENT_RULES if rules is None else rules
        return KohakuMatch(deal_match(seats, seed=seed, goals=goals, rules=version))

    def load(self, text: str) -> KohakuMatch:
        return KohakuMatch(load_match(text))

    def decide(self, match: Match, seat: int, level: str, seed: int) -> str:
        return ai.policy(level, seed=seed).choose(_inner(match), seat)

    def advise(self, match: Match, seat: int, level: str, seed: int) -> tuple[str, float | None]:
        hint = ai.policy(level, seed=seed).explain(_inner(match), seat)
        return hint.action, float(hint.gain)

    def label(self, view: Mapping[str, Any], option: Option) -> str:
        prompt = view.get("prompt") or {}
        return words.label({"id": option.id, "code": option.code}, view, prompt.get("seat"))

    def option_symbol(self, view: Mapping[str, Any], option: Option) -> str | None:
        return words.option_emoji({"id": option.id, "code": option.code})

    def group_label(self, view: Mapping[str, Any], prompt: Prompt, group: str) -> str:
        # A placement's group is the tile it places: named with what a koi carries.
        name = words.tile_full(group)
        return name[:1].upper() + name[1:]

    def question(self, view: Mapping[str, Any], prompt: Prompt) -> str:
        return words.question(prompt.kind, view)

    def turn_order(self, view: Mapping[str, Any]) -> tuple[int, ...] | None:
        # The first seat starts, then each in turn ("clockwise"); goal cards, if dealt, are kept by all at once first.
        return tuple(range(int(view["seats"])))

    def narrate(self, event: Event, names: Sequence[str]) -> str | None:
        return words.narrate(event.to_dict(), names)

    def turn_heading(self, turn: Turn, names: Sequence[str]) -> str | None:
        seat = turn.seat

        def total(view: Mapping[str, Any]) -> int:
            return int(view["ponds"][seat]["score"].get("total", 0)) if 0 <= seat < len(view["ponds"]) else 0

        name = names[seat] if 0 <= seat < len(names) else self.name
        return words.turn_heading(
            name, _round_of(turn.before), total(turn.after) - total(turn.before), total(turn.after)
        )

    def round_ends(self, turn: Turn) -> bool:
        # A round is each seat's turn once round the table (a solo turn holds Danny's); the end closes the last.
        if turn.after.get("phase") == OVER:
            return True
        return _round_of(turn.after) > _round_of(turn.before)

    def round_summary(self, turns: Sequence[Turn], names: Sequence[str]) -> str | None:
        if not turns:
            return None
        lines = [words.round_heading(_round_of(turns[0].before))]
        told = (words.turn_line([e.to_dict() for e in turn.events], names) for turn in turns)
        lines += ["• " + line for line in told if line]
        return "\n".join(lines)

    def setting_label(self, key: str, value: Any) -> str:
        if key == "goals":
            return _("with goal cards") if value else _("without goal cards")
        return str(value)

    def scored_keys(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return self.stat_keys if options.get("goals") else tuple(k for k in self.stat_keys if k != "goal")

    def rules_text(self) -> str | None:
        return words.rules_text()

    def stat_label(self, key: str) -> str:
        return words.score_item(key)

    def favourite_of(self, action: str) -> str | None:
        kind, _sep, card = action.partition(":")
        return card if kind == "g" and card in GOALS else None

    def favourite_heading(self) -> str:
        return _("Favourite goal card")

    def favourite_label(self, item: str) -> str:
        return words.goal_name(item)

    def decision_picture(
        self, view: Mapping[str, Any], names: Sequence[str], seat: int, events: Sequence[Event] = ()
    ) -> bytes:
        return pictures.turn(view, names, seat, [e.to_dict() for e in events])

    def table_picture(self, view: Mapping[str, Any], names: Sequence[str], events: Sequence[Event] = ()) -> bytes:
        return pictures.table(view, names, [e.to_dict() for e in events])

    def record_picture(self, view: Mapping[str, Any], names: Sequence[str], standing: Standing) -> bytes:
        # The table picture of a finished match shows the score sheet and every pond.
        return pictures.table(view, names)


def _round_of(view: Mapping[str, Any]) -> int:
    """The round a view stands in, from 1: each seat's turn once round the table, a solo player's turn counting
    Danny's with it (the game counts his turns too)."""
    per_round = 2 if view.get("solo") else max(1, int(view["seats"]))
    return int(view.get("turn", 0)) // per_round + 1


MODULE = Kohaku()
