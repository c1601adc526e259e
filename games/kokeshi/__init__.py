"""Kokeshi (André Teruya & Igor Knop) as a platform game: its `GameModule` in `games.kokeshi.module`.

The rules are in `engine/` (pure, deterministic), the pictures in `pictures/` (drawn with the platform's `render`
kit), the words here (`vocab`, `narrate`, `story`: the rules' codes in the current language); `module.py` adapts
them to the game contract.
"""
