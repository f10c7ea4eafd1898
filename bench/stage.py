"""Stage latency in Chromium: key press to redraw and slider drag to redraw on Explore,
Tokenize and Compare.

    python -m bench.stage                 # default sample, and 300 KB with 2,000 merges
    python -m bench.stage --presses 200   # more samples
    python -m bench.stage --compare-only  # only Compare (3 configurations, default sample)
    python -m bench.stage --real-size     # only 1 MB with 30,000 merges: Explore, Compare
    python -m bench stage --presses 40    # every first-screen element per key, and Play
                                          # (elements() below; --large for an upload)

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
import itertools
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

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
         "--server.port", str(port), "--browser.gatherUsageStats", "false",
         # one version of the code for the whole run: others edit the tree meanwhile, and
         # a half-saved module reloaded mid-run fails the page, not the stage
         "--server.fileWatcherType", "none"],
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
    main = page.locator('[data-testid="stMain"]')
    for _ in range(2):  # the settings and each configuration's are folded away
        page.evaluate("() => document.querySelectorAll("
                      "'[data-testid=stMain] details:not([open]) > summary')"
                      ".forEach((s) => s.click())")
        page.wait_for_timeout(500)
    for i in range(2):  # each configuration's merges (the page opens at 200)
        box = main.get_by_label("Merges", exact=True).nth(i)
        box.fill(str(merges))
        box.press("Enter")
        ready(page, stage=False)
        page.wait_for_selector("[data-config]", timeout=600_000)
    ready(page)
    results[f"Compare, {mb:g} MB, {merges:,} merges"] = report(
        f"Compare, same upload, 2 x {merges:,} merges", measure(page, presses))
    return results


def run(presses: int = 100, port: int = 8799, large: bool = True,
        compare_only: bool = False, real: bool = False, real_mb: float = 1.0,
        real_merges: int = 30_000) -> dict[str, dict]:
    """Measure on the default sample (and a 300 KB upload with 2,000 merges; with
    ``real``, only a ``real_mb`` MB upload with ``real_merges`` merges); print and return
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
                results = real_size(page, url, presses, real_merges, real_mb)
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




# -- every first-screen element ------------------------------------------------------------
# What the speaker sees after a key: the step hook, the merge card, the numbers, the
# "Why this merge?" panel and the word splits, all redrawn by the browser. A figure per
# element, because an element that lags shows a step the others have left (`agree`).
ELEMENTS = {"hook": "[data-bpeviz-step]", "card": ".bv-stage-card",
            "numbers": ".bv-stage-numbers", "why": ".st-key-stage_why .bv-stage-panel",
            "merges": ".st-key-stage_merges .bv-stage-panel",
            "round": ".st-key-stage_uround_card .bv-stage-panel",
            "words": ".bv-stage-words"}

