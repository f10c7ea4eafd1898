"""A restless user in Chromium never sees an error: a seeded random walk over the app.

Each walk (``random.Random(seed)``) opens Explore (or the home page) and takes a number of
actions, each picked among what the page shows at that moment: an option of any select
box (opened and clicked, as a user does), of a radio or a segmented control, a number
typed into a number box (0, small, large), a checkbox or toggle, a button of the step
bar (◀ ▶ Play, speeds), a stage key with the focus on the page body (arrows, Shift+arrows,
Home/End, Space, PageUp/PageDown), a click on a pair heatmap's cell, a page link in the
sidebar, Back and Forward. After each action it waits (bounded) until Streamlit's script
is idle and checks that the page shows no error: no exception box, no "This app has
encountered an error", no component error, no "Something went wrong on this page"
(bpeviz's own message when a page's code fails), no uncaught error in the page, and no
console error but the two 404s Streamlit always logs when a page is opened by its address
(its base-path probe of ``/<Page>/_stcore/health`` and ``/<Page>/_stcore/host-config``).

A failure names the seed, lists the whole walk (the last actions marked), saves a
screenshot, and prints the walk's actions as JSON: ``BPEVIZ_WALK_REPLAY`` (that JSON, or a
file holding it) replays exactly those actions, to shorten a failing walk by hand.

Longer local runs: ``BPEVIZ_WALK_SEEDS`` (e.g. ``"1 2 3 4 5"`` or ``"1-20"``) and
``BPEVIZ_WALK_STEPS`` (actions per walk, 60 by default).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")


def _seeds() -> list[int]:
    seeds: list[int] = []
    for part in os.environ.get("BPEVIZ_WALK_SEEDS", "1 2 3").replace(",", " ").split():
        lo, _, hi = part.partition("-")
        seeds.extend(range(int(lo), int(hi or lo) + 1))
    return seeds


SEEDS = _seeds()
STEPS = int(os.environ.get("BPEVIZ_WALK_STEPS", "60"))
#: the longest wait for Streamlit's script to be idle after one action
IDLE_MS = 90_000
#: how many of the last actions the failure message marks
LAST = 15

#: what the walk does, and how often (relative weights) when it can
WEIGHTS = {"select": 6, "radio": 2, "segment": 2, "number": 3, "check": 1, "bar": 2,
           "key": 6, "link": 3, "back": 1, "forward": 1, "cell": 3}
#: a select box with one of these labels is picked this many times more often
SELECT_WEIGHTS = {"Algorithm": 3, "Pre-tokenizer": 2}
#: a widget of the page itself (not the sidebar's) is picked this many times more often
MAIN_WEIGHT = 2
#: options chosen less often: the walk types no text and uploads no file, so a pasted or
#: uploaded corpus stays empty and every page says only that (nothing to step through)
OPTION_WEIGHTS = {("Corpus", "Paste"): 0.15, ("Corpus", "Upload"): 0.15}
KEYS = ["ArrowLeft", "ArrowRight", "Shift+ArrowLeft", "Shift+ArrowRight", "Home", "End",
        "Space", "PageUp", "PageDown"]
#: numbers a user may type; boxes that size a training get the modest ones only
NUMBERS = [0, 1, 2, 3, 5, 10, 24, 50, 100, 250, 1000, 3000, 99_999, 10**9]
HEAVY = ("Merges", "Vocabulary size", "Samples", "Segmentations listed")
MODEST = [n for n in NUMBERS if n <= 3000]

#: text on the page that is an error the user sees
ERROR_TEXTS = ["This app has encountered an error", "Component Error",
               "Something went wrong on this page", "Bad message format"]

#: every widget the walk can use, as the page shows it now (one list, read in one go)
VISIBLE = """() => {
  const shown = e => { const r = e.getBoundingClientRect();
                       return r.width > 0 && r.height > 0; };
  const label = e => ((e.querySelector('[data-testid="stWidgetLabel"]') || {}).innerText
                      || '').trim();
  const area = e => e.closest('[data-testid="stSidebar"]') ? 'sidebar' : 'main';
  const found = [];
  const kinds = {select: 'stSelectbox', radio: 'stRadio', segment: 'stButtonGroup',
                 number: 'stNumberInput', check: 'stCheckbox', toggle: 'stToggle'};
  for (const [kind, id] of Object.entries(kinds)) {
    const seen = {};
    for (const e of document.querySelectorAll(`[data-testid="${id}"]`)) {
      const name = label(e), where = area(e), key = where + '|' + name;
      const nth = seen[key] = (seen[key] ?? -1) + 1;
      if (!shown(e) || !name) continue;
      let options = [];
      if (kind === 'radio') options = [...e.querySelectorAll('label')]
        .filter(l => shown(l) && !l.querySelector('input:disabled')
                     && !l.closest('[data-testid="stWidgetLabel"]'))
        .map(l => l.innerText.trim());
      if (kind === 'segment') options = [...e.querySelectorAll('button')]
        .filter(b => shown(b) && !b.disabled).map(b => b.innerText.trim());
      const disabled = !!e.querySelector('input:disabled');
      if (disabled || ((kind === 'radio' || kind === 'segment') && !options.length)) continue;
      found.push({kind: kind === 'toggle' ? 'check' : kind, area: where, label: name, nth,
                  options});
    }
  }
  const bar = [...document.querySelectorAll('.bv-stage-bar button')]
    .filter(b => shown(b) && !b.disabled)
    .map(b => (b.getAttribute('aria-label') || b.innerText).trim());
  if (bar.length) found.push({kind: 'bar', options: bar});
  // a pair heatmap's cells (a click picks the pair): how many there are
  const cells = [...document.querySelectorAll('.bv-hm-cell[data-pick]')].filter(shown).length;
  if (cells) found.push({kind: 'cell', options: [cells]});
  const links = [...document.querySelectorAll(
      '[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"]')]
    .filter(shown).map(a => a.innerText.split('\\n').pop().trim());
  if (links.length) found.push({kind: 'link', options: links});
  return found;
}"""

#: whether Back and Forward stay in the app (the tab's first entry is about:blank, which
#: the Navigation API does not list: it is of another origin)
HISTORY = """() => {
  const at = navigation.currentEntry ? navigation.currentEntry.index : -1;
  return {back: at > 0, forward: at >= 0 && at < navigation.entries().length - 1};
}"""

#: counts the script runs the page is told of (Streamlit's state turning to "running"),
#: so that the walk can tell a run its action started from none at all
COUNT_RUNS = """(() => {
  window.__walkRuns = 0;
  new MutationObserver(changes => {
    for (const c of changes)
      if (c.target.getAttribute('data-test-script-state') === 'running') window.__walkRuns++;
  }).observe(document, {subtree: true, attributes: true,
                        attributeFilter: ['data-test-script-state']});
})();"""
#: how long an action may take to start a run before the walk takes it that none comes
RUN_GRACE_MS = 1_500

#: Streamlit's script is idle and nothing waits to be drawn
IDLE = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector('[data-testid="stSkeleton"]');
}"""


