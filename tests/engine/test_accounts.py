"""What each player won or lost (``pokerroom.engine.accounts``): the view's ``handNet`` after each hand, each
seat's game account, and the result's ``net`` — worked examples for every way chips move (a pot won, an
uncalled bet returned, a split with dead money, side pots, Hi-Lo halves, antes lost, an Indian carry), then
random games where the figures must agree with the stacks and sum to zero."""

from __future__ import annotations

from typing import Any

from engine_support import C, G, cards, play_random, rig
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.engine import apply, result, setup, view
from pokerroom.engine.accounts import accounts, hand_net, settled_stack, unowned
from pokerroom.engine.result import signed_chips
from pokerroom.engine.state import State


def _down(g: G) -> None:
    """Everybody checks or calls to the end of the hand."""
    while g.s.hand is not None and g.s.hand.phase == "betting" and g.to_act is not None:
        g.check_around()


def test_a_won_pot_nets_the_pot_less_the_winners_own_bet() -> None:
    """The banner's old "+100" for a pot of 100 where the winner put in 50: the view says +50."""
    g = G(2, mode="holdem", baseUnit=10)
    first, second = g.order  # heads-up preflop: the dealer (small blind) acts first
    rig(g.s, deck=cards("2c Ks 9h 5c 2d Jh 3s 4d"), **{first: cards("As Ah"), second: cards("7c 2h")})
    g.bet("nl.raise", to=50)
    g.bet("nl.call")
    _down(g)
    v = g.view(None)
    assert v["phase"] == "handEnd" and sum(a["amount"] for a in v["awards"]) == 100
    assert v["handNet"] == {first: 50, second: -50} or v["handNet"] == {second: -50, first: 50}
    assert list(v["handNet"]) == g.hand.order  # from the seat after the dealer, like every hand list
    for pid, net in v["handNet"].items():
        seat = g.s.seat_of(pid)
        assert seat is not None and net == seat.stack - seat.stack_at_hand_start


def test_an_uncalled_bet_comes_back_and_is_not_won() -> None:
    g = G(2, mode="holdem", baseUnit=10)
    first, second = g.order
    g.bet("nl.raise", to=300)
    g.bet("nl.fold")  # the big blind gives up its 10; 290 of the 300 were never called
    v = g.view(None)
    assert [e for e in g.ev if e["type"] == "uncalled"] == [{"type": "uncalled", "to": first, "amount": 290}]
    assert v["handNet"] == {second: -10, first: 10}


def test_a_split_pot_with_a_dead_blind() -> None:
    """The board plays for two players; the small blind folded its 5: 25 split 13 / 12."""
    g = G(3, mode="holdem", baseUnit=10)
    h = g.hand
    sb, bb = h.sb, h.bb
    btn = next(p for p in h.order if p not in (sb, bb))
    rig(g.s, deck=cards("2s 9s 9d 8c 3s 8h 4s As"),
        **{bb: cards("2c 3d"), btn: cards("2h 3c"), sb: cards("Kc Kd")})
    g.bet("nl.call")  # btn
    g.bet("nl.fold")  # sb
    g.bet("nl.check")  # bb
    _down(g)
    net = g.view(None)["handNet"]
    assert net == {sb: -5, bb: 3, btn: 2}
    assert sum(net.values()) == 0


def test_side_pots_and_the_returned_top_bet() -> None:
    """§5.5: A 100 all-in, B 300 all-in, C 500 (200 returned). A wins the main pot 300, B the side pot 400."""
    g = G(3, mode="badugi", betting="noLimit", baseUnit=10, startingChips=500)
    c, a, b = g.order
    for pid, stack in ((a, 90), (b, 290), (c, 490)):  # after the ante of 10: totals 100 / 300 / 500
        g.hand.bettors[pid].stack = stack
        seat = g.s.seat_of(pid)
        assert seat is not None
        seat.stack, seat.stack_at_hand_start = stack, stack + 10
    rig(g.s, **{a: cards("As 2d 3h 4c"), b: cards("2s 3d 4h 5c"), c: cards("Ks Kd Kh Kc")})
    g.bet("nl.allIn")
    g.bet("nl.call")
    g.bet("nl.call")
    for _ in range(3):
        g.pass_draw()
    assert g.view(None)["handNet"] == {c: -300, a: 200, b: 100}