ELEMENT_PROBE = """(sel) => {
  const st = () => window.__bpevizStage || {};
  const whole = (x, d) => (Number.isFinite(Number(x)) && String(x).trim() !== ''
                           ? Math.round(Number(x)) : d);
  const stepOf = {
    hook: (e) => e.getAttribute('data-bpeviz-step'),
    // the card's heading ("Merge k" / "Step 0"): the whole card's text runs the number
    // into the merge drawn after it ("Merge 18" + "1 + ." reads "Merge 181 + .")
    card: (e) => (((e.querySelector('.bv-head') || e).textContent
                   .match(/^\\s*(?:Merge|Step)\\s+(\\d+)(?!\\d)/) || [])[1]),
    numbers: (e) => e.dataset.step,
    why: (e) => e.dataset.step,
    merges: (e) => e.dataset.step,
    round: (e) => e.dataset.step,
  };
  // the splits carry no step: their chips are checked against the words' own data at k
  // (the tokens alive at k, as words.mjs draws them), so a stale split never passes
  const wordsShow = (e, k) => {
    const f = e.parentElement && e.parentElement.__bvFollower;
    if (!f || !f.rows) return false;
    const lo = whole(f.data.lo, 0), n = Math.max(whole(f.data.n, lo), lo);
    const kk = Math.min(Math.max(k, lo), n), cap = Math.max(whole(f.data.maxChips, 200), 0);
    return f.rows.every(({ nodes: [tokens, steps, untils], cell }) => {
      const want = tokens.filter((_, i) => steps[i] <= kk && untils[i] > kk).slice(0, cap);
      const got = [...cell.querySelectorAll('.bv-chip')].map((c) => Number(c.dataset.id));
      return got.length === want.length && got.every((id, i) => id === want[i]);
    });
  };
  // An element's instances, those on the first screen under its name and those below it
  // under its name and "*" (BELOW_PROBE says which are which)
  const base = (label) => label.replace(/\\*$/, '');
  const instances = (label) => [...document.querySelectorAll(sel[base(label)])].filter(
    (e) => e.isConnected && label.endsWith('*') === w.belowSet.has(e));
  // every instance must show k: one a rerun left standing counts as lagging
  const shows = (label, k) => {
    const name = base(label), all = instances(label);
    return all.length > 0 && all.every((e) => (name === 'words' ? wordsShow(e, k)
                                                : Number(stepOf[name](e)) === k));
  };
  const names = Object.keys(sel).filter((n) => document.querySelector(sel[n]));
  const w = (window.__bvEl = { names, below: [], belowSet: new Set(), presses: [],
                               changes: [], clicks: [], tasks: [] });
  // the main thread's long tasks (a rerun's rendering, say): what keys and Play wait behind
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.tasks.push(e.duration);
  }).observe({ type: 'longtask' });
  window.addEventListener('keydown', (e) => {
    if (e.key.startsWith('Arrow')) w.presses.push({ t0: e.timeStamp, key: e.key, at: {},
                                                     frames: 0, agree: null, why: null });
  }, true);
  // bubbling: after the stage's own (capture) handler has moved the step
  window.addEventListener('keydown', () => {
    const p = w.presses[w.presses.length - 1];
    if (p && p.target === undefined) p.target = st().step;
  });
  // A rAF callback runs before the frame it belongs to is drawn; a message posted from it
  // is handled after that frame's rendering: the time the element is on screen.
  const frame = () => {
    const p = w.presses[w.presses.length - 1];
    const names = w.names;
    if (p && p.target !== undefined && Object.keys(p.at).length < names.length) {
      const now = names.filter((n) => shows(n, p.target));
      // what a lagging element shows instead, for the report
      p.lag = Object.fromEntries(names.filter((n) => !now.includes(n)).map((n) => [n,
        instances(n).map((e) => (base(n) === 'words' ? 'stale' : stepOf[base(n)](e)))]));
      // (an element below the first screen may follow a frame later: not asked to agree)
      if (p.frames++ === 0) p.agree = names.every((n) => w.below.includes(n) || now.includes(n));
      const fresh = now.filter((n) => !(n in p.at));
      for (const n of fresh) p.at[n] = null;
      if (fresh.includes('why')) {
        const panel = document.querySelector(sel.why);
        p.why = panel.querySelector('.bv-panel-waiting') ? 'follows' : 'real';
        // the steps Python's last run drew the panel for, when the key's is not one of them
        const f = panel.parentElement.__bvFollower;
        const d = (f && f.data) || {};
        const held = Object.keys(d.views || d.html || {}).map(Number);  // views: plain trees
        if (p.why === 'follows') p.held = held.length ? [Math.min(...held), Math.max(...held)]
                                                      : [];
      }
      if (fresh.length) {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => {
          const t = performance.now() - p.t0;
          for (const n of fresh) p.at[n] = t;
        };
        ch.port2.postMessage(0);
      }
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  // Play: when the step changes (the hook's attribute), and when Play was clicked
  new MutationObserver(() => {
    const k = st().step, c = w.changes;
    if (c.length === 0 || c[c.length - 1][1] !== k) c.push([performance.now(), k]);
  }).observe(document.body, { subtree: true, attributes: true,
                              attributeFilter: ['data-bpeviz-step'] });
  window.addEventListener('click', (e) => {
    if (e.target.closest && e.target.closest('.bv-stage-play')) w.clicks.push(performance.now());
  }, true);
  return names;
}"""


