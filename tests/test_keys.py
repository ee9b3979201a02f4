"""Secret deals: seeds and game ids come from a key no bot can learn.

A deal seed that is a hash of public data can be brute-forced by a bot and
the deal rebuilt with the engine; these tests check that every number and
name a bot is given comes from a per-tournament secret key, kept in the
results database so that a resume plays the same deals.
"""

from __future__ import annotations

import os
import re
import sqlite3
import stat
from pathlib import Path

import pytest

from referee.keys import derive, key_from_seed, new_key, opaque_id, seat_seeds
from referee.store import Store, StoreError
from referee.tournament.config import ConfigError, TournamentConfig, load
from referee.tournament.runner import plan
from referee.tournament.schedule import schedule

TOURNAMENT = """
name = "secret"
ruleset = "thief"
seats = 2
deals = 3
{extra}
[[bots]]
name = "a"
command = "python a.py"
[[bots]]
name = "b"
command = "python b.py"

[output]
database = "{database}"
"""


def config(
    tmp_path: Path, database: str = "results/secret.sqlite", extra: str = ""
) -> TournamentConfig:
    path = tmp_path / "t.toml"
    path.write_text(TOURNAMENT.format(database=database, extra=extra))
    return load(path)


def deals_of(cfg: TournamentConfig) -> dict[str, int]:
    store = Store(cfg.database)
    try:
        return {g.key: g.seed for g in plan(cfg, store).todo}
    finally:
        store.close()


def test_derive_is_deterministic_keyed_and_63_bit() -> None:
    key, other = new_key(), new_key()
    assert len(key) == 32 and key != other
    assert derive(key, "deal", "thief", 3) == derive(key, "deal", "thief", 3)
    assert derive(key, "deal", "thief", 3) != derive(other, "deal", "thief", 3)
    assert derive(key, "deal", "thief", 3) != derive(key, "deal", "thief", 4)
    assert derive(key, "a/b", 1) != derive(key, "a", "b/1"), "parts never run together"
    assert derive(key, "1") != derive(key, 1), "a string is not an int"
    values = [derive(key, "x", i) for i in range(2000)]
    assert all(0 <= v < 2**63 for v in values)
    assert max(values) >= 2**62, "all 63 bits are used"
    with pytest.raises(TypeError):
        derive(key, 1.5)  # type: ignore[arg-type]


def test_opaque_ids_and_public_keys() -> None:
    key = new_key()
    game = opaque_id(key, "game", "thief/a+b/d0/r1")
    assert re.fullmatch(r"[0-9a-f]{16}", game)
    assert game == opaque_id(key, "game", "thief/a+b/d0/r1")
    assert game != opaque_id(new_key(), "game", "thief/a+b/d0/r1")
    assert key_from_seed(7) == key_from_seed(7) != key_from_seed(8)
    assert seat_seeds(key, "g", 3) == seat_seeds(key, "g", 3)
    assert len(set(seat_seeds(key, "g", 3))) == 3


def test_scheduled_games_tell_bots_nothing_about_the_deal(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    games = schedule(cfg, new_key())
    assert len({g.game_id for g in games}) == len(games)
    elsewhere = schedule(cfg, new_key())
    assert {g.game_id for g in games}.isdisjoint(g.game_id for g in elsewhere)
    for game in games:
        # 16 hex digits of an HMAC: no event, no bots, no "/d0/r1" parts, nothing to parse
        assert re.fullmatch(r"[0-9a-f]{16}", game.game_id), game.game_id
        assert game.event not in game.game_id and game.key not in game.game_id
        assert game.seed not in game.bot_seeds
        assert len(set(game.bot_seeds)) == len(game.seats)
    same_deal = [g for g in games if g.deal == 0]
    assert len({g.seed for g in same_deal}) == 1, "every rotation plays the same cards"
    assert len({g.game_id for g in same_deal}) == len(same_deal)


def test_two_fresh_databases_of_one_file_play_different_deals(tmp_path: Path) -> None:
    one = deals_of(config(tmp_path, "one.sqlite"))
    two = deals_of(config(tmp_path, "two.sqlite"))
    assert one.keys() == two.keys()
    assert set(one.values()).isdisjoint(two.values())


def test_resume_reuses_the_stored_key(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    first = deals_of(cfg)
    assert deals_of(cfg) == first
    with sqlite3.connect(cfg.database) as db:
        stored = db.execute("SELECT seed FROM games ORDER BY position").fetchall()
        (secret,) = db.execute("SELECT secret FROM tournament").fetchone()
    assert sorted(s for (s,) in stored) == sorted(first.values())
    assert len(bytes.fromhex(secret)) == 32


def test_a_deal_key_fixes_the_deals_across_databases(tmp_path: Path) -> None:
    extra = f'deal_key = "{"ab" * 32}"'
    one = deals_of(config(tmp_path, "one.sqlite", extra))
    two = deals_of(config(tmp_path, "two.sqlite", extra))
    assert one == two
    other = deals_of(config(tmp_path, "three.sqlite", f'deal_key = "{"cd" * 32}"'))
    assert set(other.values()).isdisjoint(one.values())


def test_a_different_deal_key_is_refused_on_resume(tmp_path: Path) -> None:
    deals_of(config(tmp_path, extra=f'deal_key = "{"ab" * 32}"'))
    with pytest.raises(StoreError, match="deal_key differs from the key"):
        deals_of(config(tmp_path, extra=f'deal_key = "{"cd" * 32}"'))
    with pytest.raises(StoreError, match=r"defined differently \(changed: deal_key\)"):
        deals_of(config(tmp_path))


def test_seed_is_refused_and_deal_key_checked(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"seed is no longer a key.*deal_key"):
        config(tmp_path, extra="seed = 3")
    for bad in ('"12345"', '"' + "zz" * 16 + '"', '"' + "a" * 33 + '"', "12"):
        with pytest.raises(ConfigError, match="deal_key"):
            config(tmp_path, extra=f"deal_key = {bad}")


def test_a_database_from_before_secret_deals_is_refused(tmp_path: Path) -> None:
    database = tmp_path / "old.sqlite"
    with sqlite3.connect(database) as db:
        db.execute(
            "CREATE TABLE tournament (name TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, "
            "definition TEXT NOT NULL, created TEXT)"
        )
        db.execute("INSERT INTO tournament VALUES ('secret', 'x', '{}', NULL)")
    with pytest.raises(StoreError, match=r"predates secret deals.*start a new database"):
        deals_of(config(tmp_path, str(database)))


def test_the_database_is_private(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        cfg = config(tmp_path, "results/deep/secret.sqlite")
        deals_of(cfg)
        store = Store(cfg.database)  # open again: the -wal and -shm exist while open
        try:
            files = [cfg.database, *store.side_files()]
            assert all(f.exists() for f in files)
            for file in files:
                assert stat.S_IMODE(file.stat().st_mode) == 0o600, file
            assert stat.S_IMODE(cfg.database.parent.stat().st_mode) == 0o700
        finally:
            store.close()
    finally:
        os.umask(old)