def test_hi_lo_halves_count_what_each_player_put_in() -> None:
    """Omaha Hi-Lo: the small blind folds 5; the big blind takes the high half (13), the button the low (12)
    of the 25."""
    s = setup(["p0", "p1", "p2"], {"mode": "omaha", "omahaHiLo": True}, seed=1)
    assert s.hand is not None
    sb, bb, btn = s.hand.order
    rig(s, deck=cards("9s 2c 5d 8h Js Kc Qs Ks"),
        **{btn: cards("Ah 3s Td Tc"), bb: cards("Kh Kd 9c 9h"), sb: cards("Jh Jc Qh 6s")})
    s, _ = apply(s, btn, {"type": "nl.call"}, 100)
    s, _ = apply(s, sb, {"type": "nl.fold"}, 200)
    now = 300
    while s.hand is not None and s.hand.phase == "betting":
        assert s.hand.rnd is not None and s.hand.rnd.to_act is not None
        pid = s.hand.rnd.to_act
        kinds = {a["type"] for a in view(s, pid)["me"]["legalActions"]}
        s, _ = apply(s, pid, {"type": "nl.check" if "nl.check" in kinds else "nl.call"}, now)
        now += 100
    assert view(s, None)["handNet"] == {sb: -5, bb: 3, btn: 2}


def test_antes_are_lost_by_those_who_die() -> None:
    g = G(3, mode="badugi", baseUnit=10)
    first, second, third = g.order
    g.bet("k.ping")  # 10 more from the first
    g.bet("k.die")
    g.bet("k.die")
    v = g.view(None)
    assert v["phase"] == "handEnd"
    assert v["handNet"] == {first: 20, second: -10, third: -10}


def _indian_tie(tie: str) -> G:
    """Two players, 1-card Indian poker on the d20 deck, both holding a 7: checked down to the showdown."""
    g = G(2, mode="indian", indianTie=tie, indianDeck="d20", indianFoldPenalty=False, handLimit=10)
    first, second = g.order
    rig(g.s, **{first: [C("7s", "d20")], second: [C("7h", "d20")]})
    g.check_around()
    return g


def test_an_indian_carry_belongs_to_nobody_until_the_next_hand() -> None:
    g = _indian_tie("carry")
    v = g.view(None)
    net = v["handNet"]
    carried = g.s.carry_over
    assert carried > 0 and sum(net.values()) == -carried
    assert unowned(g.s) == carried
    assert sum(a["net"] for a in accounts(g.s)) == -carried
    g.ready_all()  # the next hand takes the carry as dead money: still nobody's while it runs
    assert g.s.hand is not None and g.s.hand.hand_no == 2 and g.s.hand.dead == carried
    assert unowned(g.s) == carried and g.view(None)["handNet"] is None
    assert sum(a["net"] for a in accounts(g.s)) == -carried
    g.check_around()
    v2 = g.view(None)
    assert sum(v2["handNet"].values()) == carried  # the winner took the dead money too
    assert sum(a["net"] for a in accounts(g.s)) == 0 == unowned(g.s)


def test_settled_stack_during_a_hand_is_the_stack_before_it() -> None:
    g = G(3, mode="holdem", baseUnit=10)
    g.bet("nl.raise", to=40)
    for s in g.s.seats:
        assert settled_stack(g.s, s.id) == s.stack_at_hand_start == 1000
    assert [a["net"] for a in accounts(g.s)] == [0, 0, 0]


