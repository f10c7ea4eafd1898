"""Unigram's pages on a projector, in a real browser.

Presentation mode at 1280x720 and 1920x1080, light and dark, sidebar collapsed, as
test_projector_layouts.py checks the merge pages: keys step the pruning rounds with
the focus on the body (``data-bpeviz-step`` moves, and the page follows once Python hears
the round); the step bar and the round's card are on the first screen on Explore, the
Viterbi cut on Tokenize; the lattice and the segmentation cloud draw; Compare with a
Unigram configuration fits too; nothing in the main area spills out of its box (data
grids included); no Deploy button. Expected values come from the engine. Screenshots go
to the screenshot folder (``BPEVIZ_SCREENSHOTS``, a temporary one by default):
``unigram-explore-1280-dark.png``, ``unigram-lattice.png``, ``unigram-tokenize-cloud.png``.
"""

from __future__ import annotations

import pytest

from bpeviz.present import render
from bpeviz.text import display
from bpeviz.unigram.cards import CARD_PIECES_PRESENTING
from bpeviz.unigram.views import used_removals
from tests.support.browser import HOOK, hook, ready, settled, shots_dir
from tests.support.projector import (
    SIZES,
    background_is_dark,
    blur,
    collapse_sidebar,
    no_overflow,
    open_page,
)
from tests.support.trainings import sample_training

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")


def open_unigram(page, server: str, path: str, query: str = "") -> None:
    page.goto(f"{server}/{path}?present=1&algo=unigram&{query}")
    ready(page, 120_000)
    page.wait_for_selector(HOOK)
    collapse_sidebar(page)
    blur(page)


def on_screen(page, selector: str, width: int, height: int) -> None:
    boxes = [page.locator(selector).nth(i).bounding_box()
             for i in range(page.locator(selector).count())]
    assert boxes, f"{selector} is missing"
    for box in boxes:
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (selector, box)


def card_round(page, k: int) -> None:
    """Wait until Python has drawn the card of round ``k`` (after hearing the round)."""
    page.wait_for_selector(f'.bv-round[data-round="{k}"]', timeout=30_000)
    ready(page, 60_000)


def shoot(page, name: str) -> None:
    page.wait_for_timeout(400)
    page.screenshot(path=str(shots_dir() / f"{name}.png"))


@pytest.mark.parametrize("width,height", SIZES)
def test_explore_steps_rounds_by_key_and_fits_a_projector(browser, server, width, height,
                                                          scheme):
    training = sample_training()
    last = len(training) - 1
    assert last >= 2
    context, page = open_page(browser, width, height, scheme)
    try:
        open_unigram(page, server, "Explore", "uround=0")
        assert background_is_dark(page) == (scheme == "dark")
        assert page.get_by_text("Deploy", exact=True).count() == 0
        assert hook(page) == 0
        card_round(page, 0)
        # keys with the focus on the body move the bar at once, the card after Python
        assert page.evaluate("() => document.activeElement === document.body")
        page.keyboard.press("ArrowRight")
        assert hook(page) == 1
        card_round(page, 1)
        card = page.locator(".bv-round").first.inner_text()
        before, after = training.at(0), training.at(1)
        assert f"{len(before.pieces):,} → {len(after.pieces):,} pieces" in card
        assert f"Round 1 of {last}" in card
        # the pieces nobody used are counted apart; the used ones listed cheapest first,
        # each with the nats it costs and how it is cut instead
        unused = [r for r in before.removed if r.unused]
        used = used_removals(before.removed)
        assert f"{len(unused):,} pieces went because nobody used them" in card
        chips = page.locator(".bv-round .bv-removal > .bv-chip").all_inner_texts()
        assert chips == [display.label(r.piece) for r in used[:CARD_PIECES_PRESENTING]]
        assert f"{used[0].nats:+,.3g} nats" in card
        page.keyboard.press("End")
        assert hook(page) == last
        card_round(page, last)
        page.keyboard.press("Home")
        assert hook(page) == 0
        page.keyboard.press("Shift+ArrowRight")  # ten on
        assert hook(page) == min(10, last)
        page.keyboard.press("End")
        page.keyboard.press("ArrowLeft")
        assert hook(page) == last - 1
        card_round(page, last - 1)
        # the bar and the round's card (with the removed pieces) on the first screen
        for selector in (".bv-stage-bar", HOOK, ".bv-round", ".bv-stage-play"):
            on_screen(page, selector, width, height)
        for selector in (".bv-stage-btn", ".bv-stage-speed"):
            for e in page.locator(selector).all():
                assert e.evaluate("b => b.scrollWidth <= b.clientWidth + 1"), selector
        no_overflow(page)
        shoot(page, f"unigram-explore-{width}-{scheme}")
        # the removed pieces' table and the lattice below: within the page, big type (read
        # once Python has heard the round: its run redraws the table)
        settled(page, last - 1, setting="uround", box="Go to round")
        grid = page.locator('[data-testid="stDataFrame"]').first
        grid.scroll_into_view_if_needed()
        assert grid.evaluate("g => g.currentCSSZoom") >= 1.2
        lattice = page.locator(".js-plotly-plot").nth(1)
        lattice.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        box = lattice.bounding_box()
        assert box["height"] <= height - 80
        best = page.locator(".bv-muted", has_text="Best split (Viterbi)")
        assert best.count() == 1
        no_overflow(page)
        if width == 1280 and scheme == "dark":
            page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]')"
                          ".scrollBy(0, -120)")
            shoot(page, "unigram-lattice")
    finally:
        context.close()