def settle_on_first_step(page) -> tuple[int, int]:
    """Home, then the rerun that follows it is over: the browser alone is measured.
    Returns the bar's range (lo, n)."""
    page.wait_for_function("() => document.querySelectorAll('.bv-stage').length === 1",
                           timeout=120_000)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("Home")
    page.wait_for_timeout(500)
    try:
        # Python has heard the bar's step (a page whose views below the first screen are
        # out of view reports it only after a longer quiet time) ...
        page.wait_for_function(
            "() => { const s = (window.__bpevizStage || {}).controls; return !s || "
            "(!s.pending && s.pySeq >= s.seq && s.pyStep === s.step); }", timeout=120_000)
        # ... and the run that answers is over; attached, not visible: the bar may sit
        # below the fold after Play's reruns
        page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]',
                               timeout=120_000)
        page.wait_for_selector("[data-bpeviz-step]", state="attached", timeout=120_000)
    except Exception:
        page.screenshot(path="/tmp/bench-stage-failure.png")
        print("  (the page as it stood: /tmp/bench-stage-failure.png)", flush=True)
        raise
    page.wait_for_timeout(1500)
    lo, n = page.evaluate("() => [window.__bpevizStage.lo || 0, window.__bpevizStage.n]")
    return lo, n


#: The instances of each element that do not meet the viewport (the page at its top):
#: what the issue lets follow within 300 ms of the key rather than in the key's frame.
#: They are measured apart, as the element's name and "*" (Explore's numbers beside the
#: card, and the changed-words line below them, are one kind of element).
BELOW_PROBE = """(sel) => {
  const w = window.__bvEl, h = window.innerHeight;
  const seen = (e) => { const r = e.getBoundingClientRect();
                        return r.bottom > 0 && r.top < h && r.height > 0; };
  w.belowSet = new Set();
  w.names = [];
  for (const n of Object.keys(sel)) {
    const all = [...document.querySelectorAll(sel[n])].filter((e) => e.isConnected);
    for (const e of all) if (!seen(e)) w.belowSet.add(e);
    if (all.some((e) => !w.belowSet.has(e))) w.names.push(n);
    if (all.some((e) => w.belowSet.has(e))) w.names.push(n + '*');
  }
  return (w.below = w.names.filter((n) => n.endsWith('*')));
}"""

#: what an element below the first screen must reach after a key (ms)
BELOW_TARGET = 300


def press_at_pace(page, presses: int, interval: float) -> dict[str, Any]:
    """``presses`` arrow keys, one every ``interval`` seconds, back and forth within the
    range; per element the key -> paint times, and per press whether all those on the
    first screen agreed."""
    lo, n = settle_on_first_step(page)
    page.evaluate("() => { window.__bvEl.presses = []; window.__bvEl.tasks = []; }")
    below = page.evaluate(BELOW_PROBE, ELEMENTS)
    step, forward = lo, True
    start = time.monotonic()
    for i in range(presses):
        if step >= n or (step <= lo and not forward):
            forward = step <= lo  # turn at either end
        page.keyboard.press("ArrowRight" if forward else "ArrowLeft")
        step += 1 if forward else -1
        time.sleep(max(0.0, start + (i + 1) * interval - time.monotonic()))
    page.wait_for_timeout(300)
    got = page.evaluate("() => window.__bvEl")
    names, pressed = got["names"], got["presses"]
    out: dict[str, Any] = {"presses": len(pressed), "names": names, "below": below,
                           "times": {}}
    for name in names:
        out["times"][name] = [p["at"][name] for p in pressed if p["at"].get(name) is not None]
    out["agree"] = sum(bool(p["agree"]) for p in pressed)
    out["all_shown"] = sum(all(p["at"].get(n) is not None for n in names) for p in pressed)
    out["why"] = {kind: sum(p["why"] == kind for p in pressed) for kind in ("real", "follows")}
    missed = [p for p in pressed if any(p["at"].get(n) is None for n in names)]
    # keys queued behind a long task reach the page back to back: the later one wins
    # before any frame is drawn, so the earlier step is never on screen at all
    out["superseded"] = sum(p["frames"] == 0 for p in missed)
    out["lagging"] = [(p["target"], p.get("lag")) for p in missed if p["frames"]]
    out["longest_task"] = max(got["tasks"], default=0.0)
    out["held"] = [(p["target"], p["held"]) for p in pressed if p.get("held") is not None]
    return out


#: counts the page's Python reruns (Streamlit marks the app "running" for each)
COUNT_RUNS = """() => {
  window.__bvRuns = 0;
  const app = document.querySelector('[data-testid="stApp"]');
  new MutationObserver(() => {
    if (app.getAttribute('data-test-script-state') === 'running') window.__bvRuns++;
  }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
}"""


