"""The stage in a real browser: client-side stepping on Explore.

Keys step the page with the focus on the body and ``[data-bpeviz-step]`` follows; fast
presses all count and the page (number box, URL) settles on the last one; Play runs at
the chosen rate; many concurrent sessions searching and stepping never freeze.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from bpeviz.ui import trace
from tests.support import ROOT
from tests.support.browser import (
    HOOK,
    blur,
    card_text,
    hook,
    no_error,
    open_explore,
    play_rate,
    ready,
    settled,
)

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")


def test_keys_with_the_focus_on_the_body_step_the_page(page, server):
    open_explore(page, server)
    assert hook(page) == 10 and "Merge 10\n" in card_text(page)
    page.keyboard.press("ArrowRight")
    assert hook(page) == 11, "the hook follows at once"
    assert "Merge 11\n" in card_text(page)
    page.keyboard.press("Shift+ArrowRight")
    assert hook(page) == 21 and "Merge 21\n" in card_text(page)
    page.keyboard.press("ArrowLeft")
    assert hook(page) == 20
    page.keyboard.press("Home")
    assert hook(page) == 0 and "Step 0" in card_text(page)
    page.keyboard.press("End")
    last = hook(page)
    assert last == 200 and "This is the last merge." in card_text(page)
    page.keyboard.press("Shift+ArrowLeft")
    assert hook(page) == 190
    assert page.evaluate("() => document.activeElement === document.body"), "focus stays"
    settled(page, 190)
    assert "Merge 190\n" in card_text(page)
    assert page.evaluate("() => document.activeElement === document.body"), \
        "focus stays after Python's rerun"
    # the word splits follow the step: the card's new token is merge 191's, and the
    # changed rows (a merge always changes some word: they come first) show it outlined
    before = page.locator(".bv-card .bv-big .bv-chip.bv-new").first.get_attribute("data-id")
    page.keyboard.press("ArrowRight")
    assert hook(page) == 191 and "Merge 191\n" in card_text(page)
    token = page.locator(".bv-card .bv-big .bv-chip.bv-new").first.get_attribute("data-id")
    assert token is not None and token != before, (before, token)
    # (the splits below the first screen are drawn in the frame after the key's)
    page.wait_for_function("() => !document.querySelector('.bv-stage-words[data-bpeviz-follows]')")
    rows = page.locator(".bv-words tr.bv-changed")
    assert rows.count() >= 1, "merge 191 changes some word's split"
    for i in range(rows.count()):
        assert rows.nth(i).locator(".bv-chip.bv-new").first.get_attribute("data-id") == token
    # ? shows the keys; a key typed in a text box is the text box's
    keys = page.locator(".bv-stage-keys")
    assert not keys.is_visible()
    page.keyboard.press("?")
    assert keys.is_visible() and "Shift" in keys.inner_text()
    page.keyboard.press("?")
    assert not keys.is_visible()
    before = hook(page)
    search = page.get_by_label("Search words")
    search.click()
    search.press("ArrowLeft")
    search.press("Home")
    assert hook(page) == before, "keys in a text box do not step"
    no_error(page)


def test_fifty_fast_presses_all_count_and_everything_ends_on_the_last(page, server):
    """Presses that come faster than Python answers are all counted by the browser, and
    the number box, the URL and the rest of the page settle on the last one."""
    open_explore(page, server)
    for _ in range(50):
        page.keyboard.press("ArrowRight")
    assert hook(page) == 60
    assert "Merge 60\n" in card_text(page)
    settled(page, 60)
    assert hook(page) == 60 and "Merge 60\n" in card_text(page)
    assert page.get_by_label("Go to step", exact=True).input_value() == "60"
    assert "step=60" in page.evaluate("location.href")
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert "These numbers are for step 60 of 200." in main, "the rest of the page follows"
    # the number box moves the bar too
    box = page.get_by_label("Go to step", exact=True)
    box.fill("33")
    box.press("Enter")
    page.wait_for_function(f"() => document.querySelector('{HOOK}')"
                           ".getAttribute('data-bpeviz-step') === '33'")
    assert "Merge 33\n" in card_text(page)
    no_error(page)


def test_play_runs_at_the_chosen_rate(page, server):
    """Each speed plays at its own rate (a timer that restarts on every rerun would make
    the faster speeds no faster)."""
    open_explore(page, server, "merges=200&step=0")
    rates = {speed: play_rate(page, speed) for speed in ("2", "4", "10")}
    print("play rates (steps/s):", {k: round(v, 2) for k, v in rates.items()})
    assert rates["4"] > rates["2"] * 1.5 and rates["10"] > rates["4"] * 1.5, rates
    for speed, rate in rates.items():  # the first step comes one period after Play
        assert 0.6 * float(speed) <= rate <= 1.05 * float(speed), rates
    # Space pauses; Python then hears the step
    blur(page)
    page.keyboard.press("Space")
    page.wait_for_timeout(700)
    page.keyboard.press("Space")
    paused = hook(page)
    assert paused > 0
    page.wait_for_timeout(800)
    assert hook(page) == paused, "Space pauses"
    settled(page, paused)
    no_error(page)


def test_play_runs_in_the_browser_and_the_page_follows_on_pause(page, server):
    """While Play runs at 1 step/s, the bar, the card and the numbers beside it move
    together at the set rate, and Python is asked nothing (no rerun is drawn on the
    main thread Play needs: the URL keeps the step Play started from). On pause, Python
    hears the step: the URL, the number box and the page below follow it."""
    open_explore(page, server, "merges=200&step=0")
    page.locator('.bv-stage-speed[data-speed="1"]').click()
    blur(page)
    page.evaluate("""() => { window.__seen = []; window.__t0 = performance.now();
        document.querySelector('.bv-stage-play').click();
        window.__watch = setInterval(() => {
          const numbers = document.querySelector('.bv-stage-numbers');
          window.__seen.push([
            Number(document.querySelector('[data-bpeviz-step]').getAttribute('data-bpeviz-step')),
            new URLSearchParams(location.search).get('step'),
            numbers ? numbers.dataset.step : null,
            document.querySelector('.bv-stage-play').textContent.includes('Pause')]);
        }, 100); }""")
    page.wait_for_timeout(5000)
    seen, elapsed = page.evaluate("""() => { clearInterval(window.__watch);
        document.querySelector('.bv-stage-play').click();
        return [window.__seen, performance.now() - window.__t0]; }""")
    playing = [row for row in seen if row[3]]
    assert len(playing) > 0.8 * len(seen), "Play stopped by itself"
    assert {url for _, url, _, _ in playing} <= {None, "0"}, "Python was asked while playing"
    # the numbers beside the card are drawn with it: never another step than the bar's
    assert all(c is not None and int(c) == k for k, _, c, _ in seen), seen
    rate = max(k for k, *_ in playing) / (elapsed / 1000)
    assert 0.6 <= rate <= 1.05, rate
    paused = hook(page)
    assert paused >= 3
    settled(page, paused)  # the URL and the number box follow the pause
    # the page below follows: Python's run draws Pair details for the paused step (its box
    # is keyed by the step), and the heatmap, drawn by the browser from the steps Python
    # sends around the one it heard, names the step in its caption
    page.wait_for_selector(f'[class*="st-key-w_pair_{paused}_"]', state="attached",
                           timeout=30_000)
    page.wait_for_function(
        "k => [...document.querySelectorAll('.st-key-stage_heatmap .bv-hm-caption')]"
        ".some(c => c.textContent.includes(`at step ${k},`))", arg=paused, timeout=30_000)
    no_error(page)


# -- the bar's handover when a rerun re-creates it, on a page of its own ----------------

STEPPER = ROOT / "bpeviz" / "ui" / "stepper" / "src"

#: mounts a bar in a new host, as Streamlit does for each new element (the old one, when
#: a rerun re-creates the bar, may still stand or be gone already); returns nothing
MOUNT = """([host, step, seq]) => {
  let e = document.getElementById(host);
  if (!e) { e = document.createElement('div'); e.id = host; document.body.append(e); }
  window.bpevizStage({ parentElement: e, setTriggerValue: (name, v) => window.sent.push(v),
    data: { role: 'controls', step, lo: 0, n: 40, speed: '1', seq, hist: 'h' } });
}"""
STEP_OF = "h => document.querySelector('#' + h + ' [data-bpeviz-step]').dataset.bpevizStep"


def stage_page(page, running: bool) -> None:
    """A page with the stage module and Streamlit's app root, its script ``running``."""
    from bpeviz.present.stage_script import bundle  # the modules as the browser gets them

    state = "running" if running else "notRunning"
    page.set_content(f'<div data-testid="stApp" data-test-script-state="{state}"></div>'
                     f'<script type="module">{bundle(STEPPER)}</script>'
                     "<script>window.sent = [];</script>")
    page.wait_for_function("() => typeof window.bpevizStage === 'function'")


