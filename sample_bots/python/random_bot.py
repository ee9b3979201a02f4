"""A bot that plays any game by picking a uniformly random legal action.

Run by the referee:  referee play thief --bot "python sample_bots/python/random_bot.py" ...
The seed comes from BOT_SEED if set, so a game with random bots can be replayed exactly.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence

from referee.sdk import Bot, run
from referee.v1 import referee_pb2 as pb


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
        return self.rng.randrange(len(actions))


if __name__ == "__main__":
    run(RandomBot(int(os.environ.get("BOT_SEED", "0"))))
