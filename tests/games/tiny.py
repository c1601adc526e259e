"""Bids, a tiny game for the contract's tests only: every seat bids a card at once and in secret for a prize drawn
from a shuffled deck; the one highest bid takes it (a tie takes nothing); most points after three prizes wins."""

from __future__ import annotations

import hashlib
import io
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from games.base import Event, GameModule, Match, Option, Prompt, Refusal, Standing
from i18n import current

PRIZES = (1, 2, 3)
CARDS = (1, 2, 3, 4)  # one card more than prizes: the last bid is still a choice
FIELDS = ("seed", "counter", "deck", "prize", "hands", "points", "bids", "version")
WORDS = {
    "en": {
        "bid": "Bid {n}",
        "ask": "Your secret bid",
        "won": "{name} takes prize {n}.",
        "tie": "Nobody takes {n}.",
        "total": "Points",
    },
    "pt_BR": {
        "bid": "Lance {n}",
        "ask": "Seu lance secreto",
        "won": "{name} leva o prêmio {n}.",
        "tie": "Ninguém leva {n}.",
        "total": "Pontos",
    },
}


class Bids(Match):
    """State: seed and draw counter, the deck (sorted: only its order is hidden), the prize, hands, secret bids."""

    game = "bids"

    def __init__(self, state: dict[str, Any]) -> None:
        self.s = state

    seats = property(lambda self: len(self.s["hands"]))
    rules = property(lambda self: 1)
    version = property(lambda self: self.s["version"])

    def _draw(self) -> None:
        deck = self.s["deck"]
        digest = hashlib.blake2b(f"{self.s['seed']}:{self.s['counter']}".encode(), digest_size=8).digest()
        self.s["counter"] += 1
        self.s["prize"] = deck.pop(int.from_bytes(digest, "big") % len(deck)) if deck else None

    def prompts(self) -> tuple[Prompt, ...]:
        if self.s["prize"] is None:
            return ()
        return tuple(
            Prompt(seat, "bid", tuple(Option(f"bid:{c}", ("bid", c)) for c in hand))
            for seat, hand in enumerate(self.s["hands"])
            if self.s["bids"][seat] is None
        )

    def apply(self, seat: int, action: str) -> list[Event]:
        if not 0 <= seat < self.seats:
            raise Refusal("unknown_seat")
        if self.s["prize"] is None:
            raise Refusal("game_over")
        if self.s["bids"][seat] is not None:
            raise Refusal("not_your_turn")
        if action not in self.legal_actions(seat):
            raise Refusal("illegal", self.legal_actions(seat))
        self.s["version"] += 1
        card = int(action.split(":")[1])
        self.s["hands"][seat].remove(card)
        self.s["bids"][seat] = card
        events = [Event("bid", seat, {})]
        if None not in self.s["bids"]:
            bids, prize = self.s["bids"], self.s["prize"]
            top = [s for s, b in enumerate(bids) if b == max(bids)]
            events.append(Event("bids_shown", -1, {"bids": list(bids)}))
            if len(top) == 1:
                self.s["points"][top[0]] += prize
            events.append(
                Event("prize_won" if len(top) == 1 else "prize_lost", top[0] if len(top) == 1 else -1, {"prize": prize})
            )
            self.s["bids"] = [None] * self.seats
            self._draw()
            if self.s["prize"] is not None:
                events.append(Event("prize_drawn", -1, {"prize": self.s["prize"]}, reveals=True))
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        prompt = next((p for p in self.prompts() if p.seat == seat), None)
        return {
            "game": "bids",
            "version": self.version,
            "prize": self.s["prize"],
            "deck": len(self.s["deck"]),
            # Another seat's hand still shows its secret bid: only the seat itself knows which card is gone.
            "hands": [sorted(h if s == seat or b is None else [*h, b]) for s, (h, b) in enumerate(self._held())],
            "points": list(self.s["points"]),
            "bid": [b is not None for b in self.s["bids"]],
            "mine": None if seat is None else self.s["bids"][seat],
            "prompt": prompt and {"seat": seat, "kind": "bid", "options": [o.id for o in prompt.options]},
        }

    def _held(self) -> list[tuple[list[int], int | None]]:
        return list(zip(self.s["hands"], self.s["bids"], strict=True))

    def standing(self) -> Standing:
        pts = self.s["points"]
        return Standing(self.is_over, tuple(1 + sum(p > q for p in pts) for q in pts), tuple({"total": p} for p in pts))

    def turn_key(self) -> str:
        return "over" if self.is_over else f"prize{len(self.s['deck'])}"

    def to_json(self) -> str:
        return json.dumps(self.s, sort_keys=True, separators=(",", ":"))

    def determinized(self, seat: int | None, seed: int) -> Bids:
        state = json.loads(self.to_json())
        state.update(seed=seed, counter=0)
        rng = random.Random(seed)
        for s, bid in enumerate(self.s["bids"]):
            if bid is not None and s != seat:  # another seat's secret bid, put back and drawn again
                hand = sorted([*state["hands"][s], bid])
                state["bids"][s] = hand.pop(rng.randrange(len(hand)))
                state["hands"][s] = hand
        return Bids(state)


