"""The app in a real browser: Debian's Chromium, driven by Playwright, against
``streamlit run app.py``. What only a browser shows: pages render without an error
element, the slider and play work, hostile text shows literally and runs nothing.

Screenshots of each page go to a temporary folder, so a test run leaves the tree clean.
To refresh the committed ones (docs/screenshots/, shown in the README), name the folder
in ``BPEVIZ_SCREENSHOTS`` (relative to the repository):

    BPEVIZ_SCREENSHOTS=docs/screenshots python -m pytest tests/test_browser.py

The ``server`` fixture is in conftest.py (shared with test_many_users.py).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parent.parent
#: where shot() writes: set by the ``screenshots`` fixture (a temporary folder by default)
SHOTS = Path()
from tests.browser_support import CHROMIUM, shared_browser  # noqa: E402

HOSTILE = ('<script>alert(1)</script> <img src=x onerror=alert(1)> $x$ **bold** </span> '
           '<b>b</b> [a](javascript:alert(1))')
PWN = '<img src=x onerror="window.__pwned=1"> <svg onload="window.__pwned=2">'

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)


@pytest.fixture(scope="session", autouse=True)
def screenshots(tmp_path_factory) -> Path:
    """The folder for screenshots: ``BPEVIZ_SCREENSHOTS`` if set, else a temporary one."""
    global SHOTS
    chosen = os.environ.get("BPEVIZ_SCREENSHOTS")
    SHOTS = ROOT / chosen if chosen else tmp_path_factory.mktemp("screenshots")
    return SHOTS


@pytest.fixture(scope="session")
def browser():
    """The session's one Chromium (shared by every module that imports this fixture)."""
    return shared_browser()


@pytest.fixture
def page(browser):
    """A fresh browser context (a new Streamlit session); any JS dialog fails the test."""
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    tab = context.new_page()
    dialogs: list[str] = []

    def on_dialog(dialog):
        dialogs.append(dialog.message)
        dialog.dismiss()

    tab.on("dialog", on_dialog)
    yield tab
    context.close()
    assert not dialogs, f"a dialog opened: {dialogs}"


def ready(page, timeout: float = 30_000) -> None:
    """Wait until the app has rendered and stopped running."""
    page.wait_for_selector('[data-testid="stAppViewContainer"]', timeout=timeout)
    page.wait_for_timeout(200)
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]',
                           timeout=timeout)
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stSkeleton\"]')",
                           timeout=timeout)
    page.wait_for_timeout(150)


def rerun_done(page) -> None:
    page.wait_for_timeout(300)
    ready(page)


def wait_card(page, text: str, timeout: float = 15_000) -> None:
    """Wait until the merge card shows ``text``."""
    try:
        page.wait_for_function("t => (document.querySelector('.bv-card') || {}).innerText"
                               "?.includes(t)", arg=text, timeout=timeout)
    except playwright_api.TimeoutError:
        raise AssertionError(f"{text!r} not in the card: {card_text(page)!r} "
                             f"({page.url})") from None


def no_error(page) -> None:
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.evaluate("() => window.__pwned") is None


def card_text(page) -> str:
    return page.locator(".bv-card").first.inner_text()


def go(page, server: str, path: str = "") -> None:
    page.goto(f"{server}/{path}")
    ready(page)


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(400)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


PAGES = [("", "home"), ("Explore", "explore"), ("Tokenize", "tokenize"),
         ("Compare", "compare"), ("Vocabulary", "vocabulary")]


@pytest.mark.parametrize("path,name", PAGES)
def test_every_page_loads_without_an_error(page, server, path, name):
    go(page, server, f"{path}?step=24" if path else path)
    no_error(page)
    assert page.locator("h1").count() >= 1
    shot(page, name)
    if name == "explore":
        chart = page.locator(".js-plotly-plot").first
        chart.wait_for()
        chart.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        shot(page, "explore-heatmap")


