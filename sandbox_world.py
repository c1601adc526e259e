"""The sandbox's simulated Discord kept beside its database: a restart finds the same server, threads and messages."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import logging
import os
import secrets
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

log = logging.getLogger("kokeshi.sandbox")

# Written into world.json; a world of another format is not read (the sandbox starts a new one).
FORMAT = 1
# The database's own record of which saved world belongs to it.
META_KEY = "sandbox_world"
# SimCord draws an id from the clock. The sandbox's server, channel and players are made at this instant, in the same
# order, at every start: so they keep their ids, and the games, stats and streaks stored under them stay theirs.
FOUNDED = datetime(2025, 6, 1, tzinfo=UTC)


def world_folder(database: str) -> Path | None:
    """Where the world of the sandbox on this database is kept: beside a SQLite file, or under data/ for a
    PostgreSQL database. None for an in-memory database, whose world goes with it."""
    from storage import is_url

    if database == ":memory:":
        return None
    if is_url(database):
        return Path("data") / f"sandbox-{hashlib.sha256(database.encode()).hexdigest()[:12]}"
    path = Path(database)
    return path.with_name(path.name + "-sandbox")


@dataclass
class Founding:
    """The sandbox's server, its channel and its players (SimCord handles)."""

    guild: Any
    channel: Any
    players: list[Any]


def found(env: Any, *, server: str, channel: str, players: Iterable[str]) -> Founding:
    """Make the sandbox's server, channel and players with the same ids as at every earlier start."""
    clock = env.backend.clock
    now = clock.elapsed
    clock.elapsed = (FOUNDED - clock.now()).total_seconds() + now
    try:
        users = [env.create_user(name) for name in players]
        guild = env.create_guild(server)
        home = guild.create_text_channel(channel)
        members = [guild.add_member(user) for user in users]
    finally:
        clock.elapsed = now
    return Founding(guild, home, members)


async def database_token(database: str) -> str:
    """The token that ties a saved world to this database (made and kept in it on first use)."""
    from storage import open_store

    store = await open_store(database)
    try:
        token = await store.meta(META_KEY)
        if token is None:
            token = secrets.token_hex(16)
            await store.set_meta(META_KEY, token)
        return token
    finally:
        await store.close()


