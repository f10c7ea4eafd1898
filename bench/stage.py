"""Stage latency in Chromium: key press to redraw and slider drag to redraw on Explore,
Tokenize and Compare.

    python -m bench.stage                 # default sample, and 300 KB with 2,000 merges
    python -m bench.stage --presses 200   # more samples
    python -m bench.stage --compare-only  # only Compare (3 configurations, default sample)
    python -m bench.stage --real-size     # only 1 MB with 30,000 merges: Explore, Compare

Starts ``streamlit run app.py`` on a free port, opens Explore in Debian's Chromium
(Playwright) and measures, in the page, from the input event's timestamp
(``event.timeStamp``) to the second ``requestAnimationFrame`` callback after it: the
first frame callback comes before the frame holding the redraw is painted, the second
after it, so the figure includes script, style, layout and paint. Keys are pressed on
the page body (not a text box), one every 60 ms; the drag moves the mouse over the
slider in small steps. It prints the median and p95 in milliseconds (the targets, set so
that stepping feels immediate: p95 <= 50 ms on the default sample, <= 100 ms with a
300 KB corpus and 2,000 merges).
Not a unit test: numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"

PROBE = """() => {
  window.__lat = [];
  const record = (e) => {
    const t0 = e.timeStamp;
    const before = (window.__bpevizStage || {}).redraws || 0;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      const after = (window.__bpevizStage || {}).redraws || 0;
      if (after > before) window.__lat.push(performance.now() - t0);
    }));
  };
  // capture phase on window: runs before the stage's own handlers, which redraw
  window.addEventListener('keydown', record, true);
  window.addEventListener('input', (e) => {
    if (e.target && e.target.classList && e.target.classList.contains('bv-stage-slider')) record(e);
  }, true);
}"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def start_server(port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--browser.gatherUsageStats", "false"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2):
                return proc
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit("streamlit did not start")


def ready(page, stage: bool = True) -> None:
    page.wait_for_timeout(500)
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]',
                           timeout=300_000)
    if stage:
        page.wait_for_selector("[data-bpeviz-step]", timeout=300_000)
    page.wait_for_timeout(1500)


def measure(page, presses: int) -> dict[str, list[float]]:
    # (while a rerun replaces the page, the old elements linger for a moment)
    page.wait_for_function("() => document.querySelectorAll('.bv-stage').length === 1",
                           timeout=120_000)
    page.evaluate(PROBE)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("Home")
    ready(page)  # the rerun that follows Home is over: measure the browser alone
    page.evaluate("() => { window.__lat = []; }")
    for i in range(presses):
        page.keyboard.press("ArrowRight" if i % 20 < 15 else "ArrowLeft")
        page.wait_for_timeout(60)
    page.wait_for_timeout(300)
    keys = page.evaluate("() => window.__lat")
    page.evaluate("() => { window.__lat = []; }")
    slider = page.locator(".bv-stage-slider")
    slider.scroll_into_view_if_needed()  # Compare's bar sits below its settings
    page.wait_for_timeout(300)
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + 4, y)
    page.mouse.down()
    steps = max(presses, 20)
    for i in range(steps):
        page.mouse.move(box["x"] + 4 + (box["width"] - 8) * (i + 1) / steps, y)
        page.wait_for_timeout(30)
    page.mouse.up()
    page.wait_for_timeout(300)
    drag = page.evaluate("() => window.__lat")
    return {"key": keys, "drag": drag}


def watch_websocket(page) -> None:
    """Count the bytes of every websocket frame the page receives (before it loads)."""
    got = page.__dict__.setdefault("_ws_bytes", [])
    page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda frame: got.append(len(frame) if frame else 0)))


def rerun_bytes(page, moves: int = 6) -> list[int]:
    """Bytes the browser receives over the websocket for each settled position move on
    Compare (a key, then Python's fragment rerun): the page's elements, including the
    cuts' data unless Streamlit's message cache sends a reference to it."""
    got = page.__dict__.setdefault("_ws_bytes", [])  # filled by watch_websocket
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    sizes = []
    for i in range(moves):
        before = sum(got)
        page.keyboard.press("Shift+ArrowRight" if i % 2 == 0 else "ArrowLeft")
        page.wait_for_timeout(2500)  # the report goes after a pause; the rerun follows
        ready(page)
        sizes.append(sum(got) - before)
    return sizes


