"""Secret keys: where deal seeds, bot seeds and game ids come from.

A seed that is a hash of public data (a tournament seed, an event name, a
deal index) can be brute-forced by a bot in a fraction of a second, and then
the bot rebuilds the whole deal with the engine. So every number and name a
bot could use to find a deal is an HMAC under a secret key that no bot sees:
a random key per tournament (kept in its results database) or per
`referee play`. Only `referee play --seed N` uses a public key, on purpose:
anyone who knows N knows the deal.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

KEY_BYTES = 32
SEED_BITS = 63  # fits a signed SQLite INTEGER


def new_key() -> bytes:
    """A fresh random key: unguessable, so its deals are too."""
    return secrets.token_bytes(KEY_BYTES)


def _message(parts: tuple[str | int, ...]) -> bytes:
    """An unambiguous encoding: each part typed and length-prefixed, so
    ("a/b", 1) and ("a", "b/1") never collide."""
    out = bytearray()
    for part in parts:
        if isinstance(part, bool) or not isinstance(part, str | int):
            raise TypeError(f"key parts are strings or ints, not {part!r}")
        tag, data = (b"s", part.encode()) if isinstance(part, str) else (b"i", str(part).encode())
        out += tag + len(data).to_bytes(4, "big") + data
    return bytes(out)


def _mac(key: bytes, parts: tuple[str | int, ...]) -> bytes:
    return hmac.new(key, _message(parts), hashlib.sha256).digest()


def derive(key: bytes, *parts: str | int) -> int:
    """A 63-bit seed from the key and the parts: without the key it reveals
    nothing and cannot be guessed."""
    return int.from_bytes(_mac(key, parts)[:8], "big") >> (64 - SEED_BITS)


def opaque_id(key: bytes, *parts: str | int) -> str:
    """A short name (16 hex digits) for the parts that says nothing about them."""
    return _mac(key, parts)[:8].hex()


def seat_seeds(key: bytes, game: str, seats: int) -> tuple[int, ...]:
    """The seed each seat's bot gets in GameStart for its own randomness."""
    return tuple(derive(key, "bot", game, seat) for seat in range(seats))


def key_from_seed(seed: int) -> bytes:
    """The public key of `referee play --seed N`: reproducible, and therefore
    no secret: anyone who knows N knows the deal and the bots' seeds."""
    return hashlib.sha256(f"referee-public-seed/{seed}".encode()).digest()