class SavedWorld:
    """The channel and threads of the sandbox on disk: what Discord itself would keep.

    `folder/world.json` names the threads and the channel the page was showing; `folder/channels/<id>.json` holds a
    channel's or thread's messages (private replies excepted: Discord forgets those too) and `folder/files/<id>` the
    pictures they carry. The sandbox's clock writes what changed (`changes`) about once a second, and the whole world
    when the sandbox stops; a world saved before a crash may lack the last second, and the bot then posts again the
    live prompt a game lacks.
    """

    def __init__(self, folder: Path, token: str) -> None:
        self.folder = folder
        self.token = token
        self.env: Any = None
        self.home_id = 0
        self.page_id: int | None = None
        # The key of the sandbox's address: the same address serves the page from one start to the next.
        self.key = secrets.token_urlsafe(16)
        self.dirty: set[int] = set()
        # Each saved message as JSON, until SimCord says it changed: a save writes a thread again but encodes only
        # what changed (a prompt's edit), not the whole thread.
        self.encoded: dict[int, str] = {}
        self.threads_dirty = False
        self.saved_files: set[str] = set()
        self.pictures: dict[int, set[str]] = {}  # per channel: the pictures its saved messages show

    # ------------------------------------------------------------------ opening

    @classmethod
    async def open(cls, folder: Path, database: str) -> SavedWorld:
        """The world saved for this database, or an empty one (a world saved for another database is dropped)."""
        token = await database_token(database)
        world = cls(folder, token)
        saved = world._read_json(folder / "world.json")
        if saved is not None and saved.get("store") != token:
            log.warning("The saved sandbox world in %s belongs to another database; starting a new one.", folder)
            shutil.rmtree(folder, ignore_errors=True)
        elif saved is not None and saved.get("format") != FORMAT:
            log.warning("The saved sandbox world in %s is of another version; starting a new one.", folder)
            shutil.rmtree(folder, ignore_errors=True)
        (folder / "channels").mkdir(parents=True, exist_ok=True)
        (folder / "files").mkdir(parents=True, exist_ok=True)
        world.saved_files = {path.name for path in (folder / "files").iterdir()}
        return world

    @staticmethod
    def _read_json(path: Path) -> Any:
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            log.warning("Cannot read %s (%s); it is left out.", path, exc)
            return None

    def restore(self, env: Any, home: Any) -> int:
        """Put the saved threads, messages and pictures back into SimCord, before the bot connects; returns how
        many messages came back. Whatever cannot be read is left out."""
        self.env = env
        self.home_id = home.id
        backend = env.backend
        saved = self._read_json(self.folder / "world.json") or {}
        self.page_id = saved.get("page")
        if isinstance(saved.get("key"), str) and saved["key"]:
            self.key = saved["key"]
        for data in saved.get("threads", []):
            try:
                self._restore_thread(backend, data)
            except (KeyError, TypeError, ValueError) as exc:
                log.warning("A saved thread of the sandbox cannot be read (%s); it is left out.", exc)
        restored = 0
        for channel_id in [self.home_id, *self.thread_ids()]:
            for data in self._read_json(self.folder / "channels" / f"{channel_id}.json") or []:
                try:
                    message = message_from_json(data)
                    self._restore_files(backend, message)
                except (KeyError, TypeError, ValueError) as exc:
                    log.warning("A saved message of the sandbox cannot be read (%s); it is left out.", exc)
                    continue
                backend.messages[channel_id][message.id] = message
                _reserve(backend, message.id)
                self.pictures.setdefault(channel_id, set()).update(str(item["id"]) for item in message.attachments)
                restored += 1
        backend.subscribers.append(self._note)
        self.threads_dirty = True  # world.json is written at the first save
        return restored

    def _restore_thread(self, backend: Any, data: dict[str, Any]) -> None:
        channel = channel_from_json(data)
        if channel.parent_id != self.home_id or channel.id in backend.channels:
            return
        _reserve(backend, channel.id)
        thread = backend.create_thread(
            self.home_id,
            channel.name or "",
            channel.owner_id or 0,
            type=channel.type,
            auto_archive_duration=channel.thread_metadata.auto_archive_duration if channel.thread_metadata else 1440,
            message_id=channel.id,
            broadcast=False,
        )
        for field in dataclasses.fields(channel):
            setattr(thread, field.name, getattr(channel, field.name))

    def _restore_files(self, backend: Any, message: Any) -> None:
        for item in message.attachments:
            url = item.get("url", "")
            parts = url.rsplit("/", 3)
            path = self.folder / "files" / str(item["id"])
            if len(parts) != 4 or not path.exists():
                continue  # shown as unavailable, as a lost picture would be
            stored = backend.cdn.store_attachment(
                int(item["id"]), int(parts[1]), item["filename"], path.read_bytes(), item.get("description")
            )
            if stored["url"] != url:
                raise ValueError(f"picture {item['id']} does not belong where it was")

    # ------------------------------------------------------------------ saving

    def thread_ids(self) -> list[int]:
        backend = self.env.backend
        return [c.id for c in backend.channels.values() if c.is_thread and c.parent_id == self.home_id]

    def _note(self, event: str, payload: Any) -> None:
        """SimCord's gateway events, as the bot receives them: which channels changed since the last flush."""
        if not isinstance(payload, dict):
            return
        if event.startswith(("THREAD_", "CHANNEL_")):
            self.threads_dirty = True
        if event.startswith("MESSAGE_"):
            changed = [payload.get("message_id") or payload.get("id"), *payload.get("ids", [])]
            for message_id in changed:
                with contextlib.suppress(TypeError, ValueError):
                    self.encoded.pop(int(message_id), None)
        channel = payload.get("channel_id") or (payload.get("id") if event.startswith("THREAD_") else None)
        if channel is not None:
            with contextlib.suppress(TypeError, ValueError):
                self.dirty.add(int(channel))

    def follow_page(self, channel_id: int) -> None:
        if channel_id != self.page_id:
            self.page_id = channel_id
            self.threads_dirty = True

    def changes(self, *, everything: bool = False) -> tuple[list[tuple[Path, bytes]], list[Path]]:
        """What to write for the changes since the last call, as (path, content) pairs (pictures first, so no saved
        message lacks its own), and the pictures no saved message shows any more (a prompt's earlier ones)."""
        if self.env is None:
            return [], []
        known = {self.home_id, *self.thread_ids()}
        channels = known if everything else self.dirty & known
        self.dirty.clear()
        if everything:
            self.encoded.clear()
        writes: list[tuple[Path, bytes]] = []
        pages: list[tuple[Path, bytes]] = []
        removals: list[Path] = []
        backend = self.env.backend
        for channel_id in sorted(channels):
            kept = [m for m in backend.messages.get(channel_id, {}).values() if not m.is_ephemeral]
            kept.sort(key=lambda m: m.id)
            shown = set()
            for message in kept:
                for item in message.attachments:
                    name = str(item.get("id"))
                    shown.add(name)
                    if name in self.saved_files:
                        continue
                    blob = backend.cdn.get(item.get("url", ""))
                    if blob is not None:
                        writes.append((self.folder / "files" / name, blob))
                        self.saved_files.add(name)
            gone = self.pictures.get(channel_id, set()) - shown
            self.pictures[channel_id] = shown
            removals += [self.folder / "files" / name for name in sorted(gone & self.saved_files)]
            self.saved_files -= gone
            for message in kept:
                if message.id not in self.encoded:
                    self.encoded[message.id] = json.dumps(
                        message_to_json(message), ensure_ascii=False, separators=(",", ":")
                    )
            text = "[" + ",".join(self.encoded[m.id] for m in kept) + "]"
            pages.append((self.folder / "channels" / f"{channel_id}.json", text.encode()))
        if everything or self.threads_dirty:
            self.threads_dirty = False
            threads = [channel_to_json(backend.channels[i]) for i in sorted(known - {self.home_id})]
            world = {"format": FORMAT, "store": self.token, "key": self.key, "page": self.page_id, "threads": threads}
            pages.append((self.folder / "world.json", json.dumps(world, separators=(",", ":")).encode()))
        return writes + pages, removals

    def prune(self) -> list[Path]:
        """Saved pictures no saved message refers to any more (a prompt's earlier pictures): to delete."""
        backend = self.env.backend
        used = {
            str(item.get("id"))
            for channel_id in [self.home_id, *self.thread_ids()]
            for message in backend.messages.get(channel_id, {}).values()
            if not message.is_ephemeral
            for item in message.attachments
        }
        unused = sorted(self.saved_files - used)
        self.saved_files -= set(unused)
        return [self.folder / "files" / name for name in unused]

    def present(self, channel_id: int, message_id: int) -> bool:
        """Whether SimCord has this message (restored, or posted since)."""
        return message_id in self.env.backend.messages.get(channel_id, {})


