"""The client side of `referee bench`'s bare gRPC echo: echo every message back.

Run as `python -m referee.bench_echo ADDRESS`; it stops when the server ends
the stream. Kept separate so the echo crosses a process boundary, as a bot does.
"""

from __future__ import annotations

import queue
import sys
from collections.abc import Iterator

import grpc


def _identity(data: bytes) -> bytes:
    return data


def main(address: str) -> None:
    outbox: queue.Queue[bytes | None] = queue.Queue()
    outbox.put(b"hello")

    def requests() -> Iterator[bytes]:
        while (item := outbox.get()) is not None:
            yield item

    with grpc.insecure_channel(address) as channel:
        echo = channel.stream_stream(
            "/referee.bench.Echo/Echo",
            request_serializer=_identity,
            response_deserializer=_identity,
        )
        for message in echo(requests()):
            outbox.put(message)
        outbox.put(None)


if __name__ == "__main__":
    main(sys.argv[1])