def test_the_slider_buttons_and_number_box_move_the_step(page, server):
    go(page, server, "Explore?step=10")
    assert "Merge 10" in card_text(page)
    page.get_by_role("button", name="Next merge", exact=True).click()
    wait_card(page, "Merge 11")
    thumb = page.get_by_role("slider", name="Merge step")
    thumb.focus()
    thumb.press("ArrowRight")
    thumb.press("ArrowRight")
    wait_card(page, "Merge 13")
    page.wait_for_function("() => location.search.includes('step=13')")  # the URL follows
    rerun_done(page)
    page.wait_for_function("() => document.querySelectorAll('input[aria-label=\"Go to step\"]')"
                           ".length === 1")  # the box of the old step is gone
    box = page.get_by_label("Go to step", exact=True)
    assert box.input_value() == "13"
    box.fill("3")
    box.press("Enter")
    wait_card(page, "Merge 3\n")
    no_error(page)


def test_play_advances_and_pause_stops(page, server):
    go(page, server, "Explore?step=5")
    page.get_by_text("4 steps/s").click()
    page.get_by_role("button", name="▶ Play").click()
    page.wait_for_function(
        "() => /Merge ([789]|1\\d)\\b/.test(document.querySelector('.bv-card').innerText)",
        timeout=15_000)
    page.get_by_role("button", name="⏸ Pause").click()
    page.get_by_role("button", name="▶ Play").wait_for(timeout=10_000)
    page.wait_for_timeout(600)
    rerun_done(page)
    stopped = card_text(page)
    page.wait_for_timeout(1200)
    assert card_text(page) == stopped, "pause stops the steps"
    no_error(page)


def test_clicking_a_heatmap_cell_shows_that_pair(page, server):
    go(page, server, "Explore?step=0&top_n=8")
    chart = page.locator(".js-plotly-plot").first
    chart.scroll_into_view_if_needed()
    before = page.get_by_text(re.compile(r"rank \d+ · count")).inner_text()
    assert before.startswith("rank 1 ")
    # the transparent click layer: one square marker per non-empty cell
    points = chart.locator(".scatterlayer .trace").first.locator("path.point")
    assert points.count() > 3
    box = points.nth(3).bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.bv-muted')].some("
        "e => /^rank (?!1 )\\d+ · count/.test(e.innerText))", timeout=10_000)
    no_error(page)


def test_settings_persist_across_pages_and_links_reopen_them(page, server):
    go(page, server, "Explore")
    algorithm = page.locator('[data-testid="stSidebar"]').get_by_role("combobox",
                                                                      name="Algorithm")
    algorithm.click()
    page.get_by_role("option", name="WordPiece").click()
    rerun_done(page)
    assert "algo=wordpiece" in page.url
    page.locator('[data-testid="stSidebar"]').get_by_role("link", name="Vocabulary").click()
    rerun_done(page)
    assert "algo=wordpiece" in page.url
    assert algorithm.input_value() == "WordPiece"
    link = page.url
    other = page.context.browser.new_context().new_page()
    try:
        other.goto(link)
        ready(other)
        assert other.locator('[data-testid="stSidebar"]').get_by_role(
            "combobox", name="Algorithm").input_value() == "WordPiece"
        assert "vocabulary" in other.locator("h1").first.inner_text()
    finally:
        other.context.close()


def _paste_corpus(page, text: str) -> None:
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("Paste", exact=True).click()
    rerun_done(page)
    area = sidebar.locator("textarea")
    area.fill(text)
    area.press("Control+Enter")
    rerun_done(page)


def test_hostile_corpus_and_input_appear_literally_and_run_nothing(page, server):
    corpus = f"{HOSTILE}\n{PWN}\n{HOSTILE}\nlow lower lowest"
    go(page, server, "Explore?merges=60&step=4&top_n=30")
    _paste_corpus(page, corpus)
    no_error(page)
    assert "Merge 4" in card_text(page)
    shown = page.locator("[data-bpeviz-step]").first.get_attribute("data-bpeviz-step")
    assert shown == "4", "a new training keeps the step shown"
    table = page.locator(".bv-words").first.inner_text()
    for word in ("<script>alert(1)</script>", "<img", "onerror=alert(1)>", "$x$", "**bold**",
                 "</span>", "<b>b</b>", "[a](javascript:alert(1))"):
        assert word in table, word
    assert page.locator(".bv-words img, .bv-words script, .bv-words b, .bv-words svg").count() == 0
    labels = page.locator(".js-plotly-plot .xtick text, .js-plotly-plot .ytick text")
    texts = [labels.nth(i).text_content() for i in range(labels.count())]
    assert any("<" in t for t in texts) and not any("&lt;" in t or "&amp;" in t for t in texts)
    assert page.locator(".js-plotly-plot a").count() == 0
    shot(page, "hostile-explore")

    page.locator('[data-testid="stSidebar"]').get_by_role("link", name="Tokenize").click()
    rerun_done(page)
    area = page.locator('[data-testid="stMain"] textarea').first
    area.fill(HOSTILE + " " + PWN)
    area.press("Control+Enter")
    rerun_done(page)
    shown = page.locator(".bv-tokens").first.inner_text()
    assert shown.replace("\n", "") == (HOSTILE + " " + PWN).replace("\n", "")
    assert page.locator(".bv-tokens img, .bv-tokens script, .bv-tokens svg").count() == 0
    assert page.locator('[data-testid="stSidebar"] textarea').input_value() == corpus, \
        "the corpus stays in its box"
    page.wait_for_timeout(500)
    no_error(page)
    shot(page, "hostile-tokenize")


