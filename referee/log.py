"""The typed game log: a closed set of entries, each a frozen dataclass that
converts to and from one JSON object (docs/log-format.md is the schema).

The match writes these entries; `referee play --log` writes them as JSON
lines; the store keeps them compressed with each game; replay and reports
read them back. Nothing else builds or parses log lines.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.errors import RefereeError


class LogFormatError(RefereeError):
    """A JSON object that is not a log entry of this schema."""


@dataclass(frozen=True)
class CardFace:
    """A card as the log shows it: its id and its face ("7♥")."""

    id: int
    face: str


@dataclass(frozen=True)
class GameEntry:
    """The game begins: its id, ruleset, deal seed and the names at each seat."""

    TYPE: ClassVar[str] = "game"
    game_id: str
    ruleset: str
    seed: int
    seats: tuple[str, ...]


@dataclass(frozen=True)
class EventEntry:
    """Something happened; `audience` is "public" or the seats that saw it
    (an empty tuple: the referee only)."""

    TYPE: ClassVar[str] = "event"
    seq: int
    kind: str
    text: str
    seat: int | None
    cards: tuple[CardFace, ...]
    audience: str | tuple[int, ...]

    def visible_to(self, seat: int) -> bool:
        return self.audience == "public" or seat in self.audience


@dataclass(frozen=True)
class DecisionEntry:
    """A seat's decision: the action played and, when it was not the seat's
    own, the fault and what was wrong (e.g. the index it sent)."""

    TYPE: ClassVar[str] = "decision"
    seat: int
    request_id: int
    action: str
    fault: str | None = None
    detail: str | None = None


@dataclass(frozen=True)
class ForfeitEntry:
    """A seat forfeits after this many faults; it is placed last."""

    TYPE: ClassVar[str] = "forfeit"
    seat: int
    faults: int


@dataclass(frozen=True)
class StalledEntry:
    """A seat timed out too often in a row: asked nothing more this game."""

    TYPE: ClassVar[str] = "stalled"
    seat: int


@dataclass(frozen=True)
class LaunchErrorEntry:
    """A seat's bot could not be started: it plays default actions."""

    TYPE: ClassVar[str] = "launch_error"
    seat: int
    message: str


@dataclass(frozen=True)
class ResultEntry:
    """The end: scores, places, hand-by-hand scores and each seat's faults."""

    TYPE: ClassVar[str] = "result"
    scores: tuple[float, ...]
    places: tuple[int, ...]
    hands: tuple[tuple[float, ...], ...]
    faults: tuple[dict[str, int], ...] = field(default_factory=tuple)


LogEntry = (
    GameEntry
    | EventEntry
    | DecisionEntry
    | ForfeitEntry
    | StalledEntry
    | LaunchErrorEntry
    | ResultEntry
)
KINDS: dict[str, type[Any]] = {
    kind.TYPE: kind
    for kind in (
        GameEntry,
        EventEntry,
        DecisionEntry,
        ForfeitEntry,
        StalledEntry,
        LaunchErrorEntry,
        ResultEntry,
    )
}


def to_json(entry: LogEntry) -> dict[str, Any]:
    """The entry as one JSON object: {"type": ..., field: value, ...}; optional
    fields that are None are left out."""
    data: dict[str, Any] = {"type": entry.TYPE}
    for item in dataclasses.fields(entry):
        value = getattr(entry, item.name)
        if value is None and item.default is None:
            continue
        data[item.name] = _plain(value)
    return data


def _plain(value: Any) -> Any:
    if isinstance(value, CardFace):
        return {"id": value.id, "face": value.face}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def from_json(data: dict[str, Any]) -> LogEntry:
    """The entry a JSON object stands for; a clear error if it is not one."""
    kind = KINDS.get(str(data.get("type")))
    if kind is None:
        raise LogFormatError(f"unknown log entry type {data.get('type')!r}")
    values: dict[str, Any] = {}
    for item in dataclasses.fields(kind):
        if item.name not in data:
            if item.default is dataclasses.MISSING and item.default_factory is dataclasses.MISSING:
                raise LogFormatError(f"{kind.TYPE} entry without {item.name!r}")
            continue
        values[item.name] = _typed(item.name, data[item.name])
    entry: LogEntry = kind(**values)
    return entry


def _typed(name: str, value: Any) -> Any:
    if name == "cards":
        return tuple(CardFace(int(c["id"]), str(c["face"])) for c in value)
    if name == "audience":
        return value if value == "public" else tuple(value)
    if name == "hands":
        return tuple(tuple(hand) for hand in value)
    if name == "faults" and isinstance(value, list):
        return tuple(dict(f) for f in value)
    if isinstance(value, list):
        return tuple(value)
    return value
