"""A rematch's seating, at either table: the last game's seats in reverse order round the table, the host first.

The plan is one of the rematch lobby's settings (`rematch`: the game it follows and the seating), written with the
lobby, so a restart loses nothing. People are named in it by user (`u<user id>`) and AI seats by the name the new
lobby gives them (`nAI 1`, … as the store's `create_game` names them, in order); the seats follow it as people join,
whatever the order of their clicks, and anyone not in it sits after them in the order they came.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from storage import GameRecord, Seat, Store

# A rematch lobby's setting: the game it follows and its planned seating.
REMATCH = "rematch"


def reversed_order(seats: Sequence[str], host: str) -> list[str]:
    """The seats in the reverse of their order round the table, turned so that `host` comes first."""
    order = list(reversed(seats))
    first = order.index(host)
    return order[first:] + order[:first]


def rematch_setting(record: GameRecord, host: Seat, robots: Sequence[Seat]) -> dict[str, Any]:
    """The `rematch` setting of `record`'s rematch hosted by the person at `host`: the game it follows and the
    seating planned for it, `robots` (the seats the AI plays, in order) becoming the new lobby's AI seats."""
    token = {s.name: f"u{s.user_id}" for s in record.seats if s.user_id is not None}
    token |= {old.name: f"nAI {i + 1}" for i, old in enumerate(robots)}
    plan = [token[name] for name in reversed_order([s.name for s in record.seats], host.name)]
    return {"of": record.id, "seating": plan}


def planned_names(record: GameRecord) -> list[str] | None:
    """The names of a rematch lobby's seated players in their planned order (those not seated yet left out); None
    for any other lobby."""
    found = record.settings.get(REMATCH)
    plan = found.get("seating") if isinstance(found, Mapping) else None
    if not isinstance(plan, list):
        return None
    names = []
    for token in plan:
        if not isinstance(token, str):
            continue
        if token.startswith("u") and token[1:].isdigit():
            seat = record.seat_of(int(token[1:]))
            if seat is not None:
                names.append(seat.name)
        elif token.startswith("n") and record.seat_named(token[1:]) is not None:
            names.append(token[1:])
    return names


async def seat_as_planned(store: Store, record: GameRecord) -> GameRecord:
    """A rematch lobby with its seats in the planned order; any other game as it is."""
    names = planned_names(record) if record.status == "lobby" else None
    if names is None:
        return record
    return await store.arrange_seats(record.id, names)


__all__ = ["REMATCH", "planned_names", "rematch_setting", "reversed_order", "seat_as_planned"]
