"""The step bar in a real browser when its data is wrong or its script fails: the bar
keeps stepping, the card keeps a valid step, and an error of the script's own reaches
the server log (the trigger ``error``, logged by bpeviz.ui.stage).

Under load a card can be asked for a step past the merges it holds; an uncaught error
there makes Streamlit replace the whole bar with "BidiComponent Error: Cannot read
properties of undefined (reading '0')".
The script's own unit tests (node --test bpeviz/ui/stepper/tests/) cover each entry
point on a fake DOM; these check the way through Streamlit and Python.
"""

from __future__ import annotations

import re
import time
import uuid
from pathlib import Path

import pytest

from tests.support.browser import (
    HOOK,
    blur,
    card_text,
    hook,
    no_error,
    open_explore,
    ready,
    settled,
)

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")

#: cut the card's merges (what the script keeps for the card) to the first n
CUT_CARD = """n => {
  const f = document.querySelector('.bv-stage-card').parentElement.__bvFollower;
  f.data = { ...f.data, merges: f.data.merges.slice(0, n) };
}"""
#: make every reading of the card's merges throw an error with this message
BREAK_CARD = """message => {
  const f = document.querySelector('.bv-stage-card').parentElement.__bvFollower;
  f.data = { ...f.data, merges: new Proxy([], { get() { throw new Error(message); } }) };
}"""


def watch_console(page) -> list[str]:
    """The page's console errors, as they come."""
    seen: list[str] = []
    page.on("console", lambda m: seen.append(m.text) if m.type == "error" else None)
    return seen


def card_merge(page) -> int:
    """The merge the card shows (0 at step 0)."""
    text = card_text(page)
    found = re.search(r"Merge (\d+)\n", text)
    assert found or "Step 0" in text, text
    return int(found.group(1)) if found else 0


def logged(server, needle: str, timeout: float = 30) -> list[str]:
    """The server log's lines from the first one holding ``needle`` on (waits for it)."""
    deadline = time.monotonic() + timeout
    while True:
        lines = Path(server.log).read_text(encoding="utf-8", errors="replace").splitlines()
        at = [i for i, line in enumerate(lines) if needle in line]
        if at:
            return lines[at[0]:at[0] + 6]
        if time.monotonic() > deadline:
            raise AssertionError(f"{needle!r} not in the server log; its end:\n"
                                 + "\n".join(lines[-30:]))
        time.sleep(0.3)


def no_bidi_error(page) -> None:
    assert "BidiComponent Error" not in page.locator("body").inner_text()


def test_a_card_holding_fewer_merges_than_the_step_shows_its_last_one(page, server):
    """The card's data cut short under the bar (the shape of the defect seen under
    load): the keys still step the bar to the end and back, the card shows the last merge
    it holds, and the script reports nothing (nothing failed)."""
    console = watch_console(page)
    open_explore(page, server, "step=26")
    assert card_merge(page) == 26
    page.evaluate(CUT_CARD, 5)
    page.keyboard.press("End")
    assert hook(page) == 200, "the bar steps to its end"
    assert card_merge(page) == 5 and "This is the last merge." in card_text(page)
    page.keyboard.press("Home")
    assert hook(page) == 0 and card_merge(page) == 0
    no_bidi_error(page)
    assert not [c for c in console if "bpeviz stage" in c], console
    settled(page, 0)
    no_error(page)


def test_an_error_thrown_in_the_card_reaches_the_server_log_and_the_bar_works_on(page,
                                                                                 server):
    """A redraw of the card throws (planted): the bar steps on, the card keeps a valid
    step, the error is on the browser's console and in the server log with its stack,
    and after Python's rerun the page follows the bar again."""
    console = watch_console(page)
    open_explore(page, server, "step=10")
    planted = f"planted-{uuid.uuid4().hex[:12]}"
    page.evaluate(BREAK_CARD, planted)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert hook(page) == 12, "the bar steps on"
    assert card_merge(page) in (10, 12), "the card keeps a valid step"
    no_bidi_error(page)
    lines = logged(server, planted)
    assert "the step bar's script caught an error (stage_card, redraw)" in lines[0], lines
    assert any("drawCard" in line for line in lines[1:]), lines
    assert any(planted in c for c in console), console
    ready(page)
    blur(page)
    page.keyboard.press("ArrowRight")
    assert hook(page) == 13
    settled(page, 13)
    assert hook(page) == 13 and card_merge(page) == 13, "Python's redraw of the card"
    no_bidi_error(page)
    no_error(page)


def test_fewer_merges_typed_than_the_step_shown_clamps_the_bar_and_the_card(page, server):
    """Typing a smaller number of merges than the step shown: the bar and the card end
    on the new last merge, with no error."""
    console = watch_console(page)
    open_explore(page, server, "step=26")
    box = page.get_by_role("spinbutton", name="Merges", exact=True)
    box.fill("12")
    box.press("Enter")
    page.wait_for_function("() => document.querySelector('[data-bpeviz-step]')"
                           "?.getAttribute('data-bpeviz-step') === '12'", timeout=60_000)
    ready(page)
    assert re.search(r"\b12 of 12\b", page.locator(HOOK).first.inner_text())
    assert card_merge(page) == 12 and "This is the last merge." in card_text(page)
    blur(page)
    page.keyboard.press("ArrowLeft")
    assert hook(page) == 11 and card_merge(page) == 11
    no_bidi_error(page)
    assert not [c for c in console if "bpeviz stage" in c], console
    no_error(page)
