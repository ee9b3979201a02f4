"""Results and logs in SQLite: one file per tournament, safe to kill at any time.

WAL mode with synchronous=FULL, and one transaction per finished game: a
game is either stored whole or not at all. The runner is the only writer.

The database also holds the tournament's secret key (referee.keys), from
which every deal comes, so that a resume or rerun plays the same deals. It is
private: a directory the store creates is 0700, and the file and its -wal and
-shm are 0600 (bots may run as other users, without a sandbox).
"""

from __future__ import annotations

import json
import os
import sqlite3
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.errors import RefereeError
from referee.keys import new_key
from referee.log import LogEntry, from_json, to_json

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament (
    name        TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    definition  TEXT NOT NULL,
    secret      TEXT NOT NULL,
    created     TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS games (
    key         TEXT PRIMARY KEY,
    position    INTEGER NOT NULL,
    event       TEXT NOT NULL,
    ruleset     TEXT NOT NULL,
    deal        INTEGER NOT NULL,
    rotation    INTEGER NOT NULL,
    seed        INTEGER NOT NULL,
    seats       TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'pending',
    scores      TEXT,
    places      TEXT,
    hands       TEXT,
    teams       TEXT,
    log         BLOB,
    bot_output  TEXT,
    protections TEXT,
    finished    TEXT
);
CREATE TABLE IF NOT EXISTS seat_results (
    game        TEXT NOT NULL REFERENCES games(key),
    seat        INTEGER NOT NULL,
    bot         TEXT NOT NULL,
    score       REAL NOT NULL,
    place       INTEGER NOT NULL,
    faults      TEXT NOT NULL,
    decisions   INTEGER NOT NULL,
    time_used   REAL NOT NULL,
    forfeited   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, seat)
);
"""


class StoreError(RefereeError):
    """The database cannot be used as asked (e.g. it holds another definition)."""


@dataclass(frozen=True)
class SeatRow:
    seat: int
    bot: str
    score: float
    place: int
    faults: dict[str, int]
    decisions: int
    time_used: float
    forfeited: bool


@dataclass(frozen=True)
class FinishedGame:
    """One finished game, whole: what a worker sends back (picklable) and
    the store keeps, all or nothing."""

    key: str
    scores: tuple[float, ...]
    places: tuple[int, ...]
    hands: tuple[tuple[float, ...], ...]
    teams: tuple[tuple[int, ...], ...]
    log: list[LogEntry]
    seats: list[SeatRow]
    bot_output: dict[str, str]
    protections: dict[str, bool]


@dataclass(frozen=True)
class GameRow:
    key: str
    position: int
    event: str
    ruleset: str
    seed: int
    seats: list[str]
    scores: list[float]
    places: list[int]
    teams: list[list[int]]
    results: list[SeatRow]


PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600


class Store:
    def __init__(self, path: Path) -> None:
        self.path = path
        if not path.parent.is_dir():
            path.parent.mkdir(parents=True, mode=PRIVATE_DIR)
        if not path.exists():
            os.close(os.open(path, os.O_CREAT | os.O_RDWR, PRIVATE_FILE))
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)
        self._make_private()

    def _make_private(self) -> None:
        """The file holds the secret key: readable by its owner only."""
        for file in (self.path, *self.side_files()):
            try:
                if file.stat().st_mode & 0o077:
                    file.chmod(PRIVATE_FILE)
            except OSError:  # gone, or not ours to change (reading someone's results)
                continue

    def side_files(self) -> list[Path]:
        """SQLite's -wal and -shm files next to the database."""
        return [self.path.with_name(self.path.name + suffix) for suffix in ("-wal", "-shm")]

    @classmethod
    def open_existing(cls, path: Path) -> Store:
        if not path.is_file():
            raise StoreError(f"no results database {path}")
        return cls(path)

    def close(self) -> None:
        self.db.close()

    # -- the tournament -------------------------------------------------------------

    def claim(
        self, name: str, fingerprint: str, definition: dict[str, Any], key: bytes | None = None
    ) -> bytes:
        """Record the tournament with its secret key, or check a rerun matches
        it; returns the key its deals come from. `key` is the configured
        deal_key; without one a random key is made on the first run."""
        self._check_secret_column()
        row = self.db.execute(
            "SELECT fingerprint, definition, secret FROM tournament WHERE name = ?", (name,)
        ).fetchone()
        if row is None:
            others = [r[0] for r in self.db.execute("SELECT name FROM tournament")]
            if others:
                raise StoreError(
                    f"{self.path} holds tournament {others[0]!r}, not {name!r}: "
                    "use another database file ([output] database = ...)"
                )
            secret = key if key is not None else new_key()
            self.db.execute(
                "INSERT INTO tournament (name, fingerprint, definition, secret) "
                "VALUES (?, ?, ?, ?)",
                (name, fingerprint, json.dumps(definition, sort_keys=True), secret.hex()),
            )
            self._make_private()
            return secret
        if row[0] != fingerprint:
            changed = _changed_keys(json.loads(row[1]), definition)
            raise StoreError(
                f"tournament {name!r} in {self.path} was defined differently "
                f"(changed: {', '.join(changed) or 'details'}); results of different "
                "definitions are never mixed: give the changed tournament a new name, "
                "or delete the database to start over"
            )
        stored = bytes.fromhex(row[2])
        if key is not None and key != stored:
            raise StoreError(
                f"deal_key differs from the key tournament {name!r} in {self.path} was "
                "first run with: its deals would differ; restore the old deal_key, or "
                "use another database file to play the new deals"
            )
        return stored

    def _check_secret_column(self) -> None:
        columns = {r[1] for r in self.db.execute("PRAGMA table_info(tournament)")}
        if "secret" not in columns:
            raise StoreError(
                f"{self.path} predates secret deals (its deals can be rebuilt from public "
                "data) and cannot be resumed; start a new database ([output] database = ...)"
            )

    def definition(self) -> dict[str, Any]:
        row = self.db.execute("SELECT definition FROM tournament").fetchone()
        if row is None:
            raise StoreError(f"{self.path} holds no tournament")
        result: dict[str, Any] = json.loads(row[0])
        return result

    # -- games ------------------------------------------------------------------------

    def add_scheduled(self, games: Sequence[Any]) -> None:
        """Insert scheduled games that are not there yet (idempotent)."""
        with self._transaction():
            self.db.executemany(
                "INSERT OR IGNORE INTO games "
                "(key, position, event, ruleset, deal, rotation, seed, seats) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (g.key, i, g.event, g.ruleset, g.deal, g.rotation, g.seed, json.dumps(g.seats))
                    for i, g in enumerate(games)
                ],
            )

    def finished_keys(self) -> set[str]:
        return {r[0] for r in self.db.execute("SELECT key FROM games WHERE status = 'done'")}

    def record(self, game: FinishedGame) -> None:
        """Store one finished game, all or nothing."""
        key, scores, places, hands = game.key, game.scores, game.places, game.hands
        teams, log, seats = game.teams, game.log, game.seats
        bot_output, protections = game.bot_output, game.protections
        blob = zlib.compress(
            "\n".join(
                json.dumps(to_json(e), ensure_ascii=False, sort_keys=True) for e in log
            ).encode(),
            6,
        )
        with self._transaction():
            updated = self.db.execute(
                "UPDATE games SET status='done', scores=?, places=?, hands=?, teams=?, log=?, "
                "bot_output=?, protections=?, finished=datetime('now') "
                "WHERE key=? AND status='pending'",
                (
                    json.dumps(list(scores)),
                    json.dumps(list(places)),
                    json.dumps([list(h) for h in hands]),
                    json.dumps([list(t) for t in teams]),
                    blob,
                    json.dumps(bot_output),
                    json.dumps(protections),
                    key,
                ),
            ).rowcount
            if updated != 1:
                raise StoreError(f"game {key} is not pending: it would be stored twice")
            self.db.executemany(
                "INSERT INTO seat_results (game, seat, bot, score, place, faults, decisions, "
                "time_used, forfeited) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        key,
                        s.seat,
                        s.bot,
                        s.score,
                        s.place,
                        json.dumps(s.faults),
                        s.decisions,
                        s.time_used,
                        int(s.forfeited),
                    )
                    for s in seats
                ],
            )

    def games(self, event: str | None = None) -> list[GameRow]:
        """Finished games in schedule order, with their seat results."""
        query = (
            "SELECT key, position, event, ruleset, seed, seats, scores, places, teams "
            "FROM games WHERE status='done'"
        )
        args: tuple[Any, ...] = ()
        if event is not None:
            query += " AND event = ?"
            args = (event,)
        seats: dict[str, list[SeatRow]] = {}
        for row in self.db.execute(
            "SELECT game, seat, bot, score, place, faults, decisions, time_used, forfeited "
            "FROM seat_results ORDER BY game, seat"
        ):
            seats.setdefault(row[0], []).append(
                SeatRow(
                    row[1], row[2], row[3], row[4], json.loads(row[5]), row[6], row[7], bool(row[8])
                )
            )
        return [
            GameRow(
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                json.loads(r[5]),
                json.loads(r[6]),
                json.loads(r[7]),
                json.loads(r[8] or "[]"),
                seats.get(r[0], []),
            )
            for r in self.db.execute(query + " ORDER BY position", args)
        ]

    def counts(self) -> tuple[int, int]:
        done, total = self.db.execute("SELECT SUM(status='done'), COUNT(*) FROM games").fetchone()
        return int(done or 0), int(total or 0)

    def log(self, key: str) -> list[LogEntry]:
        row = self.db.execute("SELECT log, status FROM games WHERE key = ?", (key,)).fetchone()
        if row is None:
            raise StoreError(f"no game {key!r} in {self.path}")
        if row[1] != "done":
            raise StoreError(f"game {key!r} has not been played yet")
        lines = zlib.decompress(row[0]).decode().splitlines()
        return [from_json(json.loads(line)) for line in lines]

    def game_extras(self, key: str) -> tuple[dict[str, str], dict[str, bool]]:
        """What the bots printed during a game, and the protections it ran under."""
        row = self.db.execute(
            "SELECT bot_output, protections FROM games WHERE key = ?", (key,)
        ).fetchone()
        if row is None:
            raise StoreError(f"no game {key!r} in {self.path}")
        return json.loads(row[0] or "{}"), json.loads(row[1] or "{}")

    def scheduled_per_event(self) -> dict[str, int]:
        """How many games each event schedules, played or not."""
        rows = self.db.execute("SELECT event, COUNT(*) FROM games GROUP BY event")
        return {event: int(count) for event, count in rows}

    def game_keys(self) -> Iterator[str]:
        for row in self.db.execute("SELECT key FROM games ORDER BY position"):
            yield row[0]

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")


def _changed_keys(old: dict[str, Any], new: dict[str, Any], prefix: str = "") -> list[str]:
    changed = []
    for key in sorted(old.keys() | new.keys()):
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            changed += _changed_keys(a, b, f"{prefix}{key}.")
        else:
            changed.append(f"{prefix}{key}")
    return changed
