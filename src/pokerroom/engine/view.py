"""What one viewer may see (poker.md §8.3), as documented in ``docs/view.md``.

Rules:
- The dict is built as a whitelist: each field is *added* because this viewer may see it. Nothing is ever
  copied wholesale from the state and then pruned, so a new secret field in the state cannot leak by default.
- A card the viewer may not see is ``{"hidden": true, "slot": k}``: no id, rank or suit; ``k`` is the card's
  place among that seat's hidden cards (0, 1, 2 ...), which says no more than ``holeCount`` does.
- Own private cards are always visible to their owner; others' only once shown at the showdown. Folded hands
  are never shown to others (Indian: everything is revealed when the hand has ended).
- Indian forehead: visible to the other players of the hand, never to its owner or a spectator before the
  hand has ended.
- 7 Poker choice: the four cards are private; nobody's open pick is visible until everybody has chosen.
- Hi-lo declarations: only my own until everybody has declared.
- The deck, burns, draw discards and choice discards (except my own) never appear.
- ``houseRules`` (public, only present when a house rule of docs/rules-extensions.md is on): built by
  :mod:`pokerroom.engine.house_view`, like the seats' ``ante`` / ``straddle`` keys of the hold'em options.

Building every viewer's view of one state (:class:`StateViews`): everything but ``seats`` and ``me`` is the
same for every viewer and is built once; a seat's dict depends on the viewer only through two facts (is it the
viewer's own seat, does the viewer play this hand), so each seat is built at most once per variant. A server
that sends 8 views per change builds the public part once instead of 8 times.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pokerroom import betting as bt
from pokerroom.cards import Card
from pokerroom.engine import common
from pokerroom.engine.accounts import hand_net
from pokerroom.engine.hint_names import hint_names, indian_name, shown_name
from pokerroom.engine.house_view import house_rules, seat_dead_ante, seat_extras, seat_time_bank
from pokerroom.engine.modes import Draw, Indian, rules_for
from pokerroom.engine.options import omaha_hi_lo, uses_blinds
from pokerroom.engine.result import result
from pokerroom.engine.state import Hand, HandPlayer, Seat, State
from pokerroom.engine.timeouts import deadline

JSON = dict[str, Any]
CardJson = Callable[[Card], JSON]

#: (id, rank, suit) -> the one JSON dict of that visible card that :class:`StateViews` puts in every view
_CARD_JSON: dict[tuple[int, int, str], JSON] = {}
#: id(options) -> (options, their JSON): the options object of a game is shared by all its states
_OPTIONS_JSON: dict[int, tuple[Any, JSON]] = {}
_OPTIONS_KEPT = 1024


def _fresh_card(card: Card) -> JSON:
    return card.to_json()


def _shared_card(card: Card) -> JSON:
    """A visible card's JSON, the same dict every time (:class:`StateViews`; read-only like all it returns).

    Why: the view delta of a change compares each viewer's new view with the previous one, and equal lists
    of the very same card dicts compare without being encoded (``server/deltas.same``); fresh dicts per
    state made every unchanged hand, board and ``up`` list cost two encodings per change."""
    key = (card.id, card.rank, card.suit)
    out = _CARD_JSON.get(key)
    if out is None:
        out = _CARD_JSON[key] = card.to_json()
    return out


def _shared_options(opts: Any) -> JSON:
    """The options' JSON, one dict per options object (states of one game share it), for the same reason
    as :func:`_shared_card`; building it (a pydantic dump) also cost more than the rest of ``_public``."""
    hit = _OPTIONS_JSON.get(id(opts))
    if hit is None or hit[0] is not opts:
        if len(_OPTIONS_JSON) >= _OPTIONS_KEPT:
            _OPTIONS_JSON.clear()
        hit = _OPTIONS_JSON[id(opts)] = (opts, opts.to_json())
    return hit[1]


def _cards(cards: list[Card], visible: bool, cj: CardJson = _fresh_card) -> list[JSON]:
    """Visible cards whole; hidden ones as ``{"hidden": true, "slot": k}``, ``k`` the place in this seat's
    list (numbered per seat, not per view: the seat's dict is then the same for every viewer who may not see
    these cards, so it is built once and a view delta does not re-send seats whose slots merely moved)."""
    if visible:
        return [cj(c) for c in cards]
    return [{"hidden": True, "slot": k} for k in range(len(cards))]


def _hand_done(state: State) -> bool:
    hand = state.hand
    return hand is None or hand.phase == "handEnd" or state.phase != "playing"


def _phase(state: State) -> str:
    if state.phase in ("rebuy", "finished"):
        return state.phase
    return "handEnd" if state.hand is None else state.hand.phase


def _all_declared(hand: Hand) -> bool:
    live = common.in_hand(hand)
    return hand.phase != "declare" and all(hand.players[pid].declare is not None for pid in live)


def _seat_json(state: State, seat: Seat, mine: bool, viewer_plays: bool, cj: CardJson = _fresh_card) -> JSON:
    """``seat`` as seen by a viewer: ``mine`` (the viewer's own seat), ``viewer_plays`` (the viewer plays
    this hand): the only two facts about the viewer it depends on."""
    hand = state.hand
    opts = state.options
    korean_marks = not uses_blinds(opts)
    out: JSON = {
        "id": seat.id,
        "seat": seat.seat,
        "stack": seat.stack,
        "status": seat.status,
        "away": seat.away,
        "sittingOut": seat.sitting_out,
        "rebuys": seat.rebuys,
        "dealer": hand is not None and hand.dealer_seat == seat.seat,
        "sun": korean_marks and hand is not None and hand.dealer_seat == seat.seat,
        "sb": hand is not None and hand.sb == seat.id,
        "bb": hand is not None and hand.bb == seat.id,
        "boss": hand is not None and hand.rnd is not None and hand.boss == seat.id,
        **seat_time_bank(state, seat.id),
    }
    hp: HandPlayer | None = hand.players.get(seat.id) if hand is not None else None
    if hand is None or hp is None:
        out.update({
            "inHand": False, "folded": False, "allIn": False, "committedRound": 0, "committedTotal": 0,
            "lastAction": None, "up": [], "hole": [], "holeCount": 0, "forehead": None, "hasForehead": False,
            "drawCounts": [], "drawDone": False, "choiceDone": False, "declare": None, "declared": False,
            "ready": False, "shown": False, **seat_extras(state, seat.id),
        })
        return out
    b = hand.bettors[seat.id]
    done = _hand_done(state)
    private = hp.choice if hp.choice is not None else hp.hole
    show_private = mine or hp.shown
    forehead: JSON | None = None
    if hp.forehead is not None:
        if (done and hp.shown) or (viewer_plays and not mine):
            forehead = hp.forehead.to_json()
    out.update({
        "inHand": True,
        "folded": b.folded,
        "allIn": b.all_in,
        "committedRound": b.committed_round,
        "committedTotal": b.committed_total + seat_dead_ante(state, seat.id),
        "lastAction": b.last_action or hp.forced,
        "up": [cj(c) for c in hp.up],
        "hole": _cards(list(private), show_private, cj),
        "holeCount": len(private),
        "forehead": forehead,
        "hasForehead": hp.forehead is not None,
        "drawCounts": list(hp.draw_counts),
        "drawDone": hand.phase == "draw" and hp.draw_pending is not None,
        "choiceDone": hp.chosen is not None or (hand.phase != "choice" and bool(hp.up)),
        # whether everybody has declared is only asked when this seat has (it is a pass over the hand)
        "declare": hp.declare if hp.declare is not None and _all_declared(hand) else None,
        "declared": hp.declare is not None,
        "ready": hp.ready,
        "shown": hp.shown,
        **seat_extras(state, seat.id),
    })
    if hp.shown and hand.one_left and done and not isinstance(rules_for(opts), Indian):
        # shown after everyone else folded: no showdown entry names these cards, so the seat does
        out["shownName"] = shown_name(rules_for(opts), hand, seat.id)
    return out


def legal_actions(state: State, pid: str) -> list[JSON]:
    """What ``pid`` may send now (the view's ``me.legalActions``)."""
    if state.phase == "rebuy":
        seat = state.seat_of(pid)
        if pid in state.rebuy_pending and seat is not None and not seat.rebuy_decided:
            return [{"type": "rebuy", "accept": [True, False]}]
        return []
    hand = state.hand
    if state.phase != "playing" or hand is None or pid not in hand.players:
        return []
    seat = state.seat_of(pid)
    if seat is None or seat.status == "left":
        return []
    p = hand.players[pid]
    b = hand.bettors[pid]
    if hand.phase == "handEnd":
        acts: list[JSON] = [] if p.ready else [{"type": "ready"}]
        return [*acts, {"type": "show"}] if common.may_show(state, pid) else acts
    if b.folded:
        return []
    if hand.phase == "betting" and hand.rnd is not None:
        return bt.legal_actions(hand.rnd, hand.bettors, pid)
    if hand.phase == "choice" and p.chosen is None and p.choice is not None:
        return [{"type": "choose", "cardIds": [c.id for c in p.choice]}]
    if hand.phase == "draw" and p.draw_pending is None:
        mode = rules_for(state.options)
        assert isinstance(mode, Draw)
        limit, with_ace = mode.draw_limits(list(p.hole))
        entry: JSON = {"type": "draw", "cardIds": [c.id for c in p.hole], "min": 0, "max": limit}
        if with_ace is not None:
            entry["maxKeepingAce"] = with_ace
        return [entry]
    if hand.phase == "declare" and p.declare is None:
        return [{"type": "declare", "sides": ["high", "low", "swing"]}]
    if hand.phase == "runTwice" and pid in common.pending(state):
        return [{"type": "runTwice", "agree": [True, False]}]
    return []


def _me(state: State, seat: Seat, cj: CardJson = _fresh_card) -> JSON:
    hand = state.hand
    opts = state.options
    rebuys_left: int | None
    if opts.rebuy == "off":
        rebuys_left = 0
    elif opts.rebuy == "limited":
        rebuys_left = max(0, opts.rebuy_limit - seat.rebuys)
    else:
        rebuys_left = None
    out: JSON = {"id": seat.id, "seat": seat.seat, "rebuysLeft": rebuys_left}
    hp = hand.players.get(seat.id) if hand is not None else None
    if hand is None or hp is None:
        out.update({"inHand": False, "hole": [], "up": [], "choice": None, "chosen": None, "discarded": None,
                    "forehead": None, "drawPending": None, "declare": None, "toCall": 0, "handName": None,
                    "rankName": None, "lowName": None, "legalActions": legal_actions(state, seat.id)})
        return out
    b = hand.bettors[seat.id]
    done = _hand_done(state)
    to_call = 0
    if hand.phase == "betting" and hand.rnd is not None and not b.folded:
        to_call = max(0, min(hand.rnd.current_bet - b.committed_round, b.stack))
    forehead: Any = None
    if hp.forehead is not None:
        forehead = hp.forehead.to_json() if done and hp.shown else "?"
    hand_name: str | None = None
    rank_name: str | None = None
    low_name: str | None = None
    if opts.hints:
        mode = rules_for(opts)
        if isinstance(mode, Indian):
            if done and hp.forehead is not None:
                hand_name = rank_name = indian_name(mode, hand, seat.id)
        else:
            hand_name, low_name, rank_name = hint_names(mode, hand, seat.id)
    out.update({
        "inHand": True,
        "hole": [cj(c) for c in hp.hole],
        "up": [cj(c) for c in hp.up],
        "choice": None if hp.choice is None else [cj(c) for c in hp.choice],
        "chosen": None if hp.chosen is None else {"discardId": hp.chosen[0], "openId": hp.chosen[1]},
        "discarded": None if hp.discarded is None else hp.discarded.to_json(),
        "forehead": forehead,
        "drawPending": None if hp.draw_pending is None else list(hp.draw_pending),
        "declare": hp.declare,
        "toCall": to_call,
        "handName": hand_name,
        "rankName": rank_name if hand_name is not None else None,
        "lowName": low_name if opts.mode == "sevenHiLo" or omaha_hi_lo(opts) else None,
        "legalActions": legal_actions(state, seat.id),
    })
    return out


def view(state: State, viewer: str | None) -> JSON:
    """The JSON-ready view of ``state`` for ``viewer`` (a player id, or None for a spectator). A fresh dict
    that shares nothing with any other call's; built the plain way, seat by seat (the reference
    :class:`StateViews` is tested against)."""
    out = _public(state, copy_log=True)
    viewer_seat = state.seat_of(viewer) if isinstance(viewer, str) else None
    viewer_id = viewer_seat.id if viewer_seat is not None else None
    hand = state.hand
    plays = viewer_id is not None and hand is not None and viewer_id in hand.players
    out["seats"] = [_seat_json(state, s, s.id == viewer_id, plays) for s in sorted(state.seats, key=_seat_no)]
    out["me"] = None if viewer_seat is None else _me(state, viewer_seat)
    return out


def _seat_no(seat: Seat) -> int:
    return seat.seat


class StateViews:
    """Every viewer's view of one state, sharing what is the same for all of them.

    :meth:`of` returns a fresh top-level dict (and a fresh ``me`` and ``seats`` list) per call, but the other
    values (the seat dicts, ``publicLog`` and its entries, ``options``, ...) are shared with the other views
    of this object and with the state (the dicts of visible cards and of the options with every other view
    and state too): callers must treat them as read-only. Secrecy is unchanged:
    the shared part is built exactly as for a spectator except the seats; a seat's dict depends on the viewer
    only through ``mine`` and ``viewer_plays`` (:func:`_seat_json`), and is shared only between viewers
    for whom those are the same. ``tests/engine/test_state_views.py`` checks every view against
    :func:`view` on every step of the golden games.

    ``previous``: the views of the state this one follows (the same game). A seat whose inputs
    (:func:`_seat_inputs`) are equal to what they were there gets the very same dict again, not an equal
    new one. Why: most seats do not change in an action, and the server's view deltas compare every
    viewer's new view with its previous one; an unchanged seat that is the same object costs them one
    identity test instead of a comparison and two encodings. Only the inputs and dicts are taken from
    ``previous`` (not the object: a chain of states must not stay alive)."""

    def __init__(self, state: State, previous: StateViews | None = None) -> None:
        self.state = state
        self._public: JSON | None = None
        self._seats = sorted(state.seats, key=_seat_no)
        self._index = {seat.id: i for i, seat in enumerate(self._seats)}
        self._rows: dict[bool, list[JSON]] = {}
        self._own: dict[str, JSON] = {}
        # (seat id, viewer_plays where a forehead card makes it matter) -> (inputs, seat dict);
        # seat id -> (spectator's seat dict, own seat dict)
        self._built: dict[tuple[str, bool], tuple[tuple[Any, ...], JSON]] = {}
        self._own_built: dict[str, tuple[JSON, JSON]] = {}
        self._before = previous._built if previous is not None else {}
        self._own_before = previous._own_built if previous is not None else {}

    def _row(self, viewer_plays: bool) -> list[JSON]:
        """Every seat as a viewer sees it who sits in none of them (and plays the hand, or not)."""
        row = self._rows.get(viewer_plays)
        if row is None:
            hand = self.state.hand
            other = self._rows.get(not viewer_plays)
            row = []
            for i, seat in enumerate(self._seats):
                hp = hand.players.get(seat.id) if hand is not None else None
                plays_matters = hp is not None and hp.forehead is not None
                if other is not None and not plays_matters:
                    row.append(other[i])  # only a forehead card depends on viewer_plays
                    continue
                # keyed (and compared) by viewer_plays only where it matters, so a seat built for one
                # variant is found again whichever variant asks first next time
                key = (seat.id, plays_matters and viewer_plays)
                inputs = _seat_inputs(self.state, seat, plays_matters and viewer_plays)
                before = self._before.get(key)
                if before is not None and before[0] == inputs:
                    built = before[1]
                else:
                    built = _seat_json(self.state, seat, False, viewer_plays, _shared_card)
                self._built[key] = (inputs, built)
                row.append(built)
            self._rows[viewer_plays] = row
        return row

    def of(self, viewer: str | None) -> JSON:
        state = self.state
        viewer_seat = state.seat_of(viewer) if isinstance(viewer, str) else None
        out = dict(self.public())
        if viewer_seat is None:
            out["seats"] = list(self._row(False))
            return out
        hand = state.hand
        plays = hand is not None and viewer_seat.id in hand.players
        seats = list(self._row(plays))
        if plays:
            i = self._index[viewer_seat.id]
            own = self._own.get(viewer_seat.id)
            if own is None:
                as_spectator = self._row(False)[i]
                before = self._own_before.get(viewer_seat.id)
                # the same spectator's dict: the same inputs, so the same own cards (:func:`_own_seat`)
                if before is not None and before[0] is as_spectator:
                    own = before[1]
                else:
                    own = _own_seat(state, viewer_seat, as_spectator)
                self._own[viewer_seat.id] = own
                self._own_built[viewer_seat.id] = (as_spectator, own)
            seats[i] = own
        out["seats"] = seats
        out["me"] = _me(state, viewer_seat, _shared_card)
        return out

    def public(self) -> JSON:
        """The view's keys in order, ``seats`` still empty and ``me`` None (a spectator's)."""
        if self._public is None:
            self._public = _public(self.state, copy_log=False)
        return self._public


def _seat_inputs(state: State, seat: Seat, viewer_plays: bool) -> tuple[Any, ...]:
    """Everything :func:`_seat_json` reads for ``seat`` as a viewer sees it who does not sit there: equal
    inputs, equal dicts (the seat, its hand player and bettor compare field by field). Whether everybody
    has declared is a fact about the whole hand; it is only read when this seat has declared."""
    hand = state.hand
    if hand is None:
        return (state.options, seat, state.phase, viewer_plays)
    spending = hand.bank_from is not None and hand.turn_of == seat.id
    hp = hand.players.get(seat.id)
    bettor = hand.bettors.get(seat.id) if hp is not None else None
    declared_all = hp is not None and hp.declare is not None and _all_declared(hand)
    return (state.options, seat, state.phase, viewer_plays, hand.phase, hand.dealer_seat, hand.sb, hand.bb,
            hand.rnd is not None, hand.boss, hp, bettor, declared_all, hand.antes.get(seat.id),
            hand.straddler == seat.id, spending)


def _own_seat(state: State, seat: Seat, as_spectator: JSON) -> JSON:
    """The viewer's own seat, from the spectator's dict of it: :func:`_seat_json` with ``mine`` differs only
    in ``hole`` (own private cards are always visible; the forehead rule gives the owner exactly what it
    gives a spectator: the card once shown after the hand)."""
    hand = state.hand
    hp = hand.players.get(seat.id) if hand is not None else None
    if hp is None or hp.shown:
        return as_spectator
    out = dict(as_spectator)
    out["hole"] = _cards(list(hp.choice if hp.choice is not None else hp.hole), True, _shared_card)
    return out


def _public(state: State, copy_log: bool) -> JSON:
    """What every viewer's view has in common (``seats`` left empty, ``me`` None). ``copy_log``: copy the
    public log's entries (else they are the state's own, never-mutated dicts, and the options' and the board's
    cards' dicts are shared too: :class:`StateViews`)."""
    cj = _fresh_card if copy_log else _shared_card
    opts = state.options
    hand = state.hand
    mode = rules_for(opts)
    street_name = ""
    if hand is not None and not _hand_done(state):
        if hand.phase == "choice":
            street_name = "초이스"
        elif hand.phase == "declare":
            street_name = "선언"
        elif hand.phase == "runTwice":
            street_name = "런 잇 트와이스"
        elif hand.phase == "draw":
            names = ("아침", "점심", "저녁") if opts.mode == "badugi" else ("교환",)
            street_name = names[hand.draw_no] if 0 <= hand.draw_no < len(names) else "교환"
        else:
            street_name = mode.street_name(hand.street)
    # between hands (rebuy) the last pot is paid out: nothing is in the middle. A finished game keeps its
    # last hand's pots, which its awards (``potIndex``) still refer to.
    paid_out = state.phase == "rebuy"
    next_level: int | None = None
    if opts.blind_up_every and state.base_unit < opts.starting_chips // 5:
        next_level = (state.hands_played // opts.blind_up_every + 1) * opts.blind_up_every
    out: JSON = {
        "game": "poker",
        "options": opts.to_json() if copy_log else _shared_options(opts),
        "mode": opts.mode,
        "betting": state.betting,
        "phase": _phase(state),
        "handNo": 0 if hand is None else hand.hand_no,
        "handLimit": opts.hand_limit if opts.end_condition == "hands" else None,
        "handsPlayed": state.hands_played,
        "baseUnit": state.base_unit,
        "smallBlind": max(1, state.base_unit // 2) if uses_blinds(opts) else None,
        "level": state.level,
        "nextLevelAt": next_level,
        "carryOver": state.carry_over,
        "dealerSeat": None if hand is None else hand.dealer_seat,
        "street": -1 if hand is None else hand.street,
        "streetName": street_name,
        "seats": [],
        "board": [] if hand is None else [cj(c) for c in hand.board],
        "pots": [] if hand is None or paid_out else common.pots_json(hand.pots),
        "potTotal": 0 if hand is None or paid_out
        else sum(b.committed_total for b in hand.bettors.values()) + hand.dead,
        "currentBet": hand.rnd.current_bet if hand is not None and hand.rnd is not None else 0,
        "toAct": hand.rnd.to_act if hand is not None and hand.rnd is not None
        and state.phase == "playing" and hand.phase == "betting" else None,
        "boss": hand.boss if hand is not None and hand.rnd is not None else None,
        "deadlineAt": deadline(state),
        "pending": common.pending(state),
        "showdown": None if hand is None or hand.showdown is None else [dict(e) for e in hand.showdown],
        "awards": None if hand is None or hand.awards is None else [dict(a) for a in hand.awards],
        # what each player of the ended hand won or lost (public like the awards it is computed from)
        "handNet": hand_net(state),
        "penalties": [] if hand is None else [dict(p) for p in hand.penalties],
        "indianUsed": [cj(c) for c in state.indian_used],
        "indianDeckLeft": _indian_left(state),
        "rebuyPending": list(state.rebuy_pending) if state.phase == "rebuy" else [],
        "me": None,
        "publicLog": [dict(e) for e in state.public_log] if copy_log else list(state.public_log),
        "result": result(state),
    }
    house = house_rules(state)
    if house is not None:
        out["houseRules"] = house
    # the host's changes waiting for this hand's end (engine.host): keys only while one waits, so every
    # other view stays exactly as it was
    if state.next_options is not None:
        out["nextStakes"] = {"baseUnit": state.next_options.base_unit,
                             "startingChips": state.next_options.starting_chips}
    if state.end_after_hand and state.phase != "finished":
        out["endAfterHand"] = True
    return out


def _indian_left(state: State) -> int | None:
    opts = state.options
    if opts.mode != "indian" or opts.indian_reshuffle != "whenEmpty":
        return None
    if state.indian_deck is not None:
        return len(state.indian_deck)
    return len(state.hand.deck) if state.hand is not None else None
