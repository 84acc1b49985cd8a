"""The games directory: one folder per game and a SQLite index for listing and searching them.

::

    games/
      index.sqlite                  one row per game (rebuildable from the logs at any time)
      20261129-133823-klondike-3f2a/
        log.jsonl                   the game log (docs/gamelog-format.md)
        frames/000001.jpg           key frames, named after the record that points at them

The logs are the truth; the index is a cache of their headers and counts. :meth:`GameStore.sync`
re-reads any log whose size or modification time changed (a game still being played, a crashed one)
and :meth:`GameStore.rebuild_index` throws the index away and reads every log again, so a lost or
stale index loses nothing.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Iterator, Sequence

from .reader import FRAMES_DIR, LOG_NAME, read_game
from .record import GameLog, JSONValue, is_frame_name
from .writer import GameWriter, new_header, utc_now_iso

logger = logging.getLogger(__name__)

INDEX_NAME = "index.sqlite"
SCHEMA_VERSION = 1
ENV_GAMES_DIR = "CARDREF_GAMES"

_SCHEMA = """
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    players TEXT NOT NULL,
    started TEXT NOT NULL,
    finished INTEGER NOT NULL,
    result TEXT,
    duration REAL NOT NULL,
    moves INTEGER NOT NULL,
    illegal INTEGER NOT NULL,
    calls INTEGER NOT NULL,
    unrecognised INTEGER NOT NULL,
    corrections INTEGER NOT NULL,
    errors INTEGER NOT NULL,
    log_size INTEGER NOT NULL,
    log_mtime_ns INTEGER NOT NULL
);
CREATE INDEX games_started ON games (started);
CREATE INDEX games_game ON games (game);
CREATE TABLE players (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX players_name ON players (name COLLATE NOCASE);
"""

_ID_OK = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


def default_games_dir() -> Path:
    """``$CARDREF_GAMES``, else ``$XDG_DATA_HOME/cardref/games``, else ``~/.local/share/cardref/games``."""
    env = os.environ.get(ENV_GAMES_DIR)
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cardref" / "games"


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One row of the index. ``started`` is the header's ISO 8601 UTC start; ``duration`` the game
    time of the last record; counts as in :class:`cardref.gamelog.record.Counts`."""

    id: str
    game: str
    rules: str
    players: tuple[str, ...]
    started: str
    finished: bool
    result: str | None
    duration: float
    moves: int
    illegal: int
    calls: int
    unrecognised: int
    corrections: int
    errors: int

    def to_json(self) -> dict[str, JSONValue]:
        return {
            "id": self.id,
            "game": self.game,
            "rules": self.rules,
            "players": list(self.players),
            "started": self.started,
            "finished": self.finished,
            "result": self.result,
            "duration": self.duration,
            "moves": self.moves,
            "illegal": self.illegal,
            "calls": self.calls,
            "unrecognised": self.unrecognised,
            "corrections": self.corrections,
            "errors": self.errors,
        }


def summarise(log: GameLog) -> GameSummary:
    """The index row for a log (which must have a readable header)."""
    if log.header is None:
        raise ValueError(f"log {str(log.path)!r} has no readable header")
    h = log.header
    c = log.counts()
    return GameSummary(
        id=h.id,
        game=h.game,
        rules=h.rules,
        players=h.players,
        started=h.started,
        finished=log.finished,
        result=log.result,
        duration=log.last_t,
        moves=c.moves,
        illegal=c.illegal,
        calls=c.calls,
        unrecognised=c.unrecognised,
        corrections=c.corrections,
        errors=c.errors,
    )


def _time_bound(value: date | datetime | str, *, end: bool) -> tuple[str, str]:
    """The SQL comparison and ISO UTC string to compare ``started`` with.

    A date (or ``YYYY-MM-DD``) means the whole UTC day: ``since`` from its start, ``until`` to its
    end. A datetime is an instant; a naive one is taken as UTC.
    """
    if isinstance(value, str):
        text = value.strip()
        try:
            value = date.fromisoformat(text) if len(text) == 10 else datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(f"not a date or time: {text!r} (expected e.g. 2026-11-29 or 2026-11-29T13:00)") from None
    if isinstance(value, datetime):
        moment = value if value.tzinfo is None else value.astimezone(timezone.utc).replace(tzinfo=None)
        return ("<=" if end else ">="), moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    day = value + timedelta(days=1) if end else value
    return ("<" if end else ">="), day.strftime("%Y-%m-%dT00:00:00.000000Z")


class GameStore:
    """A games directory. Cheap to make; every index operation opens its own SQLite connection, so
    one store can serve several threads and several processes can share a directory.

    ``fsync`` is passed to every writer it opens (turn it off only for benchmarks and tests).
    """

    def __init__(self, root: str | os.PathLike[str] | None = None, *, fsync: bool = True) -> None:
        self.root = Path(root).expanduser() if root is not None else default_games_dir()
        self.fsync = fsync
        self.root.mkdir(parents=True, exist_ok=True)
        self._ensure_schema()

    @property
    def index_path(self) -> Path:
        return self.root / INDEX_NAME

    # -- games -----------------------------------------------------------------------------------

    def game_dir(self, game_id: str) -> Path:
        """The folder of ``game_id``; :class:`ValueError` for an id that could escape the directory."""
        if not _ID_OK.match(game_id) or game_id in (".", ".."):
            raise ValueError(f"not a game id: {game_id!r}")
        return self.root / game_id

    def new_game(
        self,
        game: str,
        rules: str,
        players: Sequence[str],
        *,
        deal: JSONValue = None,
        started: str | None = None,
        id: str | None = None,
    ) -> GameWriter:
        """Start recording a game; returns its writer (use it as a context manager).

        The id is ``YYYYMMDD-HHMMSS-<game>-<4 hex>`` from the start time unless given.
        """
        started = started or utc_now_iso()
        folder = self._new_folder(game, started, id)
        header = new_header(folder.name, game, rules, tuple(players), deal, started)
        try:
            return GameWriter.create(folder, header, fsync=self.fsync, on_change=self._writer_changed)
        except BaseException:
            if not (folder / LOG_NAME).exists():
                for leftover in (folder / FRAMES_DIR, folder):
                    try:
                        leftover.rmdir()
                    except OSError:
                        pass
            raise

    def _new_folder(self, game: str, started: str, id: str | None) -> Path:
        if id is not None:
            folder = self.game_dir(id)
            folder.mkdir()
            return folder
        stamp = re.sub(r"[^0-9T]", "", started)[:15].replace("T", "-")
        slug = re.sub(r"[^a-z0-9]+", "-", game.lower()).strip("-")[:24] or "game"
        for _ in range(100):
            folder = self.game_dir(f"{stamp}-{slug}-{secrets.token_hex(2)}")
            try:
                folder.mkdir()
                return folder
            except FileExistsError:
                continue
        raise FileExistsError(f"could not find a free game folder in {str(self.root)!r}")  # pragma: no cover

    def resume(self, game_id: str, *, t: float | None = None, finished_ok: bool = False) -> GameWriter:
        """Open an unfinished game for appending (see :meth:`GameWriter.resume`)."""
        return GameWriter.resume(
            self.game_dir(game_id), t=t, fsync=self.fsync, finished_ok=finished_ok, on_change=self._writer_changed
        )

    def amend(self, game_id: str) -> GameWriter:
        """Open any game, finished or not, for corrections and notes only (the review page); writes
        no ``resumed`` record. :class:`GameBusyError` while the game is being recorded."""
        return GameWriter.resume(self.game_dir(game_id), fsync=self.fsync, amend=True, on_change=self._writer_changed)

    def read(self, game_id: str) -> GameLog:
        """Read a game's log (lenient: damage goes into ``errors``); :class:`FileNotFoundError` if none."""
        return read_game(self.game_dir(game_id) / LOG_NAME)

    def frame_path(self, game_id: str, name: str) -> Path:
        """The path of a key frame named in a record; :class:`ValueError` for a name that is no frame name."""
        if not is_frame_name(name):
            raise ValueError(f"not a key-frame name: {name!r}")
        return self.game_dir(game_id) / FRAMES_DIR / name

    def game_ids(self) -> list[str]:
        """Every folder in the directory that holds a log, sorted (so oldest first, for generated ids)."""
        return sorted(p.parent.name for p in self.root.glob(f"*/{LOG_NAME}") if _ID_OK.match(p.parent.name))

    # -- index -----------------------------------------------------------------------------------

    def get(self, game_id: str) -> GameSummary | None:
        """The index row of one game, ``None`` if it is not indexed."""
        with self._connect() as db:
            row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else _summary(row)

    def games(
        self,
        *,
        game: str | None = None,
        player: str | None = None,
        text: str | None = None,
        since: date | datetime | str | None = None,
        until: date | datetime | str | None = None,
        finished: bool | None = None,
        limit: int | None = None,
        offset: int = 0,
        sync: bool = True,
    ) -> list[GameSummary]:
        """Search the index, newest first.

        ``game`` matches the game name exactly (case-insensitive); ``player`` a player's name
        exactly (case-insensitive); ``text`` any part of the id, game, rules, result or a player's
        name; ``since``/``until`` bound the start (UTC; a date means the whole day). ``sync`` first
        brings the index up to date with the logs (:meth:`sync`).
        """
        if sync:
            self.sync()
        where: list[str] = []
        args: list[Any] = []
        if game is not None:
            where.append("game = ? COLLATE NOCASE")
            args.append(game)
        if player is not None:
            where.append("EXISTS (SELECT 1 FROM players p WHERE p.game_id = games.id AND p.name = ? COLLATE NOCASE)")
            args.append(player)
        if text:
            like = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            where.append(
                "(id LIKE ? ESCAPE '\\' OR game LIKE ? ESCAPE '\\' OR rules LIKE ? ESCAPE '\\' "
                "OR coalesce(result, '') LIKE ? ESCAPE '\\' OR EXISTS (SELECT 1 FROM players p "
                "WHERE p.game_id = games.id AND p.name LIKE ? ESCAPE '\\'))"
            )
            args.extend([like] * 5)
        for bound, end in ((since, False), (until, True)):
            if bound is not None:
                op, iso = _time_bound(bound, end=end)
                where.append(f"started {op} ?")
                args.append(iso)
        if finished is not None:
            where.append("finished = ?")
            args.append(int(finished))
        sql = "SELECT * FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY started DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            args.extend([limit, offset])
        elif offset:
            sql += " LIMIT -1 OFFSET ?"
            args.append(offset)
        with self._connect() as db:
            return [_summary(row) for row in db.execute(sql, args)]

    def index_game(self, game_id: str) -> GameSummary | None:
        """Read one game's log and put its row in the index (removing the row if the log is gone or
        has no readable header). Returns the row."""
        path = self.game_dir(game_id) / LOG_NAME
        try:
            stat = path.stat()
            log = read_game(path)
        except FileNotFoundError:
            log = None
        with self._connect() as db:
            if log is None or log.header is None or log.header.id != game_id:
                db.execute("DELETE FROM games WHERE id = ?", (game_id,))
                return None
            summary = summarise(log)
            _upsert(db, summary, stat.st_size, stat.st_mtime_ns)
        return summary

    def sync(self) -> int:
        """Bring the index up to date: index new or changed logs, drop rows of vanished games.
        Returns how many rows changed."""
        with self._connect() as db:
            known = {row[0]: (row[1], row[2]) for row in db.execute("SELECT id, log_size, log_mtime_ns FROM games")}
        changed = 0
        present: set[str] = set()
        for game_id in self.game_ids():
            present.add(game_id)
            try:
                stat = (self.root / game_id / LOG_NAME).stat()
            except FileNotFoundError:  # pragma: no cover - removed meanwhile
                continue
            if known.get(game_id) != (stat.st_size, stat.st_mtime_ns):
                self.index_game(game_id)
                changed += 1
        gone = [gid for gid in known if gid not in present]
        if gone:
            with self._connect() as db:
                db.executemany("DELETE FROM games WHERE id = ?", [(g,) for g in gone])
            changed += len(gone)
        return changed

    def rebuild_index(self) -> int:
        """Throw the index away and read every log again. Returns how many games are indexed."""
        with self._connect() as db:
            db.executescript("DROP TABLE IF EXISTS players; DROP TABLE IF EXISTS games;")
            db.executescript(_SCHEMA)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        return sum(1 for game_id in self.game_ids() if self.index_game(game_id) is not None)

    # -- plumbing --------------------------------------------------------------------------------

    def _writer_changed(self, writer: GameWriter) -> None:
        # The record is already safe in the log; an index that cannot be updated now (locked for
        # longer than the timeout, disk full) is caught up by the next sync(), so only warn.
        try:
            self.index_game(writer.id)
        except sqlite3.Error as exc:
            logger.warning("games index not updated for %s (%s); the next listing will catch up", writer.id, exc)

    def _ensure_schema(self) -> None:
        try:
            with self._connect() as db:
                db.execute("PRAGMA journal_mode = WAL")
                version = db.execute("PRAGMA user_version").fetchone()[0]
                has_table = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone() is not None
        except sqlite3.DatabaseError:
            # Not a database any more (a disk error, a stray file): it is only a cache, so set it
            # aside and build it again from the logs.
            for suffix in ("", "-wal", "-shm"):
                stale = Path(f"{self.index_path}{suffix}")
                if stale.exists():
                    os.replace(stale, Path(f"{self.index_path}{suffix}.broken"))
            with self._connect() as db:
                db.execute("PRAGMA journal_mode = WAL")
            version, has_table = -1, False
        if version != SCHEMA_VERSION or not has_table:
            self.rebuild_index()

    def _connect(self) -> "_Connection":
        return _Connection(self.index_path)


class _Connection:
    """A connection used as ``with``: commits on success, rolls back on error, always closes."""

    def __init__(self, path: Path) -> None:
        self.db = sqlite3.connect(path, timeout=30)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA foreign_keys = ON")
        self.db.execute("PRAGMA synchronous = NORMAL")

    def __enter__(self) -> sqlite3.Connection:
        self.db.__enter__()
        return self.db

    def __exit__(self, *exc: Any) -> None:
        with closing(self.db):
            self.db.__exit__(*exc)


def _upsert(db: sqlite3.Connection, s: GameSummary, size: int, mtime_ns: int) -> None:
    db.execute("DELETE FROM games WHERE id = ?", (s.id,))
    db.execute(
        "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            s.id,
            s.game,
            s.rules,
            json.dumps(list(s.players), ensure_ascii=False),
            s.started,
            int(s.finished),
            s.result,
            s.duration,
            s.moves,
            s.illegal,
            s.calls,
            s.unrecognised,
            s.corrections,
            s.errors,
            size,
            mtime_ns,
        ),
    )
    db.executemany(
        "INSERT INTO players (game_id, seat, name) VALUES (?, ?, ?)",
        [(s.id, seat, name) for seat, name in enumerate(s.players)],
    )


def _summary(row: sqlite3.Row) -> GameSummary:
    return GameSummary(
        id=row["id"],
        game=row["game"],
        rules=row["rules"],
        players=tuple(json.loads(row["players"])),
        started=row["started"],
        finished=bool(row["finished"]),
        result=row["result"],
        duration=row["duration"],
        moves=row["moves"],
        illegal=row["illegal"],
        calls=row["calls"],
        unrecognised=row["unrecognised"],
        corrections=row["corrections"],
        errors=row["errors"],
    )


def iter_logs(store: GameStore) -> Iterator[GameLog]:
    """Every game's log in the directory, oldest first."""
    for game_id in store.game_ids():
        yield store.read(game_id)
