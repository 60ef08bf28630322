"""Lookup tables are built once even when two threads ask at the same time (cold start; see
docs/decisions/0021-lookup-tables-built-once.md).

The server warms the tables up in a thread while the event loop may already deal a hand; before the build
lock both threads built every table (twice the CPU under the GIL), and a reader could meet a half-built
table and take a valid hand for an impossible one (KeyError/IndexError). The check runs in a fresh
interpreter, where the tables are still empty.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import sys, threading
    from pokerroom.hands import _tables as T
    calls = [0]
    real_classify = T.classify
    def classify(counts):  # called once per rank multiset by every build of a rank table
        calls[0] += 1
        return real_classify(counts)
    T.classify = classify
    from pokerroom.cards import parse_cards
    from pokerroom.hands import international_high, korean_high
    seven = parse_cards("As Ks Qd Jc 9h 3s 2d")
    errors = []
    def work():
        try:
            for _ in range(3):
                assert international_high(seven).name
                assert korean_high(seven).name
        except Exception as exc:  # a half-built table read as an impossible hand
            errors.append(repr(exc))
    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads: t.start()
    for t in threads: t.join()
    print(calls[0], sum(len(t[0]) for t in T._RANK_TABLES.values()), errors)
    """
)


def test_concurrent_first_calls_build_each_table_once() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120,
                         check=True)
    classified, multisets, errors = out.stdout.split(maxsplit=2)
    assert errors.strip() == "[]"
    # every rank multiset of every table built was classified exactly once: no table was built twice
    assert int(classified) == int(multisets) > 49_000
