"""Memory of the app over many distinct corpora: does the resident size level off?

    python -m bench.memory                 # 50 distinct pasted corpora, one session
    python -m bench.memory --corpora 10    # fewer
    python -m bench app_memory             # the same, as a part of ``python -m bench``
    python -m bench.memory --server        # a real ``streamlit run`` server and Chromium

One Streamlit session (``AppTest``, in this process, with the app's real caches) pastes
a new corpus (about 0.4 MB of stdlib text: one of 10 slices in turn, made distinct by a
first line naming the corpus, so the cached trainings keep the same mix), alternating BPE
and byte-level BPE with 2,000 merges, and opens Explore, Tokenize and Vocabulary on it,
as a user would. After each corpus the benchmark prints the process's resident memory
(RSS) and how many trainings are still alive. The app keeps at most
``bpeviz.ui.training.CACHE_ENTRIES`` trainings; once that many corpora went through,
the RSS line must level off (a growing line is a leak). Not a unit test: it prints.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

from bench.data import corpus_text

ROOT = Path(__file__).resolve().parent.parent
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


def rss_mb() -> float:
    """This process's resident memory in MB (from /proc/self/statm)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE_SIZE / 1e6


def live_trainings() -> int:
    from bpeviz.core.training import Training

    return sum(1 for o in gc.get_objects() if isinstance(o, Training))


def run(corpora: int = 50, size: float = 0.4, merges: int = 2000,
        quiet: bool = False, trace: bool = False) -> dict[str, Any]:
    """Paste ``corpora`` distinct corpora into one session; RSS after each (MB).

    ``trace``: also follow Python's own allocations (tracemalloc; slower), to tell
    memory Python still uses from memory the C allocator keeps after it was freed.
    """
    os.chdir(ROOT)
    import logging

    from streamlit.testing.v1 import AppTest

    from bpeviz.ui.training import CACHE_ENTRIES

    # distinct corpora of the same kind: 10 slices in turn, each made distinct by a line
    slices = [corpus_text(size, offset=0.6 * i) for i in range(min(corpora, 10))]
    texts = [f"corpus{i} of the memory benchmark\n" + slices[i % len(slices)]
             for i in range(corpora)]
    if trace:
        tracemalloc.start()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.session_state["source"] = "paste"
    at.session_state["merges"] = merges
    at.session_state["step"] = merges // 2
    at.run()
    # (setting session state between runs warns "missing ScriptRunContext" each time)
    logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").setLevel(
        logging.ERROR)
    base = rss_mb()
    if not quiet:
        print(f"  {corpora} distinct corpora of {size:g} MB (10 stdlib text slices), {merges:,} "
              f"merges, BPE and byte-level BPE alternately, one session; Explore, Tokenize "
              f"and Vocabulary drawn for each. Cache bound: {CACHE_ENTRIES} trainings.")
        print(f"  RSS before the first corpus: {base:.0f} MB")
        print(f"  {'corpus':>6} {'algo':>5} {'seconds':>8} {'RSS MB':>8} {'alive':>6}"
              + (f" {'traced MB':>10}" if trace else ""))
    rows = []
    for i, text in enumerate(texts):
        started = time.perf_counter()
        at.session_state["paste"] = text
        at.session_state["algo"] = "bpe" if i % 2 == 0 else "bbpe"
        for page in ("pages/1_Explore.py", "pages/2_Tokenize.py", "pages/4_Vocabulary.py"):
            at.switch_page(page).run()
            if at.exception or at.error:
                raise SystemExit(f"corpus {i + 1}, {page}: "
                                 f"{[e.value for e in (*at.exception, *at.error)]}")
        seconds = time.perf_counter() - started
        alive = live_trainings()
        rss = rss_mb()
        traced = tracemalloc.get_traced_memory()[0] / 1e6 if trace else None
        rows.append({"corpus": i + 1, "rss": rss, "alive": alive, "seconds": seconds,
                     "traced": traced})
        if not quiet:
            print(f"  {i + 1:>6} {at.session_state['algo']:>5} {seconds:>8.1f} {rss:>8.0f} "
                  f"{alive:>6}" + (f" {traced:>10.0f}" if trace else ""), flush=True)
    gc.collect()
    after_gc = rss_mb()
    settled = [r["rss"] for r in rows[CACHE_ENTRIES:]] or [rows[-1]["rss"]]
    result = {"base": base, "rows": rows, "after_gc": after_gc, "cache": CACHE_ENTRIES,
              "max_alive": max(r["alive"] for r in rows),
              "growth_after_cache_full": settled[-1] - settled[0],
              "peak": max(r["rss"] for r in rows)}
    if not quiet:
        print(f"  after gc.collect(): {after_gc:.0f} MB; most trainings alive at once: "
              f"{result['max_alive']} (bound {CACHE_ENTRIES} cached + the one shown)")
        if len(rows) > CACHE_ENTRIES:
            print(f"  RSS growth from corpus {CACHE_ENTRIES + 1} to {len(rows)}: "
                  f"{result['growth_after_cache_full']:+.0f} MB "
                  f"(peak {result['peak']:.0f} MB, {result['peak'] - base:.0f} MB over base)")
    return result


def run_server(corpora: int = 50, size: float = 0.4, merges: int = 2000) -> list[float]:
    """The same in a real ``streamlit run app.py`` server, driven by one Chromium session
    (Playwright, /usr/bin/chromium) pasting into the sidebar box on Explore (BPE only);
    prints the server process's RSS after each corpus. Returns those RSS values (MB)."""
    import socket
    import subprocess
    import urllib.request

    from playwright.sync_api import sync_playwright

    slices = [corpus_text(size, offset=0.6 * i) for i in range(min(corpora, 10))]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--browser.gatherUsageStats", "false"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"

    def server_rss() -> float:
        with open(f"/proc/{server.pid}/status") as f:
            return next(int(line.split()[1]) / 1000 for line in f if line.startswith("VmRSS"))

    def idle(page: Any) -> None:
        for _ in range(2):
            page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]',
                                   timeout=120_000)
            page.wait_for_timeout(300)

    rows = []
    try:
        for _ in range(200):
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.read() == b"ok":
                        break
            except OSError:
                time.sleep(0.3)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                        args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"{url}/Explore?source=paste&merges={merges}&step={merges // 2}")
            idle(page)
            print(f"  server RSS before the first corpus: {server_rss():.0f} MB")
            print(f"  {'corpus':>6} {'RSS MB':>8}")
            for i in range(corpora):
                text = f"corpus{i} of the memory benchmark\n" + slices[i % len(slices)]
                area = page.locator('[data-testid="stSidebar"] textarea')
                area.evaluate("""(el, text) => {
                    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')
                        .set.call(el, text);
                    el.dispatchEvent(new Event('input', {bubbles: true}));
                }""", text)
                area.press("Control+Enter")
                idle(page)
                page.wait_for_selector(".bv-card", timeout=120_000)
                rows.append(server_rss())
                print(f"  {i + 1:>6} {rows[-1]:>8.0f}", flush=True)
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.memory",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--corpora", type=int, default=50)
    parser.add_argument("--size", type=float, default=0.4, help="MB per corpus")
    parser.add_argument("--merges", type=int, default=2000)
    parser.add_argument("--trace", action="store_true",
                        help="also print Python's traced allocations (tracemalloc, slower)")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument("--server", action="store_true",
                        help="measure a real 'streamlit run' server driven by Chromium instead")
    args = parser.parse_args(argv)
    if args.server:
        run_server(args.corpora, args.size, args.merges)
        return
    result = run(args.corpora, args.size, args.merges, trace=args.trace)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
