"""Reading a Chrome trace of the render benchmark: main-thread CPU per view, the long tasks with the view they
belong to and their work by kind (script, style, layout, paint, decode, fonts, gc).

Apart from benchmarks/render.py because benchmarks/render_profile.py reads its traces the same way, and the
trace arithmetic is a job of its own beside driving the browser.
"""

from __future__ import annotations

import json
from typing import Any

# devtools.timeline: what each long task did (script, style, layout, paint...), for the long-task list
TRACE_CATEGORIES = ["blink.user_timing", "toplevel", "devtools.timeline"]


def cpu_per_view(raw: bytes, names: list[str], labels: list[str]) -> dict[str, dict[str, Any]]:
    """Main-thread CPU time per view, from a Chrome trace: for each client, the renderer main thread's thread
    time between the mark set before the view is handed over and the one set once it is painted, and each
    recorded task's thread time. Thread time does not count waiting for a core, so on the shared machine it
    moves far less with the load than the wall clock does (it still grows some: caches, switches); it is the
    work a view costs at the throttling rate (the throttled thread's time counts the slowdown). Also the
    client's long tasks (long_tasks), each with its view (labels) and its work by kind."""
    events: list[dict[str, Any]] = json.loads(raw)["traceEvents"]
    out: dict[str, dict[str, Any]] = {}
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
        views = [
            (float(s0), float(s1), labels[k] if k < len(labels) else f"#{k}")
            for k, (s0, s1) in enumerate(windows)
        ]
        every = [t for t in long_tasks(events, (pid, tid), views, 0.0) if not t["view"].startswith("harness")]
        work: dict[str, float] = {}
        for t in every:
            for k, ms in t["work"].items():
                kind = k.split(" ")[0]
                work[kind] = work.get(kind, 0.0) + ms / max(1, len(per_view))
        long = [t for t in every if t["cpu"] >= 50.0]
        out[name] = {"cpu": per_view, "cpu_tasks": tasks, "long_tasks": long, "work": work}
    return out


def view_labels(views: list[dict[str, Any]]) -> list[str]:
    """What each view of a hand is, for the long-task list: hand start, an action, a street dealt, the
    showdown (banner and flying chips start there), a ready mark."""
    out = []
    prev: dict[str, Any] | None = None
    for i, v in enumerate(views):
        if prev is None:
            what = "hand start"
        elif v.get("phase") == "handEnd" and prev.get("phase") != "handEnd":
            what = "showdown+banner+chips"
        elif v.get("phase") == "handEnd":
            what = "ready mark"
        elif v.get("street") != prev.get("street") or len(v.get("board") or []) != len(
            prev.get("board") or []
        ):
            what = f"deal {v.get('streetName') or v.get('street')}"
        else:
            what = f"action ({prev.get('toAct')} acted)"
        out.append(f"#{i} {what}")
        prev = v
    return out


# trace event → the kind of work it is (self time); anything else is the task's own (mostly script) time
WORK_KINDS = (
    (
        "style",
        ("UpdateLayoutTree", "RecalculateStyles", "ParseAuthorStyleSheet", "ScheduleStyleRecalculation"),
    ),
    ("layout", ("Layout", "UpdateLayout")),
    ("paint", ("Paint", "PaintImage", "PrePaint", "Layerize", "Commit", "UpdateLayer", "CompositeLayers")),
    ("gc", ("MinorGC", "MajorGC", "V8.GC", "BlinkGC", "CppGC")),
)
SCRIPT_ENTRIES = (
    "FunctionCall",
    "EvaluateScript",
    "TimerFire",
    "FireAnimationFrame",
    "EventDispatch",
    "RunMicrotasks",
    "V8.Execute",
    "v8.callFunction",
    "v8.run",
)


def work_kind(name: str) -> str:
    if "Decode" in name or "ImageDecode" in name:
        return "decode"
    if "Font" in name or "font" in name:
        return "fonts"
    for kind, names in WORK_KINDS:
        if name in names or any(name.startswith(n) for n in names if n.endswith("GC")):
            return kind
    return "script"