def test_result_summary_names_the_net_never_the_score() -> None:
    g = G(2, mode="holdem", baseUnit=10, handLimit=10, startingChips=1000)
    g.bet("nl.raise", to=30)
    g.bet("nl.fold")
    for _ in range(40):
        if g.s.phase == "finished":
            break
        if g.s.hand is not None and g.s.hand.phase == "handEnd":
            g.ready_all()
            continue
        legal = g.legal(g.to_act) if g.to_act else []
        g.bet("nl.fold" if "nl.fold" in legal else "nl.check")
    r = result(g.s)
    assert r is not None
    top = r["ranking"][0]
    assert top["net"] == top["finalChips"] - 1000 and top["score"] == top["finalChips"]
    assert f"손익 {signed_chips(top['net'])}칩" in r["summary"]
    assert f"+{top['score']:,}" not in r["summary"]
    assert {e["playerId"]: e["net"] for e in r["ranking"]} == {a["playerId"]: a["net"] for a in accounts(g.s)}
    assert signed_chips(15) == "+15" and signed_chips(-1240) == "\u22121,240" and signed_chips(0) == "0"


# ------------------------------------------------------------------------------------------ random games

MODES = ["holdem", "omaha", "sevenPoker", "sevenHiLo", "badugi", "fiveDraw", "indian"]


class Books:
    """Follows a random game step by step and checks the accounts against the stacks."""

    def __init__(self) -> None:
        self.hand_sum: dict[str, int] = {}
        self.seen: set[int] = set()
        self.complete = True
        self.hands = 0

    def step(self, state: State, events: list[dict[str, Any]]) -> None:
        books = accounts(state)
        assert sum(a["net"] for a in books) + unowned(state) == 0, (books, unowned(state))
        hand = state.hand
        for e in events:
            if e["type"] == "handEnd" and (hand is None or hand.hand_no != e["handNo"]
                                           or hand.phase != "handEnd"):
                self.complete = False  # moved on within the same step: its nets were never on a view
        net = hand_net(state)
        if hand is None or net is None or hand.hand_no in self.seen:
            if net is not None and hand is not None and state.phase == "finished":
                self._refresh_last(state, net)
            return
        self.seen.add(hand.hand_no)
        self.hands += 1
        self.last = dict(net)
        for pid, n in net.items():
            seat = state.seat_of(pid)
            assert seat is not None
            if state.phase != "finished" and not seat.rebuy_decided:  # before any rebuy of this break
                assert n == seat.stack - seat.stack_at_hand_start, (pid, n, seat)
            self.hand_sum[pid] = self.hand_sum.get(pid, 0) + n
        assert sum(net.values()) == hand.dead - state.carry_over

    def _refresh_last(self, state: State, net: dict[str, int]) -> None:
        """A carry split when the game ended amends the last hand's nets."""
        for pid, n in net.items():
            self.hand_sum[pid] += n - self.last.get(pid, 0)
        self.last = dict(net)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mode=st.sampled_from(MODES),
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(min_value=2, max_value=6),
    rebuy=st.sampled_from(["off", "limited", "unlimited"]),
    end=st.sampled_from(["hands", "lastStanding"]),
    tie=st.sampled_from(["carry", "split"]),
    jacks=st.booleans(),
)
def test_random_games_nets_match_stacks_and_sum_to_zero(mode: str, seed: int, players: int, rebuy: str,
                                                       end: str, tie: str, jacks: bool) -> None:
    opts: dict[str, Any] = {"mode": mode, "startingChips": 500, "baseUnit": 20, "handLimit": 10,
                            "rebuy": rebuy, "endCondition": end, "blindUpEvery": 5}
    if mode == "indian":
        opts.update(indianTie=tie, indianCards=1 + seed % 2)
    if mode == "fiveDraw" and jacks:
        opts["jacksOrBetter"] = True
    players = min(players, 6)
    books = Books()
    state, _ = play_random(seed, opts, players, max_steps=700, p_timeout=0.05, p_leave=0.002, check="none",
                           p_join=0.01, p_sit=0.01, on_step=books.step)
    assert books.hands >= 1
    if state.phase == "finished":
        r = result(state)
        assert r is not None
        nets = {e["playerId"]: e["net"] for e in r["ranking"]}
        assert sum(nets.values()) == 0 and unowned(state) == 0
        assert nets == {a["playerId"]: a["net"] for a in accounts(state)}
        if books.complete:
            # every hand's net, added up, is the game's net of each player (rebuys are not gains)
            assert {pid: books.hand_sum.get(pid, 0) for pid in nets} == nets
