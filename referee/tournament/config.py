"""Tournament files: TOML in, a checked `TournamentConfig` out.

Every key is documented in docs/tournaments.md. A malformed file raises
`ConfigError` naming the key and what it expected; nothing runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from referee.errors import RefereeError
from referee.games import parse_ruleset
from referee.games.base import GameError, Ruleset
from referee.match import Penalties, TimeControl
from referee.sandbox import DEFAULT_UID_RANGE, MODES, Confinement, Limits

FORMATS = ("round-robin",)
_LIMIT_KEYS = (
    "cpu_seconds",
    "file_mb",
    "open_files",
    "processes",
    "memory_mb",
    "output_kb",
    "disk_mb",
    "files",
)
BOT_NAME = re.compile(r"[A-Za-z0-9_.-]{1,40}")
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
RESERVED_ENV = "REFEREE_"  # the referee's own variables (address, secret, marker)
HEX_KEY = re.compile(r"(?:[0-9a-fA-F]{2}){16,}")
MIN_UID = 1000
MAX_UID = 2**31 - 1
NO_SEED = (
    "seed is no longer a key: deals now come from a secret key made when the tournament "
    "is first run and stored in its database (so resuming plays the same deals); to play "
    "the same deals in another database, give both files the same deal_key"
)


class ConfigError(RefereeError):
    """A tournament file is malformed; the message names the key."""


@dataclass(frozen=True)
class BotEntry:
    name: str
    command: str
    cwd: Path | None = None  # None: the folder of the bot's program
    games: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()  # extra environment variables
    readable: tuple[Path, ...] = ()  # extra paths the bot may read in the sandbox

    def plays(self, ruleset: Ruleset) -> bool:
        return not self.games or ruleset.game.name in self.games or ruleset.id in self.games


@dataclass(frozen=True)
class Event:
    """One ruleset played round robin by a set of bots."""

    name: str
    ruleset: Ruleset
    seats: int
    deals: int
    bots: tuple[str, ...]
    self_play: bool


@dataclass(frozen=True)
class TournamentConfig:
    name: str
    path: Path
    root: Path
    format: str
    deal_key: bytes | None  # fixes the deals; None: a random key made on the first run
    events: tuple[Event, ...]
    bots: tuple[BotEntry, ...]
    time_control: TimeControl
    penalties: Penalties
    parallel: int
    fresh_process: bool
    confinement: Confinement
    database: Path
    bot_logs: Path

    def bot(self, name: str) -> BotEntry:
        return next(b for b in self.bots if b.name == name)

    def definition(self) -> dict[str, Any]:
        """Everything that decides the results: what a rerun must match to resume."""
        return {
            "name": self.name,
            "format": self.format,
            "deal_key": self.deal_key is not None,  # never the key itself
            "events": [
                {
                    "name": e.name,
                    "ruleset": e.ruleset.id,
                    "seats": e.seats,
                    "deals": e.deals,
                    "bots": list(e.bots),
                    "self_play": e.self_play,
                }
                for e in self.events
            ],
            "bots": [
                {
                    "name": b.name,
                    "command": b.command,
                    "cwd": None if b.cwd is None else str(b.cwd),
                    "env": dict(b.env),
                    "readable": [str(p) for p in b.readable],
                }
                for b in self.bots
            ],
            "time_control": asdict(self.time_control),
            "penalties": asdict(self.penalties),
            "sandbox": self.confinement.mode,
            "limits": asdict(self.confinement.limits),
            "bot_uids": list(self.confinement.uid_range),
        }

    def fingerprint(self) -> str:
        text = json.dumps(self.definition(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass
class _Reader:
    """Reads keys of one table, remembering which were used to catch typos."""

    table: dict[str, Any]
    where: str
    used: set[str] = field(default_factory=set)

    def _get(self, key: str, default: Any) -> Any:
        self.used.add(key)
        return self.table.get(key, default)

    def _name(self, key: str) -> str:
        return f"{self.where}{key}"

    def string(self, key: str, default: str | None = None) -> str:
        value = self._get(key, default)
        if value is None:
            raise ConfigError(f"{self._name(key)} is missing: expected a string")
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(f"{self._name(key)} must be a non-empty string, not {value!r}")
        return value

    def integer(self, key: str, default: int | None = None, minimum: int = 0) -> int:
        value = self._get(key, default)
        if value is None:
            raise ConfigError(f"{self._name(key)} is missing: expected a whole number")
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise ConfigError(
                f"{self._name(key)} must be a whole number >= {minimum}, not {value!r}"
            )
        return value

    def number(self, key: str, default: float, minimum: float = 0.0) -> float:
        value = self._get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or value < minimum:
            raise ConfigError(f"{self._name(key)} must be a number >= {minimum:g}, not {value!r}")
        return float(value)

    def optional_number(self, key: str, minimum: float = 0.0) -> float | None:
        if self.table.get(key) is None:
            self.used.add(key)
            return None
        return self.number(key, 0.0, minimum)

    def boolean(self, key: str, default: bool) -> bool:
        value = self._get(key, default)
        if not isinstance(value, bool):
            raise ConfigError(f"{self._name(key)} must be true or false, not {value!r}")
        return value

    def strings(self, key: str) -> tuple[str, ...] | None:
        value = self._get(key, None)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{self._name(key)} must be a list of strings, not {value!r}")
        return tuple(value)

    def table_(self, key: str) -> _Reader:
        value = self._get(key, {})
        if not isinstance(value, dict):
            raise ConfigError(f"{self._name(key)} must be a table ([{key}]), not {value!r}")
        return _Reader(value, f"{self.where}{key}.")

    def tables(self, key: str) -> list[_Reader]:
        value = self._get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise ConfigError(f"{self._name(key)} must be an array of tables ([[{key}]])")
        return [_Reader(v, f"{self.where}{key}[{i}].") for i, v in enumerate(value)]

    def check_unknown(self) -> None:
        unknown = sorted(set(self.table) - self.used)
        if unknown:
            raise ConfigError(
                f"unknown key {self.where}{unknown[0]}: see docs/tournaments.md for the keys"
            )


def _ruleset(reader: _Reader) -> Ruleset:
    ruleset_id = reader.string("ruleset")
    try:
        return parse_ruleset(ruleset_id)
    except GameError as error:
        raise ConfigError(f"{reader.where}ruleset: {error}") from None


def _event(reader: _Reader, defaults: _Reader, bots: tuple[BotEntry, ...]) -> Event:
    ruleset = _ruleset(reader)
    low, high = ruleset.seats
    default_seats = low if low == high else None
    seats_default = defaults.table.get("seats", default_seats)
    seats = reader.integer("seats", seats_default, minimum=1)
    try:
        ruleset.check_seats(seats)
    except GameError as error:
        raise ConfigError(f"{reader.where}seats: {error}") from None
    deals = reader.integer("deals", defaults.table.get("deals"), minimum=1)
    self_play = reader.boolean("self_play", bool(defaults.table.get("self_play", False)))
    names = reader.strings("bots")
    known = {b.name for b in bots}
    if names is None:
        names = tuple(b.name for b in bots if b.plays(ruleset))
    for name in names:
        if name not in known:
            raise ConfigError(f"{reader.where}bots: no bot named {name!r} in [[bots]]")
    if len(names) < seats and not (self_play and names):
        raise ConfigError(
            f"{reader.where}bots: {ruleset.id} needs {seats} bots per game but only "
            f"{len(names)} play it; add bots or set self_play = true"
        )
    name = reader.string("name", ruleset.id)
    reader.check_unknown()
    return Event(name, ruleset, seats, deals, names, self_play)


def _bot(reader: _Reader, root: Path, earlier: list[BotEntry]) -> BotEntry:
    bot_name = reader.string("name")
    if not BOT_NAME.fullmatch(bot_name):
        raise ConfigError(
            f"{reader.where}name: {bot_name!r} must be letters, digits, '.', '_' or '-'"
        )
    if any(b.name == bot_name for b in earlier):
        raise ConfigError(f"{reader.where}name: two bots are called {bot_name!r}")
    cwd = None
    if reader.table.get("cwd") is not None:
        cwd = (root / reader.string("cwd")).resolve()
        if not cwd.is_dir():
            raise ConfigError(f"{reader.where}cwd: {cwd} is not a directory")
    reader.used.add("cwd")
    entry = BotEntry(
        bot_name,
        reader.string("command"),
        cwd,
        reader.strings("games") or (),
        _env(reader),
        _readable(reader, root),
    )
    reader.check_unknown()
    return entry


def _env(reader: _Reader) -> tuple[tuple[str, str], ...]:
    """Extra environment variables: never the referee's own REFEREE_*."""
    table = reader.table_("env").table
    where = f"{reader.where}env"
    pairs = []
    for name, value in table.items():
        if not ENV_NAME.fullmatch(name):
            raise ConfigError(
                f"{where}: {name!r} is not a variable name (letters, digits, '_'; "
                "not starting with a digit)"
            )
        if name.upper().startswith(RESERVED_ENV):
            raise ConfigError(f"{where}: {name!r} is reserved: REFEREE_* is the referee's own")
        if not isinstance(value, str):
            raise ConfigError(f"{where}.{name} must be a string, not {value!r}")
        pairs.append((name, value))
    return tuple(pairs)


