"""Many people at once: one real ``streamlit run app.py``, ten browser sessions at a time.

One Chromium, one browser context (so one Streamlit session) per user, all driven
concurrently with Playwright's async API. Half the users open a link with their own
sample, algorithm and step; the other half paste their own corpus in the sidebar. Each
must see its own training (the merge card, the step, its own words), nobody may see
another user's pasted words, no page may show an exception or open a dialog, and the
server must keep answering. The slowest page load is printed (``pytest -s`` shows it);
the bound asserted on it only catches a hang, it is not a performance target.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import time
import urllib.request
from dataclasses import dataclass, field

import pytest

from bpeviz import Corpus, train
from bpeviz.samples import SAMPLES, load_sample
from bpeviz.text.display import label
from bpeviz.ui import ALGORITHM_LABELS, pretokenizer_for, train_options

pytestmark = pytest.mark.browser

async_api = pytest.importorskip("playwright.async_api")

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update"]
HANG = 240.0  # seconds: a page slower than this is stuck, not slow (a hang guard only)
TIMEOUT = HANG * 1000

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)

#: made-up words, one per pasting user, found in no sample corpus
OWN_WORDS = ["zorblax", "quixotl", "wumpaloo", "fnordel", "glimbrix"]


@dataclass
class User:
    """One browser session: what it opens, what it pastes, and what it should see."""

    name: str
    algo: str
    step: int
    merges: int
    sample: str | None = None  # opened by link
    paste: str | None = None  # pasted in the sidebar
    own_word: str | None = None
    loads: list[float] = field(default_factory=list)
    first_load: tuple[float, float] = (0.0, 0.0)  # when its first page load began and ended

    @property
    def path(self) -> str:
        if self.sample is not None:
            return (f"Explore?sample={self.sample}&algo={self.algo}&merges={self.merges}"
                    f"&step={self.step}")
        return f"Explore?source=paste&algo={self.algo}&merges={self.merges}&step={self.step}"

    def training(self):
        pretok = pretokenizer_for("auto", self.algo)
        if self.sample is not None:
            corpus = load_sample(self.sample, pretok)
        else:
            corpus = Corpus.from_bytes(self.paste.encode(), pretok, "auto", name="pasted text")
        return train(corpus, **train_options(self.algo, merges=self.merges))

    def corpus_name(self) -> str:
        return SAMPLES[self.sample].filename if self.sample is not None else "pasted text"


def pasted_corpus(word: str, k: int) -> str:
    """A small corpus of one user: its own word in a few forms, plus common words."""
    forms = [word, f"{word}s", f"{word}er", f"{word}est", f"un{word}", f"{word}ing"]
    lines = [" ".join(forms[: 3 + (i + k) % 4]) + " low lower newest" for i in range(12)]
    return "\n".join(lines)


USERS = [
    User("link-tour-bpe", "bpe", 7, 200, sample="tour"),
    User("link-seed003-bbpe", "bbpe", 12, 23, sample="seed003"),
    User("link-low-wordpiece", "wordpiece", 4, 10, sample="low"),
    User("link-fast-bbpe", "bbpe", 9, 30, sample="fast"),
    User("link-hug-wordpiece", "wordpiece", 3, 10, sample="hug"),
    *[User(f"paste-{word}-{algo}", algo, 2 + k, 40, paste=pasted_corpus(word, k),
           own_word=word)
      for k, (word, algo) in enumerate(zip(OWN_WORDS,
                                           ["bpe", "bbpe", "wordpiece", "bpe", "wordpiece"]))],
]


async def ready(page) -> None:
    """Wait until the app has rendered and stopped running (as test_browser.ready)."""
    await page.wait_for_selector('[data-testid="stAppViewContainer"]', timeout=TIMEOUT)
    await page.wait_for_timeout(200)
    await page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]',
                                 timeout=TIMEOUT)
    await page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stSkeleton\"]')", timeout=TIMEOUT)
    await page.wait_for_timeout(150)


async def wait_card(page, text: str) -> None:
    await page.wait_for_function(
        "t => (document.querySelector('.bv-card') || {}).innerText?.includes(t)",
        arg=text, timeout=TIMEOUT)


async def check_own_view(page, user: User, training, step: int) -> None:
    """The card, caption and words of this user's own training at ``step``."""
    merge = training.merges[step - 1]
    card = await page.locator(".bv-card").first.inner_text()
    assert f"Merge {step}\n" in card, (user.name, card)
    assert f"id {merge.token_id}" in card, (user.name, merge, card)
    assert label(merge.token, "gpt2") in card, (user.name, merge, card)
    main = await page.locator('[data-testid="stMain"]').inner_text()
    assert f"{ALGORITHM_LABELS[user.algo]} on {user.corpus_name()}: " \
           f"{len(training.corpus.words):,} distinct words, {len(training.merges):,} merges" \
        in main, (user.name, main[:400])
    assert f"Step {step} of {len(training.merges)}" in main, user.name
    url = await page.evaluate("location.href")  # (page.url misses history.replaceState)
    assert f"step={step}" in url, (user.name, url)
    # the word splits the stage draws (".bv-words" alone also matches the merges window
    # below it, which Python draws first when the browser is slow to mount the stage)
    splits = ".bv-stage-words .bv-words"
    await page.wait_for_selector(splits, timeout=TIMEOUT)
    if user.own_word is not None:
        await page.wait_for_function(
            "([sel, w]) => (document.querySelector(sel) || {}).innerText?.includes(w)",
            arg=[splits, user.own_word], timeout=TIMEOUT)
    words = await page.locator(splits).first.inner_text()
    if user.own_word is not None:
        assert user.own_word in words, (user.name, words[:300])
        assert await page.locator('[data-testid="stSidebar"] textarea').input_value() \
            == user.paste, "the pasted corpus stays in its box"
    everything = await page.locator("body").inner_text()
    others = [w for w in OWN_WORDS if w != user.own_word and w in everything]
    assert not others, f"{user.name} sees another user's pasted words: {others}"
    assert await page.locator('[data-testid="stException"]').count() == 0, user.name
    assert await page.evaluate("() => window.__pwned") is None


