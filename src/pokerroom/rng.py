"""Deterministic, secret-seeded randomness for dealing (poker.md §8.4).

Why this design:
- A room's deck order must be unpredictable to players, so the seed is 256 secret bits (from
  :mod:`secrets` when none is given) and the stream is SHA-256 in counter mode: block ``i`` is
  ``SHA-256(seed || i as 8 little-endian bytes)``. Without the seed the stream cannot be predicted.
- A room must replay and survive a restart mid-hand, so the whole generator state is the seed and the
  number of bytes consumed; :meth:`DealRng.to_json` / :meth:`DealRng.from_json` round-trip it exactly and a
  restored generator deals the same next card.
- Integer draws are unbiased: 64-bit words are rejection-sampled below the largest multiple of ``n``.
- Shuffles are Fisher–Yates from the last position down, one unbiased draw per position.

The :mod:`random` module is never used here.

>>> first = DealRng.from_seed(bytes(32))
>>> draws = [first.randbelow(10) for _ in range(5)]
>>> restored = DealRng.from_json(first.to_json())
>>> restored.randbelow(52) == first.randbelow(52)
True
>>> a, b = DealRng.from_seed(b"\\x01" * 32), DealRng.from_seed(b"\\x01" * 32)
>>> a.shuffled(list(range(10))) == b.shuffled(list(range(10)))
True
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from typing import TypeVar

T = TypeVar("T")

SEED_BYTES = 32
_BLOCK = 32  # SHA-256 output size
_WORD = 8  # bytes per 64-bit draw
_TWO64 = 1 << 64
_U64 = struct.Struct("<Q")


class DealRng:
    """A SHA-256 counter-mode byte stream with unbiased draws and Fisher–Yates shuffles.

    The instance is mutable (drawing advances it); engine code copies it through JSON when it needs a
    snapshot. ``consumed`` counts bytes taken from the stream and is the whole position.
    """

    __slots__ = ("_block", "_block_index", "_seed", "consumed")

    def __init__(self, seed: bytes, consumed: int = 0) -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError("the seed must be exactly 32 bytes (256 bits)")
        if consumed < 0:
            raise ValueError("consumed must be >= 0")
        self._seed = bytes(seed)
        self.consumed = consumed
        self._block_index = -1
        self._block = b""

    @classmethod
    def from_seed(cls, seed: bytes | str | int | None = None) -> DealRng:
        """A generator from 32 bytes, a 64-hex-digit string, an int < 2**256, or fresh secret bits."""
        if seed is None:
            return cls(secrets.token_bytes(SEED_BYTES))
        if isinstance(seed, bytes):
            return cls(seed)
        if isinstance(seed, int):
            if not 0 <= seed < 1 << 256:
                raise ValueError("an int seed must be in [0, 2**256)")
            return cls(seed.to_bytes(SEED_BYTES, "big"))
        return cls(bytes.fromhex(seed))

    def _hash_block(self, index: int) -> bytes:
        """Block ``index`` of the stream: SHA-256(seed || index as 8 little-endian bytes)."""
        return hashlib.sha256(self._seed + index.to_bytes(8, "little")).digest()

    def _bytes(self, count: int) -> bytes:
        out = bytearray()
        while count > 0:
            index, offset = divmod(self.consumed, _BLOCK)
            if index != self._block_index:
                self._block = self._hash_block(index)
                self._block_index = index
            take = min(count, _BLOCK - offset)
            out += self._block[offset : offset + take]
            self.consumed += take
            count -= take
        return bytes(out)

    def randbelow(self, n: int) -> int:
        """An unbiased integer in ``[0, n)`` (rejection sampling on 64-bit words)."""
        if n <= 0:
            raise ValueError("n must be positive")
        if n == 1:
            return 0
        limit = _TWO64 - (_TWO64 % n)
        while True:
            word = int.from_bytes(self._bytes(_WORD), "little")
            if word < limit:
                return word % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher–Yates in place: for i from the end down to 1, swap i with an unbiased j in [0, i].

        The draws are exactly ``randbelow(i + 1)`` in turn (same words, same stream position), but the
        counter blocks a whole deck needs are hashed in one go instead of one 8-byte draw at a time, which
        halves the cost of a 52-card shuffle. A rejected word (probability below n / 2**64) just extends the
        buffer.
        """
        n = len(items)
        if n < 2:
            return
        pos = self.consumed
        block = pos // _BLOCK
        base = block * _BLOCK
        buf = bytearray()
        while base + len(buf) < pos + _WORD * (n - 1):
            buf += self._hash_block(block)
            block += 1
        unpack = _U64.unpack_from
        for i in range(n - 1, 0, -1):
            m = i + 1
            limit = _TWO64 - (_TWO64 % m)
            while True:
                while pos + _WORD > base + len(buf):
                    buf += self._hash_block(block)
                    block += 1
                word: int = unpack(buf, pos - base)[0]
                pos += _WORD
                if word < limit:
                    break
            j = word % m
            items[i], items[j] = items[j], items[i]
        self.consumed = pos

    def shuffled(self, items: list[T]) -> list[T]:
        """A shuffled copy."""
        out = list(items)
        self.shuffle(out)
        return out

    def choice_index(self, n: int) -> int:
        """Alias of :meth:`randbelow` that reads better at call sites choosing a seat or dealer."""
        return self.randbelow(n)

    def copy(self) -> DealRng:
        return DealRng(self._seed, self.consumed)

    def to_json(self) -> dict[str, object]:
        """The full state: the secret seed (hex) and the position. Server-side only, never in a view."""
        return {"seed": self._seed.hex(), "consumed": self.consumed}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> DealRng:
        seed, consumed = data["seed"], data["consumed"]
        if not isinstance(seed, str) or not isinstance(consumed, int):
            raise ValueError("bad rng state")
        return cls(bytes.fromhex(seed), consumed)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DealRng) and (self._seed, self.consumed) == (other._seed, other.consumed)

    def __hash__(self) -> int:
        return hash((self._seed, self.consumed))

    def __repr__(self) -> str:  # never print the secret seed
        return f"DealRng(consumed={self.consumed})"
