"""Discord's documented rules, checked where SimCord does not: command registration, and every payload of whole games.

Registration (https://discord.com/developers/docs/interactions/application-commands): names match
`^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$` in lowercase, descriptions have 1-100 characters, at most 25
options and 25 choices, choice names 1-100 and string values at most 100 characters, localization keys among
Discord's locales, and at most 8,000 characters of names, descriptions and values per command (the longest
localization of each field counts). This bot keeps every group at 20 options or fewer, for room to grow.

Messages (https://discord.com/developers/docs/resources/message): 2,000 characters of content, embeds within their
limits, components within theirs, at most 10 files and 10 MiB of them. The payloads are captured at SimCord's
transport over whole games in English and in Portuguese.
"""

from __future__ import annotations

import io
import random
import unicodedata
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

import i18n
from cogs.limits import ELLIPSIS, shorten
from games.kokeshi import vocab
from games.kokeshi.engine import GreedyPolicy
from games.kokeshi.engine.game import new_game
from tests.botkit import World, answer, components, load_game, new_lobby

# Discord's locales (https://discord.com/developers/docs/reference#locales).
LOCALES = {
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl", "pt-BR",
    "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
}  # fmt: skip
OUR_MAX_OPTIONS = 20
MIB = 1024 * 1024
EMBED = {"title": 256, "description": 4096, "footer": 2048, "author": 256, "field_name": 256, "field_value": 1024}

SUB_COMMAND, SUB_COMMAND_GROUP, STRING = 1, 2, 3
BUTTON, ACTION_ROW = 2, 1
SELECTS = {3, 5, 6, 7, 8}


# ---------------------------------------------------------------------- registration


def valid_name(name: str) -> bool:
    """Discord's naming rule for slash commands and options."""
    if not 1 <= len(name) <= 32 or name != name.lower():
        return False
    for ch in name:
        category = unicodedata.category(ch)
        script = 0x0900 <= ord(ch) <= 0x097F or 0x0E00 <= ord(ch) <= 0x0E7F  # Devanagari, Thai
        if not (ch in "-_'" or category[0] in "LN" or (script and category[0] == "M")):
            return False
    return True