def _readable(reader: _Reader, root: Path) -> tuple[Path, ...]:
    """Extra paths, relative to root, the bot may read (read-only) in the sandbox."""
    paths = []
    for text in reader.strings("readable") or ():
        path = (root / text).resolve()
        if not text.strip() or not path.exists():
            raise ConfigError(f"{reader.where}readable: {path} does not exist")
        paths.append(path)
    return tuple(dict.fromkeys(paths))


def _deal_key(top: _Reader) -> bytes | None:
    """The configured key of the deals, if any: whoever knows it knows every deal."""
    if top.table.get("deal_key") is None:
        top.used.add("deal_key")
        return None
    text = top.string("deal_key").strip()
    if not HEX_KEY.fullmatch(text):
        raise ConfigError(
            "deal_key must be at least 32 hex digits (an even number of them), e.g. from "
            "python -c 'import secrets; print(secrets.token_hex(32))'"
        )
    return bytes.fromhex(text)


def _uid_range(top: _Reader) -> tuple[int, int]:
    value = top._get("bot_uids", list(DEFAULT_UID_RANGE))
    ok = (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        and MIN_UID <= value[0] <= value[1] <= MAX_UID
    )
    if not ok:
        raise ConfigError(
            f"bot_uids must be [first, last], whole numbers with "
            f"{MIN_UID} <= first <= last < 2**31, not {value!r}"
        )
    return value[0], value[1]


