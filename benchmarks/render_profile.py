"""Where a throttled table's render time goes: one whole hand, profiled (speed on a slow phone).

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/render_profile.py [--table holdem10] [--src DIR]``.

The same page, hand and throttling as benchmarks/render.py (which gives the before/after figures); this
script answers "which part of it": a Chrome trace of the recorded hand summed by event (script, style
recalculation, layout, paint...), the layouts forced from script (a Layout or UpdateLayoutTree event inside
script: a read after a write), the long tasks, and the JavaScript functions with the most self time (CDP
Profiler). Times are throttled milliseconds under whatever load the machine has: read them as shares.
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _render_hand import holdem_ten, seven_six
from _render_page import CHROMIUM, CHROMIUM_ARGS, ORIGIN, ROOT, STATIC_REL, route_from
from _render_trace import long_tasks, pct, print_long_tasks, view_labels

DUMP_PAINT = False
CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "disabled-by-default-devtools.timeline.stack",
    "blink.user_timing",
    "v8.execute",
]


def trace_summary(raw: bytes, top: int) -> None:
    events: list[dict[str, Any]] = json.loads(raw)["traceEvents"]
    # the renderer's main thread: where the FunctionCall events of our page are
    calls = collections.Counter((e["pid"], e["tid"]) for e in events if e.get("name") == "FunctionCall")
    if not calls:
        print("no script events in the trace")
        return
    pid, tid = calls.most_common(1)[0][0]
    main = sorted(
        (
            e
            for e in events
            if e.get("pid") == pid and e.get("tid") == tid and e.get("ph") == "X" and "dur" in e
        ),
        key=lambda e: (e["ts"], -e["dur"]),
    )
    total: collections.Counter[str] = collections.Counter()
    selft: collections.Counter[str] = collections.Counter()
    forced: collections.Counter[str] = collections.Counter()
    forced_n: collections.Counter[str] = collections.Counter()
    where: collections.Counter[str] = collections.Counter()
    where_ms: collections.Counter[str] = collections.Counter()
    tasks = []
    work: collections.Counter[str] = collections.Counter()
    for e in events:
        if e.get("pid") != pid or e.get("tid") != tid:
            continue
        bd = (e.get("args") or {}).get("beginData") or {}
        if e.get("name") == "Layout":
            work["layout objects dirty"] += bd.get("dirtyObjects", 0)
            work["layout objects total"] += bd.get("totalObjects", 0)
        elif e.get("name") in ("Paint", "Commit", "PrePaint", "Layerize") and "dur" in e:
            work[f"{e['name']} count"] += 1
            if e["name"] == "Paint" and DUMP_PAINT:
                print("paint", e["dur"], json.dumps(e.get("args"))[:300])
        elif e.get("name") == "UpdateLayoutTree":
            work["style elements"] += (e.get("args") or {}).get("elementCount", 0)
    stack: list[dict[str, Any]] = []
    for e in main:
        while stack and stack[-1]["ts"] + stack[-1]["dur"] <= e["ts"]:
            stack.pop()
        name = e["name"]
        total[name] += e["dur"]
        selft[name] += e["dur"]
        if stack:
            selft[stack[-1]["name"]] -= e["dur"]
        if name in ("Layout", "UpdateLayoutTree") and any(
            s["name"] in ("FunctionCall", "EvaluateScript", "V8.Execute", "TimerFire", "FireAnimationFrame")
            for s in stack
        ):
            forced[name] += e["dur"]
            forced_n[name] += 1
            args = e.get("args", {})
            st = (args.get("beginData") or args.get("data") or {}).get("stackTrace") or []
            site = " < ".join(f"{f.get('functionName') or '?'}:{f.get('lineNumber', 0) + 1}" for f in st[:3])
            where[f"{name} {site or '(no stack)'}"] += 1
            where_ms[f"{name} {site or '(no stack)'}"] += e["dur"]
        if name == "RunTask" and not stack:
            tasks.append(e["dur"] / 1000)
        stack.append(e)
    print("main thread, self time by trace event (ms, throttled):")
    for name, us in selft.most_common(top):
        print(f"  {name:<32} self {us / 1000:8.1f}   incl {total[name] / 1000:8.1f}")
    print(
        "work (load-independent counts summed over the hand):", ", ".join(f"{k} {v}" for k, v in work.items())
    )
    print("layouts forced from script (a read after a write):")
    for name in ("UpdateLayoutTree", "Layout"):
        print(f"  {name:<32} {forced_n[name]:5d} times, {forced[name] / 1000:8.1f} ms")
    print("where the forced layouts come from (the script's stack):")
    for site, n in where.most_common(top):
        print(f"  {n:4d} times {where_ms[site] / 1000:7.1f} ms  {site}")
    long = sorted((t for t in tasks if t > 50), reverse=True)
    print(f"tasks > 50 ms: {len(long)}; longest: {', '.join(f'{t:.0f}' for t in long[:10])}")


def profile_summary(profile: dict[str, Any], top: int) -> None:
    nodes = {n["id"]: n for n in profile["nodes"]}
    dt = collections.Counter[int]()
    for sid, d in zip(profile["samples"], profile["timeDeltas"], strict=False):
        dt[sid] += d
    selft: collections.Counter[str] = collections.Counter()
    for nid, us in dt.items():
        cf = nodes[nid]["callFrame"]
        url = cf["url"].rsplit("/", 1)[-1]
        selft[f"{cf['functionName'] or '(anonymous)'} {url}:{cf['lineNumber'] + 1}"] += us
    print("JavaScript self time by function (ms, throttled, sampled):")
    for name, us in selft.most_common(top):
        print(f"  {us / 1000:8.1f}  {name}")
    # inclusive: each function once per sample, whatever the recursion
    parent = {c: n["id"] for n in profile["nodes"] for c in n.get("children", [])}
    incl: collections.Counter[str] = collections.Counter()
    for nid, us in dt.items():
        seen = set()
        k: int | None = nid
        while k is not None:
            cf = nodes[k]["callFrame"]
            name = (
                f"{cf['functionName'] or '(anonymous)'} {cf['url'].rsplit('/', 1)[-1]}:{cf['lineNumber'] + 1}"
            )
            if name not in seen:
                seen.add(name)
                incl[name] += us
            k = parent.get(k)
    print(
        "JavaScript inclusive time by function (ms, throttled, sampled; forced layouts count in the caller):"
    )
    for name, us in incl.most_common(top * 2):
        if name.startswith(("(root)", "(idle)", "(program)")):
            continue
        print(f"  {us / 1000:8.1f}  {name}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--table", choices=["holdem10", "seven6"], default="holdem10")
    parser.add_argument("--src", type=Path, default=ROOT, help="tree whose client is profiled")
    parser.add_argument("--rate", type=float, default=4.0)
    parser.add_argument("--gap", type=int, default=120)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--width", type=int, default=390)
    parser.add_argument("--height", type=int, default=844)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    views = holdem_ten() if args.table == "holdem10" else seven_six()
    static = args.src / STATIC_REL
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        ctx = browser.new_context(
            viewport={"width": args.width, "height": args.height}, locale="ko-KR", device_scale_factor=1
        )
        page = ctx.new_page()
        page.route(f"{ORIGIN}/**", route_from(static))
        page.goto(f"{ORIGIN}/bench.html")
        page.wait_for_function("() => window.ready === true")
        cdp = ctx.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.rate})
        page.evaluate("([v, g]) => window.runHand(v, g)", [views, args.gap])  # warm-up
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 200})
        browser.start_tracing(page=page, categories=CATEGORIES)
        cdp.send("Profiler.start")
        r = page.evaluate("([v, g]) => window.runHand(v, g)", [views, args.gap])
        prof = cdp.send("Profiler.stop")["profile"]
        raw = browser.stop_tracing()
        browser.close()
    t = sorted(r["times"])
    print(
        f"{args.table}: {len(t)} views, view→paint p50 {statistics.median(t):.1f} "
        f"p95 {pct(t, 95):.1f} max {t[-1]:.1f} ms; long tasks (observer) {len(r['long'])}, "
        f"longest {max(r['long'], default=0):.0f} ms"
    )
    print(
        "per view (view→paint ms / sync js ms):",
        " ".join(f"{a:.0f}/{b:.0f}" for a, b in zip(r["times"], r["sync"], strict=False)),
    )
    trace_summary(raw, args.top)
    events = json.loads(raw)["traceEvents"]
    marks = sorted(
        (e for e in events if str(e.get("name", "")).startswith("bench-view-")), key=lambda e: e["ts"]
    )
    if marks:
        labels = view_labels(views)
        windows = [
            (m["ts"], m["ts"] + t * 1000, labels[int(m["name"].rsplit("-", 1)[1])])
            for m, t in zip(marks, r["times"], strict=False)
        ]
        tasks = long_tasks(events, (marks[0]["pid"], marks[0]["tid"]), windows, 50)
        print_long_tasks("long tasks by view and work (throttled ms)", tasks, args.rate)
    profile_summary(prof, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