def test_the_lattice_labels_its_arcs_with_the_engines_pieces(browser, server):
    """The arcs' labels are the pieces of the word's lattice; the best path's are red."""
    from bpeviz.unigram.views import word_lattice

    training = sample_training()
    k = len(training) - 1
    step = training.at(k)
    word = max(step.words, key=lambda w: step.counts[step.words.index(w)])
    found = word_lattice(step.model, word, 10)
    context, page = open_page(browser, 1280, 720, "dark")
    try:
        open_unigram(page, server, "Explore", f"uround={k}")
        plot = page.locator(".js-plotly-plot").nth(1)
        plot.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        texts = plot.evaluate("""p => p.data.filter(t => t.mode === 'text')
                                  .map(t => [t.textfont && t.textfont.color, t.text])""")
        # each piece is isolated (FSI ... PDI), so right-to-left pieces keep their place
        pieces = [label.rsplit(" ", 1)[0] for _, labels in texts[:-1] for label in labels]
        assert all(x.startswith("\u2068") and x.endswith("\u2069") for x in pieces), pieces
        labelled = sorted(x[1:-1] for x in pieces)
        shown = [render.chart_text(display.label(p)) for _, _, p, _, _ in found.nodes]
        assert labelled == sorted(shown)
        red = [labels for colour, labels in texts[:-1] if colour]
        assert sorted(x.rsplit(" ", 1)[0][1:-1] for x in red[0]) == sorted(
            render.chart_text(display.label(p)) for p in found.best)
    finally:
        context.close()