def test_bad_input_shows_a_message_and_keeps_the_text(page, server):
    go(page, server, "Explore?size_by=vocab&vocab=5")
    alert = page.locator('[data-testid="stAlert"]').first
    assert "ask for at least" in alert.inner_text()
    _paste_corpus(page, "   \n\t ")
    assert page.locator('[data-testid="stAlert"]').count() >= 1
    assert page.locator('[data-testid="stSidebar"] textarea').input_value() == "   \n\t "
    no_error(page)


def test_uploaded_corpus_and_tokenizer_files(page, server):
    from bpeviz import Corpus, formats, train

    go(page, server, "Explore?merges=30&step=2")
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("Upload", exact=True).click()
    rerun_done(page)
    uploader = sidebar.locator('[data-testid="stFileUploaderDropzoneInput"]')
    uploader.set_input_files({"name": "latin1.txt", "mimeType": "text/plain",
                              "buffer": "café crème brûlée".encode("latin-1")})
    rerun_done(page)
    alert = page.locator('[data-testid="stMain"] [data-testid="stAlert"]').first
    assert "latin1.txt is not UTF-8 text" in alert.inner_text()
    name = '<img src=x onerror=alert(1)> $x$.txt'
    uploader.set_input_files({"name": name, "mimeType": "text/plain",
                              "buffer": b"hug\t10\npug\t5\npun\t12\nbun\t4\nhugs\t5\n"})
    rerun_done(page)
    wait_card(page, "Merge 2")
    assert name in sidebar.inner_text(), "the file name shows literally"
    no_error(page)

    hostile = train(Corpus.from_text((HOSTILE + "\n") * 3), "bpe", merges=40)
    files = formats.export(hostile.at(40), "hf")
    go(page, server, "Vocabulary")
    main = page.locator('[data-testid="stMain"]')
    opener = main.locator('[data-testid="stFileUploaderDropzoneInput"]')
    opener.set_input_files({"name": "tokenizer.json", "mimeType": "application/json",
                            "buffer": b'{"model": {"type": "BPE", "vocab": '})
    rerun_done(page)
    # (the first alert may be another's: the default training decodes without spaces)
    assert main.locator('[data-testid="stAlert"]').filter(has_text="cannot be opened").count()
    opener.set_input_files({"name": "tokenizer.json", "mimeType": "application/json",
                            "buffer": files["tokenizer.json"].encode()})
    rerun_done(page)
    assert "Opened tokenizer.json" in main.inner_text()
    main.get_by_role("link", name="Tokenize with it").click()
    rerun_done(page)
    area = page.locator('[data-testid="stMain"] textarea').first
    area.fill(HOSTILE)
    area.press("Control+Enter")
    rerun_done(page)
    radio = page.locator('[data-testid="stMain"] [data-testid="stRadio"]').first.inner_text()
    assert "the opened file (tokenizer.json)" in radio, radio
    assert page.locator(".bv-tokens").first.inner_text().replace("\n", "") == HOSTILE
    assert page.locator(".bv-tokens img, .bv-tokens script").count() == 0
    no_error(page)
    shot(page, "tokenize-opened-file")


#: tokens an imported (or trained) vocabulary may hold; two set window.__pwned if run
PAYLOADS = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>",
            '<img src=x onerror="window.__pwned=1">', "javascript:alert(1)",
            "[a](javascript:alert(1))", "$x$", "**x**", "</span>",
            '<svg onload="window.__pwned=2">']