def play_at(page, speed: str, seconds: float,
            rerun_every: float | None = None) -> dict[str, float]:
    """Play at ``speed`` steps/s for ``seconds``: the longest gap between step changes
    (the first measured from the click on Play). With ``rerun_every``, Python reruns the
    page that often while it plays: Streamlit's own "r" key (a rerun that no widget of
    the page asked for, as one elsewhere on the page would be)."""
    settle_on_first_step(page)
    page.locator(f'.bv-stage-speed[data-speed="{speed}"]').first.click()
    page.evaluate("() => { const w = window.__bvEl; w.changes = []; w.clicks = []; "
                  "w.tasks = []; }")
    page.evaluate(COUNT_RUNS)
    page.locator(".bv-stage-play").first.click()
    if rerun_every is None:
        page.wait_for_timeout(seconds * 1000)
    else:
        end = time.monotonic() + seconds
        while time.monotonic() + rerun_every <= end:
            page.wait_for_timeout(rerun_every * 1000)
            page.keyboard.press("r")
        page.wait_for_timeout(max(0.0, end - time.monotonic()) * 1000)
    runs = page.evaluate("() => window.__bvRuns")
    got = page.evaluate("() => window.__bvEl")
    page.locator(".bv-stage-play").first.click()  # pause
    times = got["clicks"][:1] + [t for t, _k in got["changes"]]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    interval = 1000 / float(speed)
    longest = max(gaps) if gaps else float("inf")
    steps = [k for _t, k in got["changes"]]
    skipped = sum(max(0, b - a - 1) for a, b in itertools.pairwise(steps))
    return {"interval": interval, "changes": len(steps), "skipped": skipped,
            "longest": longest, "ratio": longest / interval, "reruns": runs,
            "longest_task": max(got["tasks"], default=0.0)}


#: the step the heatmap's caption names ("Count of each pair at step k, ..."): the stage
#: panel's caption, drawn by the browser with the heatmap of the step it shows
HEATMAP_STEP = """() => {
  for (const c of document.querySelectorAll('.st-key-stage_heatmap .bv-hm-caption')) {
    const m = /pair at step (\\d+)/.exec(c.textContent);
    if (m) return Number(m[1]);
  }
  return null;
}"""


#: the heatmap's heading scrolled to the top of Streamlit's main block
SCROLL_TO_HEATMAP = """() => {
  const h = [...document.querySelectorAll('h3')].find((e) => e.textContent.trim()
    === 'Pairs at this step');
  if (h) h.scrollIntoView({ block: 'start' });
}"""


#: per arrow key, the time from the key's event to the first frame drawn with the
#: heatmap's caption naming the key's step, measured in the page as the first screen's
#: elements are (a rAF callback, then a message handled after that frame's rendering):
#: timed from Python, each key also carried Playwright's round trips to the browser and
#: its polling, about 100 ms a key that no person waits for
HEATMAP_PROBE = """() => {
  const stepOf = (HEATMAP_STEP);
  const w = (window.__bvHm = { presses: [] });
  window.addEventListener('keydown', (e) => {
    if (e.key.startsWith('Arrow')) w.presses.push({ t0: e.timeStamp, target: null, t: null });
  }, true);
  window.addEventListener('keydown', () => {  // after the stage's own handler moved the step
    const p = w.presses[w.presses.length - 1];
    if (p && p.target === null) p.target = (window.__bpevizStage || {}).step;
  });
  const frame = () => {
    const p = w.presses[w.presses.length - 1];
    if (p && p.target !== null && p.t === null && !p.seen && stepOf() === p.target) {
      p.seen = true;
      const ch = new MessageChannel();
      ch.port1.onmessage = () => { p.t = performance.now() - p.t0; };
      ch.port2.postMessage(0);
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}""".replace("HEATMAP_STEP", HEATMAP_STEP)


