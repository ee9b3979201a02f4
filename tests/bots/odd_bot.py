"""A bot for tests that misbehaves on purpose, as BOT_MODE says.

Modes (comma-separated in BOT_MODE or as arguments, each optionally `name=value`):
  illegal        answer every request with an out-of-range index
  sleep=S        sleep S seconds before every answer
  burn=S         burn S seconds of CPU before every answer
  stale          first send a reply with a wrong request id, then the right one
  die_after=N    exit abruptly (code 3) on the N-th decision request
  record         print every message received, as JSON, to stderr (lines 'RECORD {...}')
  hang_start     never connect (sleep forever before connecting)
  exit_start     exit with code 5 at once, writing a line to stderr
Otherwise it plays the first legal action.
"""

from __future__ import annotations

import json
import os
import queue
import sys
import time
from collections.abc import Iterator

import grpc
from google.protobuf.json_format import MessageToDict

from referee.v1 import referee_pb2 as pb
from referee.v1 import referee_pb2_grpc as pb_grpc


def modes() -> dict[str, str]:
    result = {}
    spec = os.environ.get("BOT_MODE", "") or ",".join(sys.argv[1:])
    for part in filter(None, spec.split(",")):
        key, _, value = part.partition("=")
        result[key] = value
    return result


def main() -> None:
    mode = modes()
    if "exit_start" in mode:
        print("odd_bot: told to exit at start", file=sys.stderr)
        sys.exit(5)
    if "hang_start" in mode:
        time.sleep(3600)
    outbox: queue.Queue[pb.PlayRequest | None] = queue.Queue()
    outbox.put(
        pb.PlayRequest(
            hello=pb.Hello(
                protocol_version=1,
                bot_name=os.environ.get("BOT_NAME", "odd"),
                secret=os.environ.get("BOT_SECRET_OVERRIDE", os.environ["REFEREE_SECRET"]),
            )
        )
    )

    def requests() -> Iterator[pb.PlayRequest]:
        while (item := outbox.get()) is not None:
            yield item

    record = sys.stderr if "record" in mode else None
    seen = 0
    with grpc.insecure_channel(os.environ["REFEREE_ADDRESS"]) as channel:
        stub = pb_grpc.RefereeServiceStub(channel)
        for message in stub.Play(requests()):
            if record is not None:
                record.write(
                    "RECORD "
                    + json.dumps(MessageToDict(message, always_print_fields_with_no_presence=True))
                    + "\n"
                )
                record.flush()
            if message.WhichOneof("message") != "decision_request":
                continue
            request = message.decision_request
            seen += 1
            if "die_after" in mode and seen >= int(mode["die_after"]):
                os._exit(3)
            if "sleep" in mode:
                time.sleep(float(mode["sleep"]))
            if "burn" in mode:
                until = time.process_time() + float(mode["burn"])
                while time.process_time() < until:
                    pass
            index = len(request.legal_actions) + 7 if "illegal" in mode else 0
            if "stale" in mode:
                outbox.put(
                    pb.PlayRequest(
                        decision=pb.Decision(request_id=request.request_id + 1000, action_index=0)
                    )
                )
            outbox.put(
                pb.PlayRequest(
                    decision=pb.Decision(request_id=request.request_id, action_index=index)
                )
            )
        outbox.put(None)


if __name__ == "__main__":
    main()