async def drive(browser, server: str, user: User, start: asyncio.Event) -> None:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    dialogs: list[str] = []
    try:
        page = await context.new_page()

        async def on_dialog(dialog):
            dialogs.append(dialog.message)
            await dialog.dismiss()

        page.on("dialog", on_dialog)
        training = await asyncio.to_thread(user.training)
        assert user.step < len(training.merges), (user.name, len(training.merges))
        await start.wait()  # every user starts at the same moment

        began = time.monotonic()
        await page.goto(f"{server}/{user.path}", timeout=TIMEOUT)
        await ready(page)
        if user.paste is not None:
            info = await page.locator('[data-testid="stMain"]').inner_text()
            assert "Paste a text" in info, (user.name, info[:300])
            area = page.locator('[data-testid="stSidebar"] textarea')
            await area.fill(user.paste)
            await area.press("Control+Enter")
            await page.wait_for_timeout(300)
            await ready(page)
        await wait_card(page, f"Merge {user.step}\n")
        user.loads.append(time.monotonic() - began)
        user.first_load = (began, time.monotonic())
        await check_own_view(page, user, training, user.step)

        # everybody moves on one merge at the same time
        began = time.monotonic()
        await page.get_by_role("button", name="Next merge", exact=True).click()
        await wait_card(page, f"Merge {user.step + 1}\n")
        # the card follows at once; the page follows when Python has heard the step
        await page.wait_for_function(
            "s => new URLSearchParams(location.search).get('step') === s",
                                     arg=str(user.step + 1), timeout=TIMEOUT)
        await page.wait_for_timeout(300)
        await ready(page)
        user.loads.append(time.monotonic() - began)
        await check_own_view(page, user, training, user.step + 1)
    finally:
        await context.close()
    assert not dialogs, f"{user.name}: a dialog opened: {dialogs}"


def health(server: str) -> float:
    began = time.monotonic()
    with urllib.request.urlopen(f"{server}/_stcore/health", timeout=HANG) as r:
        assert r.read().decode().strip() == "ok"
    return time.monotonic() - began


async def watch_health(server: str, stop: asyncio.Event, seen: list[float]) -> None:
    """Ask the server's health endpoint every half second while the users work."""
    while not stop.is_set():
        seen.append(await asyncio.to_thread(health, server))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.5)


async def many_users(server: str) -> list[float]:
    async with async_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            start, stop = asyncio.Event(), asyncio.Event()
            pings: list[float] = []
            watcher = asyncio.create_task(watch_health(server, stop, pings))
            jobs = [asyncio.create_task(drive(browser, server, user, start)) for user in USERS]
            await asyncio.sleep(0.5)
            start.set()
            results = await asyncio.gather(*jobs, return_exceptions=True)
            stop.set()
            await watcher
            failures = [(u.name, r) for u, r in zip(USERS, results)
                        if isinstance(r, BaseException)]
            if failures:
                raise AssertionError(f"{len(failures)} of {len(USERS)} sessions failed: "
                                     f"{failures}")
        finally:
            await browser.close()
    return pings


def test_ten_sessions_at_once_each_see_their_own_training(server):
    began = time.monotonic()
    # a thread of its own: an asyncio loop never meets the sync Playwright of other tests
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pings = pool.submit(asyncio.run, many_users(server)).result()
    elapsed = time.monotonic() - began
    loads = sorted(((t, u.name, kind) for u in USERS
                    for t, kind in zip(u.loads, ("open", "next merge"))), reverse=True)
    slowest, who, kind = loads[0]
    print(f"\n{len(USERS)} sessions at once in {elapsed:.1f} s; slowest page load "
          f"{slowest:.1f} s ({who}, {kind}); median {loads[len(loads) // 2][0]:.1f} s; "
          f"health answered {len(pings)} times, slowest {max(pings, default=0):.2f} s")
    for t, name, kind in loads:
        print(f"  {t:6.1f} s  {name} ({kind})")
    assert len(loads) == 2 * len(USERS)
    # observed: when the last user started loading, how many were loading at once
    last_start = max(u.first_load[0] for u in USERS)
    at_once = sum(start <= last_start < end for start, end in (u.first_load for u in USERS))
    print(f"  {at_once} sessions were loading at the same moment")
    assert at_once >= 10, f"only {at_once} sessions were loading at once"
    assert slowest < HANG, "a page load hung"
    assert pings and max(pings) < 10, "the server stopped answering while busy"
    assert health(server) < 5, "the server answers after the crowd has gone"
