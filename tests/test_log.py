"""The typed log: every entry kind round-trips through JSON, a whole game's
log does too (as `play --log` and the store write it), and anything else is
refused with a clear error."""

from __future__ import annotations

import asyncio
import json

import pytest

from referee.games import parse_ruleset
from referee.log import (
    KINDS,
    CardFace,
    DecisionEntry,
    EventEntry,
    ForfeitEntry,
    GameEntry,
    LaunchErrorEntry,
    LogEntry,
    LogFormatError,
    ResultEntry,
    StalledEntry,
    from_json,
    to_json,
)
from referee.match import Match, Penalties, TimeControl
from referee.seats import ScriptedSeat, answer

EXAMPLES: list[LogEntry] = [
    GameEntry("3f9a", "thief", 7, ("alice", "bob")),
    EventEntry(1, "deal", "seat 0 draws 7♥", 0, (CardFace(12, "7♥"),), (0,)),
    EventEntry(2, "turn", "seat 0's turn", 0, (), "public"),
    EventEntry(3, "bury", "a card is buried", None, (CardFace(5, "2♣"),), ()),
    DecisionEntry(0, 4, "pair 7♥ 7♠"),
    DecisionEntry(1, 5, "discard 2♣", "illegal", "index 9 of 3 legal actions"),
    ForfeitEntry(1, 10),
    StalledEntry(0),
    LaunchErrorEntry(1, "bot bob: command 'bob' not found"),
    ResultEntry((10.0, 5.0), (1, 2), ((10.0, 5.0),), ({}, {"illegal": 1})),
]


def test_the_log_is_a_closed_set_of_kinds() -> None:
    assert set(KINDS) == {e.TYPE for e in EXAMPLES}


@pytest.mark.parametrize("entry", EXAMPLES, ids=lambda e: e.TYPE)
def test_every_entry_round_trips_through_json(entry: LogEntry) -> None:
    line = json.dumps(to_json(entry), ensure_ascii=False, sort_keys=True)
    assert from_json(json.loads(line)) == entry


def test_a_decision_without_fault_leaves_the_optional_fields_out() -> None:
    assert to_json(DecisionEntry(0, 4, "end turn")) == {
        "type": "decision",
        "seat": 0,
        "request_id": 4,
        "action": "end turn",
    }


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "chat", "text": "hi"}, "unknown log entry type 'chat'"),
        ({"seat": 1}, "unknown log entry type None"),
        ({"type": "stalled"}, "stalled entry without 'seat'"),
    ],
)
def test_anything_else_is_refused(data: dict[str, object], message: str) -> None:
    with pytest.raises(LogFormatError, match=message):
        from_json(data)


def test_a_whole_game_log_round_trips() -> None:
    seats = [ScriptedSeat("a", answer(0)), ScriptedSeat("b", answer(7))]
    match = Match(
        parse_ruleset("thief"),
        seats,
        seed=3,
        time_control=TimeControl(),
        penalties=Penalties(stall_after=0, forfeit_after=3),
    )
    log = asyncio.run(match.run()).log
    kinds = {type(e) for e in log}
    assert {GameEntry, EventEntry, DecisionEntry, ForfeitEntry, ResultEntry} <= kinds
    lines = [json.dumps(to_json(e), ensure_ascii=False, sort_keys=True) for e in log]
    assert [from_json(json.loads(line)) for line in lines] == log