def below_fold(page, keys: int = 12, rest: float = 1.5) -> dict[str, Any]:
    """The heatmap (below the first screen) scrolled into view, then ``keys`` single
    arrow keys, ``rest`` seconds apart: per key the time from the key to the first frame
    with the heatmap's caption naming the new step (the browser draws it from the steps
    Python sent around the one it heard, or once Python sends that step; the rest of the
    page below follows once the step settles)."""
    lo, n = settle_on_first_step(page)
    page.get_by_text("Pairs at this step", exact=True).scroll_into_view_if_needed()
    page.wait_for_timeout(1500)
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]',
                           timeout=120_000)
    times: list[float] = []
    # the panel draws once in view, from the steps Python sent it
    page.wait_for_function(f"() => ({HEATMAP_STEP})() !== null", polling="raf",
                           timeout=60_000)
    page.evaluate(HEATMAP_PROBE)
    step = page.evaluate(HEATMAP_STEP)
    for _ in range(min(keys, n - lo)):
        step += 1
        # kept at the top of the view: "Why this merge?" above it grows after step 0 (at
        # 10 MB by more than the screen), and a heatmap pushed out of view is one the
        # browser reports only after its longer quiet time (sync.mjs: AWAY_MS)
        page.evaluate(SCROLL_TO_HEATMAP)
        page.wait_for_timeout(300)
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "() => { const p = window.__bvHm.presses.at(-1); return p && p.t !== null; }",
            polling="raf", timeout=60_000)
        got = page.evaluate("() => window.__bvHm.presses.at(-1)")
        if got["target"] != step:
            raise RuntimeError(f"the key moved the bar to {got['target']}, not {step}")
        times.append(got["t"])
        page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]',
                               timeout=120_000)
        page.wait_for_timeout(rest * 1000)
    # back to the first screen (Streamlit scrolls its main block, not the window)
    page.locator("[data-bpeviz-step]").first.scroll_into_view_if_needed()
    return {"times": times, "median": percentile(times, 50), "p95": percentile(times, 95),
            "max": max(times, default=0.0)}


def element_report(label: str, pace: str, found: dict[str, Any]) -> dict[str, Any]:
    print(f"  {label}, {pace}: {found['presses']} presses", flush=True)
    summary: dict[str, Any] = {"elements": {}}
    for name in found["names"]:
        values = found["times"][name]
        if not values:
            print(f"    {name:<10} never showed the key's step")
            summary["elements"][name] = {"n": 0}
            continue
        med, p95 = statistics.median(values), percentile(values, 95)
        summary["elements"][name] = {"median": med, "p95": p95, "max": max(values),
                                     "n": len(values)}
        where = (f"   (below the first screen: may follow, p95 <= {BELOW_TARGET} ms)"
                 if name in found["below"] else "")
        print(f"    {name:<10} key -> paint median {med:6.1f} ms   p95 {p95:6.1f} ms   "
              f"max {max(values):6.1f} ms   shown {len(values)}/{found['presses']}{where}")
    print(f"    all first-screen elements on the key's step at the first paint: "
          f"{found['agree']}/{found['presses']} (target: all); by the end of the press: "
          f"{found['all_shown']}/{found['presses']}")
    print(f"    longest main-thread task meanwhile: {found['longest_task']:.0f} ms")
    if found["superseded"]:
        print(f"    {found['superseded']} press(es) overtaken by the next key before any frame "
              "(queued behind a long task): never drawn, counted as not agreeing")
    for step, lag in found["lagging"][:3]:  # what the elements that never caught up showed
        print(f"    step {step} drawn, but not by every element before the next key; "
              f"the laggards showed {lag}")
    if "why" in found["names"]:
        print(f"    panel at the key's step: real content {found['why']['real']}, "
              f"'follows when the step settles' note {found['why']['follows']}")
        for step, held in found["held"][:3]:
            print(f"    the note at step {step}: Python's panel held steps {held}")
    summary.update({k: found[k] for k in ("presses", "agree", "all_shown", "why", "below",
                                          "longest_task", "superseded")})
    return summary


def open_explore(page, address: str, upload: float | None) -> None:
    page.goto(address)
    ready(page, stage=upload is None)
    if upload is not None:
        from bench.data import corpus_path

        page.locator('[data-testid="stSidebar"] input[type=file]').set_input_files(
            str(corpus_path(upload)))
        page.wait_for_selector("[data-bpeviz-step]", timeout=600_000)
        ready(page)
    page.evaluate(ELEMENT_PROBE, ELEMENTS)


