"""Kokeshi's guide and rules in brief, in the current language: what `/kokeshi help` and `/kokeshi rules` say, and
the platform's `/games help` and `/games rules` with Kokeshi."""

from __future__ import annotations

from games.kokeshi.engine.data import IDLE_LIMIT
from i18n import _


def help_text() -> str:
    """How Kokeshi is played with this bot (`/kokeshi help`, and `/games help` with Kokeshi), in the current
    language."""
    text = _(
        "**Kokeshi** — build tracks of tiles on your workshop board, move your kokeshi up to trigger them, and "
        "collect happiness points. Every game lives in its own thread; every choice is a button.\n\n"
        "**Start** `/kokeshi new` opens a lobby (2–4 seats, board side, turn timer or time bank, AI players, "
        "language) · "
        "`/kokeshi solo` plays against the automa · `join` `leave` `start` `cancel` manage a lobby.\n"
        "**Play** press the buttons in the game's thread, or use `/kokeshi play` and start typing: it lists every "
        "choice you have (kokeshi to advance, tiles to place) · `hint` what the hard AI would do · `undo` takes back "
        "your last choice this turn (not a tile drawn from the bag) · `resign` hands your seat to the AI.\n"
        "**Look** `table` the whole table (`player:` one workshop, large) · `status` your games and whose turn it "
        "is · `log` the last moves · `rules` every tile · `leaderboard` wins, ratings, best scores and challenges · "
        "`stats` a player's record · `/games replay` a finished game again, turn by turn, and the whole game "
        "animated.\n"
        "**Challenges** `/kokeshi daily` — the same solo game for everyone today (UTC); `/kokeshi weekly` — this "
        "week's, on the advanced side. Your first attempt is ranked; later ones are practice.\n"
        "**Reminders** you get reminded when half the turn timer is gone and again at 90%; when it runs out the AI "
        "plays that turn, and after 3 in a row the other players choose whether it keeps your seat (`/games rejoin` "
        "takes it back). `/kokeshi notify on` also sends you a DM when "
        "it's your turn, and `/kokeshi notify quiet 23:00-08:00` makes pings silent at night. Away? `/games away 3d` "
        "delays your turn deadlines in every game by the time away (`/games back` ends it).\n"
        "**Server** admins: `/games settings limits`, `/games settings daily-channel` and "
        "`/games settings away-days`."
    )
    anywhere_text = _(
        "**Anywhere** add Kokeshi to your own account too, and play `solo`, `daily` and `weekly` in your DM with "
        "the bot (the game is shown in that DM), or start them from any server: the game then waits in our DM. "
        "`stats`, `leaderboard`, `rules`, `help` and `/games replay` answer you privately wherever you are; lobbies "
        "and multiplayer games stay in servers."
    )
    return f"{text}\n{anywhere_text}"


def rules_text() -> str:
    """The rules in a paragraph (`/kokeshi rules`, `/games rules`), in the current language."""
    return _(
        "On your turn, advance one kokeshi one space up its track. An **empty space** sends it home and you buy a "
        "tile (or a quality tile, high enough); a **tile** activates (`/` = choose one side, `+` = both); a "
        "**quality tile** moves it one more space; **past the top** scores 3. Tiles you bought are placed at the end "
        "of your turn — same colours side by side cost 3 points a pair. The game ends a round after someone has 5 "
        "recognitions (4 with 4 players) or the bag runs out. Against stalling, this bot adds one rule: a turn in "
        "which one of your kokeshi passes the top, and you take no tile from the offer and gain no recognition, is "
        "an idle turn. Each player's idle turns are counted over the whole game (not in a row); when a player has "
        "played {limit}, the end is triggered the same way. From {warn} left, your turn's message and picture say "
        "how many remain."
    ).format(limit=IDLE_LIMIT, warn=max(1, IDLE_LIMIT // 4))


__all__ = ["help_text", "rules_text"]