PAYLOAD_TEXT = "\n".join(PAYLOADS) + "\n"
NOTHING_RAN = """() => window.__pwned === undefined
    && !document.querySelector('img[src="x"], svg[onload]')"""


def _payload_training(algorithm: str, merges: int = 300):
    """A training whose tokens are whole payload lines (pre-tokenizer "none")."""
    from bpeviz import Corpus, train
    from bpeviz.ui import train_options

    corpus = Corpus.from_bytes(("\n".join(PAYLOADS * 3)).encode(), "none", "auto",
                               name="pasted text")
    return train(corpus, **train_options(algorithm, merges=merges))


def _hostile_tokens(page) -> None:
    """No element came out of the payloads, no handler ran, no dialog (the fixture)."""
    assert page.evaluate(NOTHING_RAN), "a payload became an element or ran"
    for area in (".bv-tokens", ".bv-tree", ".bv-words", ".bv-card"):
        assert page.locator(f"{area} img, {area} script, {area} svg, {area} a").count() == 0


@pytest.mark.parametrize("fmt,algorithm", [("hf", "bpe"), ("gpt2", "bbpe")])
def test_a_hostile_imported_vocabulary_shows_literally_and_runs_nothing(
        page, server, fmt, algorithm):
    """A tokenizer file whose tokens are HTML, JavaScript, Markdown and LaTeX: opened on
    the Vocabulary page and used on Tokenize, its tokens show as text in the spans, their
    hover titles and the token table."""
    from bpeviz import formats
    from bpeviz.formats import import_files
    from bpeviz.text.display import label

    files = formats.export(_payload_training(algorithm).at(), fmt)
    opened = import_files(files)
    whole = {t if isinstance(t, str) else t.decode("utf-8", "replace") for t in opened.vocab}
    assert all(p + "\n" in whole for p in PAYLOADS), "every payload is one token"
    tokens = list(opened.at(len(opened.merges)).encode(PAYLOAD_TEXT))
    assert not any(t.partial or t.unk for t in tokens)
    from bpeviz.present.glossary import chip_note

    notes = [chip_note(opened, t.text) for t in tokens]  # what the marks mean (as drawn)
    titles = [f"id {t.id} · {label(t.text, 'gpt2')} · bytes {bytes(t.bytes).hex(' ')}"
              + (f" · {note}" if note else "") for t, note in zip(tokens, notes)]

    go(page, server, "Vocabulary")
    main = page.locator('[data-testid="stMain"]')
    main.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        [{"name": name, "mimeType": "application/json" if name.endswith(".json")
          else "text/plain", "buffer": text.encode()} for name, text in files.items()])
    rerun_done(page)
    assert f"{len(opened.vocab):,} tokens, {len(opened.merges):,} merges" in main.inner_text()
    _hostile_tokens(page)
    main.get_by_role("link", name="Tokenize with it").click()
    rerun_done(page)
    radio = main.locator('[data-testid="stRadio"]').first.inner_text()
    assert "the opened file (" in radio, radio
    area = main.locator("textarea").first
    area.fill(PAYLOAD_TEXT)
    area.press("Control+Enter")
    rerun_done(page)

    spans = page.locator(".bv-tokens").first
    assert spans.inner_text().replace("\n", "") == PAYLOAD_TEXT.replace("\n", "")
    chips = spans.locator(".bv-chip")
    shown = chips.evaluate_all("cs => cs.map(c => [c.textContent, c.getAttribute('title')])")
    assert None not in [t for _, t in shown], "the sanitizer dropped a hover title"
    # the only change: an invisible word joiner that keeps DOMPurify from dropping them
    hovers = [t.replace("\u2060", "") for _, t in shown]
    assert hovers == titles, "hover titles, literally"
    assert [c for c, _ in shown] == [PAYLOAD_TEXT[t.start:t.end] for t in tokens]
    for payload in PAYLOADS:
        assert payload + "\n" in [c for c, _ in shown], payload
        assert any(f" · {label(payload + chr(10))} · " in t for t in hovers), payload
    assert main.locator('[data-testid="stCode"]').first.inner_text().split() == [
        str(t.id) for t in tokens]

    main.get_by_text("Token table").click()
    table = main.locator('[data-testid="stDataFrame"] table').first
    table.wait_for(state="attached")
    page.wait_for_function(
        "n => document.querySelectorAll('[data-testid=stDataFrame] td').length >= n",
        arg=4 * 8)
    cells = set(table.locator("td").all_inner_texts())
    for tok in tokens[:6]:
        assert label(tok.text, "gpt2") in cells, (tok, sorted(cells)[:20])
        assert label(PAYLOAD_TEXT[tok.start:tok.end]) in cells
    _hostile_tokens(page)

    box = main.get_by_label("Step", exact=True)
    box.fill("0")
    box.press("Enter")
    rerun_done(page)
    first = [PAYLOAD_TEXT[t.start:t.end] for t in opened.at(0).encode(PAYLOAD_TEXT)]
    page.wait_for_function("n => document.querySelectorAll('.bv-tokens .bv-chip').length == n",
                           arg=len(first))
    shown = page.locator(".bv-tokens .bv-chip").all_text_contents()
    assert shown == [s if s.strip() else label(s) for s in first], "step 0: the symbols"
    _hostile_tokens(page)