def report(name: str, results: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    out = {}
    for kind, values in results.items():
        if not values:
            print(f"  {name:<42} {kind:<5} no samples")
            continue
        med, p95 = statistics.median(values), percentile(values, 95)
        out[kind] = {"median": med, "p95": p95, "max": max(values), "n": len(values)}
        print(f"  {name:<42} {kind:<5} n={len(values):<4} median {med:6.1f} ms"
              f"   p95 {p95:6.1f} ms   max {max(values):6.1f} ms", flush=True)
    return out


def real_size(page, url: str, presses: int, merges: int = 30_000,
              mb: float = 1.0) -> dict[str, dict]:
    """The stage at real size: a ``mb`` MB upload trained to ``merges`` merges,
    byte-level BPE; Explore's bar, card and words, and Compare's cuts of two configurations
    at the same size, redrawn by the browser."""
    from bench.data import corpus_path

    path = corpus_path(mb)
    results = {}
    page.goto(f"{url}/Explore?source=upload&algo=bbpe&merges={merges}&step=0")
    ready(page, stage=False)
    page.locator('[data-testid="stSidebar"] input[type=file]').set_input_files(str(path))
    page.wait_for_selector("[data-bpeviz-step]", timeout=600_000)
    ready(page)
    n = page.locator("[data-bpeviz-step]").first.inner_text().split()[-1]
    results[f"Explore, {mb:g} MB, {n} merges"] = report(
        f"Explore, {path.stat().st_size // 1000} KB upload, {n} merges", measure(page, presses))
    page.get_by_role("link", name="Compare").first.click()  # the same session: the upload
    ready(page, stage=False)
    page.wait_for_selector("[data-config]", timeout=600_000)
    for i in range(2):  # each configuration's merges (the page opens at 200)
        box = page.locator('[data-testid="stMain"]').get_by_label("Merges", exact=True).nth(i)
        box.fill(str(merges))
        box.press("Enter")
        ready(page, stage=False)
        page.wait_for_selector("[data-config]", timeout=600_000)
    ready(page)
    results[f"Compare, {mb:g} MB, {merges:,} merges"] = report(
        f"Compare, same upload, 2 x {merges:,} merges", measure(page, presses))
    return results


def run(presses: int = 100, port: int = 8799, large: bool = True,
        compare_only: bool = False, real: bool = False) -> dict[str, dict]:
    """Measure on the default sample (and a 300 KB upload with 2,000 merges; with
    ``real``, only a 1 MB upload with 30,000 merges); print and return
    ``{scenario: {"key"|"drag": {"median", "p95", "max", "n"}}}``."""
    from playwright.sync_api import sync_playwright

    proc = start_server(port)
    url = f"http://127.0.0.1:{port}"
    results = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM,
                                        args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1440, "height": 1000})
            watch_websocket(page)
            if real:
                results = real_size(page, url, presses)
                browser.close()
                return results
            # Compare: three configurations' cuts of the default text and their
            # differences, recomputed and redrawn by the browser at each position
            page.goto(f"{url}/Compare?cmp_n=3&cmp_step=0")
            ready(page)
            results["Compare, default sample"] = report(
                "Compare, default sample, 3 configurations", measure(page, presses))
            if compare_only:  # what each settled move sends, default text and 5,000 chars
                from bench.data import corpus_text

                for chars in (0, 5_000):
                    if chars:
                        box = page.locator("textarea").first
                        box.fill(corpus_text(1, offset=10)[:chars])
                        page.locator("h1").first.click()  # the box sends its text on blur
                        ready(page)
                        page.wait_for_selector("[data-config]", timeout=300_000)
                    sizes = rerun_bytes(page)
                    print(f"  Compare, 3 configurations, text of "
                          f"{chars or len(page.locator('textarea').first.input_value()):,} "
                          f"characters: websocket bytes per settled position move "
                          f"{sorted(sizes)} (median {statistics.median(sizes):,.0f})",
                          flush=True)
                    results[f"Compare rerun bytes, {chars}"] = sizes
            if compare_only:
                large = False
                browser.close()
                return results
            page.goto(f"{url}/Explore?step=0")
            ready(page)
            results["default sample"] = report("Explore, default sample (200 merges)",
                                               measure(page, presses))
            page.goto(f"{url}/Tokenize?step=0")
            ready(page)
            results["Tokenize, default sample"] = report(
                "Tokenize, default sample and text", measure(page, presses))
            if large:
                from bench.data import corpus_path

                path = corpus_path(0.3)
                page.goto(f"{url}/Explore?source=upload&merges=2000&step=0")
                ready(page, stage=False)
                page.locator('[data-testid="stSidebar"] input[type=file]').set_input_files(
                    str(path))
                ready(page)
                n = page.locator("[data-bpeviz-step]").first.inner_text()
                results["300 KB, 2,000 merges"] = report(
                    f"Explore, {path.stat().st_size // 1000} KB upload, {n.split()[-1]} merges",
                    measure(page, presses))
                page.get_by_role("link", name="Tokenize").first.click()
                ready(page)
                results["Tokenize, 300 KB, 2,000 merges"] = report(
                    f"Tokenize, same upload, {n.split()[-1]} merges", measure(page, presses))
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presses", type=int, default=100)
    parser.add_argument("--port", type=int, default=8799)
    parser.add_argument("--skip-large", action="store_true")
    parser.add_argument("--compare-only", action="store_true")
    parser.add_argument("--real-size", action="store_true",
                        help="only a 1 MB upload with 30,000 merges (Explore, Compare)")
    args = parser.parse_args()
    run(args.presses, args.port, not args.skip_large, args.compare_only, args.real_size)


if __name__ == "__main__":
    main()
