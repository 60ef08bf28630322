"""View deltas (docs/protocol.md §2.8): send an opted-in socket only what changed since its last view.

Why: a full view is ~10 KB and ~60 % of it is ``publicLog`` (up to 100 entries re-sent on every change),
while what one change alters is typically a few hundred bytes. A connection that says ``"deltas": true`` in
``hello`` gets one full ``view`` and then ``viewDelta`` frames against the view it holds; a gap (a missed
frame, a viewer switch) is answered with a full view, and the client may ask ``resync`` at any time.

A delta is computed between the *same viewer's* two views (both built by the engine's whitelist), so it can
only ever carry values of the new view: nothing a full view would not carry. Exactness: the client's
``apply`` of the delta to the base view gives a view equal to the new one (the test frame scanner checks this
at every version). Values count as unchanged only when they encode to the same JSON (:func:`same`):
Python's ``==`` alone takes ``False`` for ``0`` and ``True`` for ``1``, anywhere inside a list or object.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, Protocol

import orjson

from pokerroom.server.wire import protocol as P

#: top-level keys diffed element by element (equal length) / as an appended log (drop from the front)
LIST_KEYS = ("seats",)
LOG_KEY = "publicLog"
#: ``me`` is diffed one level deeper (it carries hole cards, legal actions and the hint)
NESTED_KEYS = ("me",)
#: the keys whose value differs between the viewers of one change (their own seat, ``me``)
OWN_KEYS = LIST_KEYS + NESTED_KEYS


#: scalar types whose ``==`` between two values *of the same type* is exactly "the same JSON" (two bools
#: too: only ``bool`` against ``int`` is the trap; floats are not, ``0.0 == -0.0``)
_EXACT = frozenset((str, int, bool, type(None)))


def same(a: Any, b: Any) -> bool:
    """``a`` and ``b`` are the same JSON. ``==`` decides first (cheap, and enough when they differ); equal
    values are then compared encoded, since ``==`` does not tell ``false`` from ``0`` (found by the property
    test of this module: ``{"x": false}`` -> ``{"x": 0}`` was not sent). Two strings, two ints (not bools:
    ``type(True) is bool``) or two ``None`` need no encoding."""
    if a is b:
        return True
    kind = type(a)
    if kind is type(b):
        if kind in _EXACT:
            return bool(a == b)
        if kind is list:
            # the same objects in the same order (a hand's cards, shared log entries): the same JSON
            if len(a) == len(b) and all(map(operator.is_, a, b)):
                return True
        elif not a and not b and kind is dict:
            return True
    if a != b:
        return False
    opt = orjson.OPT_NON_STR_KEYS
    return bool(orjson.dumps(a, option=opt) == orjson.dumps(b, option=opt))


class Differ:
    """What the diffs of one change's views found, remembered per place (a top-level key, a seat index) with
    the two objects compared there, reused only for the very same two objects.

    Why: the views of one state share their public values (``pokerroom.engine.StateViews``) and, once
    diffed, every viewer's view reuses its base's objects (:func:`view_delta`), so the viewers' diffs compare
    the same pairs of objects at the same places over and over: compared (and encoded, when equal) once, the
    other viewers get the answer for a dict lookup and two identity tests. The objects are kept with the
    answer, so an identity is never reused while remembered."""

    def __init__(self) -> None:
        self.top: dict[str, tuple[Any, Any, bool]] = {}
        # (index, id(old item), id(new item)) -> the items (kept: their ids stay theirs) and the outcome.
        # Keyed by both ids, not by the index alone: each player's own seat is another pair at its index
        # than everybody else's view of that seat, and one entry per index was overwritten back and forth
        self.items: dict[str, dict[tuple[int, int, int], tuple[Any, Any, bool, dict[str, Any] | None]]] = {
            key: {} for key in LIST_KEYS}
        self.log: tuple[Any, Any, tuple[dict[str, Any], list[Any]] | None] | None = None
        self.template: _Template | None = None

    def log_delta(self, old: list[Any], new: list[Any]) -> tuple[dict[str, Any], list[Any]] | None:
        """:func:`log_delta` and the new log made of ``old``'s entries plus the added ones: one list for
        every viewer whose base had ``old`` (so the next change finds them shared again)."""
        hit = self.log
        if hit is None or hit[0] is not old or hit[1] is not new:
            delta = log_delta(old, new)
            merged = None if delta is None else (delta, old[delta["drop"]:] + delta["add"])
            hit = self.log = (old, new, merged)
        return hit[2]


def _same_items(old: list[Any], new: list[Any]) -> bool:
    """Two equally long lists hold the same JSON: no encoding when every item is the very same object (the
    log entries a new state shares with the old one)."""
    return all(map(operator.is_, old, new)) or same(old, new)


def log_delta(old: list[Any], new: list[Any]) -> dict[str, Any] | None:
    """``{"drop": d, "add": [...]}`` with ``old[d:] + add == new`` (smallest ``d``), or ``None`` if ``new``
    does not continue ``old`` (then the caller sends the whole list)."""
    n_old = len(old)
    if not new:
        return {"drop": n_old, "add": []}
    first = new[0]
    for drop in range(n_old + 1):
        keep = n_old - drop
        if keep == 0:
            return {"drop": drop, "add": new}
        if keep <= len(new) and old[drop] == first and _same_items(old[drop:], new[:keep]):
            return {"drop": drop, "add": new[keep:]}
    return None  # pragma: no cover - keep == 0 always matches


def view_delta(old: dict[str, Any], new: dict[str, Any], differ: Differ | None = None) -> dict[str, Any]:
    """The changes from ``old`` to ``new`` (two views of the same viewer) in the ``viewDelta`` shape:
    ``set`` (top-level keys replaced), ``del`` (keys removed), ``seats`` (``{index: Seat}``, when the seat
    count is unchanged) and ``seatsSet`` (``{index: {field: value}}``: the changed fields of a seat with
    the same keys), ``me`` (``{"set", "del"}`` one level down, when ``me`` stays an object) and
    ``log`` (``publicLog`` as ``{"drop", "add"}``). Empty parts are left out.

    ``new`` is also rewritten to reuse ``old``'s objects wherever they are equal (same JSON): the views stay
    alive until the next change as its delta bases, and keeping the *old* objects lets the new copies die
    young, so the garbage collector's older generations only ever see what changed (with 200 rooms, the
    promotion of whole views made every change slower).

    ``differ``: shared by the diffs of one change's views (see :class:`Differ`); the result is the same."""
    if differ is None:
        differ = Differ()
    out: dict[str, Any] = {}
    put: dict[str, Any] = {}
    template = differ.template
    if template is not None and template.fits(old, new):
        # the same public objects on both sides as the view diffed first: its public outcome is this one's
        new.update(template.interned)
        put.update(template.put)
        if template.log is not None:
            out["log"] = template.log
        gone = list(template.gone)  # the same keys on both sides as the first view's: the same ones gone
        for key in OWN_KEYS:
            if key in new:
                if key in old:
                    _diff_key(key, old[key], new[key], new, out, put, differ)
                else:
                    put[key] = new[key]
    else:
        recorder = _Template(old, new) if template is None else None
        for key, value in list(new.items()):
            if key in old:
                _diff_key(key, old[key], value, new, out, put, differ)
            else:
                put[key] = value
        gone = [k for k in old if k not in new]
        if recorder is not None:
            differ.template = recorder.finish(new, out, put, gone)
    if put:
        out["set"] = put
    if gone:
        out["del"] = gone
    return out