def old_bar_goes(page, step: int) -> None:
    """The old bar leaves the page: the new one shows ``step``, and Python hears it."""
    page.evaluate("() => document.getElementById('old').remove()")
    assert hook(page) == step
    python_hears(page, step)


def python_hears(page, step: int) -> None:
    page.wait_for_function("() => window.sent.length > 0")
    assert page.evaluate("() => window.sent.at(-1).step") == step


def test_with_two_bars_standing_the_new_one_takes_the_keys(page):
    """A rerun mounted the new bar while the old one still stood: a key press moves the
    new one. (The old one's listener comes first; if it took the key, the new bar would
    stay behind and the press would be lost once the old one went.)"""
    stage_page(page, running=True)
    page.evaluate(MOUNT, ["old", 5, 0])
    page.evaluate(MOUNT, ["new", 5, 0])
    blur(page)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(STEP_OF, "new") == "7"
    old_bar_goes(page, 7)


def test_a_click_on_the_old_bar_moves_the_new_one(page):
    """With two bars standing, ▶ and the slider of the old one (the page still shows it)
    move the new one: a click that moved only the old bar would be lost with it."""
    stage_page(page, running=True)
    page.evaluate(MOUNT, ["old", 5, 0])
    page.evaluate(MOUNT, ["new", 5, 0])
    page.locator('#old [aria-label="Next merge"]').click()
    assert page.evaluate(STEP_OF, "new") == "6"
    page.locator('#old input[type="range"]').fill("12")
    assert page.evaluate(STEP_OF, "new") == "12"
    old_bar_goes(page, 12)


