"""Quiet hours: a daily window of local time (e.g. 23:00-08:00 in Europe/Lisbon) and whether a moment falls in it."""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo

_HOURS = re.compile(r"^([01]?\d|2[0-3])(?::([0-5]\d))?\s*[-–]\s*([01]?\d|2[0-3])(?::([0-5]\d))?$")


def parse_hours(text: str) -> tuple[int, int] | None:
    """The window "23:00-08:00" (or "23-8") as (start, end) minutes after midnight; None if it is not one, or empty.

    >>> parse_hours("23:00-08:00")
    (1380, 480)
    """
    found = _HOURS.match(text.strip())
    if found is None:
        return None
    start = int(found[1]) * 60 + int(found[2] or 0)
    end = int(found[3]) * 60 + int(found[4] or 0)
    return None if start == end else (start, end)


def show_hours(hours: tuple[int, int]) -> str:
    """The window as it is written: "23:00-08:00"."""
    start, end = hours
    return f"{start // 60:02d}:{start % 60:02d}-{end // 60:02d}:{end % 60:02d}"


def zone(name: str) -> zoneinfo.ZoneInfo | None:
    """The IANA time zone of this name ("Europe/Lisbon"), or None if there is no such zone."""
    if not name or name != name.strip() or ".." in name or name.startswith("/"):
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


def zone_names() -> list[str]:
    """Every IANA time zone name this system knows, sorted."""
    return sorted(zoneinfo.available_timezones())


def quiet_end(at: float, hours: tuple[int, int], where: zoneinfo.ZoneInfo) -> float | None:
    """If the UNIX time `at` falls in the quiet hours (local time in `where`), the moment they end; else None.

    The window is read on the local clock, so a daylight-saving change inside it makes it an hour shorter or longer.
    """
    start, end = hours
    local = dt.datetime.fromtimestamp(at, where)
    minute = local.hour * 60 + local.minute
    day = local.date()
    if start < end:
        inside = start <= minute < end
    else:  # across midnight
        inside = minute >= start or minute < end
        if minute >= start:
            day += dt.timedelta(days=1)
    if not inside:
        return None
    ends = dt.datetime.combine(day, dt.time(end // 60, end % 60), tzinfo=where)
    # A window end that the clocks skip (spring forward) is read as the same wall time after the change.
    return max(ends.timestamp(), at)


_TIME = re.compile(r"^([01]?\d|2[0-3])(?::([0-5]\d))?$")


def parse_time(text: str) -> int | None:
    """A time of day, "08:00" (or "8"), as minutes after midnight; None if it is not one.

    >>> parse_time("7:30")
    450
    """
    found = _TIME.match(text.strip())
    return None if found is None else int(found[1]) * 60 + int(found[2] or 0)


def show_time(minute: int) -> str:
    """A time of day as it is written: "07:30"."""
    return f"{minute // 60:02d}:{minute % 60:02d}"


def next_daily(at: float, minute: int, where: zoneinfo.ZoneInfo) -> float:
    """The first moment after the UNIX time `at` when the local clock in `where` reads `minute` after midnight.

    A time the clocks skip (spring forward) comes at the same wall time after the change; a time they pass twice
    (fall back) comes once, the first time.
    """
    day = dt.datetime.fromtimestamp(at, where).date() - dt.timedelta(days=1)
    while True:
        due = dt.datetime.combine(day, dt.time(minute // 60, minute % 60), tzinfo=where).timestamp()
        if due > at:
            return due
        day += dt.timedelta(days=1)