class _Template:
    """The outcome of a view's diff for its public keys (all but :data:`OWN_KEYS`), with the objects it was
    found for: a later view of the same change whose base and new view hold the very same objects under the
    same keys gets the same outcome without comparing anything (three C-level passes instead of a Python
    loop over ~35 keys)."""

    def __init__(self, old: dict[str, Any], new: dict[str, Any]) -> None:
        self.keys_old, self.keys_new = tuple(old), tuple(new)
        self.pub_old = [k for k in old if k not in OWN_KEYS]
        self.pub_new = [k for k in new if k not in OWN_KEYS]
        self.old_values = [old[k] for k in self.pub_old]
        self.new_values = [new[k] for k in self.pub_new]
        self.interned: dict[str, Any] = {}
        self.put: dict[str, Any] = {}
        self.log: dict[str, Any] | None = None
        self.gone: list[str] = []

    def finish(self, new: dict[str, Any], out: dict[str, Any], put: dict[str, Any], gone: list[str]
               ) -> _Template | None:
        if len(self.pub_old) < 2 or len(self.pub_new) < 2:  # itemgetter of one key gives no tuple
            return None
        self.interned = {k: new[k] for k in self.pub_new}
        self.put = {k: v for k, v in put.items() if k not in OWN_KEYS}
        self.log = out.get("log")
        self.gone = gone
        self._get_old = operator.itemgetter(*self.pub_old)
        self._get_new = operator.itemgetter(*self.pub_new)
        return self

    def fits(self, old: dict[str, Any], new: dict[str, Any]) -> bool:
        return (tuple(new) == self.keys_new and tuple(old) == self.keys_old
                and all(map(operator.is_, self._get_new(new), self.new_values))
                and all(map(operator.is_, self._get_old(old), self.old_values)))