def test_a_key_pressed_before_the_new_bar_mounts_beside_the_old_one_is_carried(page):
    """The rerun mounts the new bar while the old one still stands, with Python's older
    step: the new bar starts from the step the keys chose on the old one."""
    stage_page(page, running=True)
    page.evaluate(MOUNT, ["old", 5, 0])
    blur(page)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.evaluate(MOUNT, ["new", 5, 0])
    assert page.evaluate(STEP_OF, "new") == "7"
    old_bar_goes(page, 7)


def test_play_goes_on_in_a_new_bar(page):
    """Playing when a rerun re-creates the bar: the new one plays on from the step
    reached, at the chosen speed, and the old one stops."""
    stage_page(page, running=True)
    page.evaluate(MOUNT, ["old", 5, 0])
    page.locator('#old .bv-stage-speed[data-speed="10"]').click()
    page.locator("#old .bv-stage-play").click()
    page.wait_for_timeout(450)
    page.evaluate(MOUNT, ["new", 5, 0])
    reached = int(page.evaluate(STEP_OF, "new"))
    assert reached >= 7, "the new bar starts where the old one had played to"
    page.evaluate("() => document.getElementById('old').remove()")
    page.wait_for_timeout(600)
    assert hook(page) >= reached + 3, "and plays on at 10 steps/s"
    assert "Pause" in page.locator("#new .bv-stage-play").inner_text()


