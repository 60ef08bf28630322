"""Omaha high by table lookup: a whole 4-hole + 3..5-board hand in one or two array reads.

Why: Omaha's rule (exactly two hole and three board cards, §5.4.2) means up to 60 five-card combinations
per hand; looking each one up costs 60 lookups of Python bytecode, eight times slower than the C peers that
fold the combinations into precomputed tables. The non-flush part of an Omaha hand depends only on the
hole's rank multiset (1,820 of them) and the board's (455, 1,820 or 6,175 for 3, 4 or 5 cards), so the
best of the 60 combinations is computed once per (hole multiset, board multiset) pair when the tables are
built (numpy, about half a second, 30 MB of uint16), and an evaluation is then one read. A flush needs at
least two hole and three board cards of one suit, and a board has at most one suit with three or more
cards: that suit's hole and board rank masks index a second, smaller table.

Encodings: each card has a hole key and a board key, ``RANK_KEY[rank] << 12 | 1 << (3 * suit)``. Their
sums carry the suit counts in the low 12 bits and, above, a sum of :data:`HOLE_KEY` / :data:`BOARD_KEY`
values; these were chosen greedily so that every rank multiset of four (hole) and of three, four or five
(board) ranks has a distinct sum, which the build checks (and refuses to build if ever false). Tables hold
the index of a value in :data:`VALUES` (the 7,462 five-card values in increasing order, so the larger index
is the better hand); the tables are laid out board-major, ``table[board offset + hole index]``.

Everything is filled in place by :func:`load` (under the tables' build lock), so modules bind the
containers at import and the hot paths catch the ``IndexError`` of an empty one once. The arrays are never
resized after: numpy views of their memory (:data:`NP`) serve the batch path.
"""

from __future__ import annotations

from array import array
from itertools import combinations, combinations_with_replacement
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from pokerroom.hands import _tables as T

#: Per rank: hole keys (multisets of 4 ranks have distinct sums) and board keys (3, 4 and 5 ranks).
HOLE_KEY: Final = (0, 1, 5, 21, 55, 153, 368, 856, 1424, 2603, 4967, 8194, 13663)
BOARD_KEY: Final = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)

