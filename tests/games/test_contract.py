"""The game contract every game passes: every built-in game and the tiny test game, at every table they deal."""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

import games
import i18n
from cogs.limits import one_emoji
from games.base import LEVELS, NOBODY, REFUSALS, GameModule, Match, Option, Prompt, Refusal, Setting, Turn
from i18n import LOCALES, using

from .kit import ALL_TABLES, KEYS, SEED, Table, played, positions, tables

ROOT = Path(__file__).resolve().parents[2]
BY_TABLE = pytest.mark.parametrize("table", ALL_TABLES, ids=str)
BY_GAME = pytest.mark.parametrize("key", KEYS)


def names_for(match: Match) -> list[str]:
    return [f"Player {chr(65 + s)}" for s in range(match.seats)]


# ------------------------------------------------------------------ the registry and the module's declarations


@BY_GAME
def test_the_items_a_variant_scores_are_among_the_games_in_their_order(key):
    module = games.get(key)
    for values in itertools.product(*(s.choices for s in module.settings)):
        options = module.options(dict(zip((s.key for s in module.settings), values, strict=True)))
        scored = module.scored_keys(options)
        assert [k for k in module.stat_keys if k in scored] == list(scored)
        assert "total" not in module.stat_keys or "total" in scored


@BY_GAME
def test_a_game_declares_what_the_platform_needs(key):
    module = games.get(key)
    assert isinstance(module, GameModule) and module.key == key and module.name
    assert module.current_rules in module.rules_versions
    assert set(module.levels) <= set(LEVELS) and module.levels
    for challenge in module.challenges:
        assert module.options(challenge.options)
    options = module.options()
    assert set(options) == {s.key for s in module.settings}
    for setting in module.settings:
        for value in setting.choices:
            with using("pt_BR"):
                assert module.setting_label(setting.key, value)


def test_the_registry_knows_every_built_in_game_and_refuses_what_is_not_a_game():
    assert [g.key for g in games.all_games()][:2] == ["kokeshi", "kohaku"]
    with pytest.raises(KeyError):
        games.get("chess")
    with pytest.raises(TypeError):
        games.register(object())  # type: ignore[arg-type]
    clash = type(games.get("bids"))()
    with pytest.raises(ValueError, match="already registered"):
        games.register(clash)


@pytest.mark.parametrize(
    ("attribute", "value"),
    [("key", "Bad Key"), ("current_rules", 9), ("players", ()), ("settings", (Setting("x", ("a",), "b"),))],
)
def test_the_registry_refuses_a_game_that_declares_badly(attribute, value):
    broken = type("Broken", (type(games.get("bids")),), {attribute: value})()
    with pytest.raises(ValueError):
        games.register(broken)
    assert games.get("bids") is not broken


@BY_GAME
def test_bad_deals_are_refused_with_a_message(key):
    module = games.get(key)
    with pytest.raises(ValueError):
        module.deal({}, SEED, max(module.players) + 1)
    with pytest.raises(ValueError):
        module.deal({"no_such_setting": 1}, SEED, max(module.players))
    with pytest.raises(ValueError):
        module.load("{}")


# ------------------------------------------------------------------ determinism and persistence

_REPLAY = """
import json, sys
import games
from tests.games import tiny
games.register(tiny.MODULE)
out = []
for case in json.load(sys.stdin):
    module = games.get(case["key"])
    match = module.deal(case["options"], case["seed"], case["seats"])
    events = [[e.to_dict() for e in match.apply(seat, action)] for seat, action in case["actions"]]
    out.append({"json": match.to_json(), "events": events})
json.dump(out, sys.stdout)
"""


@pytest.mark.slow
def test_the_same_options_seed_and_actions_give_the_same_game_in_another_process():
    cases, expected = [], []
    for table in ALL_TABLES:
        record = played(table)
        cases.append(
            {
                "key": table.key,
                "options": dict(table.options),
                "seed": SEED,
                "seats": table.seats,
                "actions": record.actions,
            }
        )
        expected.append({"json": record.match.to_json(), "events": [[e.to_dict() for e in s] for s in record.events]})
    # Another hash seed: nothing may hang on the order of a set of strings.
    env = {**os.environ, "PYTHONHASHSEED": "4242", "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", _REPLAY],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
        check=True,
    )
    got = json.loads(result.stdout)
    assert len(got) == len(expected)
    for table, mine, theirs in zip(ALL_TABLES, expected, got, strict=True):
        assert theirs == json.loads(json.dumps(mine)), table


