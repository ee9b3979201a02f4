"""The gRPC service bots connect to. It knows nothing of any game's rules.

Every bot process the referee launches gets a secret; the first message of
its Play stream must present it, which binds the stream to that bot's
`BotSlot`. The match then drives the slot as a SeatClient: one decision
request at a time, each answered by a Decision with the same request id.
By default the server listens on a Unix socket in a fresh 0700 directory.
"""

from __future__ import annotations

import asyncio
import hmac
import os
import shutil
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer
from grpc_reflection.v1alpha import reflection

from referee.errors import RefereeError
from referee.seats import Fault, Reply
from referee.v1 import referee_pb2 as pb
from referee.v1 import referee_pb2_grpc as pb_grpc

PROTOCOL_VERSION = 1
SERVICE_NAME = pb.DESCRIPTOR.services_by_name["RefereeService"].full_name
MAX_RECEIVE_BYTES = 1 << 20
MAX_SEND_BYTES = 16 << 20


HELLO_SECONDS = 5.0  # a stream that sends no Hello within this is closed
MAX_CONNECTIONS = 4  # per endpoint: the bot's stream, a health check, a margin
MAX_STREAMS = 2  # per connection
EXIT_WAIT_STEPS = 6  # x 50 ms: how long a broken stream waits to see the process die
MAX_UNSOLICITED = 100  # messages a bot may send between two requests before it counts as a flood


class BotGone(RefereeError):
    """The bot's stream ended while a decision was pending."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(fault.label)
        self.fault = fault


class BotSlot:
    """One launched bot process as seen by the server, and a seat for the match."""

    def __init__(self, secret: str, label: str) -> None:
        self.secret = secret
        self.label = label
        self.bot_name = ""
        self.connected = asyncio.Event()
        self._bound = False
        self._alive = True
        self._outbox: asyncio.Queue[pb.PlayResponse | None] = asyncio.Queue()
        self._pending: tuple[int, asyncio.Future[tuple[int, float]]] | None = None
        self._faults: list[Fault] = []
        self._unsolicited = 0
        self._gone_because = Fault.CRASHED
        self._closing = False
        # Set by whoever launched the process; without one, a broken stream is a crash.
        self.process_alive: Callable[[], bool] = lambda: False
        # Called with True when a decision is asked of the bot, False when it is
        # over: the pool thaws the bot for its decision and freezes it after.
        self.on_turn: Callable[[bool], None] = lambda deciding: None

    # -- SeatClient ---------------------------------------------------------------

    @property
    def name(self) -> str:
        return self.label

    @property
    def alive(self) -> bool:
        return self._alive

    def send(self, message: pb.PlayResponse) -> None:
        if self._alive:
            self._outbox.put_nowait(message)

    async def decide(self, request: pb.DecisionRequest, timeout: float) -> Reply:
        if not self._alive:
            return Reply(None, self._gone_because, 0.0)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[tuple[int, float]] = loop.create_future()
        self._pending = (request.request_id, future)
        self.on_turn(True)
        sent = time.monotonic()
        self.send(pb.PlayResponse(decision_request=request))
        try:
            index, received = await asyncio.wait_for(future, timeout)
            return Reply(index, None, received - sent)
        except TimeoutError:
            return Reply(None, Fault.TIMEOUT, time.monotonic() - sent)
        except BotGone as gone:
            return Reply(None, gone.fault, time.monotonic() - sent)
        finally:
            self.on_turn(False)
            self._pending = None
            self._unsolicited = 0

    def take_faults(self) -> list[Fault]:
        faults, self._faults = self._faults, []
        return faults

    # -- the stream's side -------------------------------------------------------

    def bind(self, bot_name: str) -> None:
        self._bound = True
        self.bot_name = bot_name
        self.connected.set()

    @property
    def bound(self) -> bool:
        return self._bound

    def on_decision(self, decision: pb.Decision) -> None:
        received = time.monotonic()
        pending = self._pending
        if pending is None or pending[0] != decision.request_id or pending[1].done():
            self._faults.append(Fault.STALE)
            self.on_unsolicited()
            return
        pending[1].set_result((decision.action_index, received))

    def on_protocol_error(self) -> None:
        """A message that is not a Decision: a fault; too many end the stream."""
        self._faults.append(Fault.PROTOCOL)
        self.on_unsolicited()

    def on_unsolicited(self) -> None:
        self._unsolicited += 1
        if self._unsolicited == MAX_UNSOLICITED:
            self.on_disconnect(Fault.PROTOCOL)

    async def stream_ended(self) -> None:
        """The stream is over. If the referee did not end it: a bot whose process
        died crashed; a bot whose process lives on broke its stream (e.g. with
        an oversized message), a protocol fault."""
        if not self._alive or self._closing:
            self.on_disconnect()
            return
        for _ in range(EXIT_WAIT_STEPS):
            if not self.process_alive():
                self.on_disconnect(Fault.CRASHED)
                return
            await asyncio.sleep(0.05)
        self.on_disconnect(Fault.PROTOCOL)

    def on_disconnect(self, because: Fault = Fault.CRASHED) -> None:
        """The bot is gone (its stream broke, or it broke the protocol)."""
        if self._alive:
            self._gone_because = because
        self._alive = False
        self._outbox.put_nowait(None)
        if self._pending is not None and not self._pending[1].done():
            self._pending[1].set_exception(BotGone(self._gone_because))

    def close(self) -> None:
        """End the bot's stream normally (after its last game)."""
        self._closing = True
        self._outbox.put_nowait(None)

    async def outgoing(self) -> AsyncIterator[pb.PlayResponse]:
        while True:
            message = await self._outbox.get()
            if message is None:
                return
            yield message