@dataclass
class Walk:
    """What one walk did and what the browser said along the way."""

    seed: int | str
    server: str
    actions: list[dict] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    allowed: int = 0  # console errors that are Streamlit's base-path probe
    started: float = field(default_factory=time.monotonic)

    def log(self, action: dict, page) -> None:
        self.actions.append(action)
        at = f"{time.monotonic() - self.started:6.1f} s"
        where = re.sub(r"[?&]embed_options=[^&]*$|(?<=[?&])embed_options=[^&]*&", "",
                       page.url.removeprefix(self.server)) or "/"
        self.lines.append(f"{len(self.actions):3d}. {at}  {describe(action):60s} -> {where}")

    def report(self, problem: str, shot: Path) -> str:
        marked = [("  " if i < len(self.lines) - LAST else "> ") + line
                  for i, line in enumerate(self.lines)]
        return (f"seed {self.seed}: {problem}\n"
                f"after {len(self.actions)} actions (the last {LAST} marked >):\n"
                + "\n".join(marked)
                + f"\nscreenshot: {shot}\n"
                + f"replay (BPEVIZ_WALK_REPLAY): {json.dumps(self.actions, ensure_ascii=False)}")


def describe(action: dict) -> str:
    kind = action["kind"]
    if kind in ("select", "radio", "segment", "number"):
        nth = f" #{action['nth'] + 1}" if action.get("nth") else ""
        verb = {"number": "type"}.get(kind, "choose")
        return (f"{action['area']} {kind} {action['label']!r}{nth}: {verb} "
                f"{action.get('choice', '(not chosen)')!r}")
    if kind == "check":
        nth = f" #{action['nth'] + 1}" if action.get("nth") else ""
        return f"{action['area']} click {action['label']!r}{nth}"
    if kind == "bar":
        return f"step bar: click {action['choice']!r}"
    if kind == "cell":
        return f"heatmap: click cell #{action['choice'] + 1}"
    if kind == "key":
        return f"key {action['choice']} (focus on the body)"
    if kind == "link":
        return f"sidebar link {action['choice']!r}"
    if kind == "start":
        return f"open /{action['choice']}"
    return kind  # back, forward


