"""A Babel extractor for Python files that also collects the words of discord.py slash commands.

Command names, descriptions, parameter names and descriptions and choice names are written as plain strings in
the `app_commands` decorators; discord.py hands them to the bot's translator at sync time. This extractor finds
them by their place in the code, so the catalog carries them without wrapping each one in `_()`. Names get the
gettext contexts `COMMAND_NAME` and `PARAMETER_NAME`: their translations follow Discord's rules for names
(lowercase, no spaces, at most 32 characters).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import IO, Any

COMMAND_NAME = "command name"
PARAMETER_NAME = "parameter name"

_SKIPPED_PARAMETERS = {"self", "interaction"}


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _text(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value else None


def _name_and_description(
    lineno: int, keywords: list[ast.keyword], name: str, description: str
) -> Iterator[tuple[int, str | tuple[str, str]]]:
    """A command's (or a group's) name and description, given as the keywords `name` and `description`."""
    for keyword in keywords:
        value = _text(keyword.value)
        if value and keyword.arg == name:
            yield lineno, (COMMAND_NAME, value)
        elif value and keyword.arg == description:
            yield lineno, value


def command_messages(source: str) -> Iterator[tuple[int, str | tuple[str, str]]]:
    """(line, message) for every slash command word in `source`; a message is a string or (context, string)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            yield from _name_and_description(node.lineno, node.keywords, "group_name", "group_description")
        elif isinstance(node, ast.Call):
            called = _name(node.func)
            if called in ("command", "Group"):
                yield from _name_and_description(node.lineno, node.keywords, "name", "description")
            elif called == "describe":
                for keyword in node.keywords:
                    value = _text(keyword.value)
                    if keyword.arg and value:
                        yield node.lineno, value
            elif called == "Choice":
                value = _text(node.keywords[0].value) if node.keywords and node.keywords[0].arg == "name" else None
                value = value or (_text(node.args[0]) if node.args else None)
                if value:
                    yield node.lineno, value
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
            isinstance(d, ast.Call) and _name(d.func) == "command" for d in node.decorator_list
        ):
            for arg in node.args.args + node.args.kwonlyargs:
                if arg.arg not in _SKIPPED_PARAMETERS:
                    yield node.lineno, (PARAMETER_NAME, arg.arg)


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple[Any, ...]]:
    """Babel's Python extraction, then the slash command words of the same file."""
    from babel.messages.extract import extract_python

    yield from extract_python(fileobj, keywords, comment_tags, options)
    fileobj.seek(0)
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    for lineno, message in command_messages(source):
        if isinstance(message, tuple):
            yield lineno, "pgettext", message, []
        else:
            yield lineno, "gettext", message, []