@BY_TABLE
@pytest.mark.slow
def test_a_match_loads_back_equal_at_every_step(table):
    module = table.module
    record = played(table)
    match = table.deal()
    for seat, action in [*record.actions, (None, None)]:
        # Loaded back, and copied as the store hands a match out: each an equal match of its own.
        loaded, copied = module.load(match.to_json()), match.copy()
        for copy in (loaded, copied):
            assert copy.to_json() == match.to_json()
            assert copy.prompts() == match.prompts()
            assert copy.turn_key() == match.turn_key() and copy.version == match.version
            assert copy.standing() == match.standing()
            for s in (None, *range(match.seats)):
                assert copy.view(s) == match.view(s)
        if seat is None:
            break
        before = match.version
        events = [e.to_dict() for e in match.apply(seat, action)]
        assert [e.to_dict() for e in loaded.apply(seat, action)] == events
        assert copied.to_json() != match.to_json() and copied.version == before  # untouched by the match's decision
        assert [e.to_dict() for e in copied.apply(seat, action)] == events and copied.to_json() == match.to_json()
        assert match.version > before
    assert match.is_over and match.standing().over


@BY_TABLE
def test_a_finished_game_stands_with_places_scores_and_tallies(table):
    module = table.module
    standing = played(table).match.standing()
    assert standing.over and len(standing.places) == len(standing.scores) == table.seats
    assert all(1 <= p <= table.seats + 1 for p in standing.places)
    assert all("total" in s for s in standing.scores)
    for seat in range(table.seats):
        tallies = module.tallies(standing, seat)
        assert tallies["played"] == 1 and tallies["won"] == int(standing.places[seat] == 1)
        assert set(module.stat_keys) <= set(tallies)
    json.dumps(standing.to_dict())


@BY_TABLE
def test_a_favourite_counts_only_the_games_own_items_from_its_own_actions(table):
    module = table.module
    record = played(table)
    counted = [module.favourite_of(action) for _, action in record.actions]
    items = set(module.favourite_items)
    assert len(items) == len(module.favourite_items)
    assert {item for item in counted if item is not None} <= items
    # Every whole game of Kokeshi advances a kokeshi; every Kōhaku game with goal cards keeps one.
    options = module.options(dict(table.options))
    if table.key == "kokeshi" or (table.key == "kohaku" and options["goals"]):
        assert any(counted), table
    assert module.favourite_of("not-an-action") is None


@BY_TABLE
def test_refused_decisions_change_nothing(table):
    for match in positions(table, 3):
        before = match.to_json()
        waiting = match.waiting()
        idle = [s for s in range(match.seats) if s not in waiting]
        checks = [(match.seats, match.legal_actions(waiting[0])[0], "unknown_seat")]
        checks.append((waiting[0], "no-such-action", "illegal"))
        if idle:
            checks.append((idle[0], match.legal_actions(waiting[0])[0], "not_your_turn"))
        for seat, action, code in checks:
            with pytest.raises(Refusal) as err:
                match.apply(seat, action)
            assert err.value.code == code and code in REFUSALS
            assert match.to_json() == before
    over = played(table).match
    with pytest.raises(Refusal) as err:
        over.apply(0, "anything")
    assert err.value.code == "game_over"


@BY_TABLE
def test_a_new_seat_is_asked_only_when_a_new_turn_starts(table):
    match = table.deal()
    for seat, action in played(table).actions:
        key, waiting = match.turn_key(), set(match.waiting())
        match.apply(seat, action)
        if match.turn_key() == key:
            assert set(match.waiting()) <= waiting, (key, waiting, match.waiting())


