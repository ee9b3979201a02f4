"""The referee end to end: real bot processes, the real gRPC server over a Unix socket.

Each test plays Thief between bot processes and checks what the referee did:
scores and places, faults recorded against the right seat, default actions
for a dead bot, no process left behind, and that nothing a seat may not see
ever reached it.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from referee.bots import BotLaunchError, BotSpec
from referee.games import parse_ruleset
from referee.log import DecisionEntry, EventEntry, ResultEntry
from referee.match import MatchResult, Penalties, TimeControl
from referee.session import Session

ROOT = Path(__file__).resolve().parent.parent
RANDOM_BOT = f"{sys.executable} {ROOT / 'sample_bots/python/random_bot.py'}"
ODD_BOT = f"{sys.executable} {ROOT / 'tests/bots/odd_bot.py'}"
THIEF = parse_ruleset("thief")


def odd(mode: str, name: str | None = None, cwd: Path | None = None) -> BotSpec:
    name = name or f"odd-{mode.split('=')[0]}"
    return BotSpec(f"env BOT_MODE={mode} {ODD_BOT}", name=name, cwd=cwd)


def play(
    specs: list[BotSpec],
    seed: int = 3,
    time_control: TimeControl | None = None,
    penalties: Penalties | None = None,
    log_dir: Path | None = None,
) -> tuple[MatchResult, Session]:
    async def go() -> tuple[MatchResult, Session]:
        async with Session(
            specs,
            time_control=time_control or TimeControl(2.0, 5.0, 15.0),
            penalties=penalties or Penalties(),
            log_dir=log_dir,
        ) as s:
            return await s.play(THIEF, seed), s

    return asyncio.run(go())


def assert_all_gone(session: Session) -> None:
    for process in session.processes:
        assert process.exit_code is not None, f"{process.spec.command} still running"


def test_random_bots_play_a_whole_game() -> None:
    result, session = play([BotSpec(RANDOM_BOT, name=f"r{i}") for i in range(3)])
    assert [r.name for r in result.seats] == ["r0", "r1", "r2"]
    assert sum(r.decisions for r in result.seats) > 20
    assert all(not r.faults for r in result.seats)
    assert sorted(result.result.places)[0] == 1
    assert len(result.result.hand_scores) == 3, "Thief is one hand per player"
    assert isinstance(result.log[-1], ResultEntry)
    assert_all_gone(session)


def test_illegal_answers_are_faults_and_get_a_legal_action() -> None:
    result, session = play([odd("illegal"), BotSpec(RANDOM_BOT, name="random")])
    illegal, fine = result.seats
    assert illegal.faults and {f.label for f in illegal.faults} == {"illegal"}
    assert len(illegal.faults) == illegal.decisions
    assert not fine.faults
    faults = [e for e in result.log if isinstance(e, DecisionEntry) and e.fault]
    assert faults and all(e.seat == 0 for e in faults)
    assert all(e.detail and e.detail.startswith("index ") for e in faults), "says what was wrong"
    assert_all_gone(session)


def test_a_late_answer_is_a_timeout() -> None:
    tc = TimeControl(move_seconds=0.05, bank_seconds=0.1, startup_seconds=15)
    never_stall = Penalties(stall_after=0)
    result, session = play(
        [odd("sleep=0.3"), BotSpec(RANDOM_BOT, name="random")],
        time_control=tc,
        penalties=never_stall,
    )
    slow, fine = result.seats
    assert slow.fault_counts().get("timeout", 0) >= 1
    # Late replies arrive for requests no longer pending: they are stale, never applied.
    assert slow.fault_counts().get("stale", 0) >= 1
    assert slow.bank_left < 0.1
    assert not fine.faults
    assert_all_gone(session)


def test_a_reply_to_another_request_id_is_stale() -> None:
    result, _ = play([odd("stale"), BotSpec(RANDOM_BOT, name="random")])
    stale = result.seats[0]
    assert stale.fault_counts()["stale"] == stale.decisions
    assert "illegal" not in stale.fault_counts()


def test_a_bot_that_dies_gets_default_actions_to_the_end() -> None:
    result, session = play([odd("die_after=3"), BotSpec(RANDOM_BOT, name="random")])
    dead, fine = result.seats
    assert dead.faults == [dead.faults[0]] and dead.faults[0].label == "crashed"
    assert dead.crashed
    crashed_moves = [e for e in result.log if isinstance(e, DecisionEntry) and e.fault == "crashed"]
    assert len(crashed_moves) == dead.decisions - 2
    assert not fine.faults
    assert isinstance(result.log[-1], ResultEntry)
    assert_all_gone(session)


def test_a_bot_that_exits_at_start_is_a_clear_error() -> None:
    with pytest.raises(
        BotLaunchError, match=r"exited with code 5 before connecting: odd_bot: told"
    ):
        play([odd("exit_start"), BotSpec(RANDOM_BOT)])


def test_a_bot_that_never_connects_is_a_clear_error() -> None:
    tc = TimeControl(startup_seconds=1.0)
    with pytest.raises(BotLaunchError, match="did not connect within 1 s"):
        play([odd("hang_start"), BotSpec(RANDOM_BOT)], time_control=tc)


def test_a_wrong_secret_is_refused_and_never_gets_a_seat() -> None:
    spec = BotSpec(f"env BOT_SECRET_OVERRIDE=guess {ODD_BOT}", name="thief-of-seats")
    with pytest.raises(BotLaunchError, match="thief-of-seats"):
        play([spec, BotSpec(RANDOM_BOT)], time_control=TimeControl(startup_seconds=2.0))


def messages(log_dir: Path, bot: int) -> Iterator[dict[str, Any]]:
    """What a recording bot received, from its output (a bot cannot write files
    outside its private /tmp)."""
    (path,) = log_dir.glob(f"bot{bot}-*.log")
    for line in path.read_text().splitlines():
        if line.startswith("RECORD "):
            yield json.loads(line.removeprefix("RECORD "))


def test_each_seat_receives_only_what_it_may_see(tmp_path: Path) -> None:
    specs = [odd("record", name=f"rec{i}") for i in range(3)]
    result, _ = play(specs, seed=11, log_dir=tmp_path)
    full_log = result.log
    for seat in range(3):
        record = seat
        got = list(messages(tmp_path, record))
        starts = [m["gameStart"] for m in got if "gameStart" in m]
        assert starts[0].get("seat", 0) == seat
        got_seqs = [int(e["seq"]) for m in got if "events" in m for e in m["events"]["events"]]
        allowed = [e.seq for e in full_log if isinstance(e, EventEntry) and e.visible_to(seat)]
        assert got_seqs == allowed, f"seat {seat} got events it may not see, or missed some"
        # No message may name a card the seat was never shown in an event it may see.
        shown = {
            c.id
            for e in full_log
            if isinstance(e, EventEntry) and e.seq in set(allowed)
            for c in e.cards
        }
        named = set(card_ids(got))
        assert named, "the recording bot saw no cards at all"
        assert named <= shown, f"seat {seat} was told of cards {sorted(named - shown)}"


def card_ids(value: object) -> Iterator[int]:
    """Every card id in a JSON-decoded message (a card is a dict with a rank)."""
    if isinstance(value, dict):
        if "rank" in value and "id" in value:
            yield int(value["id"])
        for item in value.values():
            yield from card_ids(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_ids(item)


def test_health_and_reflection_are_served() -> None:
    async def go() -> tuple[int, list[str]]:
        async with Session([BotSpec(RANDOM_BOT)] * 2) as session:
            async with grpc.aio.insecure_channel(session.servers[0].address) as channel:
                health = health_pb2_grpc.HealthStub(channel)
                reply = await health.Check(
                    health_pb2.HealthCheckRequest(service="referee.v1.RefereeService")
                )
                stub = reflection_pb2_grpc.ServerReflectionStub(channel)
                names: list[str] = []
                async for response in stub.ServerReflectionInfo(
                    iter([reflection_pb2.ServerReflectionRequest(list_services="")])
                ):
                    names = [s.name for s in response.list_services_response.service]
                return reply.status, names

    status, names = asyncio.run(go())
    assert status == health_pb2.HealthCheckResponse.SERVING
    assert "referee.v1.RefereeService" in names
    assert "grpc.health.v1.Health" in names


def test_each_bot_has_its_own_endpoint_in_a_directory_only_it_may_enter() -> None:
    async def go() -> list[tuple[int, int, int, list[str], int | None]]:
        async with Session([BotSpec(RANDOM_BOT)] * 2) as session:
            found = []
            for server, process in zip(session.servers, session.processes):
                directory = Path(server.address.removeprefix("unix://")).parent
                info = os.stat(directory)
                found.append(
                    (
                        info.st_mode & 0o777,
                        info.st_uid,
                        info.st_gid,
                        os.listdir(directory),
                        process.uid,
                    )
                )
            return found

    endpoints = asyncio.run(go())
    assert endpoints[0][3] == ["referee.sock"] and endpoints[1][3] == ["referee.sock"]
    for mode, owner, group, _, uid in endpoints:
        if uid is None:  # not root: the referee's own user
            assert mode == 0o700
        else:  # only the bot's uid may pass through; nobody but root may change it
            assert (mode, owner, group) == (0o710, 0, uid)


def test_simultaneous_decisions_are_asked_at_once_and_revealed_together(tmp_path: Path) -> None:
    records = range(3)
    specs = [odd("record", name=f"rec{i}") for i in records]

    async def go() -> MatchResult:
        async with Session(
            specs, time_control=TimeControl(2.0, 5.0, 15.0), log_dir=tmp_path
        ) as session:
            return await session.play(parse_ruleset("indian-chief"), seed=4)

    result = asyncio.run(go())
    log = result.log
    # Each round: all three seats decide, then the melds are revealed in events.
    first_round = [e for e in log if isinstance(e, DecisionEntry)][:3]
    assert sorted(e.seat for e in first_round) == [0, 1, 2]
    start = log.index(first_round[0])
    assert all(isinstance(e, DecisionEntry) for e in log[start : start + 3])
    for record in records:
        requests = [
            m["decisionRequest"] for m in messages(tmp_path, record) if "decisionRequest" in m
        ]
        assert requests and requests[0]["simultaneous"] is True
        # No seat is told anything between its request and the others' choices:
        # the first events after the first requests come after all three decided.
        got = list(messages(tmp_path, record))
        first_request = next(i for i, m in enumerate(got) if "decisionRequest" in m)
        after = [m for m in got[first_request + 1 :] if "events" in m]
        first_seq = int(after[0]["events"]["events"][0]["seq"])
        reveal_seq = min(e.seq for e in log[start + 3 :] if isinstance(e, EventEntry))
        assert first_seq >= reveal_seq
