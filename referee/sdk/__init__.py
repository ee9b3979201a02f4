"""A small SDK for bots in Python: a bot is a class with one method.

    from referee.sdk import Bot, run

    class First(Bot):
        name = "first"
        def choose(self, observation, actions):
            return 0          # an index into actions

    if __name__ == "__main__":
        run(First())

`observation` is the seat's whole observation (a `referee.v1.Observation`;
read the game's field, e.g. `observation.thief`) and `actions` the legal
actions, each with a readable `label` and a typed per-game field (e.g.
`action.thief`). `run` connects to the referee named by REFEREE_ADDRESS with
the secret in REFEREE_SECRET (the referee sets both when it launches the
bot) and plays until the referee closes the stream.
"""

from __future__ import annotations

import os
import queue
import sys
from collections.abc import Iterator, Sequence

import grpc

from referee.v1 import referee_pb2 as pb
from referee.v1 import referee_pb2_grpc as pb_grpc

PROTOCOL_VERSION = 1


class Bot:
    """Subclass and implement `choose`; the other hooks are optional."""

    name = "python-bot"

    def choose(self, observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
        raise NotImplementedError

    def on_game_start(self, start: pb.GameStart) -> None:
        """A new game begins; `start.seat` is this bot's seat."""

    def on_event(self, event: pb.Event) -> None:
        """Something this seat may see happened."""

    def on_game_end(self, end: pb.GameEnd) -> None:
        """The game is over; scores and places are in `end.seats`."""


def _requests(outbox: queue.Queue[pb.PlayRequest | None]) -> Iterator[pb.PlayRequest]:
    while True:
        message = outbox.get()
        if message is None:
            return
        yield message


def run(bot: Bot, address: str | None = None, secret: str | None = None) -> None:
    """Play for `bot` until the referee ends the stream."""
    address = address or os.environ.get("REFEREE_ADDRESS")
    secret = secret if secret is not None else os.environ.get("REFEREE_SECRET", "")
    if not address:
        sys.exit("REFEREE_ADDRESS is not set: bots are started by the referee (referee play ...)")
    outbox: queue.Queue[pb.PlayRequest | None] = queue.Queue()
    outbox.put(
        pb.PlayRequest(
            hello=pb.Hello(protocol_version=PROTOCOL_VERSION, bot_name=bot.name, secret=secret)
        )
    )
    with grpc.insecure_channel(address) as channel:
        stub = pb_grpc.RefereeServiceStub(channel)
        try:
            for message in stub.Play(_requests(outbox)):
                kind = message.WhichOneof("message")
                if kind == "decision_request":
                    request = message.decision_request
                    index = bot.choose(request.observation, request.legal_actions)
                    outbox.put(
                        pb.PlayRequest(
                            decision=pb.Decision(request_id=request.request_id, action_index=index)
                        )
                    )
                elif kind == "game_start":
                    bot.on_game_start(message.game_start)
                elif kind == "events":
                    for event in message.events.events:
                        bot.on_event(event)
                elif kind == "game_end":
                    bot.on_game_end(message.game_end)
        finally:
            outbox.put(None)
