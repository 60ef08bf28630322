"""Render speed of the table on a throttled phone: one whole hand, view by view, before and after.

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/render.py [--base main-commit] [--reps 2]``.

Debian's /usr/bin/chromium (the launch arguments of tests/web/conftest.py) through Playwright, a 390×844
page, CDP ``Emulation.setCPUThrottlingRate`` 4 (Chrome DevTools' "4× slowdown", a mid-range phone). Two
tables: a 10-player hold'em hand (me + 9) and a 6-player 7 Poker hand, each a synthetic but complete hand of
views in the docs/view.md shape built from tests/web/fixtures (blinds, every action, each street, showdown).

For each view: the time from handing it to the table (what app.js does on a ``view`` message) to the next
paint (a requestAnimationFrame after it, then a message posted from that frame, which runs after the paint); a
PerformanceObserver counts the long tasks (> 50 ms) over the whole hand. "before" is the client at ``--base``
(checked out with ``git worktree`` into a temporary directory), "after" is this tree; both pages are open in
the same browser and get the hand view by view in turn (after one unrecorded warm-up pass each), so the shared
machine's load hits both alike. Figures are wall-clock milliseconds in the throttled page: compare the two
columns, not the absolute numbers across machines (a loaded machine inflates both). The `js` column is the
part spent in the table's own code (scripts and the layouts they force) before the browser may paint.
"""

from __future__ import annotations

import argparse
import copy
import json
import mimetypes
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "web" / "fixtures"
STATIC_REL = Path("src") / "pokerroom" / "web" / "static"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ORIGIN = "http://pokerroom.test"
NAMES = {
    f"p{i}": n
    for i, n in enumerate(
        ["민수", "지수", "하늘", "도윤", "서연", "준호", "유나", "태민", "소라", "건우"], start=1
    )
}

# the page: the table alone (as app.js hosts it), fed views by the benchmark; `schedule` is the coalescing
# entry app.js uses where the client has one, `update` otherwise
HARNESS = """<!doctype html><html lang="ko"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/style.css"></head>
<body><header id="topbar"><div class="title">포커 방</div></header>
<main id="main"><div class="table-host" id="host"></div></main>
<script type="module">
import { TableUI } from "/static/table.js";
const names = %s;
const ui = new TableUI(document.getElementById("host"), {
  onAction: () => {}, confirm: async () => true, onTurn: () => {}, toast: () => {} });
const ctx = (v) => ({ names, role: v.me ? "player" : "spectator", settings: { tips: false } });
window.feed = (v) => (ui.schedule ? ui.schedule(v, ctx(v)) : ui.update(v, ctx(v)));
const painted = () => new Promise((res) => requestAnimationFrame(() => {
  const ch = new MessageChannel(); ch.port1.onmessage = () => res(); ch.port2.postMessage(0); }));
const pause = (ms) => new Promise((res) => setTimeout(res, ms));
window.runHand = async (views, gap) => {
  const long = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) long.push(e.duration);
  });
  obs.observe({ type: "longtask" });
  const times = [];
  const sync = [];
  for (const v of views) {
    await pause(gap);
    const t0 = performance.now();
    window.feed(v);
    sync.push(performance.now() - t0);
    await painted();
    times.push(performance.now() - t0);
  }
  await pause(gap);
  obs.disconnect();
  return { times, sync, long };
};
let long = [];
let obs = null;
window.startObs = () => {
  long = [];
  obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) long.push(e.duration);
  });
  obs.observe({ type: "longtask" });
};
window.stopObs = async () => {
  await pause(100);
  obs.disconnect();
  return long;
};
window.step = async (v, gap, name) => {
  await pause(gap);
  performance.mark(`bench-${name}-start`);
  const t0 = performance.now();
  window.feed(v);
  const sync = performance.now() - t0;
  await painted();
  const total = performance.now() - t0;
  performance.mark(`bench-${name}-end`);
  return [total, sync];
};
window.ready = true;
</script></body></html>"""


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return data


