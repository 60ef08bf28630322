"""The render benchmark's page: Chromium as the browser tests launch it, the harness page that hosts the table
alone (as app.js does) and the route that serves it with a tree's client.

Apart from benchmarks/render.py so that benchmarks/render_profile.py loads the very same page, and so that
the page stays apart from the hands fed to it (_render_hand.py) and from the trace reading (_render_trace.py).
"""

from __future__ import annotations

import json
import mimetypes
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
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
  for (const [i, v] of views.entries()) {
    await pause(gap);
    performance.mark(`bench-view-${i}`);
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