def load(path: Path) -> TournamentConfig:
    """Read and check a tournament file."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"no tournament file {path}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path} is not valid TOML: {error}") from None
    return parse(raw, path)


def parse(raw: dict[str, Any], path: Path) -> TournamentConfig:
    top = _Reader(raw, "")
    name = top.string("name")
    root = (path.parent / top.string("root", ".")).resolve()
    if not root.is_dir():
        raise ConfigError(f"root: {root} is not a directory")
    tournament_format = top.string("format", "round-robin")
    if tournament_format not in FORMATS:
        raise ConfigError(f"format must be one of {', '.join(FORMATS)}, not {tournament_format!r}")
    if "seed" in raw:
        raise ConfigError(NO_SEED)
    deal_key = _deal_key(top)

    bots: list[BotEntry] = []
    for reader in top.tables("bots"):
        bots.append(_bot(reader, root, bots))
    if not bots:
        raise ConfigError("bots: no [[bots]] given; a tournament needs at least one bot")

    for key in ("seats", "deals", "self_play"):
        top.used.add(key)
    event_readers = top.tables("events")
    if "ruleset" in raw:
        if event_readers:
            raise ConfigError("give either a top-level ruleset or [[events]], not both")
        event_readers = [_Reader({"ruleset": raw["ruleset"]}, "")]
        top.used.add("ruleset")
    if not event_readers:
        raise ConfigError('ruleset is missing: name a ruleset (e.g. ruleset = "thief")')
    frozen_bots = tuple(bots)
    events = tuple(_event(r, top, frozen_bots) for r in event_readers)
    if len({e.name for e in events}) != len(events):
        raise ConfigError(
            "events: two events have the same name (by default the ruleset id); "
            "give each a name = ..."
        )

    clock = top.table_("time_control")
    time_control = TimeControl(
        move_seconds=clock.number("move_seconds", 1.0, minimum=0.001),
        bank_seconds=clock.number("bank_seconds", 10.0),
        startup_seconds=clock.number("startup_seconds", 10.0, minimum=0.1),
        out_of_turn_seconds=clock.optional_number("out_of_turn_seconds", minimum=0.001),
        ponder=clock.boolean("ponder", False),
    )
    clock.check_unknown()
    penalty = top.table_("penalties")
    penalties = Penalties(
        forfeit_after=penalty.integer("forfeit_after", 0),
        stall_after=penalty.integer("stall_after", 3),
        disqualify_share=penalty.number("disqualify_share", 0.0),
    )
    if penalties.disqualify_share > 1:
        raise ConfigError("penalties.disqualify_share is a share of games, between 0 and 1")
    penalty.check_unknown()

    sandbox = top.string("sandbox", "auto")
    if sandbox not in MODES:
        raise ConfigError(f"sandbox must be one of {', '.join(MODES)}, not {sandbox!r}")
    limit = top.table_("limits")
    defaults = Limits()
    limits = Limits(**{name: limit.integer(name, getattr(defaults, name)) for name in _LIMIT_KEYS})
    limit.check_unknown()
    uid_range = _uid_range(top)

    parallel = top.integer("parallel", 0)
    fresh_process = top.boolean("fresh_process", False)
    output = top.table_("output")
    database = root / output.string("database", f"results/{name}.sqlite")
    bot_logs = root / output.string("bot_logs", f"results/{name}-bots")
    output.check_unknown()
    top.check_unknown()
    return TournamentConfig(
        name=name,
        path=path.resolve(),
        root=root,
        format=tournament_format,
        deal_key=deal_key,
        events=events,
        bots=frozen_bots,
        time_control=time_control,
        penalties=penalties,
        parallel=parallel or (os.cpu_count() or 1),
        fresh_process=fresh_process,
        confinement=Confinement(sandbox, limits, uid_range=uid_range),
        database=database,
        bot_logs=bot_logs,
    )
