"""The game log: every move, verdict, call, correction and unrecognised change, written as it happens.

Three parts kept apart, as in python-chess's PGN module: the record model (:mod:`.record`), the
lenient reader (:mod:`.reader`) and the exporters (:mod:`.export`); plus the writer (:mod:`.writer`)
and the games directory with its SQLite index (:mod:`.store`). The format is documented in
``docs/gamelog-format.md``. Nothing here imports OpenCV: key frames arrive as JPEG bytes.
"""

from .export import EXPORTERS, read_csv, write_csv, write_jsonl
from .reader import parse_log, read_game
from .record import (
    FORMAT_VERSION,
    Correction,
    CorrectionAction,
    Counts,
    Entry,
    GameLog,
    Header,
    LogError,
    LogFormatError,
    Record,
    RecordKind,
)
from .store import GameStore, GameSummary, default_games_dir
from .writer import GameBusyError, GameFinishedError, GameWriter, payload

__all__ = [
    "EXPORTERS",
    "FORMAT_VERSION",
    "Correction",
    "CorrectionAction",
    "Counts",
    "Entry",
    "GameBusyError",
    "GameFinishedError",
    "GameLog",
    "GameStore",
    "GameSummary",
    "GameWriter",
    "Header",
    "LogError",
    "LogFormatError",
    "Record",
    "RecordKind",
    "default_games_dir",
    "parse_log",
    "payload",
    "read_csv",
    "read_game",
    "write_csv",
    "write_jsonl",
]
