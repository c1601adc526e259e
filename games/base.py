"""The game contract: everything the platform (service, storage, Discord layer) may know of a game.

A game is two objects:

- a `Match`, one game in progress: who must decide (`prompts`), what they may send (`legal_actions`), carrying out a
  decision (`apply`, which returns `Event`s: codes with parameters, never sentences), what one seat may see
  (`view`), how it stands (`standing`), when a new turn starts (`turn_key`), a private JSON form (`to_json`) and a
  copy with everything a seat cannot see redrawn (`determinized`), for computer players that cannot cheat;
- a `GameModule`, the game itself: its key, names and player counts, its rules versions, how to deal or load a
  match, its computer players, its words and pictures in the current language, its lobby and challenge settings
  and its stats.

Seats are numbered 0, 1, … in the order the platform seated the players (who plays first is the game's own
affair); the platform keeps the players' names and passes them to the words and pictures. A non-seat actor (an
automa, a solo opponent, the board) is `NOBODY`.

A match is fully determined by (rules version, options, seed, actions): the same four always give the same match,
event for event, in any process. The seed and the hidden state (a bag's order, a stack, another seat's secret card)
live only in `to_json`, which never leaves the server; `view`, events, words and pictures never show them.

To add a game:
1. write its rules in `games/<key>/`: pure (no Discord, databases, Pillow or i18n), their only chance a generator
   seeded by the match's seed, their refusals and events codes;
2. beside them, its words (gettext, in `i18n`'s current language) and pictures (Pillow, PNG bytes);
3. in `games/<key>/module.py`, subclass `Match` and `GameModule` over them and set `MODULE = YourGame()`;
4. name the module in `games.BUILTIN`. The contract suite (`tests/games/`) then runs over it at every table it
   deals; `tests/games/tiny.py` is a whole game in about two hundred lines.

Gaps found by the games and platform features added since, and filled here:
- stats: a game's stats add up its `stat_keys`, but the platform had no words for them; `GameModule.stat_label`
  names one in the current language (by default the key itself, made readable), so `/games stats` can show every
  game's score items in the game's own words.
- a score item of a variant (Kōhaku's goal card) means nothing in a match dealt without it:
  `GameModule.scored_keys` says which items a match dealt with given options can score, so a share card leaves
  the others out.
- a player's favourite (Kokeshi's most advanced kokeshi) was counted by the store from Kokeshi's own action ids:
  `GameModule.favourite_of` says which item a player's own action counts towards, `favourite_items` lists the items
  in the order that breaks a tie, and `favourite_heading` and `favourite_label` word them; a game that keeps no
  favourite leaves them be.
- a placement among many (a tile, then its track) read as a flat list of near-identical labels: an `Option` may
  name its `group`, which `GameModule.group_label` words, and the platform then asks the group first.
- a choice in a menu showed its label alone, where a game's own menus said under it what it does and put an emoji
  before it: `GameModule.option_detail` gives that line (and `menu_label` a label that leaves it out),
  `option_symbol` an emoji for its button or menu line, and `group_detail` a line under a group (the tracks a tile
  may go on); a game that gives none keeps one label per choice, and a group says how many choices it holds.
- a game's rules and guide had no place at the platform's table (Kokeshi's tile glossary, its `/kokeshi help`):
  `GameModule.rules_text` and `rules_pictures` give the rules in brief with pictures of them, `help_text` how the
  game is played here; a game without them is told so politely by `/games rules` and `/games help`.
- a look at the table showed one seat's picture: `GameModule.table_pictures` adds the whole table (every player's
  board at once) beside it.
- a player could see one seat's board only among the whole table, where Kokeshi's own `/kokeshi table player:`
  draws that workshop alone, large: `GameModule.board_picture` draws one seat's board alone (by default none, and
  the whole table shows that seat's board first).
- a question could not name another seat (Kokeshi's idle turns left to another player before the end against
  stalling): `GameModule.question_named` words a prompt with the players' names at hand (by default `question`).
- a solo opponent's score was only in the record picture: `GameModule.standing_notes` words what the final places
  leave out (the automa's score), under them.
- a finished turn's record was the game's narration over `table_picture`, a new turn's ping said nothing of the
  others' turns, and a game only computer players play was told only in the end's post, where Kokeshi's own table
  heads each record, draws the player's own board, lists what the others did and tells such a game round by round.
  The platform now hands a game each finished `Turn` (its seat, events and the views before and after it):
  `GameModule.turn_heading` heads its record, `turn_lines` tells it one line a move, `turn_picture` draws it,
  `since_summary` sums up the others' turns in the ping of a seat's new turn, and `round_ends` with
  `round_summary` tell a game nobody reads turn by turn one round a post. Their defaults (no heading, the
  narration, `table_picture`, nothing, no rounds) leave a game as it was.
- a game's status in detail (`/kokeshi status`) said in Kokeshi's words whom it waits for and each player's score,
  the automa's too: `GameModule.short_question` words a prompt inside a sentence ("Waiting for Aiko: advance one of
  your kokeshi."), `totals` lists every player's total best first, the opponents that hold no seat among them, and
  `unseated_name` names those opponents as players read them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any, ClassVar

# The seat of an actor that is not a player: an automa, a solo opponent, the board.
NOBODY = -1

# A Refusal's codes, in the order a match checks them.
REFUSALS: tuple[str, ...] = ("unknown_seat", "game_over", "not_your_turn", "illegal")

# Computer player levels every game offers, weakest first.
LEVELS: tuple[str, ...] = ("easy", "normal", "hard")

# A setting's value: what a slash-command choice or a JSON field can hold.
Value = str | int | bool


@dataclass(frozen=True, slots=True)
class Option:
    """One answer to a prompt. `id` is the action sent back to `Match.apply`: short (at most 40 characters, so a
    Discord `custom_id` holds it with a game id and a version) and stable across versions of the code. `code` says
    what the option does, as values the game's words turn into a label (`GameModule.label`). `group` (at most 40
    characters, empty: none) gathers options a player picks in two steps, the group then the option (a tile to
    place, then where), when there are many; `GameModule.group_label` words it."""

    id: str
    code: tuple[Any, ...] = field(default=(), compare=False)
    group: str = ""


@dataclass(frozen=True, slots=True)
class Prompt:
    """A decision the match waits for: the seat that decides, the kind of decision (a game's own code, which
    `GameModule.question` words) and the options, at least two (a forced choice is taken by the game itself).
    `secret` marks options the other seats must not see (a hand of cards); a presenter then offers them to the
    deciding seat alone, as it does whenever several seats decide at once."""

    seat: int
    kind: str
    options: tuple[Option, ...]
    secret: bool = False

    def groups(self) -> dict[str, tuple[Option, ...]]:
        """The options' groups, in the order of their first options, each with its options in the prompt's order
        (empty when no option names a group)."""
        out: dict[str, list[Option]] = {}
        for option in self.options:
            if option.group:
                out.setdefault(option.group, []).append(option)
        return {group: tuple(options) for group, options in out.items()}


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture beside the words: PNG bytes, a short ASCII file name without its extension ("kokeshi-tiles"; a
    table's pictures get the game's key and number before it, and none is named "turn") and what it shows in words,
    in the current language (a screen reader's text: a sentence or two)."""

    png: bytes
    name: str
    alt: str


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened, in order: a kind (a game's own code), the seat it is about (`NOBODY` for a
    non-seat actor) and JSON-safe parameters. Seats named in `data` are seat numbers too. `reveals` marks an event
    that showed something drawn at random: an undo never goes back past it."""

    kind: str
    seat: int
    data: Mapping[str, Any]
    reveals: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form, for logs and storage."""
        return {"kind": self.kind, "seat": self.seat, "data": dict(self.data), "reveals": self.reveals}


