"""Draw the home-screen icons (PNG) from the one SVG icon, with Debian's chromium through Playwright.

Run: ``PYTHONPATH=src .venv/bin/python scripts/make_icons.py`` after changing
``src/pokerroom/web/static/icons/icon.svg``; commit the PNGs it writes beside it.

Why PNGs at all: a browser installs a page to the home screen from its web manifest, and Chrome asks for a
192 and a 512 px icon, iOS for a 180 px ``apple-touch-icon``; both read PNG. Why a maskable one: Android cuts
icons to its own shape, so that one has the drawing inside the central 80 % (the safe zone) on a full-bleed
background.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ICONS = ROOT / "src/pokerroom/web/static/icons"
sys.path.insert(0, str(ROOT / "tests"))

BACKGROUND = "#0b1d14"  # the page's own (style.css body), also the manifest's background_color
SIZES = {"icon-192.png": (192, 1.0), "icon-512.png": (512, 1.0), "apple-touch-icon.png": (180, 1.0),
         "maskable-512.png": (512, 0.72)}


def page_for(svg: str, size: int, scale: float) -> str:
    inner = round(size * scale)
    pad = (size - inner) // 2
    src = "data:image/svg+xml;utf8," + svg.replace(chr(10), " ").replace("#", "%23")
    return (f"<html><body style='margin:0;background:{BACKGROUND}'>"
            f"<div style='width:{size}px;height:{size}px;padding:{pad}px;box-sizing:border-box'>"
            f"<img style='width:{inner}px;height:{inner}px;display:block' "
            f"src='{src}'></div></body></html>")


def main() -> int:
    from playwright.sync_api import sync_playwright

    import needs

    svg = (ICONS / "icon.svg").read_text()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=needs.chromium(), headless=True)
        for name, (size, scale) in SIZES.items():
            page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            page.set_content(page_for(svg, size, scale))
            page.wait_for_function("() => document.querySelector('img').complete")
            page.screenshot(path=str(ICONS / name), omit_background=False)
            page.close()
            print(f"wrote {name} ({size}×{size})")
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