#: per card id: hole and board keys with the suit counter in the low 12 bits
HK: Final = tuple(HOLE_KEY[i % 13] << 12 | 1 << (3 * (i // 13)) for i in range(52))
BK: Final = tuple(BOARD_KEY[i % 13] << 12 | 1 << (3 * (i // 13)) for i in range(52))


def _gate(counts: int) -> int:
    for suit in range(4):
        if (counts >> (3 * suit)) & 7 >= 3:
            return 6 << (3 * suit)  # the hole counter's bits that are set when it holds 2..4 cards
    return 0


def _suit_shift(counts: int) -> int:
    for suit in range(4):
        if (counts >> (3 * suit)) & 7 >= 3:
            return 13 * suit
    return 0


#: board suit counts (low 12 bits of a board key sum) -> mask that, and-ed with the hole key sum, is
#: non-zero exactly when a flush is possible (two or more hole cards in the board's 3+ suit)
FLUSH_GATE: Final = tuple(_gate(c) for c in range(4096))
#: board suit counts -> ``13 * suit`` of the board's 3+ suit (shift of its ranks in a ``1 << id`` mask)
FLUSH_SHIFT: Final = tuple(_suit_shift(c) for c in range(4096))

#: value index -> the international value (increasing)
VALUES: Final[list[int]] = []
#: hole rank-key sum -> hole multiset index
HOLE_INDEX: Final = array("i")
#: board rank-key sum -> offset of its row, and the tables, by board size
BOARD_OFFSET: Final[dict[int, array[int]]] = {3: array("i"), 4: array("i"), 5: array("i")}
TABLE: Final[dict[int, array[int]]] = {3: array("H"), 4: array("H"), 5: array("H")}
#: 13-bit suited rank masks: hole (2..4 ranks) -> index; board (3..5 ranks) -> row offset; the flush table
FLUSH_HOLE: Final = array("i")
FLUSH_BOARD: Final = array("i")
FLUSH_TABLE: Final = array("H")
#: the same tables as numpy arrays (shared memory), for the batch evaluator
NP: Final[dict[str, npt.NDArray[np.integer[Any]]]] = {}


def _multisets(n: int) -> list[tuple[int, ...]]:
    return [c for c in combinations_with_replacement(range(13), n) if all(c.count(r) <= 4 for r in c)]


def _index_of(keys: tuple[int, ...], multisets: list[tuple[int, ...]], what: str) -> dict[int, int]:
    out: dict[int, int] = {}
    for i, ms in enumerate(multisets):
        out[sum(keys[r] for r in ms)] = i
    if len(out) != len(multisets):  # pragma: no cover - guards the key property
        raise AssertionError(f"Omaha {what} keys collide")
    return out


def load() -> None:
    """Build every table once (idempotent; a concurrent caller waits for the first build)."""
    if "ftable" in NP:
        return
    with T.BUILD_LOCK:
        if "ftable" not in NP:
            _build()


def _build() -> None:
    r5 = T.rank_tables(5)[0]
    fl = T.flush_tables()[0]
    values = sorted(set(r5.values()) | set(fl.values()))
    rank_of = {v: i for i, v in enumerate(values)}
    pairs = list(combinations_with_replacement(range(13), 2))
    triples = list(combinations_with_replacement(range(13), 3))
    pair_at = {p: i for i, p in enumerate(pairs)}
    triple_at = {t: i for i, t in enumerate(triples)}
    # two hole ranks x three board ranks -> value index (0 where the ranks could not meet: 5 of a kind)
    pt = np.zeros((len(triples), len(pairs)), dtype=np.uint16)
    for t, j in triple_at.items():
        for p, i in pair_at.items():
            c = p + t
            if all(c.count(r) <= 4 for r in c):
                pt[j, i] = rank_of[r5[sum(T.RANK_KEY[r] for r in c)]]
    holes = _multisets(4)
    hole_pairs = np.array([[pair_at[(h[a], h[b])] for a, b in combinations(range(4), 2)] for h in holes])
    # per board triple, the best over each hole multiset's six pairs: (455 triples, 1,820 holes)
    best = pt[:, hole_pairs[:, 0]]
    for k in range(1, 6):
        np.maximum(best, pt[:, hole_pairs[:, k]], out=best)
    hole_index = _index_of(HOLE_KEY, holes, "hole")
    tables: dict[int, npt.NDArray[np.uint16]] = {}
    offsets: dict[int, npt.NDArray[np.int64]] = {}
    for n in (3, 4, 5):
        boards = _multisets(n)
        trip = np.array([[triple_at[(b[x], b[y], b[z])] for x, y, z in combinations(range(n), 3)]
                         for b in boards])
        table = best[trip[:, 0]]  # (boards, holes)
        for k in range(1, trip.shape[1]):
            np.maximum(table, best[trip[:, k]], out=table)
        tables[n] = table
        index = _index_of(BOARD_KEY, boards, f"{n}-card board")
        off = np.zeros(max(index) + 1, dtype=np.int64)
        off[list(index)] = np.array(list(index.values()), dtype=np.int64) * len(holes)
        offsets[n] = off
    hidx = np.zeros(max(hole_index) + 1, dtype=np.int64)
    hidx[list(hole_index)] = list(hole_index.values())
    # flushes: suited hole ranks (2..4) x suited board ranks (3..5), both as 13-bit masks
    f5 = np.zeros(8192, dtype=np.uint16)
    for sparse, value in fl.items():
        f5[sum(1 << r for r in range(13) if sparse >> (4 * r) & 1)] = rank_of[value]
    pmask = [sum(1 << r for r in c) for c in combinations(range(13), 2)]
    tmask = [sum(1 << r for r in c) for c in combinations(range(13), 3)]
    fpt = np.array([[f5[t | p] if not t & p else 0 for p in pmask] for t in tmask], dtype=np.uint16)
    pmask_at = {m: i for i, m in enumerate(pmask)}
    tmask_at = {m: i for i, m in enumerate(tmask)}
    fholes = [c for k in (2, 3, 4) for c in combinations(range(13), k)]
    fboards = [c for k in (3, 4, 5) for c in combinations(range(13), k)]
    fbest = np.zeros((len(tmask), len(fholes)), dtype=np.uint16)
    for i, h in enumerate(fholes):
        for p in combinations(h, 2):
            np.maximum(fbest[:, i], fpt[:, pmask_at[(1 << p[0]) | (1 << p[1])]], out=fbest[:, i])
    ftable = np.zeros((len(fboards), len(fholes)), dtype=np.uint16)
    for j, b in enumerate(fboards):
        for t in combinations(b, 3):
            np.maximum(ftable[j], fbest[tmask_at[sum(1 << r for r in t)]], out=ftable[j])
    fhole = np.zeros(8192, dtype=np.int64)
    for i, h in enumerate(fholes):
        fhole[sum(1 << r for r in h)] = i
    fboard = np.zeros(8192, dtype=np.int64)
    for j, b in enumerate(fboards):
        fboard[sum(1 << r for r in b)] = j * len(fholes)
    # publish: flat arrays for the scalar reads (they return Python ints), and numpy views of the very same
    # memory for the batch path (no second copy)
    for n in (3, 4, 5):
        BOARD_OFFSET[n].frombytes(offsets[n].astype(np.int32).tobytes())
        TABLE[n].frombytes(tables[n].tobytes())
        NP[f"table{n}"] = np.frombuffer(TABLE[n], dtype=np.uint16)
        NP[f"board{n}"] = np.frombuffer(BOARD_OFFSET[n], dtype=np.int32)
    HOLE_INDEX.frombytes(hidx.astype(np.int32).tobytes())
    FLUSH_HOLE.frombytes(fhole.astype(np.int32).tobytes())
    FLUSH_BOARD.frombytes(fboard.astype(np.int32).tobytes())
    VALUES.extend(values)
    NP.update({"hole": np.frombuffer(HOLE_INDEX, dtype=np.int32),
               "fhole": np.frombuffer(FLUSH_HOLE, dtype=np.int32),
               "fboard": np.frombuffer(FLUSH_BOARD, dtype=np.int32),
               "values": np.array(values, dtype=np.int64)})
    FLUSH_TABLE.frombytes(ftable.tobytes())
    NP["ftable"] = np.frombuffer(FLUSH_TABLE, dtype=np.uint16)  # last: its presence means all is built
