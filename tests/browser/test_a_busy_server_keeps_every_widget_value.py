"""A busy server never loses what a widget holds: twelve sessions at once, each pasting
about 50 KB and stepping, on Explore, Tokenize, Compare and Vocabulary.

Under such a load a browser may mount a widget from a reply that came late, without the
value Python gave it through session state; it then shows its starting value and sends
it back with the next request. If that starting value were the widget's minimum (0
merges, a top-N of 2, an empty search), the next run would train 0 merges and the step
bar would go: every bound widget starts at its setting's value
(bpeviz.ui.state.bound). Each session here must end with its own values, its own last
step, and no error of any kind on the page.

``BPEVIZ_BUSY_SESSIONS`` sets the number of sessions (12 by default).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from tests.support.browser import ready
from tests.support.server import streamlit_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]
playwright_api = pytest.importorskip("playwright.sync_api")

SESSIONS = int(os.environ.get("BPEVIZ_BUSY_SESSIONS", "12"))
PAGES = ["Explore", "Tokenize", "Compare", "Vocabulary"]
HOOK = "[data-bpeviz-step]"
WAIT = 240_000  # ms: twelve pages and a server on two cores; only a hang guard
ERRORS = ("This app has encountered an error", "Component Error", "Something went wrong")


def corpus(i: int) -> str:
    """About 50 KB of text, its own words in it."""
    own = f"zq{i:02d}word"
    line = (f"{own} {own}s {own}er the tokenizer learns low lower newest widest "
            "merges pairs of symbols again and again until the vocabulary is full\n")
    return line * (50_000 // len(line) + 1)


def query(page) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlparse(page.evaluate("location.href")).query)
            .items()}


def step_of(page, name: str) -> str | None:
    """The step in the link (Compare's bar moves every configuration: ``cmp_step``)."""
    return query(page).get("cmp_step" if name == "Compare" else "step")


def explain(page) -> str:
    """What a session shows, for a failure message."""
    shown = state(page)
    box = page.locator('[data-testid="stSidebar"] textarea')
    pasted = len(box.input_value()) if box.count() else None
    return (f"script {shown['script']}, {pasted} characters in the paste box, the link "
            f"{query(page)}, the page: {shown['text'][:400]!r}")


def state(page) -> dict:
    return page.evaluate("""() => ({
      merges: document.querySelector('[data-testid="stSidebar"] input[aria-label="Merges"]')
        ?.value,
      hook: document.querySelector('[data-bpeviz-step]')?.getAttribute('data-bpeviz-step'),
      topN: document.querySelector('[data-testid="stSlider"] [role="slider"]')
        ?.getAttribute('aria-valuenow'),
      search: document.querySelector('input[aria-label="Search words"]')?.value,
      script: document.querySelector('[data-testid="stApp"]')
        ?.getAttribute('data-test-script-state'),
      exceptions: document.querySelectorAll('[data-testid="stException"]').length,
      text: document.body.innerText})""")


def test_twelve_busy_sessions_keep_every_widget_value_and_their_own_step(browser):
    with streamlit_server(Path(tempfile.mkdtemp())) as server:
        contexts = [browser.new_context(viewport={"width": 1366, "height": 800})
                    for _ in range(SESSIONS)]
        pages = [c.new_page() for c in contexts]
        errors: list[str] = []
        names = [PAGES[i % len(PAGES)] for i in range(SESSIONS)]
        for i, p in enumerate(pages):
            p.set_default_timeout(WAIT)
            p.on("pageerror", lambda e, i=i: errors.append(f"session {i}: {e}"))
        try:
            began = time.monotonic()
            for i, p in enumerate(pages):  # every session opens its page at once
                extra = {"Explore": "&top_n=7&search=low", "Compare": "&cmp_step=10"}.get(
                    names[i], "")
                p.goto(f"{server}/{names[i]}?source=paste&step=10{extra}",
                       wait_until="commit", timeout=WAIT)
            for i, p in enumerate(pages):  # ... pastes its corpus and trains at once
                area = p.locator('[data-testid="stSidebar"] textarea')
                area.wait_for(timeout=WAIT)
                area.fill(corpus(i))
                area.press("Control+Enter")
            for i, p in enumerate(pages):  # ... and steps three times at once
                try:
                    p.wait_for_selector(HOOK, timeout=WAIT)
                except playwright_api.TimeoutError:
                    raise AssertionError(f"session {i} ({names[i]}) shows no step control: "
                                         f"{explain(p)}") from None
                p.evaluate("() => document.activeElement && document.activeElement.blur()")
                for _ in range(3):
                    p.keyboard.press("ArrowRight")
            deadline = time.monotonic() + WAIT / 1000
            waiting = set(range(SESSIONS))
            while waiting and time.monotonic() < deadline:
                for i in list(waiting):
                    shown = state(pages[i])
                    if shown["script"] == "notRunning" and step_of(pages[i], names[i]) == "13":
                        waiting.discard(i)
                time.sleep(1)
            took = time.monotonic() - began
            problems = []
            for i, p in enumerate(pages):
                ready(p, timeout=WAIT)
                shown, url = state(p), query(p)
                where = f"session {i} ({names[i]})"
                if step_of(p, names[i]) != "13":
                    problems.append(f"{where}: step {step_of(p, names[i])} in the link, not 13")
                if shown["hook"] is not None and shown["hook"] != "13":
                    problems.append(f"{where}: the bar shows {shown['hook']}, not 13")
                if names[i] != "Compare" and shown["merges"] != "200":
                    problems.append(f"{where}: the Merges box shows {shown['merges']}")
                if "merges" in url:
                    problems.append(f"{where}: merges={url['merges']} in the link")
                if names[i] == "Explore":
                    if shown["search"] != "low":
                        problems.append(f"{where}: the search shows {shown['search']!r}")
                    if url.get("top_n") != "7":
                        problems.append(f"{where}: top_n={url.get('top_n')} in the link")
                if shown["exceptions"] or any(e in shown["text"] for e in ERRORS):
                    problems.append(f"{where}: an error on the page")
                others = [j for j in range(SESSIONS) if j != i and f"zq{j:02d}word" in
                          shown["text"]]
                if others:
                    problems.append(f"{where}: shows the words of sessions {others}")
            print(f"\n{SESSIONS} busy sessions on {', '.join(PAGES)}: {took:.1f} s")
            assert not problems, problems
        finally:
            for c in contexts:
                c.close()
        assert not errors, errors