def card(i: int) -> dict[str, Any]:
    i %= 52
    return {"id": i, "rank": 2 + i % 13, "suit": "SDHC"[i // 13]}


class Hand:
    """A hand played out action by action, yielding the view a player (p1) sees after each change."""

    def __init__(self, template: str, n: int, korean: bool) -> None:
        self.v = copy.deepcopy(load(template))
        self.korean = korean
        self.views: list[dict[str, Any]] = []
        self.next_card = 0
        proto = self.v["seats"][1]
        self.ids = [f"p{i + 1}" for i in range(n)]
        seats = []
        for i, pid in enumerate(self.ids):
            s = copy.deepcopy(proto)
            s.update(
                id=pid,
                seat=i,
                stack=1000,
                status="playing",
                away=False,
                inHand=True,
                folded=False,
                allIn=False,
                dealer=i == 0,
                sun=korean and i == 0,
                sb=not korean and i == 1,
                bb=not korean and i == 2,
                boss=False,
                committedRound=0,
                committedTotal=0,
                lastAction=None,
                up=[],
                hole=[],
                holeCount=0,
                shown=False,
                ready=False,
            )
            seats.append(s)
        self.v.update(
            seats=seats,
            board=[],
            pots=[],
            potTotal=0,
            currentBet=0,
            toAct=None,
            pending=[],
            showdown=None,
            awards=None,
            phase="betting",
            street=0,
            publicLog=[],
        )
        self.v["me"] = {
            **self.v["me"],
            "id": "p1",
            "seat": 0,
            "hole": [],
            "up": [],
            "legalActions": [],
            "hint": None,
            "toCall": 0,
        }

    def seat(self, pid: str) -> dict[str, Any]:
        return next(s for s in self.v["seats"] if s["id"] == pid)

    def deal(self, k: int) -> list[dict[str, Any]]:
        out = [card(self.next_card + j) for j in range(k)]
        self.next_card += k
        return out

    def emit(self) -> None:
        v = self.v
        me = self.seat("p1")
        v["me"].update(hole=me["hole"], up=me["up"])
        v["me"]["legalActions"] = self.legal() if v["toAct"] == "p1" else []
        v["deadlineAt"] = int(time.time() * 1000) + 60_000 if v["phase"] == "betting" else None
        v["pending"] = [v["toAct"]] if v["toAct"] else []
        out = copy.deepcopy(v)
        for s in out["seats"]:
            if s["id"] != "p1" and not s["shown"]:
                s["hole"] = [{"hidden": True, "slot": k} for k in range(len(s["hole"]))]
        self.views.append(out)

    def legal(self) -> list[dict[str, Any]]:
        if self.korean:
            return [
                {"type": t, "amount": 10} for t in ("k.die", "k.call", "k.ddadang", "k.quarter", "k.half")
            ]
        return [
            {"type": "nl.fold"},
            {"type": "nl.call", "amount": 10},
            {"type": "nl.raise", "min": 40, "max": 990},
            {"type": "nl.allIn", "amount": 990, "to": 1000},
        ]

    def bet(self, pid: str, action: str, to: int) -> None:
        v = self.v
        s = self.seat(pid)
        if action in ("fold", "k.die", "nl.fold"):
            s["folded"] = True
        else:
            add = max(0, to - s["committedRound"])
            s["stack"] -= add
            s["committedRound"] += add
            s["committedTotal"] += add
            v["potTotal"] += add
            v["currentBet"] = max(v["currentBet"], s["committedRound"])
        s["lastAction"] = action
        v["publicLog"].append({"handNo": 1, "type": "action", "text": f"{pid} {action} {to}"})

    def street(self, order: list[str], actions: list[tuple[str, int]]) -> None:
        live = [p for p in order if not self.seat(p)["folded"]]
        for pid, (action, to) in zip(live, actions, strict=False):
            self.v["toAct"] = pid
            self.emit()
            self.bet(pid, action, to)
        self.v["toAct"] = None
        for s in self.v["seats"]:
            s["committedRound"] = 0
            s["lastAction"] = None
        self.v["currentBet"] = 0
        self.v["pots"] = [{"amount": self.v["potTotal"], "eligible": self.ids}]

    def finish(self, winner: str, shown: list[str]) -> list[dict[str, Any]]:
        v = self.v
        v.update(phase="handEnd", toAct=None, street=v["street"])
        best = (v["board"][:3] if v["board"] else []) + self.seat(winner)["hole"][:2]
        v["showdown"] = [
            {
                "id": p,
                "cards": self.seat(p)["hole"],
                "best": best if p == winner else [],
                "handName": "투페어" if p == winner else "원페어",
                "lowName": None,
            }
            for p in shown
        ]
        for p in shown:
            self.seat(p)["shown"] = True
        v["awards"] = [{"potIndex": 0, "to": winner, "amount": v["potTotal"]}]
        self.seat(winner)["stack"] += v["potTotal"]
        self.emit()
        for p in self.ids[:3]:  # the ready marks come in one by one
            self.seat(p)["ready"] = True
            self.emit()
        return self.views


def holdem_ten() -> list[dict[str, Any]]:
    """10-player no-limit hold'em: blinds, a raise and calls preflop, a flop bet, checks to the river."""
    h = Hand("holdem_ten_player", 10, korean=False)
    for s in h.v["seats"]:
        s["hole"] = h.deal(2)
    h.bet("p2", "sb", 5)
    h.bet("p3", "bb", 10)
    ids = h.ids
    pre = ids[3:] + ids[:3]
    h.street(
        pre,
        [
            ("nl.call", 10),
            ("nl.fold", 0),
            ("nl.raise", 40),
            ("nl.fold", 0),
            ("nl.call", 40),
            ("nl.fold", 0),
            ("nl.fold", 0),
            ("nl.call", 40),
            ("nl.fold", 0),
            ("nl.call", 40),
            ("nl.call", 40),
            ("nl.call", 40),
        ],
    )
    post = ids[1:] + ids[:1]
    for k, name in ((3, "플랍"), (1, "턴"), (1, "리버")):
        h.v["board"] = h.v["board"] + h.deal(k)
        h.v["street"] += 1
        h.v["streetName"] = name
        acts = (
            [("nl.check", 0)] * 6
            if name != "플랍"
            else [("nl.check", 0), ("nl.raise", 60)] + [("nl.call", 60)] * 4
        )
        h.street(post, acts)
    return h.finish("p6", ["p1", "p6", "p10"])


def seven_six() -> list[dict[str, Any]]:
    """6-player 7 Poker (Korean betting): 4구 to 7구, one up card a street, the hidden seventh, a showdown."""
    h = Hand("seven_six_player", 6, korean=True)
    for s in h.v["seats"]:
        s["hole"] = h.deal(2)
        s["up"] = h.deal(1)
    order = h.ids
    for k, name in enumerate(("4구", "5구", "6구", "7구")):
        h.v["street"] = k
        h.v["streetName"] = name
        for s in h.v["seats"]:
            if not s["folded"]:
                if name == "7구":
                    s["hole"] = s["hole"] + h.deal(1)
                else:
                    s["up"] = s["up"] + h.deal(1)
        h.v["boss"] = "p3"
        acts = [("k.bbing", 10), ("k.call", 10), ("k.half", 40), ("k.call", 40), ("k.die", 0), ("k.call", 40)]
        if k:
            acts = [("k.check", 0), ("k.bbing", 10), ("k.call", 10), ("k.call", 10), ("k.call", 10)]
        h.street(order, acts)
    return h.finish("p3", ["p1", "p2", "p3"])


def route_from(static: Path) -> Any:
    def handle(route: Any) -> None:
        path = route.request.url.split("?", 1)[0][len(ORIGIN) :]
        if path == "/bench.html":
            route.fulfill(
                status=200,
                body=HARNESS % json.dumps(NAMES, ensure_ascii=False),
                headers={"content-type": "text/html; charset=utf-8"},
            )
            return
        f = static / path[len("/static/") :] if path.startswith("/static/") else None
        if f is None or not f.is_file():
            route.fulfill(status=404, body="not found")
            return
        ctype = "text/javascript" if f.suffix == ".js" else (mimetypes.guess_type(str(f))[0] or "text/plain")
        route.fulfill(status=200, body=f.read_bytes(), headers={"content-type": f"{ctype}; charset=utf-8"})

    return handle


def measure(
    browser: Any,
    clients: dict[str, Path],
    views: list[dict[str, Any]],
    rate: float,
    gap: int,
    size: tuple[int, int] = (390, 844),
) -> dict[str, dict[str, list[float]]]:
    """One hand on every client at once, view by view: view i goes to one client, then to the other (the
    order flips every view), so a burst of load on the shared machine hits both alike."""
    pages: dict[str, Any] = {}
    errors: list[str] = []
    for name, static in clients.items():
        ctx = browser.new_context(
            viewport={"width": size[0], "height": size[1]}, locale="ko-KR", device_scale_factor=1
        )
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.route(f"{ORIGIN}/**", route_from(static))
        page.goto(f"{ORIGIN}/bench.html")
        page.wait_for_function("() => window.ready === true")
        ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
        page.evaluate("([v, g]) => window.runHand(v, g)", [views, gap])  # warm-up pass, not recorded
        page.evaluate("() => window.startObs()")
        pages[name] = page
    out: dict[str, dict[str, list[float]]] = {name: {"times": [], "sync": []} for name in pages}
    browser.start_tracing(categories=TRACE_CATEGORIES)
    for i, v in enumerate(views):
        order = list(pages.items())
        if i % 2:
            order.reverse()
        for name, page in order:
            total, sync = page.evaluate("([v, g, n]) => window.step(v, g, n)", [v, gap, name])
            out[name]["times"].append(total)
            out[name]["sync"].append(sync)
    for name, page in pages.items():
        out[name]["long"] = page.evaluate("() => window.stopObs()")
    for name, cpu in cpu_per_view(browser.stop_tracing(), list(pages)).items():
        out[name].update(cpu)
    for page in pages.values():
        page.context.close()
    if errors:
        raise RuntimeError(f"page errors: {errors[:3]}")
    return out


TRACE_CATEGORIES = ["blink.user_timing", "toplevel"]


def cpu_per_view(raw: bytes, names: list[str]) -> dict[str, dict[str, list[float]]]:
    """Main-thread CPU time per view, from a Chrome trace: for each client, the renderer main thread's thread
    time between the mark set before the view is handed over and the one set once it is painted, and each
    recorded task's thread time. Thread time does not count waiting for a core, so on the shared machine it
    moves far less with the load than the wall clock does (it still grows some: caches, switches); it is the
    work a view costs, throttled or not."""
    events: list[dict[str, Any]] = json.loads(raw)["traceEvents"]
    out: dict[str, dict[str, list[float]]] = {}
    for name in names:
        marks = sorted(
            (
                e
                for e in events
                if e.get("name") in (f"bench-{name}-start", f"bench-{name}-end") and "tts" in e
            ),
            key=lambda e: e["ts"],
        )
        if not marks:
            continue
        pid, tid = marks[0]["pid"], marks[0]["tid"]
        per_view = []
        windows: list[tuple[int, int]] = []
        start: dict[str, Any] | None = None
        for m in marks:
            if m["name"].endswith("-start"):
                start = m
            elif start is not None:
                per_view.append((m["tts"] - start["tts"]) / 1000)
                windows.append((start["ts"], m["ts"]))
                start = None
        # the tasks of the views: those that end inside a view's window (the one that took the view, the
        # frame, the one that saw it painted); outermost only (a nested task is inside its parent's time)
        runs = sorted(
            (
                e
                for e in events
                if e.get("name") == "ThreadControllerImpl::RunTask"
                and e.get("ph") == "X"
                and (e["pid"], e["tid"]) == (pid, tid)
                and "tdur" in e
            ),
            key=lambda e: (e["ts"], -e["dur"]),
        )
        tasks = []
        edge = -1
        for e in runs:
            if e["ts"] < edge:
                continue  # nested
            edge = e["ts"] + e["dur"]
            if any(s0 <= edge and e["ts"] <= s1 for s0, s1 in windows):
                tasks.append(e["tdur"] / 1000)
        out[name] = {"cpu": per_view, "cpu_tasks": tasks}
    return out


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(p / 100 * len(s) + 0.5) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", default="main", help="git commit of the 'before' client (default: main)")
    parser.add_argument("--reps", type=int, default=2, help="recorded hands per table and client")
    parser.add_argument("--rate", type=float, default=4.0, help="CPU throttling rate")
    parser.add_argument("--gap", type=int, default=120, help="ms between two views")
    parser.add_argument(
        "--other-src",
        type=Path,
        default=None,
        help="the 'before' client from this source tree (its src/pokerroom/web/static) instead of --base",
    )
    parser.add_argument("--size", default="390x844", help="viewport WxH (e.g. 360x640: a short phone)")
    args = parser.parse_args()
    w, _, hgt = args.size.partition("x")
    size = (int(w), int(hgt))
    from playwright.sync_api import sync_playwright

    tables = {"hold'em 10 players": holdem_ten(), "7 Poker 6 players": seven_six()}
    base = subprocess.run(
        ["git", "rev-parse", "--short", args.base], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()
    if args.other_src is not None:
        base = str(args.other_src)
    with tempfile.TemporaryDirectory(prefix="render-bench-") as tmp:
        old = Path(tmp) / "before"
        if args.other_src is not None:
            old = args.other_src.resolve()
        else:
            subprocess.run(
                ["git", "worktree", "add", "--detach", str(old), base],
                cwd=ROOT,
                check=True,
                capture_output=True,
            )
        try:
            clients = {"before": old / STATIC_REL, "after": ROOT / STATIC_REL}
            results: dict[tuple[str, str], dict[str, list[float]]] = {}
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
                for _ in range(args.reps):
                    for table, views in tables.items():
                        both = measure(browser, clients, views, args.rate, args.gap, size)
                        for client, r in both.items():
                            acc = results.setdefault(
                                (table, client),
                                {"times": [], "long": [], "sync": [], "cpu": [], "cpu_tasks": []},
                            )
                            for k in acc:
                                acc[k] += r[k]
                browser.close()
        finally:
            if args.other_src is None:
                subprocess.run(
                    ["git", "worktree", "remove", "--force", str(old)],
                    cwd=ROOT,
                    check=False,
                    capture_output=True,
                )
    print(
        f"view → next paint at CPU ×{args.rate:g}, {size[0]}×{size[1]}, "
        f"{args.reps} recorded hand(s) per row; "
        f"before = {base}, after = this tree; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    print(
        f"{'table':<20} {'client':<7} {'views':>5} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} "
        f"{'long>50':>7} {'longest':>7} {'js p50':>7} | {'cpu p50':>7} {'cpu p95':>7} {'cpu max':>7} "
        f"{'task>' + format(50 / args.rate, 'g'):>7} {'longest':>7}"
    )
    for (table, client), r in results.items():
        t, lt = r["times"], r["long"]
        c, ct = r["cpu"] or [0.0], [x for x in r["cpu_tasks"] if x * args.rate > 50]
        print(
            f"{table:<20} {client:<7} {len(t):>5} {statistics.median(t):>7.1f} {pct(t, 95):>7.1f} "
            f"{max(t):>7.1f} {len(lt):>7} {max(lt, default=0):>7.1f} {statistics.median(r['sync']):>7.1f} | "
            f"{statistics.median(c):>7.1f} {pct(c, 95):>7.1f} {max(c):>7.1f} {len(ct):>7} "
            f"{max(r['cpu_tasks'], default=0):>7.1f}"
        )
    for table in tables:
        rb, ra = results[(table, "before")], results[(table, "after")]
        b, a = rb["times"], ra["times"]
        print(
            f"{table}: p95 after/before = {pct(a, 95) / pct(b, 95):.2f}, "
            f"p50 after/before = {statistics.median(a) / statistics.median(b):.2f}, "
            f"js p50 after/before = {statistics.median(ra['sync']) / statistics.median(rb['sync']):.2f}, "
            f"cpu p95 after/before = {pct(ra['cpu'] or [0.0], 95) / pct(rb['cpu'] or [1.0], 95):.2f}"
        )
    print(
        "js: the table's own work on a view (scripts and the layouts they force) before the browser may "
        "paint; the rest of 'view → paint' is the frame's style, layout and paint, and waiting for the frame."
    )
    print(
        "cpu: the renderer main thread's CPU time (ms, thread time) from the view to its paint; its tasks "
        "over that many ms (a 50 ms task at the throttling rate) / the longest; thread time leaves out the "
        "wait for a core, which the wall-clock columns count on a loaded machine."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