def test_a_key_pressed_while_the_bar_is_remounted_is_carried(page):
    """A rerun took the bar out and has not mounted the new one yet: keys pressed in that
    moment count, and the new bar starts from them, not from Python's older step."""
    stage_page(page, running=True)
    page.evaluate(MOUNT, ["old", 5, 0])
    page.evaluate("() => document.getElementById('old').remove()")
    blur(page)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.evaluate(MOUNT, ["new", 5, 0])  # the rerun's data: Python still at 5
    assert hook(page) == 8
    python_hears(page, 8)


def test_a_bar_gone_for_good_gives_the_keys_back(page):
    """No run under way and the last draw long ago (another page is shown): a removed
    bar leaves the keys alone."""
    stage_page(page, running=False)
    page.evaluate(MOUNT, ["old", 5, 0])
    page.evaluate("() => document.getElementById('old').remove()")
    page.wait_for_timeout(2300)  # the stage's REMOUNT_GRACE_MS, and a little more
    page.evaluate("() => { window.seen = [];"
                  " document.addEventListener('keydown', e => window.seen.push("
                  "e.defaultPrevented)); }")
    blur(page)
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => window.seen") == [False], "the key was the page's"
    assert page.evaluate("() => window.__bpevizStage.step") == 5


#: concurrent sessions: twelve by default, a load two cores can just carry
#: (BPEVIZ_STAGE_SESSIONS sets another number); the runs are in bench/RESULTS.md
SESSIONS = int(os.environ.get("BPEVIZ_STAGE_SESSIONS", "12"))
THROTTLE = 4  # CPU slow-down of every other session


@pytest.mark.slow
def test_concurrent_sessions_searching_and_stepping_never_freeze(browser, own_server):
    """Under load, queued reruns must not freeze a page ("Cannot set a node at a delta
    path") nor lose a step. Each session searches words and steps fast, again and again
    (every other one on a CPU slowed 4x); none may report a page error, and each must still
    follow its last step at the end. Twelve sessions, on a server of their own,
    which traces what Python does for each (bpeviz.ui.trace): two cores run twelve pages
    and the server, and whatever is still queued when the test ends is not the next
    test's problem. On that load a rerun can take longer than the stage's resend delay: a
    stage that resent on a timer would interrupt each rerun before it finished, and the
    sessions would stop following for good."""
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900})
                for _ in range(SESSIONS)]
    for c in contexts:  # the stage's own log, for the message when a session goes wrong
        c.add_init_script("window.__bvDebug = [];")
    pages = [c.new_page() for c in contexts]
    errors: list[str] = []
    for i, p in enumerate(pages):
        p.set_default_timeout(120_000)  # twelve pages on two cores: actions wait their turn
        p.on("pageerror", lambda e, i=i: errors.append(f"session {i}: {e}"))
    searches = ["to", "ken", "the", "er", "a", ""]
    began = time.monotonic()
    try:
        # the sessions open one after the other (12 first page loads at once on two cores
        # take minutes of Chromium's time, and are not what this test is about); then
        # they all search and step at once
        for i, p in enumerate(pages):
            p.goto(f"{own_server}/Explore?step=10", timeout=120_000)
            ready(p, timeout=120_000)
            p.wait_for_selector(HOOK, timeout=120_000)
            if i % 2:  # a slowed CPU makes the race of queued reruns easy to hit
                p.context.new_cdp_session(p).send("Emulation.setCPUThrottlingRate",
                                                  {"rate": THROTTLE})
        expected = [10] * SESSIONS
        for round_ in range(3):
            for i, p in enumerate(pages):  # every session types a search (Enter) ...
                box = p.get_by_label("Search words")
                box.fill(searches[(i + round_) % len(searches)])
                box.press("Enter")
            for i, p in enumerate(pages):  # ... and steps at once, while reruns queue
                blur(p)
                for _ in range(3 + i % 4):
                    p.keyboard.press("ArrowRight")
                expected[i] += 3 + i % 4
                try:
                    shown = hook(p)
                except playwright_api.Error as err:  # say what the session shows instead
                    raise AssertionError(f"session {i}, round {round_}: no step bar "
                                         f"({explain(p, own_server)}): {err}") from None
                assert shown == expected[i], (f"session {i}, round {round_}: the bar shows "
                                              f"{shown}, not {expected[i]}: "
                                              f"{explain(p, own_server)}")
            for i, p in enumerate(pages):  # a click on the bar's ▶ too (on either bar,
                # while a rerun's new bar stands beside the old one: both move the new one)
                p.get_by_role("button", name="Next merge", exact=True).first.click()
                expected[i] += 1
        waiting = all_settled(pages, expected, timeout=300)
        assert not waiting, ("sessions that did not settle: "
                             + "; ".join(f"{i}: {w} {explain(pages[i], own_server)}"
                                         for i, w in waiting.items()))
        for i, p in enumerate(pages):
            ready(p)
            assert hook(p) == expected[i], i
            assert f"Merge {expected[i]}\n" in card_text(p), i
            assert p.locator('[data-testid="stException"]').count() == 0, i
        took = time.monotonic() - began
        # nobody typed into a "Go to step" box: every box callback was a stale value
        # from a crossed request, and none may have moved a step (state.box_to)
        boxes = trace.lines(server_log(own_server), name="box")
        assert not [b for b in boxes if "taken=True" in b], boxes
        print(f"{SESSIONS} sessions: {took:.1f} s, no page error; {len(boxes)} stale "
              "box values ignored")
    finally:
        for c in contexts:
            c.close()
    assert not errors, errors


