"""What happened at a contract game's table since a seat's last turn, told to that seat alone (any game, no Discord).

A player back after a day should not scroll a thread: one private answer gives every narrated event since their
last turn and the table as it stands now, those events marked. It is built from the stored log and the seat's own
view only, so it shows what the thread showed and what the seat itself may see, never another seat's secret.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.base import Event, GameModule, Match, Prompt
from i18n import _, ngettext
from storage import MatchDecision

from .limits import MESSAGE
from .speech import escaped


@dataclass(frozen=True, slots=True)
class Recap:
    """A seat's "since your last turn": the text, the picture (PNG) and its description, the seat's prompt if it
    has one now (its choices go with the answer), and whether anything was told at all."""

    text: str
    picture: bytes
    alt: str
    prompt: Prompt | None
    told: int


def since_last_turn(decisions: Sequence[MatchDecision], seat: int) -> list[MatchDecision]:
    """The decisions since `seat`'s last turn: from its last decision in a finished turn (what that decision did is
    told too: a draw, a reveal, a score) to now. A seat that has finished no turn yet is told the whole game."""
    start = last_turn(decisions, seat)
    return list(decisions[start or 0 :])


def last_turn(decisions: Sequence[MatchDecision], seat: int) -> int | None:
    """The index of `seat`'s last decision in a finished turn, or None if it has finished none."""
    current = len(decisions)
    while current > 0 and not decisions[current - 1].ends_turn:
        current -= 1  # back to the start of the turn being played now
    mine = [i for i in range(current) if decisions[i].seat == seat]
    return mine[-1] if mine else None


def story(module: GameModule, decisions: Sequence[MatchDecision], names: Sequence[str]) -> list[str]:
    """The game's own narration of those decisions, one line per event it tells (a step it does not tell is
    left out: a secret choice is only ever told by what the game's narration says of it)."""
    return [line for d in decisions for line in (module.narrate(e, names) for e in d.events) if line]


def fit(head: str, lines: Sequence[str], tail: Sequence[str], limit: int = MESSAGE) -> str:
    """`head`, the bulleted `lines` and `tail` in one message: when they do not all fit, the newest lines are kept
    and a line says how many earlier ones were left out."""
    bullets = [f"• {line}" for line in lines]
    for dropped in range(len(bullets) + 1):
        kept = bullets[dropped:]
        if dropped:
            more = ngettext("… {n} earlier line", "… {n} earlier lines", dropped).format(n=dropped)
            kept = [more, *kept]
        text = "\n".join([head, *kept, *tail])
        if len(text) <= limit:
            return text
    return "\n".join([head, *tail])[:limit]


def recap(
    module: GameModule,
    match: Match,
    decisions: Sequence[MatchDecision],
    seat: int,
    names: Sequence[str],
    number: int,
    waiting: str,
) -> Recap:
    """`seat`'s "since your last turn" in game `number`: the narrated events since its last turn; its own decision
    picture with them marked when it decides now (with the question), else the table as anyone sees it.
    `waiting` names the seats the game waits for. Draws the picture: call it off the event loop."""
    window = since_last_turn(decisions, seat)
    events: list[Event] = [e for d in window for e in d.events]
    said = escaped(names)  # into the message's words, shown literally
    lines = story(module, window, said)
    if last_turn(decisions, seat) is None:
        head = _("🕑 **{game} #{number}: everything since the game began**").format(game=module.name, number=number)
    else:
        head = _("🕑 **{game} #{number}: since your last turn**").format(game=module.name, number=number)
    if not lines:
        lines_shown: list[str] = []
        tail = [_("Nothing to tell since then.")]
    else:
        lines_shown, tail = lines, []
    prompt = next((p for p in match.prompts() if p.seat == seat), None)
    if prompt is not None:
        view = match.view(seat)
        tail.append(_("**Your turn:** {question}").format(question=module.question_named(view, prompt, said)))
        picture = module.decision_picture(view, names, seat, events)
        alt = _("Your choice in {game} #{number}, with what happened since your last turn marked.")
    elif match.is_over:
        tail.append(_("This game is over."))
        picture = module.table_picture(match.view(None), names, events)
        alt = _("The {game} table as it ended, with what happened since your last turn marked.")
    else:
        tail.append(_("Waiting for: {names}.").format(names=waiting))
        picture = module.table_picture(match.view(None), names, events)
        alt = _("The {game} table now, with what happened since your last turn marked.")
    return Recap(fit(head, lines_shown, tail), picture, alt.format(game=module.name, number=number), prompt, len(lines))


__all__ = ["Recap", "fit", "last_turn", "recap", "since_last_turn", "story"]