def allowed_console_error(server: str, message) -> bool:
    """Streamlit's base-path probe of a page opened by its address: a 404 for
    ``/<Page>/_stcore/health`` or ``/<Page>/_stcore/host-config``."""
    url = (message.location or {}).get("url", "")
    return ("404" in message.text and re.fullmatch(
        re.escape(server) + r"/[A-Za-z0-9_]+/_stcore/(health|host-config)", url) is not None)


def widget(page, action: dict):
    """The locator of the widget an action names (its kind, area, label, nth)."""
    testid = {"select": "stSelectbox", "radio": "stRadio", "segment": "stButtonGroup",
              "number": "stNumberInput"}.get(action["kind"])
    root = page.locator('[data-testid="stSidebar"]' if action["area"] == "sidebar"
                        else '[data-testid="stMain"]')
    exact = re.compile(r"^\s*" + re.escape(action["label"]) + r"\s*$")
    if testid is None:  # a checkbox or a toggle
        boxes = root.locator('[data-testid="stCheckbox"], [data-testid="stToggle"]')
    else:
        boxes = root.locator(f'[data-testid="{testid}"]')
    return boxes.filter(has=page.locator('[data-testid="stWidgetLabel"]', has_text=exact)
                        ).nth(action.get("nth", 0))


def blur(page) -> None:
    """The focus on the page body, as after a click on empty space."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); }")


def open_select(page, box) -> list[str]:
    """Open a select box as a user does (a click on it; its arrow if that did not open
    it) and read its options."""
    box.locator('[role="combobox"]').click(timeout=10_000)
    try:
        page.wait_for_selector('[role="listbox"] [role="option"]', timeout=2_000)
    except playwright_api.TimeoutError:
        box.locator('button[aria-haspopup="listbox"]').click(timeout=10_000)
        page.wait_for_selector('[role="listbox"] [role="option"]', timeout=5_000)
    return [t.strip() for t in page.eval_on_selector_all(
        '[role="listbox"] [role="option"]', "os => os.map(o => o.innerText)")]


def perform(page, walk: Walk, action: dict, rng: random.Random | None) -> None:
    """Do ``action`` (with ``rng``: choose what it left open, e.g. a select box's option)."""
    kind = action["kind"]
    if kind == "select":
        options = open_select(page, widget(page, action))
        if rng is not None:
            action["choice"] = rng.choice(options)
        if action["choice"] not in options:
            page.keyboard.press("Escape")
            raise LookupError(f"no option {action['choice']!r} in {options[:20]}")
        page.locator('[role="listbox"] [role="option"]').nth(
            options.index(action["choice"])).click(timeout=10_000)
    elif kind == "radio":
        widget(page, action).locator("label").filter(
            has_text=re.compile(r"^\s*" + re.escape(action["choice"]) + r"\s*$")
        ).first.click(timeout=10_000)
    elif kind == "segment":
        widget(page, action).locator("button").filter(
            has_text=re.compile(r"^\s*" + re.escape(action["choice"]) + r"\s*$")
        ).first.click(timeout=10_000)
    elif kind == "number":
        box = widget(page, action).locator("input")
        box.fill(str(action["choice"]), timeout=10_000)
        box.press("Enter")
    elif kind == "check":
        widget(page, action).locator("label").first.click(timeout=10_000)
    elif kind == "bar":
        name = action["choice"]
        page.locator(".bv-stage-bar button").filter(has_text=re.compile(
            r"^\s*" + re.escape(name) + r"\s*$")).or_(page.locator(
            f'.bv-stage-bar button[aria-label="{name}"]')).first.click(timeout=10_000)
    elif kind == "cell":
        page.locator(".bv-hm-cell[data-pick]").nth(action["choice"]).click(timeout=10_000)
    elif kind == "key":
        blur(page)
        page.keyboard.press(action["choice"])
    elif kind == "link":
        page.locator('[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"]').filter(
            has_text=re.compile(re.escape(action["choice"]) + r"\s*$")
        ).first.click(timeout=10_000)
    elif kind == "back":
        page.go_back(wait_until="commit")
    elif kind == "forward":
        page.go_forward(wait_until="commit")
    elif kind == "start":
        page.goto(f"{walk.server}/{action['choice']}")
    else:
        raise ValueError(action)


def pick(page, rng: random.Random) -> dict:
    """One action among what the page shows now (its free choices are made in perform)."""
    visible = page.evaluate(VISIBLE)
    by_kind: dict[str, list[dict]] = {}
    for found in visible:
        by_kind.setdefault(found["kind"], []).append(found)
    history = page.evaluate(HISTORY)  # Back and Forward as the browser's buttons allow
    kinds = [k for k in WEIGHTS if k in by_kind or k == "key" or history.get(k)]
    kind = rng.choices(kinds, weights=[WEIGHTS[k] for k in kinds])[0]
    if kind in ("back", "forward"):
        return {"kind": kind}
    if kind == "key":
        return {"kind": "key", "choice": rng.choice(KEYS)}
    if kind == "cell":
        return {"kind": kind, "choice": rng.randrange(by_kind[kind][0]["options"][0])}
    if kind in ("bar", "link"):
        return {"kind": kind, "choice": rng.choice(by_kind[kind][0]["options"])}
    candidates = by_kind[kind]
    weights = [(SELECT_WEIGHTS.get(c["label"], 1) if kind == "select" else 1)
               * (MAIN_WEIGHT if c["area"] == "main" else 1) for c in candidates]
    chosen = rng.choices(candidates, weights=weights)[0]
    action = {"kind": kind, "area": chosen["area"], "label": chosen["label"],
              "nth": chosen["nth"]}
    if kind in ("radio", "segment"):
        options = chosen["options"]
        action["choice"] = rng.choices(options, weights=[
            OPTION_WEIGHTS.get((chosen["label"], o), 1) for o in options])[0]
    elif kind == "number":
        heavy = any(chosen["label"].startswith(h) for h in HEAVY)
        action["choice"] = rng.choice(MODEST if heavy else NUMBERS)
    return action  # a select box's option is chosen once it is open


def runs(page) -> int:
    return page.evaluate("() => window.__walkRuns || 0")


def settle(page, action: dict, runs_before: int) -> str | None:
    """Wait (bounded) until Streamlit's script is idle; a problem if it never is.

    First for the run the action starts (most do; a key reaches Python 250 ms after the
    last press, the step bar's quiet time), up to RUN_GRACE_MS; then for the script to
    be idle, and still idle a moment later."""
    grace = RUN_GRACE_MS + (250 if action["kind"] in ("key", "bar") else 0)
    # no run may come: an option already chosen, a key at the end of the steps
    with contextlib.suppress(playwright_api.TimeoutError):
        page.wait_for_function("n => (window.__walkRuns || 0) > n", arg=runs_before,
                               timeout=grace)
    try:
        for _ in range(2):  # idle, and still idle a moment later
            page.wait_for_function(IDLE, timeout=IDLE_MS)
            page.wait_for_timeout(150)
    except playwright_api.TimeoutError:
        return f"Streamlit's script was not idle {IDLE_MS // 1000} s after the action"
    return None


def problems(page, walk: Walk) -> list[str]:
    """Every error the page shows or the browser reported since the last check."""
    found = []
    if page.locator('[data-testid="stException"]').count():
        found.append("an exception box: " + page.locator(
            '[data-testid="stException"]').first.inner_text()[:600])
    body = page.locator("body").inner_text()
    for text in ERROR_TEXTS:
        if text in body:
            at = body.index(text)
            found.append(f"{text!r} on the page: …{body[max(0, at - 80):at + 300]}…")
    found += [f"page error: {e}" for e in walk.page_errors]
    found += [f"console error: {e}" for e in walk.console_errors]
    walk.page_errors.clear()
    walk.console_errors.clear()
    return found


def server_failures(server, since: int) -> str:
    """The server log's lines from ``since`` (a byte offset) on that tell of a failure:
    each traceback and error line with a little context, at most the last 60 lines."""
    path = getattr(server, "log", None)
    if path is None or not Path(path).exists():
        return ""
    with open(path, "rb") as f:
        f.seek(since)
        lines = f.read().decode("utf-8", "replace").splitlines()
    keep: set[int] = set()
    for i, line in enumerate(lines):
        if re.search(r"Traceback|Error|Exception|ERROR", line):
            keep.update(range(max(0, i - 1), min(len(lines), i + 25)))
    shown = [lines[i] for i in sorted(keep)][-60:]
    return "\n".join(shown)


def log_size(server) -> int:
    path = getattr(server, "log", None)
    return Path(path).stat().st_size if path is not None and Path(path).exists() else 0


def run_walk(page, server: str, walk: Walk, tmp_path: Path,
             steps: int, rng: random.Random | None, replay: list[dict] | None = None) -> None:
    page.add_init_script(COUNT_RUNS)
    page.on("pageerror", lambda e: walk.page_errors.append(str(e)[:1000]))

    def on_console(message) -> None:
        if message.type != "error":
            return
        if allowed_console_error(server, message):
            walk.allowed += 1
        else:
            where = (message.location or {}).get("url", "")
            walk.console_errors.append(f"{message.text[:1000]} ({where})")

    page.on("console", on_console)
    script = list(replay or [])
    if rng is not None:
        script = [{"kind": "start", "choice": "Explore" if rng.random() < 0.75 else ""}]
    shot = tmp_path / f"walk-seed-{walk.seed}.png"
    since = log_size(server)
    undone = 0

    def fail(problem: str) -> None:
        try:
            page.screenshot(path=str(shot), full_page=True)
        except Exception as err:  # the report matters more than the shot
            problem += f" (no screenshot: {err})"
        report = walk.report(problem, shot)
        told = server_failures(server, since)
        if told:
            report += "\nthe server log during this walk (failures only):\n" + told
        (tmp_path / f"walk-seed-{walk.seed}.txt").write_text(report, encoding="utf-8")
        pytest.fail(report, pytrace=False)

    while script or (rng is not None and len(walk.actions) < steps + 1):
        if script:
            action = script.pop(0)
            chooser = None
        else:
            if not page.url.startswith(server):  # Back left the app: open it again
                action, chooser = {"kind": "start", "choice": "Explore"}, None
            else:
                action, chooser = pick(page, rng), rng
        why_not = None
        before = runs(page) if page.url.startswith(server) else 0
        try:
            perform(page, walk, action, chooser)
        except (playwright_api.Error, LookupError) as err:
            # the widget went away under the click (a rerun redrew the page), or a
            # replayed action names one this page does not have: the walk goes on, and
            # the page is checked all the same
            why_not = str(err).splitlines()[0][:200]
            undone += 1
            page.keyboard.press("Escape")  # a select box left open
        stuck = settle(page, action, before) if page.url.startswith(server) else None
        walk.log(action, page)  # with the address it led to
        if why_not:
            walk.lines[-1] += f"  (not done: {why_not})"
        found = problems(page, walk)
        if stuck:
            found.insert(0, stuck)
        if found:
            fail("\n".join(found))
        if rng is not None and undone > max(5, steps // 4):
            fail(f"{undone} actions could not be done: the walk no longer tests the app")
    print("\n".join(walk.lines))
    print(f"seed {walk.seed}: {len(walk.actions)} actions in "
          f"{time.monotonic() - walk.started:.0f} s, no error ({undone} not done; "
          f"{walk.allowed} console errors of Streamlit's base-path probe)")


@pytest.mark.parametrize("seed", SEEDS)
def test_a_random_walk_of_the_app_never_shows_an_error(page, server, tmp_path, seed):
    run_walk(page, server, Walk(seed, server), tmp_path, STEPS, random.Random(seed))


def _replay() -> list[dict] | None:
    given = os.environ.get("BPEVIZ_WALK_REPLAY", "").strip()
    if not given:
        return None
    return json.loads(Path(given).read_text() if not given.startswith("[") else given)


@pytest.mark.skipif(not os.environ.get("BPEVIZ_WALK_REPLAY"),
                    reason="replays the actions in BPEVIZ_WALK_REPLAY")
def test_a_recorded_walk_never_shows_an_error(page, server, tmp_path):
    run_walk(page, server, Walk("replay", server), tmp_path, 0, None, _replay())