def _fields(old: Any, new: Any) -> dict[str, Any] | None:
    """The fields of ``new`` that differ from ``old`` (two dicts with the same keys, e.g. one seat), or None
    when the item must travel whole (not two dicts, or keys added/removed)."""
    if type(old) is not dict or type(new) is not dict or old.keys() != new.keys():
        return None
    out = {}
    for k, v in new.items():
        b = old[k]
        kind = type(v)
        # :func:`same`, with its commonest case (two strings, ints, bools or None) inline
        if not (b == v if kind is type(b) and kind in _EXACT else same(b, v)):
            out[k] = v
    return out


def _diff_key(key: str, before: Any, value: Any, new: dict[str, Any], out: dict[str, Any],
              put: dict[str, Any], differ: Differ) -> None:
    """One top-level key of :func:`view_delta` present in both views: nothing (``new`` then keeps
    ``before``), a part of ``out`` (``seats``, ``me``, ``log``) or an entry of ``put``."""
    if before is value:
        return
    if key in NESTED_KEYS and type(before) is dict and type(value) is dict:
        # the viewer's own part: diffed key by key straight away (nothing to share with other viewers)
        part: dict[str, Any] = {}
        changed: dict[str, Any] = {}
        for k, v in list(value.items()):
            if k in before:
                b = before[k]
                kind = type(v)
                # :func:`same`, with its commonest case (two strings, ints, bools or None) inline
                if (b == v if kind is type(b) and kind in _EXACT else same(b, v)):
                    value[k] = b
                    continue
            changed[k] = v
        gone_inner = [k for k in before if k not in value]
        if changed:
            part["set"] = changed
        if gone_inner:
            part["del"] = gone_inner
        if part:
            out[key] = part
        else:
            new[key] = before
        return
    if key in LIST_KEYS and type(before) is list and type(value) is list and len(before) == len(value):
        changed_items: dict[str, Any] = {}
        changed_fields: dict[str, Any] = {}
        merged = []
        item_memo = differ.items[key]
        for i, (b, v) in enumerate(zip(before, value, strict=True)):
            if b is v:
                merged.append(b)
                continue
            found = item_memo.get((i, id(b), id(v)))
            if found is None:
                equal = same(b, v)
                found = item_memo[i, id(b), id(v)] = (b, v, equal, None if equal else _fields(b, v))
            if found[2]:
                merged.append(b)
                continue
            merged.append(v)
            if found[3] is None:
                changed_items[str(i)] = v
            else:
                changed_fields[str(i)] = found[3]
        if changed_items or changed_fields:
            new[key] = merged
            if changed_items:
                out[key] = changed_items
            if changed_fields:
                out[key + "Set"] = changed_fields
        else:
            new[key] = before
        return
    memo = differ.top
    hit = memo.get(key)
    if hit is not None and hit[0] is before and hit[1] is value:
        equal = hit[2]
    else:
        equal = same(before, value)
        memo[key] = (before, value, equal)
    if equal:
        new[key] = before
        return
    if key == LOG_KEY and type(before) is list and type(value) is list:
        log = differ.log_delta(before, value)
        if log is not None:
            out["log"], new[key] = log
            return
    put[key] = value