@pytest.mark.parametrize("key", ["kokeshi", "kohaku"])
def test_a_placement_is_grouped_by_the_tile_it_places_and_nothing_else_is_grouped(key):
    table = next(t for t in tables(key) if t.seats == 2)
    match = table.deal()
    grouped = 0
    for seat, action in played(table).actions:
        for prompt in match.prompts():
            for option in prompt.options:
                if key == "kokeshi":
                    kind, *rest = option.id.split(":")
                    assert option.group == (rest[0] if kind == "place" else ""), option
                else:
                    assert option.group == (option.code[3] if prompt.kind == "place" else ""), option
            grouped += len(prompt.groups()) > 1
        match.apply(seat, action)
    assert grouped  # some placement offered two tiles or more


def test_a_prompt_lists_its_groups_in_the_order_of_their_first_options():
    options = (Option("a:1", group="b"), Option("pass"), Option("a:2", group="a"), Option("a:3", group="b"))
    prompt = Prompt(0, "any", options)
    assert prompt.groups() == {"b": (options[0], options[3]), "a": (options[2],)}
    assert Prompt(0, "any", (Option("x"), Option("y"))).groups() == {}
    # A game that groups without words of its own reads its groups made readable.
    assert GameModule.group_label(games.get("bids"), {}, prompt, "white_tiles") == "White tiles"


def test_simultaneous_secret_choices_are_one_prompt_per_seat_each_seen_only_by_its_seat():
    table = Table("bids", (), 3)
    match = table.deal()
    assert [p.seat for p in match.prompts()] == [0, 1, 2]
    match.apply(1, match.legal_actions(1)[-1])
    assert match.waiting() == (0, 2)
    assert match.view(1)["mine"] == 4 and match.view(0)["mine"] is None
    assert match.view(0)["prompt"]["seat"] == 0 and match.view(1)["prompt"] is None
    assert match.view(0)["hands"][1] == [1, 2, 3, 4]  # the card bid is not shown as gone


@BY_TABLE
def test_a_game_replays_from_its_options_seed_and_actions(table):
    record = played(table)
    match = table.module.replay(dict(table.options), SEED, table.seats, record.actions, record.match.rules)
    assert match.to_json() == record.match.to_json()


STORED = json.loads((ROOT / "tests" / "fixtures" / "contract_games.json").read_text(encoding="utf-8"))["games"]


@pytest.mark.parametrize("stored", STORED, ids=lambda g: f"{g['game']}-{g['seats']}-rules{g['rules']}")
def test_games_stored_through_the_contract_replay_to_the_same_end(stored):
    module = games.get(stored["game"])
    assert stored["rules"] in module.rules_versions
    actions = [(seat, action) for seat, action in stored["actions"]]
    match = module.replay(stored["options"], stored["seed"], stored["seats"], actions, stored["rules"])
    assert hashlib.sha256(match.to_json().encode()).hexdigest() == stored["final_sha256"]
    assert match.standing().to_dict() == stored["standing"]


@pytest.mark.parametrize(
    "version", [1, 2, 3], ids=lambda v: f"rules{v}"
)  # the Kokeshi games stored under every older rules version
def test_stored_kokeshi_games_replay_through_the_contract(version):
    from games.kokeshi.engine import replay
    from games.kokeshi.module import named_view

    module = games.get("kokeshi")
    stored = json.loads((ROOT / "tests" / "fixtures" / f"rules_v{version}_games.json").read_text(encoding="utf-8"))
    assert stored["games"]
    for record in stored["games"]:
        players = list(record["players"])
        seats = {name: s for s, name in enumerate(players)}
        actions = [(seats[name], action) for name, action in record["actions"]]
        match = module.replay({"side": record["side"]}, int(record["seed"]), len(players), actions, version)
        standing = match.standing()
        assert standing.over and match.rules == version
        assert [dict(standing.scores[seats[n]]) for n in players] == [record["scores"][n] for n in players]
        ranking = [players[s] if s != NOBODY else "automa" for s in standing.details["ranking"]]
        assert ranking == record["ranking"]
        # The same game stored with its players' names loads behind the contract to the same standing and table.
        named = module.load(
            replay(
                players,
                seed=int(record["seed"]),
                side=record["side"],
                solo=record["solo"],
                actions=record["actions"],
                rules=version,
            ).to_json()
        )
        assert named.standing() == standing
        # With the platform's names put in, every name in the view reads the same (the seating aside).
        mine, theirs = named_view(match.view(None), players), named_view(named.view(None), players)
        assert mine.pop("seating") != theirs.pop("seating")
        assert mine == theirs