@dataclass(frozen=True, slots=True)
class Standing:
    """How a match stands (as if it ended now while it is still played).

    `places[s]` is seat s's place, 1 first; tied seats share a place, and a non-seat opponent counts (a solo player
    who loses to the automa is 2nd). `scores[s]` is seat s's score details, always with a `total`. `details` holds
    what else the game's words and stats need (a solo opponent's score, a tie-break count), JSON-safe.
    """

    over: bool
    places: tuple[int, ...]
    scores: tuple[Mapping[str, int], ...]
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats in first place (none when a non-seat opponent won)."""
        return tuple(s for s, place in enumerate(self.places) if place == 1)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return {
            "over": self.over,
            "places": list(self.places),
            "scores": [dict(s) for s in self.scores],
            "details": dict(self.details),
        }


@dataclass(frozen=True, slots=True)
class Turn:
    """A finished turn as the platform hands it to the game's words and pictures: the seat that played it (the seat
    of its first decision), its events in order, and a spectator's views (`Match.view(None)`) before and after it."""

    seat: int
    events: tuple[Event, ...]
    before: Mapping[str, Any]
    after: Mapping[str, Any]


class Refusal(ValueError):
    """A decision the rules refuse; the match is unchanged. `code` is one of `REFUSALS`; `legal` lists the action
    ids the seat could have sent (empty when it has nothing to decide). The message is for logs only."""

    def __init__(self, code: str, legal: Sequence[str] = ()) -> None:
        super().__init__(code)
        self.code = code
        self.legal = tuple(legal)