def measure_elements(page, label: str, found: dict[str, Any], presses: int,
                     paces: tuple[float, ...], speeds: tuple[tuple[str, float], ...]) -> None:
    for interval in paces:
        pace = f"a key every {interval:g} s"
        found[pace] = element_report(label, pace, press_at_pace(page, presses, interval))
    if speeds:  # the scenarios with Play are BPE's, whose page has a heatmap
        got = found["below"] = below_fold(page)
        print(f"  {label}, the heatmap in view, single keys: key -> its caption names the "
              f"step, median {got['median']:.0f} ms, p95 {got['p95']:.0f} ms, max "
              f"{got['max']:.0f} ms over {len(got['times'])} keys (target <= 300 ms)",
              flush=True)
        found["play"] = {}
    for rerun_every in (None, RERUN_EVERY) if speeds else ():
        beside = "" if rerun_every is None else f", a rerun every {rerun_every:g} s"
        for speed, seconds in speeds:
            got = play_at(page, speed, seconds, rerun_every)
            found["play" if rerun_every is None else "play_rerunning"] = {
                **found.get("play" if rerun_every is None else "play_rerunning", {}),
                speed: got}
            print(f"  {label}, play at {speed} steps/s for {seconds:g} s{beside}: "
                  f"{got['changes']} step changes ({got['skipped']} steps skipped), "
                  f"{got['reruns']} Python reruns, longest gap {got['longest']:.0f} ms = "
                  f"{got['ratio']:.2f}x the {got['interval']:.0f} ms interval (target <= "
                  f"1.5x); longest main-thread task {got['longest_task']:.0f} ms", flush=True)


#: how often Play is measured again with Python rerunning the page beside it (seconds)
RERUN_EVERY = 0.7


def elements(presses: int = 40, port: int = 8799, large: bool = False, mb: float = 0.3,
             merges: int = 2000, paces: tuple[float, ...] = (0.35, 0.12),
             speeds: tuple[tuple[str, float], ...] = (("1", 5), ("2", 4), ("4", 3),
                                                      ("10", 3))) -> dict[str, Any]:
    """Every first-screen element of Explore after a key, at a speaker's and a rapid pace,
    and Play's longest gap at each speed: on the default sample (BPE, and Unigram's rounds),
    and with ``large`` on an ``mb`` MB upload trained to ``merges`` merges."""
    from playwright.sync_api import sync_playwright

    load = os.getloadavg()
    print(f"  load average at start: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} "
          f"({os.cpu_count()} cores)", flush=True)
    proc = start_server(port)
    url = f"http://127.0.0.1:{port}"
    results: dict[str, Any] = {"load_start": load, "scenarios": {}}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM,
                                        args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            scenarios = [("default sample, BPE", f"{url}/Explore?step=0", None, True),
                         ("default sample, Unigram", f"{url}/Explore?algo=unigram&step=0",
                          None, False)]
            if large:
                scenarios.append((f"{mb:g} MB upload, {merges:,} merges",
                                  f"{url}/Explore?source=upload&merges={merges}&step=0",
                                  mb, True))
            for label, address, upload, play in scenarios:
                found: dict[str, Any] = {}
                results["scenarios"][label] = found
                try:  # a page that stops answering ends its scenario, not the others
                    open_explore(page, address, upload)
                    measure_elements(page, label, found, presses, paces, speeds if play else ())
                except Exception as err:
                    print(f"  {label}: stopped: {str(err).splitlines()[0]}", flush=True)
                    found["error"] = str(err).splitlines()[0]
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
    results["load_end"] = load = os.getloadavg()
    print(f"  load average at end: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}", flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presses", type=int, default=100)
    parser.add_argument("--port", type=int, default=8799)
    parser.add_argument("--skip-large", action="store_true")
    parser.add_argument("--compare-only", action="store_true")
    parser.add_argument("--real-size", action="store_true",
                        help="only an upload trained to many merges (Explore, Compare): "
                             "1 MB and 30,000 merges unless --mb and --merges say")
    parser.add_argument("--mb", type=float, default=1.0, help="--real-size's upload (MB)")
    parser.add_argument("--merges", type=int, default=30_000, help="--real-size's merges")
    args = parser.parse_args()
    run(args.presses, args.port, not args.skip_large, args.compare_only, args.real_size,
        real_mb=args.mb, real_merges=args.merges)


if __name__ == "__main__":
    main()