def write_all(writes: list[tuple[Path, bytes]], removals: Iterable[Path] = ()) -> None:
    """Write each file whole (a temporary file renamed over the old one), then delete the removals."""
    for path, content in writes:
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_bytes(content)
        os.replace(temporary, path)
    for path in removals:
        path.unlink(missing_ok=True)


def _reserve(backend: Any, snowflake: int) -> None:
    """Keep SimCord from drawing this id for something new."""
    from simcord.backend.errors import SetupError

    # Already kept when a thread's id is its opening message's.
    with contextlib.suppress(SetupError):
        backend.reserve_id(snowflake)


# ---------------------------------------------------------------------- SimCord's records as JSON


def _plain(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def message_to_json(message: Any) -> dict[str, Any]:
    return _plain(dataclasses.asdict(message))


def message_from_json(data: dict[str, Any]) -> Any:
    from simcord.backend.models import (
        AllowedMentions,
        Message,
        MessageSticker,
        Poll,
        PollAnswer,
        Reaction,
        SystemMessageMetadata,
    )

    fields = dict(data)
    mentions = fields.pop("allowed_mentions", None) or {}
    fields["allowed_mentions"] = AllowedMentions(
        everyone=mentions.get("everyone", True),
        users=None if mentions.get("users") is None else frozenset(mentions["users"]),
        roles=None if mentions.get("roles") is None else frozenset(mentions["roles"]),
        replied_user=mentions.get("replied_user", True),
    )
    fields["reactions"] = [Reaction(**item) for item in fields.get("reactions", [])]
    fields["stickers"] = [MessageSticker(**item) for item in fields.get("stickers", [])]
    if fields.get("system_metadata") is not None:
        fields["system_metadata"] = SystemMessageMetadata(**fields["system_metadata"])
    poll = fields.get("poll")
    if poll is not None:
        fields["poll"] = Poll(
            **{
                **poll,
                "answers": [PollAnswer(**answer) for answer in poll["answers"]],
                "votes": {int(k): set(v) for k, v in poll.get("votes", {}).items()},
            }
        )
    return Message(**fields)


def channel_to_json(channel: Any) -> dict[str, Any]:
    return _plain(dataclasses.asdict(channel))


def channel_from_json(data: dict[str, Any]) -> Any:
    from simcord.backend.models import Channel, Overwrite, ThreadMetadata
    from simcord.enums import OverwriteType

    fields = dict(data)
    fields["overwrites"] = [
        Overwrite(**{**item, "type": OverwriteType(item["type"])}) for item in fields.get("overwrites", [])
    ]
    if fields.get("thread_metadata") is not None:
        fields["thread_metadata"] = ThreadMetadata(**fields["thread_metadata"])
    fields["thread_members"] = {int(k): v for k, v in fields.get("thread_members", {}).items()}
    return Channel(**fields)