class Match(ABC):
    """One game in progress. `apply` is the only way to change it."""

    # The key of the game module this match belongs to.
    game: ClassVar[str]

    @property
    @abstractmethod
    def seats(self) -> int:
        """How many seats the match was dealt for."""

    @property
    @abstractmethod
    def rules(self) -> int:
        """The rules version it was dealt under (and is replayed with)."""

    @property
    @abstractmethod
    def version(self) -> int:
        """A count that grows with every accepted decision: a button made for another version is stale."""

    @abstractmethod
    def prompts(self) -> tuple[Prompt, ...]:
        """Every decision the match waits for: one, or one per seat when several choose at once and in secret
        (each seat then sees only its own prompt in its view). Empty once the match is over."""

    @abstractmethod
    def apply(self, seat: int, action: str) -> list[Event]:
        """Carry out `seat`'s decision and every automatic step after it, up to the next decision; returns the
        events in order. Raises `Refusal` (and changes nothing) for an unknown seat, a finished match, a seat
        with nothing to decide or an action not among its options."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator), JSON-safe: never the seed, the order of anything shuffled, or
        another seat's secret. Equal for two matches that differ only in what `seat` cannot see."""

    @abstractmethod
    def standing(self) -> Standing:
        """Places and scores as they stand, and whether the match is over."""

    @abstractmethod
    def turn_key(self) -> str:
        """A short string that changes exactly when a new turn starts (for "your turn" notices and timers)."""

    @abstractmethod
    def to_json(self) -> str:
        """The whole state as canonical JSON, seed included: `GameModule.load` gives an equal match. Private:
        it never leaves the server."""

    def copy(self) -> Match:
        """An independent copy, equal in `to_json`, seed and hidden state included (the store hands one out while it
        keeps its own). The default copies deeply; a game with a faster copy of its state gives that."""
        return deepcopy(self)

    @abstractmethod
    def determinized(self, seat: int | None, seed: int) -> Match:
        """A copy in which everything `seat` cannot see (future draws, shuffled order, others' secrets) is redrawn
        from `seed`. It depends only on `view(seat)` and `seed`, so a search run on it cannot use what the seat
        does not know."""

    def waiting(self) -> tuple[int, ...]:
        """The seats the match waits for."""
        return tuple(p.seat for p in self.prompts())

    def legal_actions(self, seat: int) -> list[str]:
        """The action ids `seat` may send now (empty if it has nothing to decide)."""
        for prompt in self.prompts():
            if prompt.seat == seat:
                return [o.id for o in prompt.options]
        return []

    @property
    def is_over(self) -> bool:
        """True once nobody has anything left to decide."""
        return not self.prompts()


@dataclass(frozen=True, slots=True)
class Setting:
    """A lobby setting: its key in the options, the values it may take and the one a new game gets."""

    key: str
    choices: tuple[Value, ...]
    default: Value


@dataclass(frozen=True, slots=True)
class Challenge:
    """A solo challenge everyone plays on the same seed (`daily`, `weekly`): the options it is dealt with."""

    kind: str
    options: Mapping[str, Value]