def test_hostile_tokens_in_the_vocabulary_table_tree_and_chart_hover(page, server):
    """The same tokens trained from a pasted corpus: the Vocabulary page's table, merge
    tree and chart hover show them as text."""
    from bpeviz.text.display import label

    training = _payload_training("bpe")
    last = len(training.merges)
    go(page, server, f"Vocabulary?source=paste&pretok=none&merges=300&step={last}")
    area = page.locator('[data-testid="stSidebar"] textarea')
    area.fill("\n".join(PAYLOADS * 3))
    area.press("Control+Enter")
    rerun_done(page)
    main = page.locator('[data-testid="stMain"]')
    assert f"tokens at step {last}" in main.inner_text()

    table = main.locator('[data-testid="stDataFrame"] table').first
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=stDataFrame] td').length >= 30")
    cells = set(table.locator("td").all_inner_texts())
    newest = [label(training.vocab[i]) for i in range(len(training.vocab) - 1,
                                                     len(training.vocab) - 6, -1)]
    assert set(newest) <= cells, (newest, sorted(cells)[:30])
    tree = page.locator(".bv-tree").first.inner_text()
    assert newest[0] in tree.replace("\n", ""), (newest[0], tree)

    chart = page.locator(".js-plotly-plot").first
    chart.scroll_into_view_if_needed()
    bars = chart.locator(".barlayer .point")
    assert bars.count() == last
    for payload in ("<script>alert(1)</script>", '<img src=x onerror="window.__pwned=1">',
                    "$x$", "**x**", "</span>"):
        merge = next(m for m in training.merges if m.token == payload + "\n")
        box = bars.nth(merge.step - 1).bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] - 2)
        expected = (f"step {merge.step}: {label(merge.left)} + {label(merge.right)} → "
                    f"{label(merge.token)}")
        page.wait_for_function(
            "t => (document.querySelector('.js-plotly-plot .hoverlayer') || {})"
            ".textContent?.includes(t)", arg=expected, timeout=10_000)
    labels = chart.locator(".xtick text, .ytick text").all_text_contents()
    assert not any("&lt;" in t or "&amp;" in t or "&#36;" in t for t in labels)
    _hostile_tokens(page)


def test_presentation_mode_in_the_dark_theme(browser, server):
    context = browser.new_context(viewport={"width": 1440, "height": 1000},
                                  color_scheme="dark")
    tab = context.new_page()
    try:
        tab.goto(f"{server}/Explore?present=1&step=12&sample=seed003&merges=23")
        ready(tab)
        no_error(tab)
        size = tab.evaluate("() => getComputedStyle(document.documentElement).fontSize")
        assert size == "21px"
        tab.locator(".js-plotly-plot").first.wait_for()
        shot(tab, "presentation-dark")
        tab.goto(f"{server}/Tokenize?present=1&step=23&sample=seed003&merges=23")
        ready(tab)
        shot(tab, "presentation-dark-tokenize")
    finally:
        context.close()


def test_screenshots_stay_out_of_the_repository_unless_asked(screenshots):
    """A test run leaves the tree clean: only BPEVIZ_SCREENSHOTS writes into it."""
    if os.environ.get("BPEVIZ_SCREENSHOTS"):
        assert screenshots == ROOT / os.environ["BPEVIZ_SCREENSHOTS"]
    else:
        assert not screenshots.resolve().is_relative_to(ROOT), screenshots
