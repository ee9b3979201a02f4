"""Play one game: the engine on one side, the seats on the other.

The match asks every deciding seat at once (one request per seat at a
time), enforces each request's deadline on the referee's monotonic clock,
replaces a late, illegal or missing reply by a seeded random legal action
and records the fault, and sends each seat only the events it may see.
It knows the game only through the GameState interface and the seats only
through SeatClient.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from referee import wire
from referee.games.base import Action, DecisionKind, Event, GameState, Result, Ruleset
from referee.keys import key_from_seed, seat_seeds
from referee.log import (
    CardFace,
    DecisionEntry,
    EventEntry,
    ForfeitEntry,
    GameEntry,
    LogEntry,
    ResultEntry,
    StalledEntry,
)
from referee.seats import Fault, Reply, SeatClient
from referee.v1 import referee_pb2 as pb


@dataclass(frozen=True)
class TimeControl:
    """Per-decision limit plus a time bank drawn on when a decision runs over.

    Out-of-turn decisions (a re-capture, a steal by another player) have their
    own limit, by default the same as a move; the bank covers both.
    """

    move_seconds: float = 1.0
    bank_seconds: float = 10.0
    startup_seconds: float = 10.0
    out_of_turn_seconds: float | None = None
    ponder: bool = False  # let bots run between their decisions (not frozen)

    def limit(self, out_of_turn: bool) -> float:
        if out_of_turn and self.out_of_turn_seconds is not None:
            return self.out_of_turn_seconds
        return self.move_seconds


@dataclass(frozen=True)
class Penalties:
    """What faults cost. Every fault is replaced by the seeded random legal action.

    forfeit_after: faults in one game after which the seat forfeits (0: never).
    stall_after: timeouts in a row after which the bot counts as stalled: it is
    asked nothing more this game and is restarted before its next (0: never).
    disqualify_share: a bot with faults in more than this share of its games is
    disqualified in the standings (0: never).
    """

    forfeit_after: int = 0
    stall_after: int = 3
    disqualify_share: float = 0.0


DEFAULT_TIME_CONTROL = TimeControl()
DEFAULT_PENALTIES = Penalties()


@dataclass
class SeatRecord:
    """What happened to one seat in one game."""

    name: str
    faults: list[Fault] = field(default_factory=list)
    decisions: int = 0
    time_used: float = 0.0
    bank_left: float = 0.0
    crashed: bool = False
    forfeited: bool = False
    stalled: bool = False
    timeouts_in_a_row: int = 0
    round_trips: list[float] = field(default_factory=list)

    def fault_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for f in self.faults:
            counts[f.label] = counts.get(f.label, 0) + 1
        return counts

    @property
    def silenced(self) -> bool:
        """Forfeited or stalled: asked nothing more this game."""
        return self.forfeited or self.stalled

    def settle(
        self,
        reply: Reply,
        legal: int,
        move_limit: float,
        seat_alive: bool,
        own_faults: Sequence[Fault],
        penalties: Penalties,
    ) -> Verdict:
        """The clock, the time bank and the fault policy for one reply: charge
        its time (over the move limit from the bank), decide its fault (late,
        illegal, stale, crashed, protocol), count timeouts in a row (stalled)
        and faults in the game (forfeit). The match plays the verdict."""
        if self.silenced:
            return Verdict(None, None)
        self.decisions += 1
        self.time_used += reply.elapsed
        if reply.fault is None:
            self.round_trips.append(reply.elapsed)
        over = reply.elapsed - move_limit
        if over > 0:
            self.bank_left -= over
        fault = reply.fault
        if fault is None and (reply.index is None or not 0 <= reply.index < legal):
            fault = Fault.ILLEGAL
        self.faults.extend(own_faults)
        if fault is None:
            self.timeouts_in_a_row = 0
            return Verdict(reply.index, None)
        gone = fault in (Fault.CRASHED, Fault.PROTOCOL) and not seat_alive
        if not (gone and self.crashed):  # a dead seat's fault is counted once
            self.faults.append(fault)
        self.crashed = self.crashed or gone
        stalled = False
        if fault is Fault.TIMEOUT:
            self.timeouts_in_a_row += 1
            if penalties.stall_after and self.timeouts_in_a_row >= penalties.stall_after:
                stalled = not self.stalled
                if stalled:
                    self.stalled = True
                    self.faults.append(Fault.STALLED)
        forfeited = False
        if penalties.forfeit_after and len(self.faults) >= penalties.forfeit_after:
            forfeited = not self.forfeited
            self.forfeited = True
        return Verdict(None, fault, forfeited=forfeited, stalled=stalled)


@dataclass(frozen=True)
class Verdict:
    """What a reply comes to: the index played (None: a default action), the
    fault, and whether the seat forfeited or stalled with it."""

    index: int | None
    fault: Fault | None
    forfeited: bool = False
    stalled: bool = False


@dataclass
class MatchResult:
    ruleset: str
    seed: int
    result: Result
    seats: list[SeatRecord]
    log: list[LogEntry]


LogSink = Callable[[LogEntry], None]


def forfeits_last(result: Result, forfeited: Sequence[bool]) -> Result:
    """Places with every forfeited seat (and its partners) below every other
    seat; within each group, places follow the scores. With teams, places
    rank teams (partners share theirs)."""
    units = [list(t) for t in result.teams] or [[seat] for seat in range(len(result.scores))]
    out = [any(forfeited[s] for s in unit) for unit in units]
    if not any(out):
        return result
    score = [result.scores[unit[0]] for unit in units]
    staying = out.count(False)
    places = list(result.places)
    for u, unit in enumerate(units):
        group = [v for v in range(len(units)) if out[v] == out[u]]
        place = 1 + sum(1 for v in group if score[v] > score[u]) + (staying if out[u] else 0)
        for seat in unit:
            places[seat] = place
    return replace(result, places=tuple(places))


def audience_of(event: Event) -> str | tuple[int, ...]:
    """How the log says who saw an event: "public", or the seats in order."""
    if event.audience is None:
        return "public"
    return tuple(sorted(event.audience))


class Match:
    """One game between seats; `run()` plays it to the end.

    `seed` deals the cards and must be secret from the bots whenever the deal
    is; `game_id` is sent to the bots, so it must name nothing they could use
    to find the deal. `bot_seeds` (one per seat) are the seeds the bots get
    for their own randomness; by default they come from the public key of
    `seed` (`referee play --seed N`: reproducible, not secret)."""

    def __init__(
        self,
        ruleset: Ruleset,
        seats: Sequence[SeatClient],
        seed: int,
        *,
        game_id: str = "game",
        bot_seeds: Sequence[int] | None = None,
        time_control: TimeControl = DEFAULT_TIME_CONTROL,
        penalties: Penalties = DEFAULT_PENALTIES,
        on_log: LogSink | None = None,
    ) -> None:
        ruleset.check_seats(len(seats))
        if bot_seeds is None:
            bot_seeds = seat_seeds(key_from_seed(seed), game_id, len(seats))
        if len(bot_seeds) != len(seats):
            raise ValueError(f"{len(bot_seeds)} bot seeds for {len(seats)} seats")
        self.bot_seeds = tuple(bot_seeds)
        self.ruleset = ruleset
        self.game = ruleset.game
        self.seats = list(seats)
        self.seed = seed
        self.game_id = game_id
        self.time_control = time_control
        self.penalties = penalties
        self.state: GameState = ruleset.new_state(len(seats), seed)
        self.records = [SeatRecord(s.name, bank_left=time_control.bank_seconds) for s in self.seats]
        self.log: list[LogEntry] = []
        self._on_log = on_log
        self._default_rng = random.Random(f"{ruleset.id}/{seed}/defaults")
        self._next_request_id = 1
        self._seq = 0

    # -- log and events ---------------------------------------------------------

    def _record(self, entry: LogEntry) -> None:
        self.log.append(entry)
        if self._on_log is not None:
            self._on_log(entry)

    def _publish(self, events: Sequence[Event]) -> None:
        """Log every event; send each seat, in one message, those it may see."""
        per_seat: list[list[pb.Event]] = [[] for _ in self.seats]
        for event in events:
            self._seq += 1
            self._record(
                EventEntry(
                    seq=self._seq,
                    kind=event.kind,
                    text=event.text,
                    seat=event.seat,
                    cards=tuple(CardFace(c.id, c.face) for c in event.cards),
                    audience=audience_of(event),
                )
            )
            message = wire.event_message(self._seq, event)
            for index, batch in enumerate(per_seat):
                if event.visible_to(index):
                    batch.append(message)
        for seat, batch in zip(self.seats, per_seat):
            if batch and seat.alive:
                seat.send(pb.PlayResponse(events=pb.Events(events=batch)))

    # -- decisions --------------------------------------------------------------

    def _request(
        self, seat_index: int, kinds: Mapping[int, DecisionKind]
    ) -> tuple[pb.DecisionRequest, float]:
        record = self.records[seat_index]
        kind = kinds[seat_index]
        out_of_turn = kind is DecisionKind.OUT_OF_TURN
        move_limit = self.time_control.limit(out_of_turn)
        limit = move_limit + max(record.bank_left, 0.0)
        observation = wire.observation_message(self.game, self.state.observe(seat_index))
        actions = self.state.legal_actions(seat_index)
        request = pb.DecisionRequest(
            request_id=self._next_request_id,
            observation=observation,
            legal_actions=wire.action_messages(self.game, actions),
            deadline_ms=int(limit * 1000),
            time_bank_ms=int(max(record.bank_left, 0.0) * 1000),
            out_of_turn=out_of_turn,
            simultaneous=kind is DecisionKind.SIMULTANEOUS,
        )
        self._next_request_id += 1
        return request, limit

    async def _ask(self, seat_index: int, request: pb.DecisionRequest, limit: float) -> Reply:
        if self.records[seat_index].silenced:
            return Reply(None, None, 0.0)
        return await self.seats[seat_index].decide(request, limit)  # a dead seat answers at once

    def _settle(
        self, seat_index: int, request: pb.DecisionRequest, reply: Reply
    ) -> tuple[Action, Fault | None, str | None]:
        """Turn a reply into the action played, charging time and faults; the
        fault's detail says what was wrong."""
        record = self.records[seat_index]
        seat = self.seats[seat_index]
        actions = self.state.legal_actions(seat_index)
        verdict = record.settle(
            reply,
            len(actions),
            self.time_control.limit(request.out_of_turn),
            seat.alive,
            seat.take_faults() if not record.silenced else [],
            self.penalties,
        )
        if verdict.stalled:
            self._record(StalledEntry(seat_index))
        if verdict.forfeited:
            self._record(ForfeitEntry(seat_index, len(record.faults)))
        if verdict.index is None:
            detail = None
            if verdict.fault is Fault.ILLEGAL:
                detail = f"index {reply.index} of {len(actions)} legal actions"
            elif verdict.fault is Fault.TIMEOUT:
                detail = f"no answer within {request.deadline_ms} ms"
            return actions[self._default_rng.randrange(len(actions))], verdict.fault, detail
        return actions[verdict.index], None, None

    async def _decide_round(self) -> list[Event]:
        deciders = self.state.deciders()
        kinds = self.state.decision_kinds()
        requests = {s: self._request(s, kinds) for s in deciders}
        replies = await asyncio.gather(*(self._ask(s, *requests[s]) for s in deciders))
        choices: dict[int, Action] = {}
        for seat_index, reply in zip(deciders, replies):
            request, _ = requests[seat_index]
            action, fault, detail = self._settle(seat_index, request, reply)
            choices[seat_index] = action
            self._record(
                DecisionEntry(
                    seat=seat_index,
                    request_id=request.request_id,
                    action=action.label,
                    fault=fault.label if fault is not None else None,
                    detail=detail,
                )
            )
        return self.state.apply(choices)

    # -- the game ---------------------------------------------------------------

    def _game_start(self, seat_index: int) -> pb.PlayResponse:
        return pb.PlayResponse(
            game_start=pb.GameStart(
                game_id=self.game_id,
                ruleset=self.ruleset.id,
                seat=seat_index,
                seats=len(self.seats),
                seat_names=[s.name for s in self.seats],
                seed=self.bot_seeds[seat_index],
            )
        )

    def _game_end(self, result: Result) -> pb.PlayResponse:
        return pb.PlayResponse(
            game_end=pb.GameEnd(
                game_id=self.game_id,
                seats=[
                    pb.SeatResult(
                        bot_name=rec.name,
                        score=score,
                        place=place,
                        faults=[f.value for f in rec.faults],  # type: ignore[misc]
                    )
                    for rec, score, place in zip(self.records, result.scores, result.places)
                ],
                hands=[pb.HandScores(scores=list(h)) for h in result.hand_scores],
            )
        )

    async def run(self) -> MatchResult:
        self._record(
            GameEntry(self.game_id, self.ruleset.id, self.seed, tuple(s.name for s in self.seats))
        )
        for index, seat in enumerate(self.seats):
            seat.take_faults()  # left over from an earlier game
            if seat.alive:
                seat.send(self._game_start(index))
        self._publish(self.state.opening_events())
        while not self.state.is_over:
            self._publish(await self._decide_round())
        result = forfeits_last(self.state.result(), [r.forfeited for r in self.records])
        self._record(
            ResultEntry(
                scores=tuple(result.scores),
                places=tuple(result.places),
                hands=tuple(tuple(h) for h in result.hand_scores),
                faults=tuple(rec.fault_counts() for rec in self.records),
            )
        )
        end = self._game_end(result)
        for seat in self.seats:
            if seat.alive:
                seat.send(end)
        return MatchResult(self.ruleset.id, self.seed, result, self.records, self.log)