class RefereeServicer(pb_grpc.RefereeServiceServicer):
    """Binds each Play stream to the slot whose secret it presents."""

    def __init__(self) -> None:
        self._slots: list[BotSlot] = []

    def register(self, slot: BotSlot) -> None:
        self._slots.append(slot)

    def unregister(self, slot: BotSlot) -> None:
        if slot in self._slots:
            self._slots.remove(slot)

    def _find(self, secret: str) -> BotSlot | None:
        for slot in self._slots:
            if hmac.compare_digest(slot.secret.encode(), secret.encode()):
                return slot
        return None

    async def Play(  # noqa: N802 - the name is the RPC's
        self,
        request_iterator: AsyncIterator[pb.PlayRequest],
        context: grpc.aio.ServicerContext[pb.PlayRequest, pb.PlayResponse],
    ) -> AsyncIterator[pb.PlayResponse]:
        try:
            first = await asyncio.wait_for(anext(aiter(request_iterator)), HELLO_SECONDS)
        except StopAsyncIteration:
            return
        except TimeoutError:
            await context.abort(
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"no Hello within {HELLO_SECONDS:g} s: send Hello first",
            )
        if first.WhichOneof("message") != "hello":
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT, "the first message must be a Hello"
            )
        hello = first.hello
        if hello.protocol_version != PROTOCOL_VERSION:
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION,
                f"this referee speaks protocol version {PROTOCOL_VERSION}, "
                f"the bot sent {hello.protocol_version}",
            )
        slot = self._find(hello.secret)
        if slot is None:
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, "unknown secret")
        assert slot is not None
        if slot.bound:
            # A second stream for one secret: refused. Not counted against the
            # seat, since whoever holds a copy of its secret could send it.
            await context.abort(grpc.StatusCode.ALREADY_EXISTS, "this secret is already connected")
        slot.bind(hello.bot_name)
        reader = asyncio.create_task(self._read(request_iterator, slot))
        try:
            yield pb.PlayResponse(
                welcome=pb.Welcome(protocol_version=PROTOCOL_VERSION, referee_version=_version())
            )
            async for message in slot.outgoing():
                yield message
        finally:
            reader.cancel()
            await slot.stream_ended()

    @staticmethod
    async def _read(request_iterator: AsyncIterator[pb.PlayRequest], slot: BotSlot) -> None:
        try:
            async for request in request_iterator:
                if not slot.alive:
                    break
                if request.WhichOneof("message") == "decision":
                    slot.on_decision(request.decision)
                else:
                    slot.on_protocol_error()
        except asyncio.CancelledError:
            return
        except Exception:  # an undecodable message ends the stream
            slot.on_disconnect(Fault.PROTOCOL)
        await slot.stream_ended()


def _version() -> str:
    from referee import __version__

    return __version__


class RefereeServer:
    """The gRPC server with the referee, health and reflection services.

    The bot pool gives every bot process an endpoint of its own (a socket in
    a directory only that bot can reach), so the limits below count only
    against whoever opened the connections: a bot that floods its endpoint
    with connections or silent streams starves nobody but itself.
    """

    def __init__(self, address: str | None = None, socket_path: Path | None = None) -> None:
        self._socket_dir: Path | None = None
        self.socket_path = socket_path
        if address is None and socket_path is None:
            self._socket_dir = Path(tempfile.mkdtemp(prefix="referee-"))  # mode 0700
            self.socket_path = self._socket_dir / "referee.sock"
        if self.socket_path is not None:
            address = f"unix://{self.socket_path}"
        assert address is not None
        self.address = address
        self.servicer = RefereeServicer()
        self._server = grpc.aio.server(
            options=[
                ("grpc.max_receive_message_length", MAX_RECEIVE_BYTES),
                ("grpc.max_send_message_length", MAX_SEND_BYTES),
                ("grpc.max_concurrent_streams", MAX_STREAMS),
                # Connections past the quota are closed at once; silent ones time out.
                ("grpc.max_allowed_incoming_connections", MAX_CONNECTIONS),
                ("grpc.server_handshake_timeout_ms", int(HELLO_SECONDS * 1000)),
                ("grpc.max_connection_idle_ms", 10_000),
                # No keepalive pings from the referee: a frozen bot cannot answer
                # them. Refuse clients that ping too often.
                ("grpc.http2.min_ping_interval_without_data_ms", 5_000),
                ("grpc.http2.max_ping_strikes", 2),
            ],
            maximum_concurrent_rpcs=MAX_CONNECTIONS * MAX_STREAMS,
        )
        pb_grpc.add_RefereeServiceServicer_to_server(self.servicer, self._server)
        self.health = HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self._server)
        reflection.enable_server_reflection(
            (
                SERVICE_NAME,
                health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
                reflection.SERVICE_NAME,
            ),
            self._server,
        )

    async def start(self) -> None:
        if self._server.add_insecure_port(self.address) == 0 and not self.address.startswith(
            "unix"
        ):
            raise OSError(f"cannot listen on {self.address}")
        await self._server.start()
        if self.socket_path is not None:
            # Who may connect is decided by the directory's permissions.
            os.chmod(self.socket_path, 0o666)
        serving = health_pb2.HealthCheckResponse.SERVING
        await self.health.set("", serving)
        await self.health.set(SERVICE_NAME, serving)

    def register(self, secret: str, label: str) -> BotSlot:
        slot = BotSlot(secret, label)
        self.servicer.register(slot)
        return slot

    def unregister(self, slot: BotSlot) -> None:
        """Forget a slot: its secret no longer admits anyone."""
        self.servicer.unregister(slot)

    async def stop(self, grace: float = 0.5) -> None:
        await self._server.stop(grace)
        if self._socket_dir is not None:
            shutil.rmtree(self._socket_dir, ignore_errors=True)