def test_a_long_words_lattice_stays_readable(browser, server):
    """A word longer than LATTICE_CHARS: its first characters drawn, the best path's
    arcs labelled (piece and log-probability), the others on hover only when many."""
    from bpeviz.ui.unigram_figures import ARC_LABELS, LATTICE_CHARS
    from bpeviz.unigram.views import word_lattice

    training = sample_training()
    k = 0
    step = training.at(k)
    word = max(step.words, key=lambda w: (len(word_lattice(step.model, w, 1).nodes), w))
    assert len(word) > LATTICE_CHARS
    found = word_lattice(step.model, word, 1)
    inside = [n for n in found.nodes if n[1] <= LATTICE_CHARS]
    context, page = open_page(browser, 1280, 720, "dark")
    try:
        open_unigram(page, server, "Explore", f"uround={k}")
        box = page.get_by_label("Word", exact=True)
        box.scroll_into_view_if_needed()
        box.click()
        page.keyboard.type(display.visible(word)[:20])
        page.keyboard.press("Enter")
        page.wait_for_timeout(1500)
        ready(page, 60_000)
        caption = f"first {LATTICE_CHARS} of {len(word):,} characters"
        page.get_by_text(caption).first.wait_for(timeout=30_000)
        plot = page.locator(".js-plotly-plot").nth(1)
        plot.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        texts = plot.evaluate("""p => p.data.filter(t => t.mode === 'text')
                                  .map(t => [t.textfont && t.textfont.color, t.text])""")
        assert len(texts[-1][1]) == LATTICE_CHARS  # the characters under the arcs
        best = [(s_, e) for s_, e, _, _, b in inside if b]
        red = next(labels for colour, labels in texts[:-1] if colour)
        # piece, then its score under it (one-character arcs side by side: one line would run
        # into its neighbours' labels)
        assert len(red) == len(best) and all("<br>" in x for x in red)
        others = [labels for colour, labels in texts[:-1] if not colour]
        assert bool(others) == (len(inside) <= ARC_LABELS)
        shoot(page, "unigram-lattice-long")
    finally:
        context.close()


@pytest.mark.parametrize("width,height", SIZES)
def test_tokenize_cuts_by_viterbi_on_the_first_screen_and_draws_the_cloud(
        browser, server, width, height):
    training = sample_training()
    context, page = open_page(browser, width, height, "dark")
    try:
        open_unigram(page, server, "Tokenize", "uround=1")
        page.wait_for_selector(".bv-tokens .bv-chip")
        text = page.locator("textarea").first.input_value()
        ids = [int(i) for i in page.locator(".bv-tokens .bv-chip").evaluate_all(
            "cs => cs.map(c => c.dataset.id)")]
        assert ids == [t.id for t in training.at(1).model.encode(text)]
        for selector in (".bv-stage-bar", HOOK):
            on_screen(page, selector, width, height)
        on_screen(page, ".bv-tokens .bv-chip >> nth=0", width, height)
        page.keyboard.press("ArrowRight")
        assert hook(page) == 2
        page.wait_for_function("k => [...document.querySelectorAll('[data-testid=\"stCaption"
                               "Container\"]')].some(c => c.innerText.includes(`of round ${k}"
                               " of`))", arg=2, timeout=30_000)
        ready(page, 60_000)
        ids = [int(i) for i in page.locator(".bv-tokens .bv-chip").evaluate_all(
            "cs => cs.map(c => c.dataset.id)")]
        assert ids == [t.id for t in training.at(2).model.encode(text)]
        no_overflow(page)
        cloud = page.locator(".bv-cloud")
        cloud.scroll_into_view_if_needed()
        rows = cloud.locator("tbody tr")
        assert 1 <= rows.count() <= 8
        assert "of 100 samples" in rows.first.inner_text()
        assert cloud.locator("text=★ best").count() <= 1
        no_overflow(page)
        if width == 1280:
            page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]')"
                          ".scrollBy(0, -60)")
            shoot(page, "unigram-tokenize-cloud")
    finally:
        context.close()


@pytest.mark.parametrize("width,height", SIZES)
def test_compare_with_a_unigram_configuration_fits_a_projector(browser, server, width, height):
    context, page = open_page(browser, width, height, "dark")
    try:
        page.goto(f"{server}/Compare?present=1&c2_algo=unigram&c2_vocab=400")
        ready(page, 120_000)
        page.wait_for_selector("[data-config]")
        collapse_sidebar(page)
        blur(page)
        assert page.locator('[data-testid="stException"]').count() == 0
        captions = " ".join(page.locator('[data-testid="stCaptionContainer"]')
                            .all_inner_texts())
        assert "pruning round" in captions
        no_overflow(page)
        page.locator("[data-config]").first.scroll_into_view_if_needed()
        no_overflow(page)
        shoot(page, f"unigram-compare-{width}-dark")
    finally:
        context.close()
