"""Languages: the supported locales, the language of a block of code, gettext lookups and Babel formatting.

English is the source language: every message is written in English in the code and looked up in the gettext
catalog of the current locale (`locales/<locale>/LC_MESSAGES/messages.mo`). The current locale is a context
variable, so `with using("pt_BR"):` changes the language of one block (one reply, one picture) and nothing else,
even with many tasks running at once.

Only the standard library is needed to look messages up, so the engine stays importable anywhere; Babel, a
runtime requirement, is imported when a number or date is formatted, or when a catalog must be compiled because
its `.mo` file is missing or older than its `.po` file.
"""

from __future__ import annotations

import datetime as dt
import gettext as _gettext
import hashlib
import io
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

log = logging.getLogger(__name__)

DEFAULT = "en"
# Every language the bot speaks, as gettext locale names; English is the source and needs no catalog.
LOCALES: tuple[str, ...] = ("en", "pt_BR")
# The name of each language in itself, for menus.
NATIVE_NAMES: dict[str, str] = {"en": "English", "pt_BR": "Português (Brasil)"}
DOMAIN = "messages"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locales"

_current: ContextVar[str] = ContextVar("kokeshi_locale", default=DEFAULT)


def supported(tag: object) -> str | None:
    """The supported locale for a language tag ("pt-BR", "pt_BR", "pt", a discord.Locale, "en-US"), or None."""
    if tag is None:
        return None
    text = str(getattr(tag, "value", tag)).strip().replace("-", "_")
    if not text:
        return None
    for locale in LOCALES:
        if text.lower() == locale.lower():
            return locale
    language = text.split("_")[0].lower()
    for locale in LOCALES:
        if locale.split("_")[0].lower() == language:
            return locale
    return None


def resolve(*tags: object) -> str:
    """The first supported locale among `tags` (e.g. the user's, then the server's), else English."""
    for tag in tags:
        locale = supported(tag)
        if locale:
            return locale
    return DEFAULT


def current() -> str:
    """The locale of the code running now."""
    return _current.get()


@contextmanager
def using(*tags: object) -> Iterator[str]:
    """Run a block in the first supported locale among `tags` (English when none is), then restore the previous one."""
    token = _current.set(resolve(*tags))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def catalog_paths(locale: str) -> tuple[Path, Path]:
    """Where a locale's catalog lives: its `.po` source and its compiled `.mo`."""
    folder = LOCALE_DIR / locale / "LC_MESSAGES"
    return folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"


def compile_catalog(po_path: Path) -> bytes:
    """The `.mo` bytes of a `.po` file (Babel); fuzzy entries are left out, as `pybabel compile` does."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path.open("rb") as handle:
        catalog = read_po(handle)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


@cache
def translations(locale: str) -> _gettext.NullTranslations:
    """The gettext translations of a locale: its compiled catalog, compiled in memory when the `.mo` is missing or
    older than the `.po`; English, and any locale without a catalog, translate nothing."""
    if locale == DEFAULT or locale not in LOCALES:
        return _gettext.NullTranslations()
    po_path, mo_path = catalog_paths(locale)
    if mo_path.exists() and (not po_path.exists() or mo_path.stat().st_mtime >= po_path.stat().st_mtime):
        with mo_path.open("rb") as handle:
            return _gettext.GNUTranslations(handle)
    if po_path.exists():
        try:
            data = compile_catalog(po_path)
        except ImportError:
            log.warning("the %s catalog is not compiled and Babel is missing: run `make translations`", locale)
            return _gettext.NullTranslations()
        log.info("the %s catalog was compiled in memory: run `make translations` to compile it once", locale)
        return _gettext.GNUTranslations(io.BytesIO(data))
    log.warning("no catalog for %s in %s", locale, LOCALE_DIR)
    return _gettext.NullTranslations()


def fingerprint() -> str:
    """A digest of every catalog's source, so that a change of translations can be noticed (e.g. to sync them)."""
    digest = hashlib.sha256()
    for locale in LOCALES:
        po_path = catalog_paths(locale)[0]
        if po_path.exists():
            digest.update(locale.encode() + b"\0" + po_path.read_bytes())
    return digest.hexdigest()


def N_(message: str) -> str:
    """Marks a message for the catalogs without translating it (words kept in data, translated when read)."""
    return message


def _(message: str) -> str:
    """`message` (English) in the current locale."""
    return translations(current()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form of a message for the count `n`, by the current locale's plural rule."""
    return translations(current()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` in the current locale, where the same English words need different translations by `context`."""
    return translations(current()).pgettext(context, message)


def gettext_in(locale: str, message: str, context: str | None = None) -> str | None:
    """`message` in `locale`, or None when that catalog has no translation for it (for callers with a fallback)."""
    found = supported(locale)
    if found is None:
        return None
    catalog = translations(found)
    text = catalog.pgettext(context, message) if context else catalog.gettext(message)
    return None if text == message and found != DEFAULT else text


def _babel_locale(locale: str | None) -> str:
    return locale or current()


def format_number(value: float, locale: str | None = None, format: str | None = None) -> str:
    """A number as the locale writes it: "1,234.5" in English, "1.234,5" in Portuguese; `format` is a Babel
    (CLDR) number pattern, e.g. "#,##0.0" for one decimal."""
    from babel.numbers import format_decimal

    return format_decimal(value, format=format, locale=_babel_locale(locale))


def format_points(value: int, locale: str | None = None) -> str:
    """A score as the locale writes numbers, with a true minus sign when negative ("−4", not "-4")."""
    return "\u2212" + format_number(-value, locale) if value < 0 else format_number(value, locale)


def format_percent(value: float, locale: str | None = None) -> str:
    """A fraction as a percentage, e.g. 0.25 → "25%"."""
    from babel.numbers import format_percent as babel_percent

    return babel_percent(value, locale=_babel_locale(locale))


def format_date(value: dt.date | dt.datetime, format: str = "medium", locale: str | None = None) -> str:
    """A date in the locale's words, e.g. "Nov 23, 2026" or "23 de nov. de 2026"."""
    from babel.dates import format_date as babel_date

    return babel_date(value, format=format, locale=_babel_locale(locale))


def format_datetime(value: dt.datetime, format: str = "medium", locale: str | None = None) -> str:
    """A date and time in the locale's words (in the datetime's own time zone, or UTC when it has none)."""
    from babel.dates import format_datetime as babel_datetime

    return babel_datetime(value, format=format, locale=_babel_locale(locale))


def format_timedelta(value: dt.timedelta, locale: str | None = None) -> str:
    """A duration in words, e.g. "3 hours" or "3 horas"."""
    from babel.dates import format_timedelta as babel_timedelta

    return babel_timedelta(value, locale=_babel_locale(locale))


def format_list(items: list[str], locale: str | None = None) -> str:
    """Items joined as the locale writes a list: "a, b and c" or "a, b e c"."""
    from babel.lists import format_list as babel_list

    return babel_list(items, locale=_babel_locale(locale))
