"""The `/games` slash commands: what the platform offers beside the games' own commands (the server's settings,
replays of finished games, away, rejoining a game, and a look at a game's table and log)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from . import anywhere
from .clock import DEADLINE_CLOCKS, FIXED
from .common import DAY, LANGUAGES, TIMERS
from .match_guide import MatchGuide, every_game_choices
from .match_looks import MOST_STEPS, MatchLooks
from .offer import offered, variants
from .wiring import WiredClient


@anywhere.INSTALLS
@anywhere.CONTEXTS
class Games(
    commands.GroupCog,
    group_name="games",
    group_description="Replays, and settings for you and this server, in every game",
):
    """Commands shared by every game the bot runs; the work is in `Tables`, `Community` and `Replays`."""

    def __init__(self, bot: WiredClient) -> None:
        self.bot = bot
        # `/games table` and `/games log`: a look at a game in progress, privately.
        self.looks = MatchLooks(bot, bot.tables)
        # `/games rules` and `/games help`: a game's own words about itself, privately.
        self.guide = MatchGuide(bot.tables)
        super().__init__()

    settings = app_commands.Group(
        name="settings", description="Server settings (admins)", extras={anywhere.SERVER: True}
    )

    # Here rather than under `/kokeshi`, whose 20 subcommands are all the room this bot gives a group.
    @app_commands.command(name="replay", description="Step through a finished game privately, turn by turn")
    @app_commands.describe(game="The finished game's number (default: your last one here)")
    async def replay(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self.bot.tables.guard(interaction, game, self.bot.replays.open(interaction, game))

    @replay.autocomplete("game")
    async def replay_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self.bot.replays.autocomplete(interaction, current)

    # Away is the player's, across every game and server; `/kokeshi` has no room left for it either.
    @app_commands.command(name="away", description="Away for a while: your turn deadlines in every game wait for you")
    @app_commands.describe(duration="How long: days and hours, like 3d, 36h or 2d12h (at most 14 days)")
    async def away(self, interaction: discord.Interaction, duration: str) -> None:
        tables = self.bot.tables
        await tables.guard(interaction, None, tables.away.go(interaction, duration))

    @app_commands.command(name="back", description="Back before your away period ends: your turn deadlines resume")
    async def back(self, interaction: discord.Interaction) -> None:
        tables = self.bot.tables
        await tables.guard(interaction, None, tables.away.back(interaction))

    # Rejoin is the player's way back into a game; `/kokeshi` has no room left for it.
    @app_commands.command(
        name="rejoin",
        description="Take back your seat that the AI took over when your time ran out",
        extras={anywhere.SERVER: True},
    )
    @app_commands.describe(game="The game's number (only needed when the AI took your seat in several games)")
    async def rejoin(self, interaction: discord.Interaction, game: int | None = None) -> None:
        tables = self.bot.tables
        await tables.guard(interaction, game, tables.clocks.rejoin(interaction, game))

    @rejoin.autocomplete("game")
    async def rejoin_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self.bot.tables.clocks.rejoin_choices(interaction, current)

    # Every game of the registry is played from here (Kokeshi too, beside its own `/kokeshi` commands).
    @app_commands.command(
        name="new", description="Open a table of another game in this channel", extras={anywhere.SERVER: True}
    )
    @app_commands.describe(
        game="Which game",
        players="How many seats (1: a solo game)",
        ai="How many of the seats the AI plays",
        level="How strong the AI plays",
        variant="The game's variant (start typing: the game's own, like its goal cards)",
        deadline="Time each player has for a turn: reminders before it, then the AI decides",
        clock="A fixed deadline per turn, or a time bank per player: time added after each turn, up to a cap",
        language="The language of the game's thread and pictures (default: the server's)",
        min_finish="Only players who finished at least this percentage of their games may join (0: anyone)",
    )
    @app_commands.choices(
        level=[app_commands.Choice(name=n, value=n) for n in ("easy", "normal", "hard")],
    )
    @app_commands.choices(deadline=TIMERS)
    @app_commands.choices(clock=DEADLINE_CLOCKS)
    @app_commands.choices(language=LANGUAGES)
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        players: app_commands.Range[int, 1, 25] = 2,
        ai: app_commands.Range[int, 0, 24] = 0,
        level: str = "normal",
        variant: app_commands.Range[str, 0, 100] = "",
        deadline: int = DAY,
        clock: str = FIXED,
        language: str | None = None,
        min_finish: app_commands.Range[int, 0, 100] = 0,
    ) -> None:
        matches = self.bot.matches
        opening = matches.lobbies.new(
            interaction, game, players, ai, level, variant, deadline, clock, language=language, min_finish=min_finish
        )
        await matches.guard(interaction, opening)

    @new.autocomplete("game")
    async def new_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return game_choices(current)

    @new.autocomplete("variant")
    async def variant_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        typed = current.strip().casefold()
        found = variants(game) if isinstance(game, str) else []
        return [
            app_commands.Choice(name=label[:100], value=value)
            for label, value in found
            if typed in label.casefold() or typed in value.casefold()
        ][:25]

    @app_commands.command(
        name="challenge",
        description="Another game's daily or weekly solo challenge: the same deal for everyone",
    )
    @app_commands.describe(game="Which game", kind="Today's challenge, or this week's")
    @app_commands.choices(
        kind=[app_commands.Choice(name="daily", value="daily"), app_commands.Choice(name="weekly", value="weekly")]
    )
    async def challenge(self, interaction: discord.Interaction, game: str, kind: str = "daily") -> None:
        matches = self.bot.matches
        await matches.guard(interaction, matches.lobbies.challenge(interaction, game, kind))

    @challenge.autocomplete("game")
    async def challenge_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current)

    @app_commands.command(name="play", description="In another game's thread: make your choice by command")
    @app_commands.describe(choice="Start typing: your choices right now, with what each does")
    async def play(self, interaction: discord.Interaction, choice: str) -> None:
        matches = self.bot.matches
        await matches.guard(interaction, matches.play(interaction, choice))

    @play.autocomplete("choice")
    async def play_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = await self.bot.matches.choices_here(interaction, current)
        return [app_commands.Choice(name=label[:100], value=action) for label, action in found]

    @app_commands.command(name="undo", description="In another game's thread: take back your last choice this turn")
    async def undo(self, interaction: discord.Interaction) -> None:
        matches = self.bot.matches
        await matches.guard(interaction, matches.undo(interaction))

    @app_commands.command(
        name="resign", description="In another game's thread: leave the game, the AI plays your seat, you rank last"
    )
    async def resign(self, interaction: discord.Interaction) -> None:
        matches = self.bot.matches
        await matches.guard(interaction, matches.resign(interaction))

    # Every game of every kind in one list: a server that plays several games needs one place to look.
    @app_commands.command(name="status", description="Your games of every kind: links, whose turn, deadlines")
    async def status(self, interaction: discord.Interaction) -> None:
        matches = self.bot.matches
        await matches.guard(interaction, matches.boards.status(interaction))

    @app_commands.command(name="table", description="Another game's table as you may see it now, privately")
    @app_commands.describe(
        game="The game's number (default: this thread's game, else your newest one here)",
        player="One player's board, alone and large where the game draws it, else first (default: yours)",
    )
    async def table(self, interaction: discord.Interaction, game: int | None = None, player: str | None = None) -> None:
        await self.bot.tables.guard(interaction, game, self.looks.table(interaction, game, player))

    @table.autocomplete("game")
    async def table_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self.looks.autocomplete(interaction, current)

    @table.autocomplete("player")
    async def table_player_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        return await self.looks.seat_choices(interaction, game if isinstance(game, int) else None, current)

    @app_commands.command(name="log", description="The last moves of another game, as its thread told them, privately")
    @app_commands.describe(
        count="How many steps (default 10; fewer when they do not fit one message)",
        game="The game's number (default: this thread's game, else your newest one here)",
    )
    async def log(
        self,
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, MOST_STEPS] = 10,
        game: int | None = None,
    ) -> None:
        await self.bot.tables.guard(interaction, game, self.looks.log(interaction, game, count))

    @log.autocomplete("game")
    async def log_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await self.looks.autocomplete(interaction, current)

    @app_commands.command(name="rules", description="A game's rules in brief, with its pictures of them, privately")
    @app_commands.describe(game="Which game")
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        await self.bot.tables.guard(interaction, None, self.guide.rules(interaction, game))

    @rules.autocomplete("game")
    async def rules_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return every_game_choices(current)

    @app_commands.command(name="help", description="How a game is played here: its commands and buttons, privately")
    @app_commands.describe(game="Which game")
    async def help(self, interaction: discord.Interaction, game: str) -> None:
        await self.bot.tables.guard(interaction, None, self.guide.help(interaction, game))

    @help.autocomplete("game")
    async def help_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return every_game_choices(current)

    @app_commands.command(name="leaderboard", description="Who wins most at another game, here")
    @app_commands.describe(game="Which game", board="Wins or rating here, or today's or this week's challenge")
    @app_commands.choices(
        board=[
            app_commands.Choice(name="wins", value="wins"),
            app_commands.Choice(name="rating", value="rating"),
            app_commands.Choice(name="daily", value="daily"),
            app_commands.Choice(name="weekly", value="weekly"),
        ]
    )
    async def leaderboard(self, interaction: discord.Interaction, game: str, board: str = "wins") -> None:
        matches = self.bot.matches
        await matches.guard(interaction, matches.boards.leaderboard(interaction, game, board))

    @leaderboard.autocomplete("game")
    async def leaderboard_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current)

    @app_commands.command(name="stats", description="A player's record at another game: games, wins, rating, scores")
    @app_commands.describe(game="Which game", user="Whose stats (default: yours)")
    async def stats(self, interaction: discord.Interaction, game: str, user: discord.User | None = None) -> None:
        matches = self.bot.matches
        await matches.guard(interaction, matches.boards.stats(interaction, game, user or interaction.user))

    @stats.autocomplete("game")
    async def stats_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current)

    @settings.command(name="limits", description="How many open games a person and a channel may have")
    @app_commands.describe(
        per_user="Open games (lobbies and games in progress) one person may be in; default 5",
        per_channel="Open games one channel may hold; default 20",
    )
    async def limits(
        self, interaction: discord.Interaction, per_user: int | None = None, per_channel: int | None = None
    ) -> None:
        tables = self.bot.tables
        await tables.guard(interaction, None, tables.set_limits(interaction, per_user, per_channel))

    @settings.command(name="daily-channel", description="Post each day's daily challenge results in a channel")
    @app_commands.describe(channel="Where to post (leave empty to stop posting)")
    async def daily_channel(self, interaction: discord.Interaction, channel: discord.TextChannel | None = None):
        await self.bot.tables.guard(interaction, None, self.bot.community.set_daily_channel(interaction, channel))

    @settings.command(name="away-days", description="How many days a player may be away in any 365 days")
    @app_commands.describe(days="Away days in any 365 days (0 to 365; default 14; 0 turns away off)")
    async def away_days(self, interaction: discord.Interaction, days: int | None = None) -> None:
        tables = self.bot.tables
        await tables.guard(interaction, None, tables.away.set_days(interaction, days))


def game_choices(current: str) -> list[app_commands.Choice[str]]:
    """The games `/games new` offers whose name or key starts with what was typed."""
    typed = current.strip().lower()
    return [
        app_commands.Choice(name=module.name, value=module.key)
        for module in offered()
        if module.key.startswith(typed) or module.name.lower().startswith(typed)
    ][:25]


async def setup(bot: WiredClient) -> None:
    await bot.add_cog(Games(bot))
