"""A hostile bot for the adversarial suite: it misbehaves as BOT_ATTACK says,
always within bounds (this runs as root on a shared machine), and otherwise
plays the first legal action.

Attacks (BOT_ATTACK=name, with BOT_ARG for a parameter):
  busy          spin forever on its first decision
  sleep         never answer (sleeps)
  sigstop       stop itself (SIGSTOP) on its first decision
  forkbomb      fork BOT_ARG (default 40) sleeping children, then play
  escape        setsid double-fork: a grandchild outside the group sleeps; then play
  membomb       allocate up to 3 GiB in 64 MiB steps, then play
  diskfill      write up to 200 MiB to a file in its directory, then play
  stdout        write 100 MB to stdout, then play
  network       connect to 127.0.0.1:BOT_ARG, report, then play
  snoop         try to read the files named in BOT_ARG (colon-separated), report, then play
  garbage       write garbage bytes to the referee's socket, then play
  huge          send a 10 MB message on its stream
  twice         open a second Play stream with its own secret, then play
  steal_secret  look for other bots' secrets in /proc and connect with them, then play
  flood         answer its first request with 10,000 messages
Reports go to report.txt in the bot's working directory.
"""

from __future__ import annotations

import os
import queue
import signal
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc

from referee.v1 import referee_pb2 as pb
from referee.v1 import referee_pb2_grpc as pb_grpc

ATTACK = os.environ.get("BOT_ATTACK", "")
ARG = os.environ.get("BOT_ARG", "")


def report(line: str) -> None:
    with open("report.txt", "a") as f:
        f.write(line + "\n")


def sleep_forever() -> None:
    while True:
        time.sleep(60)


def before_play() -> None:
    """Attacks that happen before the bot connects."""
    if ATTACK == "forkbomb":
        for _ in range(int(ARG or 40)):
            if os.fork() == 0:
                sleep_forever()
        report("forked")
    elif ATTACK == "escape":
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                Path("escaped.pid").write_text(str(os.getpid()))
                sleep_forever()
            os._exit(0)
        os.wait()
        time.sleep(0.2)
    elif ATTACK == "membomb":
        hoard = []
        try:
            for _ in range(48):  # at most 3 GiB
                hoard.append(bytearray(64 << 20))
            report("allocated 3 GiB")
        except MemoryError:
            report(f"MemoryError after {len(hoard) * 64} MiB")
            del hoard
    elif ATTACK == "diskfill":
        written = 0
        try:
            with open("fill.bin", "wb") as f:
                while written < 200 << 20:
                    f.write(b"\0" * (1 << 20))
                    written += 1 << 20
            report(f"wrote {written >> 20} MiB")
        except OSError as error:
            report(f"disk write stopped at {written >> 20} MiB: {error}")
    elif ATTACK == "stdout":
        block = b"x" * (1 << 20)
        for _ in range(100):
            sys.stdout.buffer.write(block)
        sys.stdout.flush()
    elif ATTACK == "network":
        try:
            with socket.create_connection(("127.0.0.1", int(ARG)), timeout=2):
                report("network: connected")
        except OSError as error:
            report(f"network: refused ({error})")
    elif ATTACK == "snoop":
        for name in filter(None, ARG.split(":")):
            try:
                Path(name).read_bytes()
                report(f"read {name}")
            except OSError as error:
                report(f"could not read {name}: {type(error).__name__}")
    elif ATTACK == "garbage":
        path = os.environ["REFEREE_ADDRESS"].removeprefix("unix://")
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(path)
            s.sendall(os.urandom(4096))
            time.sleep(0.2)


def other_secrets() -> list[str]:
    mine = os.environ["REFEREE_SECRET"]
    found = []
    for entry in Path("/proc").iterdir():
        try:
            for item in (entry / "environ").read_bytes().split(b"\0"):
                if item.startswith(b"REFEREE_SECRET="):
                    secret = item.split(b"=", 1)[1].decode()
                    if secret != mine and secret not in found:
                        found.append(secret)
        except OSError:
            continue
    return found


def try_stream(channel: grpc.Channel, secret: str) -> str:
    stub = pb_grpc.RefereeServiceStub(channel)
    hello = pb.PlayRequest(hello=pb.Hello(protocol_version=1, bot_name="x", secret=secret))
    try:
        for _ in stub.Play(iter([hello]), timeout=2):
            return "admitted"
        return "closed"
    except grpc.RpcError as error:
        return error.code().name


def main() -> None:
    before_play()
    outbox: queue.Queue[pb.PlayRequest | None] = queue.Queue()
    secret = os.environ["REFEREE_SECRET"]
    outbox.put(pb.PlayRequest(hello=pb.Hello(protocol_version=1, bot_name=ATTACK, secret=secret)))

    def requests() -> Iterator[pb.PlayRequest]:
        while (item := outbox.get()) is not None:
            yield item

    options = [("grpc.max_send_message_length", 64 << 20)]
    with grpc.insecure_channel(os.environ["REFEREE_ADDRESS"], options=options) as channel:
        stub = pb_grpc.RefereeServiceStub(channel)
        try:
            play(stub, requests(), outbox, secret, channel)
        except grpc.RpcError as error:
            report(f"stream ended: {error.code().name}")
            time.sleep(5)  # stay alive: the referee must tell this from a crash
        outbox.put(None)


def play(
    stub: pb_grpc.RefereeServiceStub,
    requests: Iterator[pb.PlayRequest],
    outbox: queue.Queue[pb.PlayRequest | None],
    secret: str,
    channel: grpc.Channel,
) -> None:
    first = True
    for message in stub.Play(requests):
        if message.WhichOneof("message") == "welcome":
            if ATTACK == "twice":
                report(f"second stream: {try_stream(channel, secret)}")
            if ATTACK == "steal_secret":
                secrets = other_secrets()
                report(f"found {len(secrets)} other secrets")
                for other in secrets:
                    report(f"with another secret: {try_stream(channel, other)}")
        if message.WhichOneof("message") != "decision_request":
            continue
        request = message.decision_request
        if first:
            first = False
            if ATTACK == "busy":
                while True:
                    pass
            if ATTACK == "sleep":
                sleep_forever()
            if ATTACK == "sigstop":
                os.kill(os.getpid(), signal.SIGSTOP)
            if ATTACK == "huge":
                outbox.put(pb.PlayRequest(hello=pb.Hello(bot_name="x" * (10 << 20))))
            if ATTACK == "flood":
                for i in range(10_000):
                    outbox.put(pb.PlayRequest(decision=pb.Decision(request_id=10**9 + i)))
        outbox.put(pb.PlayRequest(decision=pb.Decision(request_id=request.request_id)))


if __name__ == "__main__":
    main()
