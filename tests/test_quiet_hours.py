"""Quiet hours as local time: a window across midnight, a daylight-saving change inside it, zones that do not exist."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from cogs.quiet import zone_choices
from kit.quiet import next_daily, parse_hours, parse_time, quiet_end, show_hours, show_time, zone

UTC = dt.UTC
NEW_YORK = ZoneInfo("America/New_York")
LISBON = ZoneInfo("Europe/Lisbon")
NIGHT = (23 * 60, 8 * 60)


def at(year, month, day, hour, minute=0, where=UTC) -> float:
    return dt.datetime(year, month, day, hour, minute, tzinfo=where).timestamp()


def test_quiet_hours_are_written_from_to_and_read_back_the_same():
    assert parse_hours("23:00-08:00") == NIGHT == parse_hours("23-8") == parse_hours(" 23:00 – 08:00 ")
    assert parse_hours("09:30-12:15") == (570, 735)
    assert show_hours(NIGHT) == "23:00-08:00"
    for bad in ("", "23:00", "25:00-08:00", "23:60-08:00", "8-8", "night", "23:00-08:00-09:00"):
        assert parse_hours(bad) is None, bad


def test_a_window_across_midnight_holds_the_evening_and_the_early_morning_and_ends_the_next_morning():
    # 23:30 on the 1st: the window ends at 08:00 on the 2nd; 03:00 on the 2nd: the same end.
    assert quiet_end(at(2026, 1, 1, 23, 30, LISBON), NIGHT, LISBON) == at(2026, 1, 2, 8, 0, LISBON)
    assert quiet_end(at(2026, 1, 2, 3, 0, LISBON), NIGHT, LISBON) == at(2026, 1, 2, 8, 0, LISBON)
    assert quiet_end(at(2026, 1, 2, 8, 0, LISBON), NIGHT, LISBON) is None
    assert quiet_end(at(2026, 1, 2, 22, 59, LISBON), NIGHT, LISBON) is None
    # A window within one day.
    assert quiet_end(at(2026, 1, 2, 13, 0, LISBON), (12 * 60, 14 * 60), LISBON) == at(2026, 1, 2, 14, 0, LISBON)


def test_the_window_follows_the_local_clock_through_a_daylight_saving_change():
    # New York springs forward at 02:00 EST on 8 March 2026: the night is an hour shorter, and ends at 08:00 EDT.
    ends = quiet_end(at(2026, 3, 8, 1, 0, NEW_YORK), NIGHT, NEW_YORK)
    assert ends == at(2026, 3, 8, 12, 0) and ends - at(2026, 3, 8, 6, 0) == 6 * 3600
    # Lisbon falls back at 02:00 WEST on 25 October 2026: the night is an hour longer, and ends at 08:00 WET.
    ends = quiet_end(at(2026, 10, 25, 0, 30, LISBON), NIGHT, LISBON)
    assert ends == at(2026, 10, 25, 8, 0) and ends - at(2026, 10, 24, 23, 30) == 8.5 * 3600


def test_a_zone_is_an_iana_name_the_system_knows_and_autocomplete_finds_it_by_city():
    assert zone("Europe/Lisbon") == LISBON
    for bad in ("Mars/Olympus", "", "lisbon", "../etc/passwd", "/etc/localtime", "Europe/Lisbon "):
        assert zone(bad) is None, bad
    assert [c.value for c in zone_choices("lisb")] == ["Europe/Lisbon"]
    assert "America/New_York" in [c.value for c in zone_choices("new y")]
    assert len(zone_choices("")) == 25


def test_a_digest_time_is_a_time_of_day_read_back_the_same():
    assert parse_time("08:00") == parse_time("8") == parse_time(" 8:00 ") == 480
    assert show_time(parse_time("7:05")) == "07:05" and parse_time("0:00") == 0
    for bad in ("", "24:00", "8:60", "8am", "08:00-09:00", "-1"):
        assert parse_time(bad) is None, bad


def test_a_daily_time_comes_once_a_day_on_the_local_clock_across_both_daylight_saving_changes():
    # Spring forward in New York on 8 March 2026 (02:00 → 03:00): 08:00 comes an hour earlier in UTC.
    assert next_daily(at(2026, 3, 7, 12), 8 * 60, NEW_YORK) == at(2026, 3, 7, 13)
    assert next_daily(at(2026, 3, 7, 13), 8 * 60, NEW_YORK) == at(2026, 3, 8, 12)
    # A time the clocks skip comes at the same wall time after the change (03:30 EDT).
    assert next_daily(at(2026, 3, 8, 0), 2 * 60 + 30, NEW_YORK) == at(2026, 3, 8, 7, 30)
    # Fall back on 1 November 2026 (02:00 → 01:00): 01:30 happens twice and comes once, the first time.
    first = next_daily(at(2026, 11, 1, 0), 90, NEW_YORK)
    assert first == at(2026, 11, 1, 5, 30) and next_daily(first, 90, NEW_YORK) == at(2026, 11, 2, 6, 30)
    # Exactly at the time, the next one is tomorrow's.
    assert next_daily(at(2026, 1, 1, 8), 8 * 60, UTC) == at(2026, 1, 2, 8)
