"""`referee bench`: the speed baseline, measured in one run so ratios hold.

1. In-process random playouts per second (the engine alone).
2. The round trip of a bare gRPC echo over the same transport the referee
   uses (a Unix socket, server-driven bidi stream, a separate client process).
3. The referee's own per-decision round trip with the random bot process:
   time from sending a DecisionRequest to receiving its Decision, and the
   wall time per decision of whole games (engine, observation, wire, bot).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import grpc

from referee.bots import BotSpec
from referee.games.base import Ruleset
from referee.games.loop import play_to_end, random_chooser
from referee.match import TimeControl
from referee.session import Session

ECHO_METHOD = "/referee.bench.Echo/Echo"
RANDOM_BOT = Path(__file__).resolve().parent.parent / "sample_bots" / "python" / "random_bot.py"


@dataclass(frozen=True)
class PlayoutFigures:
    playouts: int
    decisions: int
    seconds: float

    @property
    def playouts_per_second(self) -> float:
        return self.playouts / self.seconds

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds


def random_playouts(ruleset: Ruleset, num_seats: int, seconds: float) -> PlayoutFigures:
    """Play random games in-process for about `seconds`."""
    choose = random_chooser(random.Random(0))
    playouts = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += play_to_end(ruleset.new_state(num_seats, seed=playouts), choose)
        playouts += 1
    return PlayoutFigures(playouts, decisions, time.perf_counter() - start)


def _identity(data: bytes) -> bytes:
    return data


async def echo_round_trip(count: int) -> list[float]:
    """Round trips of a bare bytes echo: server sends, a client process echoes."""
    socket_dir = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    address = f"unix://{socket_dir / 'echo.sock'}"
    times: list[float] = []
    done = asyncio.Event()

    async def echo(
        request_iterator: AsyncIterator[bytes], context: grpc.aio.ServicerContext[bytes, bytes]
    ) -> AsyncIterator[bytes]:
        iterator = aiter(request_iterator)
        await anext(iterator)  # the client's hello
        payload = b"x" * 32
        for _ in range(count):
            sent = time.perf_counter()
            yield payload
            await anext(iterator)
            times.append(time.perf_counter() - sent)
        done.set()

    handler = grpc.method_handlers_generic_handler(
        "referee.bench.Echo",
        {"Echo": grpc.stream_stream_rpc_method_handler(echo, _identity, _identity)},
    )
    server = grpc.aio.server()
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port(address)
    await server.start()
    client = subprocess.Popen([sys.executable, "-m", "referee.bench_echo", address])
    try:
        await asyncio.wait_for(done.wait(), 120)
    finally:
        client.wait(timeout=30)
        await server.stop(0.5)
    return times


@dataclass(frozen=True)
class RefereeFigures:
    decisions: int
    round_trips: list[float]
    seconds: float

    @property
    def wall_per_decision(self) -> float:
        return self.seconds / self.decisions


async def referee_round_trip(ruleset: Ruleset, num_seats: int, seconds: float) -> RefereeFigures:
    """Whole games with random bot processes over the real server."""
    specs = [BotSpec(f"python {RANDOM_BOT}", name=f"random{i}") for i in range(num_seats)]
    round_trips: list[float] = []
    decisions = 0
    async with Session(specs, time_control=TimeControl(move_seconds=5.0)) as session:
        start = time.perf_counter()
        seed = 0
        while time.perf_counter() - start < seconds:
            result = await session.play(ruleset, seed)
            decisions += sum(r.decisions for r in result.seats)
            for record in result.seats:
                round_trips.extend(record.round_trips)
            seed += 1
        elapsed = time.perf_counter() - start
    return RefereeFigures(decisions, round_trips, elapsed)


def run_bench(
    ruleset: Ruleset, num_seats: int, seconds: float, echo_count: int, say: Callable[[str], None]
) -> dict[str, float]:
    """Run all three measurements and report them through `say`; returns the figures."""
    say(f"bench: {ruleset.id}, {num_seats} seats, ~{seconds:g} s per timed part")
    playouts = random_playouts(ruleset, num_seats, seconds)
    say(
        f"  engine: {playouts.playouts_per_second:,.1f} random playouts/s "
        f"({playouts.decisions_per_second:,.0f} decisions/s in-process)"
    )
    echo = asyncio.run(echo_round_trip(echo_count))
    echo_us = statistics.median(echo) * 1e6
    say(
        f"  gRPC echo round trip (unix socket, separate process): median {echo_us:,.0f} µs "
        f"over {len(echo)}"
    )
    referee = asyncio.run(referee_round_trip(ruleset, num_seats, seconds))
    trip_us = statistics.median(referee.round_trips) * 1e6
    wall_us = referee.wall_per_decision * 1e6
    say(
        f"  referee round trip with the random bot: median {trip_us:,.0f} µs "
        f"over {len(referee.round_trips)} decisions; whole-game wall time {wall_us:,.0f} µs "
        "per decision"
    )
    say(
        f"  ratio referee / echo round trip: {trip_us / echo_us:.2f}x; "
        f"wall per decision / echo: {wall_us / echo_us:.2f}x"
    )
    return {
        "playouts_per_second": playouts.playouts_per_second,
        "echo_round_trip_us": echo_us,
        "referee_round_trip_us": trip_us,
        "referee_wall_per_decision_us": wall_us,
        "ratio": trip_us / echo_us,
    }