def long_tasks(
    events: list[dict[str, Any]],
    thread: tuple[int, int],
    views: list[tuple[float, float, str]],
    min_ms: float,
    wall: bool = False,
) -> list[dict[str, Any]]:
    """The renderer main thread's tasks of at least min_ms (wall, or CPU thread time: a loaded machine
    inflates the first only; the throttled thread's CPU time already counts the throttling's slowdown), each
    with the view it belongs to (views: (start ts, end ts, label); the task runs inside that view's window or
    in the gap after it), what started it (the view handed over, the frame, a timer, an animation frame
    callback...) and its self time by kind of work (script, style, layout — "forced" when a script asked for
    it —, paint, decode, fonts, gc)."""
    evs = sorted(
        (e for e in events if (e.get("pid"), e.get("tid")) == thread and e.get("ph") == "X" and "dur" in e),
        key=lambda e: (e["ts"], -e["dur"]),
    )
    out: list[dict[str, Any]] = []
    i = 0
    while i < len(evs):
        top = evs[i]
        end = top["ts"] + top["dur"]
        j = i + 1
        while j < len(evs) and evs[j]["ts"] < end:
            j += 1
        cpu = top.get("tdur", 0) / 1000
        if cpu >= min_ms or (wall and top["dur"] / 1000 >= min_ms):
            out.append(_task(top, evs[i + 1 : j], views, cpu))
        i = j
    return out


def _task(
    top: dict[str, Any], kids: list[dict[str, Any]], views: list[tuple[float, float, str]], cpu: float
) -> dict[str, Any]:
    work: dict[str, float] = {}
    entries: list[str] = []
    stack: list[dict[str, Any]] = [top]

    # self time in thread time where the event has it (a loaded machine stretches the wall clock, not this)
    def took(e: dict[str, Any]) -> float:
        return float(e.get("tdur", e["dur"]))

    selft = {id(top): took(top)}
    for e in kids:
        while len(stack) > 1 and stack[-1]["ts"] + stack[-1]["dur"] <= e["ts"]:
            stack.pop()
        selft[id(stack[-1])] -= took(e)
        selft[id(e)] = took(e)
        name = e["name"]
        if name in ("FunctionCall", "TimerFire", "FireAnimationFrame", "EventDispatch") and len(entries) < 4:
            d = (e.get("args") or {}).get("data") or {}
            what = {
                "TimerFire": "timer",
                "FireAnimationFrame": "rAF",
                "EventDispatch": f"event {d.get('type')}",
            }.get(name, f"{d.get('functionName') or '?'}:{d.get('lineNumber', 0) + 1}")
            if what not in entries:
                entries.append(what)
        e["_forced"] = name in ("UpdateLayoutTree", "Layout") and any(
            s["name"] in SCRIPT_ENTRIES for s in stack
        )
        stack.append(e)
    for e in [top, *kids]:
        kind = work_kind(e["name"])
        if e.get("_forced"):
            kind += " (forced)"
        work[kind] = work.get(kind, 0.0) + selft[id(e)] / 1000
    if not entries and any(e["name"] in ("Paint", "Layout", "UpdateLayoutTree", "PrePaint") for e in kids):
        entries.append("frame")
    label = "harness (no view)"
    for s0, s1, lab in views:
        if top["ts"] <= s1 and top["ts"] + top["dur"] >= s0:
            label = lab  # the task that takes the view (it starts in the harness's timer), its frame...
            break
        if s1 < top["ts"]:
            label = f"after {lab}"  # a timer or an animation between two views
    return {
        "view": label,
        "ms": top["dur"] / 1000,
        "cpu": cpu,
        "entry": " ".join(entries) or top["name"],
        "work": {k: v for k, v in sorted(work.items(), key=lambda kv: -kv[1]) if v > 0},
    }


def print_long_tasks(title: str, tasks: list[dict[str, Any]], rate: float, top: int = 40) -> None:
    print(f"{title}: {len(tasks)} task(s) of >= 50 ms CPU at CPU ×{rate:g}; work: self time, CPU ms")
    for t in sorted(tasks, key=lambda t: -t["cpu"])[:top]:
        work = ", ".join(f"{k} {v:.0f}" for k, v in t["work"].items() if v >= 0.5)
        print(f"  {t['cpu']:5.0f} cpu {t['ms']:5.0f} wall  {t['view']:<30} {t['entry'][:24]:<24} {work}")


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(p / 100 * len(s) + 0.5) - 1))]
