"""What the match needs of a seat, whoever plays it: a bot over gRPC or an
in-process policy. The match knows seats only through `SeatClient`."""

from __future__ import annotations

import enum
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from referee.v1 import referee_pb2 as pb


class Fault(enum.Enum):
    """Why a seat's decision was not its own. Values match the proto enum."""

    TIMEOUT = 1
    ILLEGAL = 2
    STALE = 3
    CRASHED = 4
    PROTOCOL = 5
    STALLED = 6

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class Reply:
    """The outcome of one decision request: the chosen index, or a fault
    (the match then plays a default action), and the time it took on the
    referee's clock."""

    index: int | None
    fault: Fault | None
    elapsed: float


class SeatClient(Protocol):
    """A seat as the match drives it. Sends never block on a slow bot."""

    @property
    def name(self) -> str: ...

    @property
    def alive(self) -> bool: ...

    def send(self, message: pb.PlayResponse) -> None:
        """Queue a message (game start, event, game end) for the seat."""

    async def decide(self, request: pb.DecisionRequest, timeout: float) -> Reply:
        """Send a decision request and wait up to `timeout` seconds for its reply."""

    def take_faults(self) -> list[Fault]:
        """Faults of the seat's own making since the last call: stale replies,
        protocol errors."""


Policy = Callable[[pb.Observation, Sequence[pb.Action]], int]


class LocalSeat:
    """An in-process seat driven by a policy function; for benchmarks and tests.

    It goes through the same wire messages as a real bot, without a process.
    """

    def __init__(self, name: str, policy: Policy) -> None:
        self._name = name
        self._policy = policy

    @property
    def name(self) -> str:
        return self._name

    @property
    def alive(self) -> bool:
        return True

    def send(self, message: pb.PlayResponse) -> None:
        pass

    async def decide(self, request: pb.DecisionRequest, timeout: float) -> Reply:
        start = time.monotonic()
        index = self._policy(request.observation, request.legal_actions)
        return Reply(index, None, time.monotonic() - start)

    def take_faults(self) -> list[Fault]:
        return []


def random_policy(seed: int) -> Policy:
    rng = random.Random(seed)

    def choose(observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
        return rng.randrange(len(actions))

    return choose


Script = Callable[[pb.DecisionRequest], Reply]


class ScriptedSeat:
    """An in-process seat that answers from a script, for testing the match
    in milliseconds: the script maps each request to a Reply (an index, or a
    fault, and the time it "took"). A reply that took longer than the
    request's limit becomes a timeout, as the real clock would make it.
    Every message and request the seat gets is kept for inspection."""

    def __init__(
        self,
        name: str,
        script: Script,
        *,
        alive: bool = True,
        own_faults: Sequence[Fault] = (),
    ) -> None:
        self._name = name
        self._script = script
        self._alive = alive
        self._own_faults = list(own_faults)
        self.requests: list[pb.DecisionRequest] = []
        self.limits: list[float] = []
        self.messages: list[pb.PlayResponse] = []

    @property
    def name(self) -> str:
        return self._name

    @property
    def alive(self) -> bool:
        return self._alive

    def send(self, message: pb.PlayResponse) -> None:
        self.messages.append(message)

    async def decide(self, request: pb.DecisionRequest, timeout: float) -> Reply:
        self.requests.append(request)
        self.limits.append(timeout)
        if not self._alive:
            return Reply(None, Fault.CRASHED, 0.0)
        reply = self._script(request)
        if reply.fault is None and reply.elapsed > timeout:
            return Reply(None, Fault.TIMEOUT, timeout)
        return reply

    def take_faults(self) -> list[Fault]:
        faults, self._own_faults = self._own_faults, []
        return faults


def answer(index: int = 0, elapsed: float = 0.001) -> Script:
    """A script that always answers `index` after `elapsed` seconds."""
    return lambda request: Reply(index, None, elapsed)