def session_state(page) -> dict:
    """What a session shows: the browser's step, Python's (URL, number box), the script's
    state and the connection status, for a message when a session does not settle."""
    return page.evaluate("""() => ({
      hook: document.querySelector('[data-bpeviz-step]')?.getAttribute('data-bpeviz-step'),
      url: new URLSearchParams(location.search).get('step'),
      boxes: [...document.querySelectorAll('input[aria-label="Go to step"]')].map(b => b.value),
      script: document.querySelector('[data-testid="stApp"]')
        ?.getAttribute('data-test-script-state'),
      status: document.querySelector('[data-testid="stStatusWidget"]')?.innerText || '',
      exceptions: document.querySelectorAll('[data-testid="stException"]').length,
      bars: document.querySelectorAll('[data-bpeviz-step]').length,
      alerts: [...document.querySelectorAll('[data-testid="stAlert"]')]
        .map(a => a.innerText.slice(0, 200)),
      log: (window.__bvDebug || []).slice(-40)})""")


def server_log(server) -> str:
    return Path(server.log).read_text(encoding="utf-8", errors="replace")


def explain(page, server) -> str:
    """What a session shows (:func:`session_state`) and what Python did for it: the
    server's trace lines (bpeviz.ui.trace) of the session the bar's renders name."""
    shown = session_state(page)
    sids = {e[-1] for e in shown["log"] if e[1] == "render" and e[-1]}
    log = server_log(server)
    said = [line for sid in sids for line in trace.lines(log, sid)][-60:]
    return f"{shown}; the server's trace of {sorted(sids)}:\n" + "\n".join(said)


def all_settled(pages, expected: list[int], timeout: float) -> dict[int, dict]:
    """Wait (all sessions at once) until Python has heard each session's last step; the
    sessions that have not, with what they show, when ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    waiting = dict(enumerate(pages))
    while waiting and time.monotonic() < deadline:
        for i, p in list(waiting.items()):
            shown = session_state(p)
            if (shown["url"] == str(expected[i]) and str(expected[i]) in shown["boxes"]
                    and shown["script"] == "notRunning"):
                del waiting[i]
        time.sleep(1)
    return {i: {"expected": expected[i], **session_state(p)} for i, p in waiting.items()}