class GameModule(ABC):
    """One game as the platform knows it. Subclass it once per game, fill the class attributes and implement the
    abstract methods; `games.register` checks the attributes.

    Words and pictures are in the current language (`i18n.using`), and take the players' `names` by seat.
    """

    key: ClassVar[str]  # lower-case ASCII, stable: stored with every game and in every custom_id
    name: ClassVar[str]  # the game's title as printed on its box (not translated)
    players: ClassVar[tuple[int, ...]]  # the numbers of seats it can be dealt for; 1 is a solo game
    rules_versions: ClassVar[tuple[int, ...]]  # every rules version a stored game may have: all still replay
    current_rules: ClassVar[int]  # the version new games are dealt under
    settings: ClassVar[tuple[Setting, ...]] = ()  # what a lobby may choose
    challenges: ClassVar[tuple[Challenge, ...]] = ()  # the solo challenges it offers
    levels: ClassVar[tuple[str, ...]] = LEVELS  # its computer players
    stat_keys: ClassVar[tuple[str, ...]] = ()  # the score details its stats add up, besides games and wins
    emoji: ClassVar[str] = ""  # a sign put before its name where a post names it (a share card's first line)
    favourite_items: ClassVar[tuple[str, ...]] = ()  # what `favourite_of` may name; the earlier wins a tie
    unseated_names: ClassVar[tuple[str, ...]] = ()  # the names `unseated` gives; no seat may take one
    # The languages its words and pictures are complete in (gettext locale names); in any other, English shows.
    locales: ClassVar[tuple[str, ...]] = ("en",)

    # ---------------------------------------------------------------- rules

    def options(self, given: Mapping[str, Any] | None = None) -> dict[str, Value]:
        """Complete lobby options: every setting, `given` or its default. Raises ValueError for an unknown
        setting or a value it does not offer."""
        given = dict(given or {})
        known = {s.key for s in self.settings}
        unknown = sorted(set(given) - known)
        if unknown:
            raise ValueError(f"{self.key} has no setting {', '.join(unknown)}")
        out: dict[str, Value] = {}
        for setting in self.settings:
            value = given.get(setting.key, setting.default)
            if value not in setting.choices or type(value) is not type(setting.default):
                raise ValueError(f"{setting.key} must be one of {setting.choices}, not {value!r}")
            out[setting.key] = value
        return out

    @abstractmethod
    def deal(self, options: Mapping[str, Any], seed: int, seats: int, rules: int | None = None) -> Match:
        """A new match for `seats` players (one of `players`) with these lobby options, all its chance drawn from
        `seed` (new games: `secrets.randbits(128)`), under `rules` (default: `current_rules`). ValueError for bad
        input."""

    def deal_named(
        self, options: Mapping[str, Any], seed: int, names: Sequence[str], rules: int | None = None
    ) -> Match:
        """The match of a game stored before the contract, whose log names each seat by its player's name (`names`,
        in seat order): by default what `deal` deals for `len(names)` seats. A game whose stored matches hold their
        players' names overrides it to deal them with those names, so that the match is the one it stored."""
        return self.deal(options, seed, len(names), rules)

    @abstractmethod
    def load(self, text: str) -> Match:
        """A match from `Match.to_json` output; ValueError saying what is wrong for bad input."""

    def replay(
        self,
        options: Mapping[str, Any],
        seed: int,
        seats: int,
        actions: Sequence[tuple[int, str]],
        rules: int | None = None,
    ) -> Match:
        """The match reached by dealing and then applying `actions`, (seat, action id) pairs, in order."""
        match = self.deal(options, seed, seats, rules)
        for seat, action in actions:
            match.apply(seat, action)
        return match

    @abstractmethod
    def decide(self, match: Match, seat: int, level: str, seed: int) -> str:
        """The action a computer player of `level` takes for `seat`, from its own `seed`. It must depend only on
        what `seat` sees: the same for any `match.determinized(seat, …)`."""

    def advise(self, match: Match, seat: int, level: str, seed: int) -> tuple[str, float | None]:
        """What `decide` chooses, and, where the level's search measures it, how many points better off that choice
        leaves `seat` than its other choices on average (None: no measure). As fair as `decide`: the same for any
        `match.determinized(seat, …)`."""
        return self.decide(match, seat, level, seed), None

    # ---------------------------------------------------------------- words

    @abstractmethod
    def label(self, view: Mapping[str, Any], option: Option) -> str:
        """An option's label, given the deciding seat's view: at most 100 characters (a select menu option's
        limit), each of a prompt's its own; a presenter that shows it on a button (80) cuts it at a word, and asks in
        a menu instead when two labels of the prompt would then read alike."""

    @abstractmethod
    def question(self, view: Mapping[str, Any], prompt: Prompt) -> str:
        """What a prompt asks, as a heading for its buttons."""

    def group_label(self, view: Mapping[str, Any], prompt: Prompt, group: str) -> str:
        """One of `prompt.groups()` as a player picks it, given the deciding seat's view: at most 100 characters
        (Kokeshi: the tile to place). The default only makes the group readable, in English: a game that groups
        its options words its groups."""
        return group.replace("_", " ").capitalize()

    def option_detail(self, view: Mapping[str, Any], option: Option) -> str | None:
        """A line under an option in a menu, given the deciding seat's view: what the choice does, at most 100
        characters. None (the default): its label says it all, and a menu shows the label alone."""
        return None

    def menu_label(self, view: Mapping[str, Any], option: Option) -> str:
        """An option's label in a menu, above its `option_detail`: at most 100 characters. By default `label`; a
        game whose label already says what the detail says gives a shorter one here (Kokeshi: the choice and its
        tile, what it does being under it)."""
        return self.label(view, option)

    def option_symbol(self, view: Mapping[str, Any], option: Option) -> str | None:
        """An option as one unicode emoji, put before its label on a button or in a menu (Kokeshi: the kokeshi a
        choice names); None (the default): none."""
        return None

    def group_detail(self, view: Mapping[str, Any], prompt: Prompt, group: str) -> str | None:
        """A line under one of `prompt.groups()` in a menu, given the deciding seat's view: what its choices have in
        common, at most 100 characters (Kokeshi: the tracks a tile may go on). None (the default): the platform
        says how many choices it holds."""
        return None

    def question_named(self, view: Mapping[str, Any], prompt: Prompt, names: Sequence[str]) -> str:
        """What a prompt asks, with the players' `names` by seat at hand for words that name another seat (Kokeshi:
        whose idle turns run out). The platform asks this one; the default is `question`."""
        return self.question(view, prompt)

    def short_question(self, view: Mapping[str, Any], prompt: Prompt) -> str:
        """What a prompt asks in a few words, to end a sentence naming the seat it waits for ("Waiting for Aiko:
        advance one of your kokeshi."), given anyone's view: without the notes `question` may add (Kokeshi: the idle
        turns left). The default is `question`."""
        return self.question(view, prompt)

    @abstractmethod
    def narrate(self, event: Event, names: Sequence[str]) -> str | None:
        """One sentence telling `event`, or None for a step a reader need not be told about."""

    def setting_label(self, key: str, value: Value) -> str:
        """A lobby setting's value as a player reads it."""
        return str(value)

    def standing_notes(self, standing: Standing, names: Sequence[str]) -> list[str]:
        """Lines the final places leave out, as the end's post says them under the places (Kokeshi: the automa's
        score, item by item), in Markdown; the default has none."""
        return []

    def unseated(self, standing: Standing) -> list[tuple[str, int, Mapping[str, int]]]:
        """The opponents of a match that hold no seat (a solo game's automa), as they stand, and as a finished
        match's results keep a row for each past the seats: (name, place among the seats' places, score details with a
        `total`). The default has none."""
        return []

    def unseated_name(self, name: str) -> str:
        """One of `unseated`'s names as players read it, in the current language (Kokeshi: the automa); the default
        is the name itself."""
        return name

    def totals(self, standing: Standing, names: Sequence[str]) -> list[tuple[str, int]]:
        """Every player's name and total, best first: the seats by place (named by `names`), and the opponents that
        hold no seat (`unseated`, named by `unseated_name`) at their places, after the seats that share them."""
        rows = [
            (place, names[s] if s < len(names) else str(s + 1), int(standing.scores[s].get("total", 0)))
            for s, place in enumerate(standing.places)
        ]
        rows += [
            (place, self.unseated_name(name), int(score.get("total", 0)))
            for name, place, score in self.unseated(standing)
        ]
        return [(name, total) for _place, name, total in sorted(rows, key=lambda row: row[0])]

    def rules_text(self) -> str | None:
        """The rules in brief, in the current language (Markdown, a few paragraphs: at most 4,000 characters, which
        the platform posts in as many messages as they need), or None: the default, for a game that has none yet."""
        return None

    def rules_pictures(self) -> tuple[Picture, ...]:
        """Pictures shown with `rules_text` (pages of the rules, every tile and what it does), in the current
        language: at most 9, 8 MiB in all; the default has none."""
        return ()

    def help_text(self) -> str | None:
        """How the game is played with this bot, in the current language (Markdown: the game in a sentence, then
        its commands and buttons; at most 4,000 characters), or None: the default, for a game the platform's own
        help (`/games help`) describes well enough."""
        return None

    # ---------------------------------------------------------------- finished turns (all optional)

    def turn_heading(self, turn: Turn, names: Sequence[str]) -> str | None:
        """The first line of a finished turn's record, above its narration (Kokeshi: who, the round, the points won
        and where they came from), at most 300 characters; None (the default): the record is the narration alone."""
        return None

    def turn_lines(self, turn: Turn, names: Sequence[str]) -> list[str] | None:
        """The body of a finished turn's record, under its heading, as the game tells a turn: one line a move, each a
        bullet of the record (Kokeshi: the turn's steps folded, routine in one line, as `/kokeshi`'s records say
        it), about 1,700 characters in all (the platform leaves out the first lines of a longer one). None (the
        default): the record's body is the game's narration, one sentence an event."""
        return None

    def turn_picture(self, turn: Turn, names: Sequence[str]) -> bytes:
        """The picture of a finished turn's record. The default is the table after it, `table_picture(turn.after,
        names, turn.events)`; a game may draw the acting seat's own board instead (Kokeshi: its workshop for a
        phone, each seat's points for the turn)."""
        return self.table_picture(turn.after, names, turn.events)

    def story_lines(self, view: Mapping[str, Any], events: Sequence[Event], names: Sequence[str]) -> list[str] | None:
        """The turn under way so far (`events`, since it began; `view`: the table now, as anyone sees it), as the
        game tells a turn: one line a move, for the live prompt above its question, about 1,200 characters in all
        (Kokeshi: folded as its records are). None (the default): the game's narration, one sentence an event."""
        return None

    def turn_alt(self, turn: Turn, names: Sequence[str]) -> str | None:
        """What `turn_picture` shows, in words, in the current language, for a screen reader (a sentence, without
        the game's name and number: the platform puts them first). None (the default): the platform's own words
        ("<game>, move <n>: <player>'s turn and what it changed")."""
        return None

    def decision_alt(self, view: Mapping[str, Any], prompt: Prompt, names: Sequence[str]) -> str | None:
        """What `decision_picture` shows for `prompt`'s seat, in words, in the current language, for a screen reader
        (a sentence or two, without the game's name and number: the platform puts them first). None (the default):
        the platform's own words ("The <game> table, move <n>. Waiting for: <names>.")."""
        return None

    def since_summary(self, seat: int, turns: Sequence[Turn], names: Sequence[str]) -> list[str]:
        """For the post that tells `seat` its new turn has begun: what the other seats did in `turns`, the finished
        turns since its own last one, a short line each (Kokeshi: one per player, its points and why, then who is
        near the end); the platform bullets them under "Since your last turn" and leaves out, from the end, lines
        a message has no room for. Empty (the default): the post says nothing of them (its button still tells)."""
        return []

    def round_ends(self, turn: Turn) -> bool:
        """Whether this finished turn ends a round. A game only computer players play is told one round a post
        (`round_summary`) once its rounds end, and its last turns as its last round (whole or not) once it is over,
        before the end's post; False (the default): no round ever ends, and such a game is told in the end's
        post."""
        return False

    def round_summary(self, turns: Sequence[Turn], names: Sequence[str]) -> str | None:
        """One post telling a whole round of a game only computer players play (`turns`, in order, the last one
        ending the round): a heading and a short line a turn, within a message (2,000 characters; the platform cuts
        what passes). None (the default): the round is told in the next post's narration."""
        return None

    def stage(self, view: Mapping[str, Any]) -> str | None:
        """How far the game is, in a few words for a list of games and the daily digest ("round 3"), in the current
        language; None (the default) when the game says nothing of it."""
        return None

    def turn_order(self, view: Mapping[str, Any]) -> tuple[int, ...] | None:
        """The seats in the order they take their turns, read from a match just dealt (`view`, anyone's), as the
        thread's first post tells it (Kokeshi: from the player drawn to start). None (the default): the seats decide
        at once, or the game has no order to tell; the post then names them in seat order."""
        return None

    def reads_turns(self) -> bool:
        """Whether the game words or draws finished turns itself (it overrides one of the hooks above): only then
        does the platform gather the views before and after each turn for it."""
        hooks = ("turn_heading", "turn_lines", "turn_picture", "since_summary", "round_ends", "round_summary")
        return any(getattr(type(self), hook) is not getattr(GameModule, hook) for hook in hooks)

    # ---------------------------------------------------------------- pictures (PNG bytes)

    @abstractmethod
    def decision_picture(
        self, view: Mapping[str, Any], names: Sequence[str], seat: int, events: Sequence[Event] = ()
    ) -> bytes:
        """The picture `seat` decides from (its own view): the question and everything it depends on; `events`
        since the last picture are marked."""

    @abstractmethod
    def table_picture(self, view: Mapping[str, Any], names: Sequence[str], events: Sequence[Event] = ()) -> bytes:
        """The table as anyone sees it (a spectator's view), with what `events` changed marked."""

    def table_pictures(self, view: Mapping[str, Any], names: Sequence[str], seat: int | None) -> tuple[Picture, ...]:
        """The whole table, every player's board at once (`seat`'s first: the caller's, or the seat a player asked to
        see first; None: a spectator), as more pictures beside the decision picture or, for a seat that does not
        decide now, in place of `table_picture`: at most 9, 8 MiB in all. The default has none: the one picture shows
        enough."""
        return ()

    def board_picture(self, view: Mapping[str, Any], names: Sequence[str], seat: int) -> Picture | None:
        """One seat's board alone, large, as anyone sees it (a spectator's view), for a player who asks to see that
        seat's board (`/games table player:`; Kokeshi: its workshop), with what it shows in words. None (the
        default): the game draws no board alone, and the whole table (`table_pictures`) shows that seat's first."""
        return None

    @abstractmethod
    def record_picture(self, view: Mapping[str, Any], names: Sequence[str], standing: Standing) -> bytes:
        """The finished match's record: places, score details and the final table."""

    # ---------------------------------------------------------------- stats

    def stat_label(self, key: str) -> str:
        """One of `stat_keys` as a player reads it in the current language (a score item's heading: "Frogs",
        "Total"). The default only makes the key readable, in English: a game with words of its own says them."""
        return key.replace("_", " ").capitalize()

    def stat_symbol(self, key: str) -> str | None:
        """One of `stat_keys` as one emoji, for a one-line summary of a score (a share card); None: its label."""
        return None

    def score_items(self, score: Mapping[str, int]) -> str | None:
        """A seat's final score item by item, as the end's places show it beside the total ("Animals 21 · Leads 3"),
        in the current language; None (the default): the total alone."""
        return None

    def solo_win(self) -> str | None:
        """What a solo challenge's share card adds when the player ranked first ("beat the automa"), in the current
        language; None when a first place says it all."""
        return None

    def scored_keys(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The `stat_keys` a match dealt with these lobby options can score: all of them, unless a variant that
        was not played has an item of its own (a goal card's points without goal cards), which is left out."""
        return self.stat_keys

    def favourite_of(self, action: str) -> str | None:
        """The item of `favourite_items` a player's own `action` (not a computer's) counts towards their favourite,
        or None: the default, for a game that keeps no favourite."""
        return None

    def favourite_heading(self) -> str:
        """What a player's favourite is called in the current language (a stats heading: "Favourite kokeshi")."""
        return "Favourite"

    def favourite_label(self, item: str) -> str:
        """One of `favourite_items` as a player reads it in the current language; the default makes the key
        readable, in English."""
        return item.replace("_", " ").capitalize()

    def favourite(self, counts: Mapping[str, int]) -> str | None:
        """The favourite among these counts of items (item -> times): the most counted; a tie goes to the item
        earlier in `favourite_items`, then (an item no longer listed) to the first by name. None if none counts."""
        order = {item: i for i, item in enumerate(self.favourite_items)}
        counted = [(-n, order.get(item, len(order)), item) for item, n in counts.items() if n > 0]
        return min(counted)[2] if counted else None

    def tallies(self, standing: Standing, seat: int) -> dict[str, int]:
        """What one finished match adds to `seat`'s stats: `played`, `won` and each of `stat_keys`."""
        scores = standing.scores[seat]
        out = {"played": 1, "won": int(standing.places[seat] == 1)}
        out.update({key: int(scores.get(key, 0)) for key in self.stat_keys})
        return out


__all__ = [
    "LEVELS",
    "NOBODY",
    "REFUSALS",
    "Challenge",
    "Event",
    "GameModule",
    "Match",
    "Option",
    "Picture",
    "Prompt",
    "Refusal",
    "Setting",
    "Standing",
    "Turn",
    "Value",
]
