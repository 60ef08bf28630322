"""How people-like the bots play: all-in rate, hands per game, VPIP/PFR, each beside a target band.

Why these figures: a table of bots "feels" wrong long before their chip results do. Three numbers catch the
failures players noticed (every bot all-in on hand 1, 54 games ended in 100 hands; see
docs/decisions/0032-bots-play-like-people.md):

- **all-in rate**: the share of hands in which at least one player ends up all-in;
- **hands per game**: hands played before someone busts (the simulator starts a fresh game on every bust,
  and plays at most ``handLimit`` = 50 hands per game);
- **VPIP / PFR** per seat-hand: the player *voluntarily* put chips in during the first betting round (calls,
  bets, raises, 삥, all-ins; blinds and antes are forced and do not count) / did so with a bet or raise (삥
  included, as Korean rules count it as the round's raise). **Stay** is the share of seat-hands that were
  still in after the first betting round (the "saw the flop" figure of the ante games).

Where the bands come from (all per seat-hand; docs/bots.md has the same list with links):

- Hold'em VPIP/PFR: the player types that tracker software (PokerTracker, Hold'em Manager) made standard and
  that strategy write-ups repeat: matchpoker.com "VEP and PFR" (21 % or less is tight, 28 % or more loose;
  raise at least 70 % of the hands you enter); full ring (9–10 players) "10–20 % is tight, 30 % or more very
  loose"; a winning 6-max player at 19–25 % (wifitalents.com hold'em statistics); the loose-passive
  recreational player at 40 % VPIP / 5 % PFR (crushthemicros.com "What are VPIP and PFR"). Heads-up, the
  button plays most hands and the big blind defends most of the rest, so VPIP is far higher; but a
  limped small blind and a big blind who checks put in nothing voluntary, so a passive pair of players
  sits near 40 % (the small blind's 80 % limps over two seats): heads-up 40–95 % / 4–75 %. The issue's
  own example (6-max VPIP 20–40 %) is the 6-max band. The bands are wide on purpose: they must hold a tight,
  aggressive ``normal`` and a loose, passive ``easy`` alike, which is what a home game looks like.
- Omaha: four hole cards make more hands playable and PLO is played looser; the hold'em bands shifted up by
  ten points (a judgement from the same sources, not a published PLO figure).
- The ante games (7포커, 하이로우, 바둑이, 5카드 드로우, 인디언): no tracker statistics are published
  for these Korean variants, so their band is a stated judgement, not a citation. The first player may
  check (§5.2), so staying past the first round is often free and VPIP means little; the band is on
  **stay** and only rules out a table that never folds (more than 85 % at six; heads-up a passive pair
  may check every first round, so only the lower bound, 50 %, applies) or where nearly everyone folds.
- All-in rate: in 100-big-blind no-limit hold'em stacks go in on a small share of hands (gitnux.org's
  hold'em statistics quote 0.5 % of hands as preflop all-ins); bots at a home game play looser, so the cap
  is generous: 15 % of hands at 6 and 10 players, 20 % heads-up. Korean half-pot betting grows the pot
  geometrically over up to five rounds against stacks of 100 antes, so the Korean-betting cap is 30 %.
- Hands per game (the simulator has no rebuys, so this is the number of hands until the first bust): the
  room's default game is 20 hands (§2.2 ``handLimit``). A believable table keeps everyone for most of such a
  game: at least 20 hands heads-up, 15 at six players and 10 at ten (more players, more chances one busts),
  and 8 in the Korean-betting ante games at six, where one contested pot can take a 100-ante stack.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: First-round actions that put chips in voluntarily (VPIP) / that bet or raise (PFR).
VOLUNTARY = frozenset({"k.call", "k.ping", "k.quarter", "k.half", "k.full", "k.ddadang",
                       "nl.call", "nl.raise", "nl.allIn"})
AGGRESSIVE = frozenset({"k.ping", "k.quarter", "k.half", "k.full", "k.ddadang", "nl.raise", "nl.allIn"})

Band = tuple[float, float]


@dataclass
class LevelStats:
    """Counts for the seats of one bot level."""

    seat_hands: int = 0
    vpip: int = 0
    pfr: int = 0
    stay: int = 0

    def pct(self, count: int) -> float:
        return 100.0 * count / self.seat_hands if self.seat_hands else 0.0


@dataclass
class PlayStats:
    """What :func:`pokerroom.tools.simulate.run_match` counts about how the bots play."""

    hands: int = 0
    all_in_hands: int = 0
    first_hands: int = 0  # hand 1 of a game
    first_hand_all_ins: int = 0
    games_busted: int = 0  # games that ended because a seat busted
    by_level: dict[str, LevelStats] = field(default_factory=dict)

    def all_in_rate(self) -> float:
        return 100.0 * self.all_in_hands / self.hands if self.hands else 0.0

    def first_hand_all_in_rate(self) -> float:
        return 100.0 * self.first_hand_all_ins / self.first_hands if self.first_hands else 0.0

    def level(self, name: str) -> LevelStats:
        return self.by_level.setdefault(name, LevelStats())

    def total(self) -> LevelStats:
        out = LevelStats()
        for s in self.by_level.values():
            out.seat_hands += s.seat_hands
            out.vpip += s.vpip
            out.pfr += s.pfr
            out.stay += s.stay
        return out


@dataclass(frozen=True)
class Bands:
    """Target bands (percent, or hands) for one mode and table size; ``None`` where no band applies."""

    vpip: Band | None
    pfr: Band | None
    stay: Band | None
    all_in_max: float
    hands_per_game_min: float


def max_players(mode: str) -> int:
    """The mode's maximum with default options (§2.1): 10 for hold'em and Omaha, 6 otherwise."""
    return 10 if mode in ("holdem", "omaha") else 6


def target_bands(mode: str, players: int, korean: bool = False) -> Bands:
    """The bands of the module docstring for ``mode`` at ``players`` seats (``korean``: Korean betting)."""
    heads_up = players == 2
    full = players >= 8
    hpg = 20.0 if heads_up else 10.0 if full else 15.0
    cap = 20.0 if heads_up else 15.0
    if korean:
        cap = 30.0
        if not heads_up:
            hpg = 8.0
    if mode in ("holdem", "omaha"):
        shift = 10.0 if mode == "omaha" else 0.0
        if heads_up:
            vpip: Band = (40.0, 95.0)
            pfr: Band = (4.0, 75.0)
        elif full:
            vpip, pfr = (12.0 + shift, 35.0 + shift), (3.0, 25.0)
        else:
            vpip, pfr = (20.0 + shift, 40.0 + shift), (4.0, 30.0)
        return Bands(vpip, pfr, None, cap, hpg)
    stay: Band = (50.0, 100.0) if heads_up else (20.0, 85.0)
    return Bands(None, None, stay, cap, hpg)


def in_band(value: float, band: Band | None) -> bool | None:
    if band is None:
        return None
    return band[0] <= value <= band[1]


@dataclass(frozen=True)
class Figures:
    """The figures of one run, ready to print beside :class:`Bands`."""

    all_in: float
    first_hand_all_in: float
    hands_per_game: float
    vpip: dict[str, float]  # per level, percent
    pfr: dict[str, float]
    stay: dict[str, float]


def figures(play: PlayStats, games: int) -> Figures:
    """Rates from counts; ``games`` is how many games the run started (the last one may be cut short)."""
    levels = sorted(play.by_level)
    return Figures(
        all_in=play.all_in_rate(),
        first_hand_all_in=play.first_hand_all_in_rate(),
        hands_per_game=play.hands / games if games else 0.0,
        vpip={lv: play.by_level[lv].pct(play.by_level[lv].vpip) for lv in levels},
        pfr={lv: play.by_level[lv].pct(play.by_level[lv].pfr) for lv in levels},
        stay={lv: play.by_level[lv].pct(play.by_level[lv].stay) for lv in levels},
    )


def band_text(band: Band | None, unit: str = "%") -> str:
    return "–" if band is None else f"{band[0]:g}–{band[1]:g}{unit}"