def synced(env) -> list[dict]:
    puts = [r for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert puts, "the bot synced no commands"
    return puts[-1].json


def longest(item: dict, key: str) -> int:
    """The field's length as Discord counts it: its longest localization, the default value included."""
    values = [str(item.get(key) or "")] + [str(v) for v in (item.get(f"{key}_localizations") or {}).values()]
    return max(len(v) for v in values)


def check_item(item: dict, problems: list[str], path: str) -> int:
    """Every rule for one command or option (and what it holds); returns its characters for the 8,000 total."""
    where = f"{path}/{item['name']}"
    names = [item["name"], *(item.get("name_localizations") or {}).values()]
    problems += [f"{where}: bad name {n!r}" for n in names if not valid_name(n)]
    for key in ("name_localizations", "description_localizations"):
        unknown = set(item.get(key) or {}) - LOCALES
        problems += [f"{where}: {key} has unknown locales {sorted(unknown)}"] if unknown else []
    descriptions = [item.get("description") or "", *(item.get("description_localizations") or {}).values()]
    problems += [f"{where}: description {d!r}" for d in descriptions if not 1 <= len(d) <= 100]
    size = longest(item, "name") + longest(item, "description")
    options = item.get("options") or []
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options")
    if item.get("type", 1) in (1, SUB_COMMAND_GROUP) and len(options) > OUR_MAX_OPTIONS:
        problems.append(f"{where}: {len(options)} options, more than the {OUR_MAX_OPTIONS} this bot allows itself")
    required = [o.get("required", False) for o in options if o["type"] not in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if required != sorted(required, reverse=True):
        problems.append(f"{where}: a required option after an optional one")
    for locale in {None, *(k for o in options for k in (o.get("name_localizations") or {}))}:
        shown = [(o.get("name_localizations") or {}).get(locale, o["name"]) if locale else o["name"] for o in options]
        if len(shown) != len(set(shown)):
            problems.append(f"{where}: option names repeat in {locale or 'English'}: {sorted(shown)}")
    choices = item.get("choices") or []
    if len(choices) > 25 or (choices and item.get("autocomplete")):
        problems.append(f"{where}: {len(choices)} choices (autocomplete {item.get('autocomplete')})")
    for choice in choices:
        names = [choice["name"], *(choice.get("name_localizations") or {}).values()]
        problems += [f"{where}: choice name {n!r}" for n in names if not 1 <= len(n) <= 100]
        if item["type"] == STRING and len(choice["value"]) > 100:
            problems.append(f"{where}: choice value {choice['value']!r}")
        unknown = set(choice.get("name_localizations") or {}) - LOCALES
        problems += [f"{where}: choice localized for {sorted(unknown)}"] if unknown else []
        size += longest(choice, "name") + len(str(choice["value"]))
    return size + sum(check_item(o, problems, where) for o in options)


async def test_every_command_option_choice_and_localization_follows_discords_registration_rules(world):
    commands = synced(world.env)
    assert len(commands) <= 100
    problems: list[str] = []
    sizes = {c["name"]: check_item(c, problems, "") for c in commands}
    assert problems == []
    assert all(size <= 8000 for size in sizes.values()), sizes
    # Both languages are really there: every name and description has its Portuguese words.
    for command in commands:
        assert set(command.get("name_localizations") or {}) <= {"pt-BR"}
        assert command["description_localizations"]["pt-BR"]
    by_name = {c["name"]: c for c in commands}
    assert set(by_name) == {"kokeshi", "games"}
    assert by_name["games"]["name_localizations"] == {"pt-BR": "jogos"}
    kokeshi = [o["name"] for o in by_name["kokeshi"]["options"]]
    assert len(kokeshi) == 20 and not {"advance", "place", "board", "settings"} & set(kokeshi)
    # The shared group stays inside Discord's 25 subcommands (its settings group counts as one), each named in
    # Portuguese as its `/kokeshi` namesake is.
    shared = {o["name"]: o for o in by_name["games"]["options"]}
    assert len(shared) <= 25 and {"table", "log"} <= set(shared)
    assert [shared[n]["name_localizations"] for n in ("table", "log")] == [{"pt-BR": "mesa"}, {"pt-BR": "lances"}]


async def test_install_types_and_contexts_are_discords_and_set_on_top_level_commands_only(world):
    # Integration types: 0 guild install, 1 user install; contexts: 0 guild, 1 bot DM, 2 private channel.
    problems = []
    for command in synced(world.env):
        types, contexts = command.get("integration_types"), command.get("contexts")
        if not types or not set(types) <= {0, 1} or not contexts or not set(contexts) <= {0, 1, 2}:
            problems.append(f"{command['name']}: integration_types {types}, contexts {contexts}")

        def nested(item: dict, path: str) -> None:
            for option in item.get("options") or []:
                if option.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
                    if "contexts" in option or "integration_types" in option:
                        problems.append(f"{path}/{option['name']}: contexts on a subcommand")
                    nested(option, f"{path}/{option['name']}")

        nested(command, command["name"])
    assert problems == []


async def test_every_command_that_takes_a_game_offers_the_callers_games(world):
    for command in synced(world.env):
        stack = [command]
        while stack:
            item = stack.pop()
            stack += item.get("options") or []
            if item["name"] == "game" and item["type"] == 4:
                assert item.get("autocomplete") is True, item


# ---------------------------------------------------------------------- labels


@given(st.text(min_size=0, max_size=300), st.integers(min_value=2, max_value=120))
@pytest.mark.slow
def test_a_label_is_cut_at_a_word_with_an_ellipsis_and_never_over_the_limit(text, limit):
    cut = shorten(text, limit)
    assert len(cut) <= limit
    if len(text) <= limit:
        assert cut == text
        return
    assert cut.endswith(ELLIPSIS) and text.startswith(cut[: -len(ELLIPSIS)])
    kept = cut[: -len(ELLIPSIS)]
    rest = text[len(kept) :]
    # Cut between words, unless a single word is longer than half the room (then inside it).
    assert rest[:1] in ("", " ", "\n", ",", ";", ":", ".", "—", "–", "-", "(") or len(kept) >= (limit - 1) // 2


@pytest.mark.slow
def test_the_longest_labels_of_real_games_fit_in_both_languages_cut_at_a_word():
    from cogs.limits import BUTTON_LABEL, SELECT_OPTION

    longest_seen = {}
    for seed in range(12):
        for players in (1, 2, 4):
            names = ["aiko"] if players == 1 else ["aiko", "botan", "chiyo", "daichi"][:players]
            game = new_game(names, seed=seed, solo=players == 1, side=("basic", "advanced")[seed % 2])
            while game.prompt is not None:
                for option in game.prompt.options:
                    for locale in ("en", "pt_BR"):
                        with i18n.using(locale):
                            label = vocab.label(option)
                        longest_seen[locale] = max(longest_seen.get(locale, 0), len(label))
                        for limit in (BUTTON_LABEL, SELECT_OPTION):
                            cut = shorten(label, limit)
                            assert len(cut) <= limit
                            if cut != label:
                                assert label[len(cut) - 1] in " ,;:." or label[len(cut) - 1 :].startswith(" ")
                game.apply(game.prompt.player, GreedyPolicy(seed).choose(game))
    assert longest_seen["pt_BR"] >= 70  # the Portuguese words are the long ones


# ---------------------------------------------------------------------- payloads over whole games


@dataclass
class Sent:
    method: str
    path: str
    body: dict
    files: list[tuple[str, int]] = field(default_factory=list)


@pytest.fixture
def sent(world, monkeypatch) -> list[Sent]:
    """Every request the bot makes from now on, with its body and the size of each file, at SimCord's transport."""
    import simcord.http.router as router

    seen: list[Sent] = []
    real = router.dispatch

    def dispatch(backend, method, path, *, json=None, files=None, **kwargs):
        sizes = []
        for f in files or []:
            fp = getattr(f, "fp", None)
            sizes.append((f.filename, fp.getbuffer().nbytes if isinstance(fp, io.BytesIO) else len(fp.read())))
        seen.append(Sent(method, path, json if isinstance(json, dict) else {}, sizes))
        return real(backend, method, path, json=json, files=files, **kwargs)

    monkeypatch.setattr(router, "dispatch", dispatch)
    return seen


def payload_problems(request: Sent) -> list[str]:
    """What in one request breaks Discord's documented message limits."""
    body = request.body
    data = body.get("data") if isinstance(body.get("data"), dict) else body
    where = f"{request.method} {request.path}"
    problems = []
    content = data.get("content")
    if content is not None and len(content) > 2000:
        problems.append(f"{where}: content of {len(content)}")
    embeds = data.get("embeds") or []
    if len(embeds) > 10:
        problems.append(f"{where}: {len(embeds)} embeds")
    total = 0
    for embed in embeds:
        parts = {
            "title": embed.get("title") or "",
            "description": embed.get("description") or "",
            "footer": (embed.get("footer") or {}).get("text") or "",
            "author": (embed.get("author") or {}).get("name") or "",
        }
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append(f"{where}: {len(fields)} fields")
        for f in fields:
            parts.setdefault("field_name", "")
            if len(f["name"]) > EMBED["field_name"] or len(f["value"]) > EMBED["field_value"] or not f["value"]:
                problems.append(f"{where}: field {f['name'][:20]!r} of {len(f['name'])}/{len(f['value'])}")
            total += len(f["name"]) + len(f["value"])
        for key, text in parts.items():
            if key in EMBED and len(text) > EMBED[key]:
                problems.append(f"{where}: embed {key} of {len(text)}")
            total += len(text)
    if total > 6000:
        problems.append(f"{where}: embeds of {total} characters")
    rows = data.get("components") or []
    if len(rows) > 5:
        problems.append(f"{where}: {len(rows)} rows")
    for row in rows:
        children = row.get("components") or []
        if row.get("type") != ACTION_ROW or not 1 <= len(children) <= 5:
            problems.append(f"{where}: a row of {len(children)}")
        if any(c["type"] in SELECTS for c in children) and len(children) != 1:
            problems.append(f"{where}: a menu shares its row")
        for c in children:
            if len(c.get("custom_id") or "") > 100:
                problems.append(f"{where}: custom_id {c['custom_id']!r}")
            if c["type"] == BUTTON and not 1 <= len(c.get("label") or "x") <= 80:
                problems.append(f"{where}: button label {c.get('label')!r}")
            if c["type"] in SELECTS:
                options = c.get("options") or []
                if c["type"] == 3 and not 1 <= len(options) <= 25:
                    problems.append(f"{where}: {len(options)} menu options")
                if len(c.get("placeholder") or "") > 150:
                    problems.append(f"{where}: placeholder {c['placeholder']!r}")
                for o in options:
                    if (
                        not 1 <= len(o["label"]) <= 100
                        or len(o["value"]) > 100
                        or len(o.get("description") or "") > 100
                    ):
                        problems.append(f"{where}: menu option {o['label']!r}")
    choices = data.get("choices")
    if choices is not None:
        if len(choices) > 25:
            problems.append(f"{where}: {len(choices)} autocomplete choices")
        for c in choices:
            if not 1 <= len(c["name"]) <= 100 or len(str(c["value"])) > 100:
                problems.append(f"{where}: choice {c['name']!r}")
    if request.path.endswith("/threads") and not 1 <= len(body.get("name") or "") <= 100:
        problems.append(f"{where}: thread name {body.get('name')!r}")
    if len(request.files) > 10 or sum(size for _, size in request.files) > 10 * MIB:
        problems.append(f"{where}: files {request.files}")
    return problems


async def play_whole_game(w: World, language: str, rng: random.Random) -> int:
    """A two-player game and a look around it, as players would, until the game is over; returns the answers."""
    aiko, botan = w.members[:2]
    game_id, lobby, _ = await new_lobby(w, players=2, timer=3600, language=language)
    await botan.click(lobby, label=components(lobby)[0]["label"])
    await aiko.click(lobby, label=components(lobby)[2]["label"])
    record = await w.store.get_game(game_id)
    thread = next(t for t in w.channel.threads if t.id == record.thread_id)
    for command, options in (("kokeshi help", {}), ("kokeshi rules", {}), ("kokeshi notify on", {})):
        await aiko.slash(w.channel, command, **options)
    answers = 0
    while (await load_game(w, game_id))[0].prompt is not None:
        if answers % 25 == 10:
            await w.env.advance_time(3600)  # reminders, and a turn the AI plays
            for command, options in (
                ("kokeshi status", {}),
                ("kokeshi log", {"count": 50}),
                ("kokeshi table", {}),
                ("kokeshi table", {"player": "botan"}),
            ):
                await botan.slash(thread, command, **options)
            game, version = await load_game(w, game_id)
            if game.prompt is not None:
                mover = w.member(game.prompt.player)
                for typed in ("", "a", "trilha", "track"):
                    await mover.autocomplete(thread, "kokeshi play", "choice", typed)
                await mover.slash(thread, "kokeshi hint")
        if (await load_game(w, game_id))[0].prompt is None:
            break
        which = "Em qual trilha?" if language == "pt_BR" else "Which track?"
        await answer(w, game_id, thread, rng, which_track=which)
        answers += 1
    for command in ("kokeshi leaderboard", "kokeshi stats"):
        await aiko.slash(w.channel, command)
    assert (await w.store.get_game(game_id)).status == "finished"
    assert thread.history()[-1].attachments  # the final results, with their picture
    return answers


@pytest.mark.parametrize("language", ["en", "pt_BR"])
@pytest.mark.slow
async def test_every_payload_of_a_whole_game_fits_discords_limits(world, sent, language):
    answers = await play_whole_game(world, language, random.Random(11))
    assert answers > 100
    pictures = [size for request in sent for _name, size in request.files]
    assert len(sent) > 300 and len(pictures) > 50
    problems = [p for request in sent for p in payload_problems(request)]
    assert problems == []
    assert max(pictures) < 10 * MIB
    assert world.env.errors == []


def test_the_payload_check_finds_what_breaks_the_limits():
    # The same check on payloads Discord would refuse: it must not be blind.
    bad = Sent(
        "POST",
        "/channels/1/messages",
        {
            "content": "x" * 2001,
            "embeds": [{"title": "t" * 257, "fields": [{"name": "n", "value": "v" * 1025}]}],
            "components": [{"type": 1, "components": [{"type": 2, "label": "l" * 81, "custom_id": "c"}]}],
        },
        [("a.png", 6 * MIB), ("b.png", 5 * MIB)],
    )
    found = payload_problems(bad)
    assert len(found) == 5, found
    assert payload_problems(Sent("POST", "/channels/1/threads", {"name": "n" * 101})) != []
    item = {"name": "Bad Name", "description": "", "type": 1, "options": [], "name_localizations": {"xx": "a"}}
    problems: list[str] = []
    check_item(item, problems, "")
    assert len(problems) == 3, problems
