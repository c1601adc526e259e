"""Kokeshi (André Teruya & Igor Knop) as a platform game: its `GameModule` in `games.kokeshi.module`.

The rules still live in `engine/` and the pictures in `render/`; `module.py` adapts them to the game contract.
"""
