"""Kokeshi (André Teruya & Igor Knop) as a platform game: its `GameModule` in `games.kokeshi.module`.

The rules still live in `engine/` and the pictures in `render/`; the words are here (`vocab`, `narrate`, `story`:
the rules' codes in the current language); `module.py` adapts them to the game contract.
"""
