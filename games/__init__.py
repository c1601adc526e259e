"""Board games the bot runs, one package per game: pure rules, words and pictures."""