# ------------------------------------------------------------------ words


class _Recording:
    """A locale's translations that note every message its catalog lacks."""

    def __init__(self, inner, missing):
        self.inner, self.missing = inner, missing
        self.catalog = getattr(inner, "_catalog", {})

    def gettext(self, message):
        if message not in self.catalog:
            self.missing.add(message)
        return self.inner.gettext(message)

    def ngettext(self, singular, plural, n):
        if (singular, 0) not in self.catalog:
            self.missing.add(singular)
        return self.inner.ngettext(singular, plural, n)

    def pgettext(self, context, message):
        if f"{context}\x04{message}" not in self.catalog:
            self.missing.add(message)
        return self.inner.pgettext(context, message)


@BY_TABLE
@pytest.mark.slow
def test_every_option_question_and_event_is_worded_in_every_locale(table, monkeypatch):
    module = table.module
    missing: dict[str, set[str]] = {locale: set() for locale in LOCALES}
    real = i18n.translations
    monkeypatch.setattr(i18n, "translations", lambda locale: _Recording(real(locale), missing[locale]))
    record = played(table)
    match = table.deal()
    names = names_for(match)
    for (seat, action), events in zip(record.actions, record.events, strict=True):
        for prompt in match.prompts():
            view = match.view(prompt.seat)
            groups = prompt.groups()
            for locale in LOCALES:
                with using(locale):
                    words = [module.label(view, option) for option in prompt.options]
                    question = module.question(view, prompt)
                    named = module.question_named(view, prompt, names)
                    short = module.short_question(match.view(None), prompt)
                    headings = [module.group_label(view, prompt, group) for group in groups]
                    lines = [(module.menu_label(view, o), module.option_detail(view, o)) for o in prompt.options]
                    symbols = [module.option_symbol(view, option) for option in prompt.options]
                    under = [module.group_detail(view, prompt, group) for group in groups]
                assert all(w and len(w) <= 100 and "{" not in w for w in words), words
                assert len(set(words)) == len(words), words  # every button says something of its own
                ids = [option.id for option in prompt.options]
                assert len(set(ids)) == len(ids) >= 2 and all(0 < len(i) <= 40 for i in ids)
                assert question and "{" not in question
                assert named and "{" not in named and named.startswith(question.partition(" (")[0]), named
                assert short and "{" not in short, short
                # Every group a first menu lists is worded, each with words of its own.
                assert all(h and len(h) <= 100 and "{" not in h for h in headings), headings
                assert len(set(headings)) == len(headings), headings
                # A menu's lines (a label, and the line under it if any) are worded too, each of its own; an emoji is
                # one unicode emoji Discord takes, or none.
                worded = [w for line in lines for w in line if w is not None] + [u for u in under if u is not None]
                assert all(w and len(w) <= 100 and "{" not in w for w in worded), lines
                assert len(set(lines)) == len(lines), lines
                assert all(s is None or one_emoji(s) == s for s in symbols), symbols
            # A group's options are the prompt's, each in one group at most, and its name is short.
            assert all(0 < len(group) <= 40 for group in groups), list(groups)
            grouped = [option for options in groups.values() for option in options]
            assert set(grouped) <= set(prompt.options) and len(set(grouped)) == len(grouped)
            assert {o.id for o in grouped} == {o.id for o in prompt.options if o.group}
            assert all(o.group == group for group, options in groups.items() for o in options)
        match.apply(seat, action)
        for event in events:
            for locale in LOCALES:
                with using(locale):
                    text = module.narrate(event, names)
                assert text is None or (text.strip() and "{" not in text), (event, text)
    for locale in LOCALES:
        with using(locale):
            for setting in module.settings:
                for value in setting.choices:
                    assert module.setting_label(setting.key, value)
            # Every score item its stats add up is named, each with a name of its own.
            labels = [module.stat_label(key) for key in module.stat_keys]
            assert all(label and "{" not in label for label in labels), labels
            assert len(set(labels)) == len(labels), labels
            # A favourite, where the game keeps one, is headed and named, each item with a name of its own.
            if module.favourite_items:
                labels = [module.favourite_label(item) for item in module.favourite_items]
                assert module.favourite_heading() and all(label and "{" not in label for label in labels), labels
                assert len(set(labels)) == len(labels), labels
    # What the final places leave out (a solo opponent's score), in words; and every player's total, each seat and
    # each opponent without one named.
    standing = record.match.standing()
    for locale in LOCALES:
        with using(locale):
            notes = module.standing_notes(standing, names)
            totals = module.totals(standing, names)
        assert all(note.strip() and "{" not in note for note in notes), notes
        unseated = [int(score["total"]) for _name, _place, score in module.unseated(standing)]
        assert sorted(total for _name, total in totals) == sorted([int(s["total"]) for s in standing.scores] + unseated)
        assert set(names) <= {name for name, _total in totals} and all(name for name, _total in totals), totals
    # No seat may take the name of an opponent without one: the game lists every such name.
    assert {name for name, _place, _score in module.unseated(standing)} <= set(module.unseated_names)
    # Every language the game says it speaks has every message it used, translated.
    assert {locale: sorted(missing[locale]) for locale in module.locales if locale != "en"} == {
        locale: [] for locale in module.locales if locale != "en"
    }
    assert set(module.locales) <= set(LOCALES) and "en" in module.locales