def apply_delta(base: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """The view a ``viewDelta`` describes, from the view it is based on (``base`` is not modified). The
    reference implementation of the client side (tests, ``benchmarks/load.py``; ``static/delta.js`` mirrors
    it)."""
    view = dict(base)
    for key in delta.get("del", ()):
        view.pop(key, None)
    view.update(delta.get("set", {}))
    for key in LIST_KEYS:
        if key in delta or key + "Set" in delta:
            items = list(view[key])
            for index, value in delta.get(key, {}).items():
                items[int(index)] = value
            for index, fields in delta.get(key + "Set", {}).items():
                items[int(index)] = {**items[int(index)], **fields}
            view[key] = items
    for key in NESTED_KEYS:
        if key in delta:
            part = dict(view[key])
            for gone in delta[key].get("del", ()):
                part.pop(gone, None)
            part.update(delta[key].get("set", {}))
            view[key] = part
    if "log" in delta:
        log = delta["log"]
        view[LOG_KEY] = list(view[LOG_KEY])[log["drop"]:] + list(log["add"])
    return view


def delta_msg(version: int, base: int, server_now: int, delta: dict[str, Any],
              seat: dict[str, Any] | None = None) -> dict[str, Any]:
    """``seat`` (the room's per-seat part, protocol §2.6) travels whole, as in a ``view`` frame."""
    msg = {"type": "viewDelta", "version": version, "base": base, "serverNow": server_now}
    if seat is not None:
        msg["seat"] = seat
    msg.update(delta)
    return msg


Builder = Callable[[str | None], dict[str, Any]]
SeatPart = Callable[[dict[str, Any], str | None], dict[str, Any] | None]


class ViewCache:
    """The views of a room's current version, one per viewer, hint included.

    Why: a view (and its hint, the costliest part with hints on) depends only on (version, viewer), so a
    second tab, a reconnect or a ``resync`` reuses it instead of rebuilding it, and the next change diffs
    against it. Filled only with views of versions that were stored (persist before publish).

    The views of one version share their public values (one ``publicLog`` list, not one per viewer: they
    live until the next change as its delta bases, and per-viewer copies grew the garbage collector's older
    generations) because the engine builds them so (``StateViews``), and keep sharing them after their diffs
    (:class:`Differ`)."""

    def __init__(self) -> None:
        self.version = -1
        self.views: dict[str | None, dict[str, Any]] = {}

    def get(self, version: int, viewer: str | None, build: Builder) -> dict[str, Any]:
        if version != self.version:
            self.version, self.views = version, {}
        view = self.views.get(viewer)
        if view is None:
            view = self.views[viewer] = build(viewer)
        return view

    def advance(self, version: int) -> tuple[int, dict[str | None, dict[str, Any]]]:
        """Start the views of ``version``; returns the previous version and its views (the delta bases)."""
        before = (self.version, self.views)
        self.version, self.views = version, {}
        return before


class Socket(Protocol):
    """What :class:`FrameBuilder` reads and updates on a room connection."""

    deltas: bool
    view_version: int
    view_viewer: str | None


class FrameBuilder:
    """The view frames of one change: each viewer's view built once (through the room's :class:`ViewCache`),
    each distinct frame encoded once; a socket that holds this viewer's previous view and asked for deltas
    gets a ``viewDelta`` against it, any other socket the full ``view``."""

    def __init__(self, cache: ViewCache, version: int, server_now: int, build: Builder,
                 seat_part: SeatPart | None = None, events: list[dict[str, Any]] | None = None) -> None:
        self.cache, self.version, self.server_now, self.build = cache, version, server_now, build
        self.seat_part = seat_part
        self.base_version, self.bases = cache.advance(version)
        self.full: dict[str | None, str] = {}
        self.delta: dict[str | None, str] = {}
        self.diffs: dict[str | None, dict[str, Any] | None] = {}
        self.seats: dict[str | None, dict[str, Any] | None] = {}
        self.shared = P.SharedEncoder()
        self.differ = Differ()
        # the change's public events, folded into a delta socket's view frame (docs/protocol.md §2.8): one
        # websocket message per socket and change instead of two
        self.events_part = f',"events":{P.dumps(events)}' if events else ""

    def text_for(self, conn: Socket, viewer: str | None, ack: str | None = None) -> str:
        """The frame for ``conn`` (seen as ``viewer``); ``ack``: the client message id this change answers
        (folded into the frame of a delta socket, so its client renders once, as are the change's
        ``events``)."""
        view = self.cache.get(self.version, viewer, self.build)
        if viewer not in self.diffs:  # diff once per viewer, for every socket: it also interns (view_delta)
            base = self.bases.get(viewer)
            self.diffs[viewer] = None if base is None else view_delta(base, view, self.differ)
            self.seats[viewer] = None if self.seat_part is None else self.seat_part(view, viewer)
        diff, seat = self.diffs[viewer], self.seats[viewer]
        if conn.deltas and diff is not None and conn.view_version == self.base_version \
                and conn.view_viewer == viewer:
            text = self.delta.get(viewer)
            if text is None:
                msg = delta_msg(self.version, self.base_version, self.server_now, diff, seat)
                text = self.delta[viewer] = P.dumps(msg)
        else:
            text = self.full.get(viewer)
            if text is None:
                text = self.full[viewer] = self.shared.view_text(self.version, view, self.server_now, seat)
        conn.view_version, conn.view_viewer = self.version, viewer
        if conn.deltas:
            tail = self.events_part if ack is None else f'{self.events_part},"ack":{P.dumps(ack)}'
            if tail:
                text = f"{text[:-1]}{tail}}}"
        return text
