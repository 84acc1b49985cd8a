"""Rule options: one validated, frozen dataclass per game, read from ``key=value,key=value``.

Each option field carries its parser and a help line in its metadata (see :func:`option`), so the
defaults live in one place (the dataclass, which follows RULES.md) and unknown keys or values fail
with an error that lists what is allowed.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, TypeVar

T = TypeVar("T")


class OptionError(ValueError):
    """An unknown rule option or a value it does not take."""


def option(default: Any, parse: Callable[[str], Any], help: str, show: Callable[[Any], str] | None = None) -> Any:
    """A rule option field; ``show`` writes a value back as the spec and the setup page spell it,
    where ``str`` would not (Zenuwen's ``decks=auto``, held as 0)."""
    return dataclasses.field(default=default, metadata={"parse": parse, "help": help, "show": show})


def _shown(f: dataclasses.Field[Any], value: Any) -> Any:
    show = f.metadata.get("show")
    return show(value) if show is not None else value


def parse_bool(text: str) -> bool:
    low = text.strip().lower()
    if low in ("true", "yes", "1", "on"):
        return True
    if low in ("false", "no", "0", "off"):
        return False
    raise ValueError(f"expected true or false, got {text!r}")


def choice(*allowed: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        low = text.strip().lower()
        if low not in allowed:
            raise ValueError(f"expected one of {', '.join(allowed)}, got {text!r}")
        return low

    return parse


def int_choice(*allowed: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            value = -(10**9)
        if value not in allowed:
            raise ValueError(f"expected one of {', '.join(map(str, allowed))}, got {text!r}")
        return value

    return parse


def split_spec(spec: str) -> dict[str, str]:
    """``"draw=3, passes=1"`` -> ``{"draw": "3", "passes": "1"}``; an empty spec is no options."""
    values: dict[str, str] = {}
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        key, sep, value = part.partition("=")
        key = key.strip().lower()
        if not sep or not key:
            raise OptionError(f"rule option {part!r} is not key=value")
        if key in values:
            raise OptionError(f"rule option {key!r} given twice")
        values[key] = value.strip()
    return values


def parse_options(cls: type[T], spec: str | dict[str, str]) -> dict[str, Any]:
    """Check and convert the options given for ``cls``; returns only the keys that were given."""
    values = split_spec(spec) if isinstance(spec, str) else dict(spec)
    fields = {f.name: f for f in dataclasses.fields(cls) if "parse" in f.metadata}  # type: ignore[arg-type]
    out: dict[str, Any] = {}
    for key, raw in values.items():
        f = fields.get(key)
        if f is None:
            raise OptionError(f"unknown rule option {key!r}; known: {', '.join(sorted(fields))}")
        try:
            out[key] = f.metadata["parse"](str(raw))
        except ValueError as exc:
            raise OptionError(f"rule option {key}: {exc}") from None
    return out


def describe_options(cls: type) -> list[tuple[str, Any, str]]:
    """(name, default, help) for every option, for --help texts and the setup page."""
    return [(f.name, _shown(f, f.default), f.metadata["help"]) for f in dataclasses.fields(cls) if "parse" in f.metadata]


def to_spec(options: Any) -> str:
    """The inverse of parsing: ``draw=3,passes=unlimited,...`` for logs and round-trips."""
    parts = []
    for f in dataclasses.fields(options):
        if "parse" not in f.metadata:
            continue
        value = _shown(f, getattr(options, f.name))
        parts.append(f"{f.name}={str(value).lower() if isinstance(value, bool) else value}")
    return ",".join(parts)