@BY_GAME
@pytest.mark.slow
def test_the_rules_and_guide_are_worded_in_every_locale_within_their_room(key, monkeypatch):
    module = games.get(key)
    missing: dict[str, set[str]] = {locale: set() for locale in LOCALES}
    real = i18n.translations
    monkeypatch.setattr(i18n, "translations", lambda locale: _Recording(real(locale), missing[locale]))
    for locale in LOCALES:
        with using(locale):
            texts = [module.rules_text(), module.help_text()]
            pictures = module.rules_pictures()
        assert all(t is None or (t.strip() and len(t) <= 4000 and "{" not in t) for t in texts), texts
        assert len(pictures) <= 9 and sum(len(p.png) for p in pictures) <= 8 * 1024 * 1024
        assert len({p.name for p in pictures}) == len(pictures)
        for picture in pictures:
            _png(picture.png)
            assert picture.name.isascii() and picture.alt.strip() and len(picture.alt) <= 1024
    assert {locale: sorted(missing[locale]) for locale in module.locales if locale != "en"} == {
        locale: [] for locale in module.locales if locale != "en"
    }


# ------------------------------------------------------------------ pictures


def _png(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(io.BytesIO(data)) as img:
        img.load()
        return img.size


@BY_TABLE
@pytest.mark.slow
def test_pictures_are_drawn_for_random_positions(table):
    module = table.module
    for match in positions(table, 2, choices=1):
        names = names_for(match)
        for seat in match.waiting():
            w, h = _png(module.decision_picture(match.view(seat), names, seat))
            assert w >= 200 and h >= 40
        for prompt in match.prompts():
            # Its words for a screen reader: a sentence of the game's own, or None for the platform's.
            alt = module.decision_alt(match.view(prompt.seat), prompt, names)
            assert alt is None or 0 < len(alt) <= 900
            assert (alt is not None) == (type(module).decision_alt is not GameModule.decision_alt)
        _png(module.table_picture(match.view(None), names))
    # The whole table, once, for a deciding seat and for a spectator: within a message's room, each named once.
    for seat in (match.waiting()[0], None):
        whole = module.table_pictures(match.view(seat), names, seat)
        assert len(whole) <= 9 and sum(len(p.png) for p in whole) <= 8 * 1024 * 1024
        assert len({p.name for p in whole}) == len(whole) and "turn" not in {p.name for p in whole}
        assert all(_png(p.png) and p.alt.strip() for p in whole)
    record = played(table)
    last = [e for step in record.events[-3:] for e in step]
    with using("pt_BR"):
        _png(module.table_picture(record.match.view(None), names_for(record.match), last))
        _png(module.record_picture(record.match.view(None), names_for(record.match), record.match.standing()))


@BY_GAME
@pytest.mark.slow
def test_a_board_alone_is_one_seats_picture_with_words_or_none_by_default(key):
    # The smallest multi-seat table, a few decisions in: each seat's board alone, as `/games table player:` sends it.
    table = next(t for t in tables(key) if t.seats >= 2)
    module = table.module
    match = positions(table, 1, choices=3)[0]
    names = names_for(match)
    boards = [module.board_picture(match.view(None), names, seat) for seat in range(match.seats)]
    if type(module).board_picture is GameModule.board_picture:
        # A game that draws no board alone: none, and `/games table player:` shows the whole table as before.
        assert boards == [None] * match.seats
        return
    assert all(board is not None for board in boards)
    drawn = [b for b in boards if b is not None]
    for seat, board in enumerate(drawn):
        w, _h = _png(board.png)
        assert w >= 400 and len(board.png) <= 8 * 1024 * 1024
        assert board.name.isascii() and board.name != "turn" and names[seat] in board.alt and len(board.alt) <= 1024
    assert len({b.png for b in drawn}) == len(drawn)  # each seat's own
    assert module.board_picture(match.view(None), names, match.seats) is None  # no such seat
    with using("pt_BR"):
        if "pt_BR" in module.locales:
            assert module.board_picture(match.view(None), names, 0).alt != drawn[0].alt


# ------------------------------------------------------------------ fairness and secrets


@BY_TABLE
@pytest.mark.slow
def test_computer_players_choose_the_same_whatever_the_hidden_seed(table):
    module = table.module
    hidden_differs = False
    for match in positions(table, 4, choices=2):
        for seat in match.waiting():
            choice = module.decide(match, seat, "easy", 7)
            assert module.advise(match, seat, "easy", 7)[0] == choice
            assert choice in match.legal_actions(seat)
            for hidden in (987654321, 1, 2):
                other = match.determinized(seat, hidden)
                hidden_differs |= other.to_json() != match.to_json()
                assert other.view(seat) == match.view(seat)  # nothing the seat sees differs
                assert other.legal_actions(seat) == match.legal_actions(seat)
                assert module.decide(other, seat, "easy", 7) == choice
                # A hint's choice is the decision, and its measure as fair as the choice.
                assert module.advise(other, seat, "easy", 7) == module.advise(match, seat, "easy", 7)
                # What a search simulates depends only on what the seat sees and the seed it is given.
                assert other.determinized(seat, 5).to_json() == match.determinized(seat, 5).to_json()
    assert hidden_differs


@pytest.mark.slow
@BY_GAME
def test_the_search_levels_are_fair_too(key):
    # One position a few decisions in, at the smallest multi-seat table, for the levels that search.
    table = next(t for t in tables(key) if t.seats >= 2)
    module = table.module
    match = positions(table, 1, choices=3)[0]
    seat = match.waiting()[0]
    other = match.determinized(seat, 55555)
    for level in module.levels[1:2]:
        assert module.decide(match, seat, level, 11) == module.decide(other, seat, level, 11)


@BY_TABLE
@pytest.mark.slow
def test_no_seed_in_any_view_event_word_picture_or_log(table, caplog, monkeypatch):
    module = table.module
    digits = str(SEED)
    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self, xy, text, *args, **kwargs):
        drawn.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    caplog.set_level(logging.DEBUG)
    record = played(table)
    out: list[str] = []
    for match in [*positions(table, 2, choices=4), record.match]:
        names = names_for(match)
        assert digits in match.to_json()  # the private state holds it: the check below means something
        for seat in (None, *range(match.seats)):
            out.append(json.dumps(match.view(seat)))
        for seat in match.waiting():
            # What a computer player reads: a copy with its own seed, never the game's.
            assert digits not in match.determinized(seat, 1).to_json()
            with using("pt_BR"):
                module.decision_picture(match.view(seat), names, seat)
        module.table_picture(match.view(None), names)
    module.record_picture(record.match.view(None), names_for(record.match), record.match.standing())
    for step in record.events:
        for event in step:
            out.append(json.dumps(event.to_dict()))
            out.append(module.narrate(event, names_for(record.match)) or "")
    out.append(json.dumps(record.match.standing().to_dict()))
    out += [r.getMessage() for r in caplog.records]
    assert drawn or table.key == "bids"
    for text in out + drawn:
        assert digits not in text and digits[:12] not in text


