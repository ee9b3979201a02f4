"""The clock, the time bank and the fault policy, in milliseconds: the unit
(`SeatRecord.settle`) directly, and whole matches with scripted in-process
seats (`referee.seats.ScriptedSeat`), no processes and no sockets."""

from __future__ import annotations

import asyncio

import pytest

from referee.games import parse_ruleset
from referee.log import ResultEntry, StalledEntry
from referee.match import Match, MatchResult, Penalties, SeatRecord, TimeControl
from referee.seats import Fault, Reply, ScriptedSeat, answer
from referee.v1 import referee_pb2 as pb

THIEF = parse_ruleset("thief")
NO_PENALTY = Penalties(stall_after=0)


def play(*seats: ScriptedSeat, time_control: TimeControl, penalties: Penalties) -> MatchResult:
    match = Match(THIEF, seats, seed=7, time_control=time_control, penalties=penalties)
    return asyncio.run(match.run())


def test_time_over_the_move_limit_comes_from_the_bank() -> None:
    record = SeatRecord("a", bank_left=2.0)
    verdict = record.settle(Reply(0, None, 1.5), 3, 1.0, True, [], NO_PENALTY)
    assert verdict.index == 0 and verdict.fault is None
    assert record.bank_left == 1.5 and record.time_used == 1.5 and record.decisions == 1


def test_an_index_out_of_range_is_illegal_and_counts_as_a_fault() -> None:
    record = SeatRecord("a")
    verdict = record.settle(Reply(3, None, 0.01), 3, 1.0, True, [], NO_PENALTY)
    assert verdict == type(verdict)(None, Fault.ILLEGAL)
    assert record.fault_counts() == {"illegal": 1}


def test_timeouts_in_a_row_stall_a_seat_and_an_answer_resets_the_count() -> None:
    record = SeatRecord("a")
    timeout = Reply(None, Fault.TIMEOUT, 1.0)
    penalties = Penalties(stall_after=3)
    record.settle(timeout, 2, 1.0, True, [], penalties)
    record.settle(timeout, 2, 1.0, True, [], penalties)
    record.settle(Reply(0, None, 0.1), 2, 1.0, True, [], penalties)
    assert record.timeouts_in_a_row == 0
    verdicts = [record.settle(timeout, 2, 1.0, True, [], penalties) for _ in range(3)]
    assert [v.stalled for v in verdicts] == [False, False, True]
    assert record.silenced and record.fault_counts() == {"timeout": 5, "stalled": 1}
    assert record.settle(Reply(0, None, 0.1), 2, 1.0, True, [], penalties).fault is None
    assert record.decisions == 6, "a silenced seat is no longer charged"


def test_a_dead_seat_is_counted_crashed_once() -> None:
    record = SeatRecord("a")
    gone = Reply(None, Fault.CRASHED, 0.0)
    for _ in range(4):
        record.settle(gone, 2, 1.0, False, [], NO_PENALTY)
    assert record.crashed and record.fault_counts() == {"crashed": 1}


def test_the_seats_own_faults_count_toward_forfeit() -> None:
    record = SeatRecord("a")
    penalties = Penalties(forfeit_after=3, stall_after=0)
    stale = [Fault.STALE, Fault.STALE]
    verdict = record.settle(Reply(9, None, 0.01), 2, 1.0, True, stale, penalties)
    assert verdict.forfeited and record.forfeited
    assert record.fault_counts() == {"stale": 2, "illegal": 1}


def test_a_match_charges_the_bank_and_times_out_past_it() -> None:
    """Each answer takes 0.3 s over a 0.2 s limit: 0.1 s a decision from a
    0.35 s bank, so the fourth is past move + bank and times out."""
    slow = ScriptedSeat("slow", answer(0, elapsed=0.3))
    fast = ScriptedSeat("fast", answer(0))
    result = play(
        slow,
        fast,
        time_control=TimeControl(move_seconds=0.2, bank_seconds=0.35),
        penalties=NO_PENALTY,
    )
    record = result.seats[0]
    assert record.faults and record.faults[0] is Fault.TIMEOUT
    # The limit each request announced shrank with the bank.
    assert slow.limits[:4] == pytest.approx([0.55, 0.45, 0.35, 0.25])
    assert [r.time_bank_ms for r in slow.requests[:3]] == [350, 250, 150]
    assert not result.seats[1].faults


def test_a_stalled_seat_is_asked_nothing_more_and_plays_default_actions() -> None:
    mute = ScriptedSeat("mute", lambda request: Reply(None, Fault.TIMEOUT, 0.1))
    other = ScriptedSeat("other", answer(0))
    result = play(
        mute,
        other,
        time_control=TimeControl(move_seconds=0.1, bank_seconds=0.0),
        penalties=Penalties(stall_after=2),
    )
    assert result.seats[0].fault_counts() == {"timeout": 2, "stalled": 1}
    assert len(mute.requests) == 2, "asked nothing after it stalled"
    assert [e for e in result.log if isinstance(e, StalledEntry)] == [StalledEntry(0)]
    assert isinstance(result.log[-1], ResultEntry)


def test_a_seat_that_forfeits_is_placed_last_whatever_its_score() -> None:
    cheat = ScriptedSeat("cheat", answer(99))
    honest = ScriptedSeat("honest", answer(0))
    result = play(
        cheat,
        honest,
        time_control=TimeControl(),
        penalties=Penalties(forfeit_after=2, stall_after=0),
    )
    assert result.seats[0].forfeited
    assert result.result.places == (2, 1)
    assert len(cheat.requests) == 2


def test_every_seat_is_told_of_the_game_and_its_end() -> None:
    seats = [ScriptedSeat(name, answer(0)) for name in ("a", "b")]
    play(*seats, time_control=TimeControl(), penalties=NO_PENALTY)
    for index, seat in enumerate(seats):
        kinds = [m.WhichOneof("message") for m in seat.messages]
        assert kinds[0] == "game_start" and kinds[-1] == "game_end"
        start: pb.GameStart = seat.messages[0].game_start
        assert start.seat == index and start.seats == 2
