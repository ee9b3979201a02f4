"""A bot that plays any game by picking a uniformly random legal action.

Run by the referee:  referee play thief --bot "python sample_bots/python/random_bot.py" ...
It reseeds from the seed the referee sends with every game start, so a game
replayed with the same deal seed repeats exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from referee.sdk import Bot, run
from referee.v1 import referee_pb2 as pb


class RandomBot(Bot):
    name = "random"

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def on_game_start(self, start: pb.GameStart) -> None:
        self.rng = random.Random(start.seed)

    def choose(self, observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
        return self.rng.randrange(len(actions))


if __name__ == "__main__":
    run(RandomBot())