def test_a_score_item_a_game_does_not_word_reads_as_its_key():
    # The contract's default, for a game with no words of its own for its stats.
    assert GameModule.stat_label(games.get("bids"), "two_flowers") == "Two flowers"


def finished_turns(table: Table) -> tuple[Match, list[Turn]]:
    """A whole random game of `table` cut into its finished turns as the platform hands them to the game: the seat
    of each turn's first decision, its events, and the spectator's views before and after it."""
    record = played(table)
    match = table.deal(SEED)
    turns: list[Turn] = []
    before, seat, events = match.view(None), None, []
    for who, action in record.actions:
        key = match.turn_key()
        seat = who if seat is None else seat
        events += match.apply(who, action)
        if match.turn_key() != key or match.is_over:
            after = match.view(None)
            turns.append(Turn(seat, tuple(events), before, after))
            before, seat, events = after, None, []
    return match, turns


@BY_TABLE
def test_finished_turns_are_worded_within_a_message_and_never_with_the_seed(table):
    module = table.module
    match, turns = finished_turns(table)
    names = names_for(match)
    digits = str(SEED)
    out: list[str] = []
    for i, turn in enumerate(turns):
        head = module.turn_heading(turn, names)
        assert head is None or 0 < len(head) <= 300
        out.append(head or "")
        lines = module.since_summary(0, turns[max(0, i - 3) : i + 1], names)
        assert all(isinstance(line, str) and line for line in lines)
        out += lines
    rounds: list[list[Turn]] = [[]]
    for turn in turns:
        rounds[-1].append(turn)
        if module.round_ends(turn):
            rounds.append([])
    rounds.pop()  # the turns after the last round's end (none once a round-telling game is over)
    for round_turns in rounds:
        told = module.round_summary(round_turns, names)
        assert told is None or 0 < len(told) <= 2000
        out.append(told or "")
    # One record's picture (a PNG), drawn for the turn the game says it is.
    assert _png(module.turn_picture(turns[-1], names))[0] > 0
    bodies = [module.turn_lines(turn, names) for turn in turns]
    for body in bodies:
        # A record's body within a message beside its heading: whole lines, none empty.
        assert body is None or (
            all(line.strip() and "\n" not in line for line in body) and len("\n".join(body)) <= 1700
        )
    # A picture's words for a screen reader: a sentence of the game's own, or None for the platform's words.
    alts = [module.turn_alt(turn, names) for turn in turns]
    assert all(alt is None or 0 < len(alt) <= 900 for alt in alts)
    overridden = type(module).turn_alt is not GameModule.turn_alt
    assert all(alt is not None for alt in alts) if overridden else alts == [None] * len(turns)
    assert not any(digits in text or digits[:12] in text for text in [*out, *(x for b in bodies for x in b or ())])
    if module.reads_turns():
        # A game that words its turns tells each: a heading, its rounds, the others' turns.
        assert all(module.turn_heading(turn, names) for turn in turns)
        assert rounds and all(module.round_summary(r, names) for r in rounds)
    else:
        # The defaults leave a game as it was: no heading, the narration, the table after the turn, nothing in the
        # ping, no rounds.
        assert out == [""] * len(turns) and rounds == [] and bodies == [None] * len(turns)
        last = turns[-1]
        assert module.turn_picture(last, names) == module.table_picture(last.after, names, last.events)