class BidsModule(GameModule):
    key = "bids"
    name = "Bids"
    players = (2, 3)
    rules_versions = (1,)
    current_rules = 1
    stat_keys = ("total",)
    locales = ("en", "pt_BR")

    def deal(self, options: Mapping[str, Any], seed: int, seats: int, rules: int | None = None) -> Bids:
        self.options(options)
        if seats not in self.players or rules not in (None, 1):
            raise ValueError("Bids: 2 or 3 seats, rules 1")
        hands = [list(CARDS) for _ in range(seats)]
        state = {"seed": seed, "counter": 0, "deck": list(PRIZES), "prize": None, "hands": hands}
        match = Bids({**state, "points": [0] * seats, "bids": [None] * seats, "version": 0})
        match._draw()
        return match

    def load(self, text: str) -> Bids:
        state = json.loads(text)
        if not isinstance(state, dict) or set(state) != {*FIELDS}:
            raise ValueError(f"a saved game of Bids has the fields {', '.join(FIELDS)}")
        return Bids(state)

    def decide(self, match: Match, seat: int, level: str, seed: int) -> str:
        legal = match.legal_actions(seat)
        # Easy bids at random, harder levels bid the prize's value if they still can.
        prize = match.view(seat)["prize"]
        wanted = f"bid:{prize}"
        return wanted if level != "easy" and wanted in legal else random.Random(seed).choice(legal)

    def _w(self, key: str) -> str:
        return WORDS.get(current(), WORDS["en"])[key]

    def label(self, view: Mapping[str, Any], option: Option) -> str:
        return self._w("bid").format(n=option.code[1])

    def question(self, view: Mapping[str, Any], prompt: Prompt) -> str:
        return self._w("ask")

    def stat_label(self, key: str) -> str:
        return self._w(key)

    def narrate(self, event: Event, names: Sequence[str]) -> str | None:
        if event.kind in ("prize_won", "prize_lost"):
            who = names[event.seat] if event.seat >= 0 else ""
            return self._w("won" if event.kind == "prize_won" else "tie").format(name=who, n=event.data["prize"])
        return None

    def _picture(self, view: Mapping[str, Any], names: Sequence[str], title: str) -> bytes:
        img = Image.new("RGB", (240, 40 + 20 * len(names)), "white")
        draw = ImageDraw.Draw(img)
        draw.text((8, 8), title, fill="black")
        for s, name in enumerate(names):
            draw.text((8, 30 + 20 * s), f"{name}: {view['points'][s]}", fill="black")
        out = io.BytesIO()
        img.save(out, "PNG")
        return out.getvalue()

    def decision_picture(
        self, view: Mapping[str, Any], names: Sequence[str], seat: int, events: Sequence[Event] = ()
    ) -> bytes:
        return self._picture(view, names, f"{self._w('ask')}: {view['prize']}")

    def table_picture(self, view: Mapping[str, Any], names: Sequence[str], events: Sequence[Event] = ()) -> bytes:
        return self._picture(view, names, str(view["prize"]))

    def record_picture(self, view: Mapping[str, Any], names: Sequence[str], standing: Standing) -> bytes:
        return self._picture(view, names, " ".join(map(str, standing.places)))


MODULE = BidsModule()
