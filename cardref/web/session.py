"""The table session as the pages see it: what is set up (game, rule options, players and seats) and
the phase (idle, playing, paused, ended). Control actions become :class:`cardref.web.hub.Command`\\ s
on ``hub.commands`` for the pipeline, and a ``session`` message for every viewer."""

from __future__ import annotations

import threading
import time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from referee.options import OptionError, describe_options

from .hub import Command, Hub

GAMES: dict[str, dict[str, Any]] = {
    "klondike": {"title": "Klondike", "players": (1, 1), "rules": "referee.klondike:KlondikeRules"},
    "double_solitaire": {"title": "Double Solitaire", "players": (2, 2), "rules": "referee.double_solitaire:DoubleRules"},
    "stress": {"title": "Stress", "players": (2, 2), "rules": "referee.stress:StressRules"},
    "zenuwen": {"title": "Zenuwen", "players": (2, 4), "rules": "referee.zenuwen:ZenuwenRules"},
}
Phase = Literal["idle", "playing", "paused", "ended"]


def rules_class(game: str) -> Any:
    import importlib

    module, _, name = GAMES[game]["rules"].partition(":")
    return getattr(importlib.import_module(module), name)


def game_catalogue() -> list[dict[str, Any]]:
    """Every game with its player counts and rule options (name, default, help) for the setup page."""
    out = []
    for name, info in GAMES.items():
        cls = rules_class(name)
        options = [
            {"name": n, "default": d if isinstance(d, (int, bool, str)) or d is None else str(d), "help": h}
            for n, d, h in describe_options(cls)
        ]
        out.append({"game": name, "title": info["title"], "min_players": info["players"][0],
                    "max_players": info["players"][1], "options": options})
    return out


class PlayerSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=40, title="name", description="as shown and logged")
    seat: int = Field(ge=1, le=4, title="seat", description="1 = the camera's bottom edge, then clockwise")


class TableSetup(BaseModel):
    """What the setup page sends: the game, its rule options and who sits where."""

    model_config = ConfigDict(extra="forbid", title="table set-up")

    game: Literal["klondike", "double_solitaire", "stress", "zenuwen"] = Field(default="klondike", title="game")
    rules: str = Field(default="", max_length=400, title="rule options",
                       description="key=value,... as RULES.md names them, e.g. draw=1,passes=3")
    players: list[PlayerSeat] = Field(default_factory=lambda: [PlayerSeat(name="Player 1", seat=1)],
                                      min_length=1, max_length=4, title="players")

    @field_validator("rules")
    @classmethod
    def _no_newlines(cls, value: str) -> str:
        if "\n" in value:
            raise ValueError("rule options are one line: key=value,key=value")
        return value.strip()

    @model_validator(mode="after")
    def _fits_game(self) -> "TableSetup":
        low, high = GAMES[self.game]["players"]
        if not low <= len(self.players) <= high:
            raise ValueError(f"{self.game} is for {low}-{high} players, got {len(self.players)}")
        seats = [p.seat for p in self.players]
        if len(set(seats)) != len(seats):
            raise ValueError(f"two players on one seat: {seats}")
        try:
            seated_rules(self.game, self.rules, len(self.players))
        except OptionError as exc:
            raise ValueError(str(exc)) from None
        return self


def seated_rules(game: str, rules: str, players: int) -> str:
    """The rule options for ``players`` seated players: a game whose rules count the players (Zenuwen's
    Z1 ``players``) gets ``players=N`` added when the options do not say it; options that say another
    number are refused. Raises :class:`OptionError` (a ``ValueError``) for options the game refuses."""
    cls = rules_class(game)
    parsed = cls.from_spec(rules)
    if "players" not in {name for name, _, _ in describe_options(cls)}:
        return rules
    if any(part.split("=", 1)[0].strip() == "players" for part in rules.split(",")):
        if parsed.players != players:
            raise OptionError(f"the rules say players={parsed.players}, but {players} players are seated")
        return rules
    spec = f"players={players}"
    cls.from_spec(spec)  # a count the game does not allow is refused here
    return f"{rules},{spec}" if rules else spec


class Session:
    """Holds the set-up and phase; thread-safe. Every change is published as a ``session`` message."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._lock = threading.Lock()
        self.setup = TableSetup()
        self.phase: Phase = "idle"
        self.changed = time.time()
        self.takes_up = False
        """Whether the source can take up again a game cardref stopped without ending (a camera table,
        not a replay): it says so when it starts."""

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return {"setup": self.setup.model_dump(), "phase": self.phase, "changed": self.changed}

    def _publish(self) -> None:
        self.hub.publish({"type": "session", **self.snapshot()})

    def configure(self, setup: TableSetup) -> None:
        with self._lock:
            self.setup = setup
            self.changed = time.time()
        self.hub.commands.put(Command("setup", setup.model_dump(), time.time()))
        self._publish()

    def act(self, kind: str, data: dict[str, Any] | None = None) -> None:
        """``start``, ``pause``, ``resume``, ``end``: change the phase and tell the pipeline."""
        phase: dict[str, Phase] = {"start": "playing", "pause": "paused", "resume": "playing", "end": "ended"}
        with self._lock:
            if kind == "start":
                payload: dict[str, Any] = {"setup": self.setup.model_dump(), **(data or {})}
            else:
                payload = dict(data or {})
            self.phase = phase[kind]
            self.changed = time.time()
        self.hub.commands.put(Command(kind, payload, time.time()))
        self._publish()

    def report(self, phase: Phase, setup: TableSetup | None = None) -> None:
        """The pipeline says where the game is (a video's game started or ended by itself): published,
        not sent back to the pipeline as a command."""
        with self._lock:
            self.phase = phase
            if setup is not None:
                self.setup = setup
            self.changed = time.time()
        self._publish()

    def forward(self, kind: str, data: dict[str, Any]) -> None:
        """A slap or a correction: only for the pipeline, the phase does not change."""
        self.hub.commands.put(Command(kind, data, time.time()))
