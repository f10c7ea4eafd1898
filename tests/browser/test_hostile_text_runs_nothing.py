"""Hostile text shows literally and runs nothing in Chromium: a corpus, a text and an
opened tokenizer file whose tokens are HTML, JavaScript, Markdown and LaTeX appear as
text in the word splits, tokens, hover titles, tables, merge tree, heatmap and chart
labels; no element comes out of them and no handler runs."""

from __future__ import annotations

import pytest

from tests.support.browser import (
    HOSTILE,
    card_text,
    go,
    heatmap_in_view,
    no_error,
    paste_corpus,
    rerun_done,
    shot,
)

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")

PWN = '<img src=x onerror="window.__pwned=1"> <svg onload="window.__pwned=2">'

#: the heatmap's row and column labels (what each <bdi> holds) and its cells: [row,
#: column, hover title, count] (the grid: a corner, the column labels, then per row its
#: label and its cells)
HEATMAP_TEXT = """box => {
  const grid = box.querySelector('.bv-hm'), n = Number(grid.dataset.cols);
  const cells = [];
  [...grid.querySelectorAll('.bv-hm-cell')].forEach((e, i) => {
    if (e.hasAttribute('data-pick'))
      cells.push([Math.floor(i / n), i % n, e.getAttribute('title'), e.dataset.count]);
  });
  return {rows: [...grid.querySelectorAll('.bv-hm-row > bdi')].map(b => b.textContent),
          cols: [...grid.querySelectorAll('.bv-hm-col > bdi')].map(b => b.textContent),
          cells};
}"""


def test_hostile_corpus_and_input_appear_literally_and_run_nothing(page, server):
    corpus = f"{HOSTILE}\n{PWN}\n{HOSTILE}\nlow lower lowest"
    go(page, server, "Explore?merges=60&step=4&top_n=30")
    paste_corpus(page, corpus)
    no_error(page)
    assert "Merge 4" in card_text(page)
    shown = page.locator("[data-bpeviz-step]").first.get_attribute("data-bpeviz-step")
    assert shown == "4", "a new training keeps the step shown"
    table = page.locator(".bv-words").first.inner_text()
    for word in ("<script>alert(1)</script>", "<img", "onerror=alert(1)>", "$x$", "**bold**",
                 "</span>", "<b>b</b>", "[a](javascript:alert(1))"):
        assert word in table, word
    assert page.locator(".bv-words img, .bv-words script, .bv-words b, .bv-words svg").count() == 0
    shot(page, "hostile-explore")
    # the heatmap's labels are the corpus's symbols as text (at step 34 "<script>alert(1)"
    # is one); each cell's hover (its title) names its pair with them, literally
    box = page.get_by_label("Go to step", exact=True)
    box.fill("34")
    box.press("Enter")
    rerun_done(page)
    heatmap = heatmap_in_view(page, step=34)
    drawn = heatmap.evaluate(HEATMAP_TEXT)
    texts = drawn["rows"] + drawn["cols"]
    assert "<script>alert(1)" in texts and "</" in texts, texts
    assert not any("&lt;" in t or "&amp;" in t for t in texts)
    assert drawn["cells"], "the heatmap has cells"
    for r, c, title, count in drawn["cells"]:
        assert title == (f"\u2068{drawn['rows'][r]}\u2069 + \u2068{drawn['cols'][c]}\u2069: "
                         f"count {int(count):,}"), title
    assert any("<script>" in title for _, _, title, _ in drawn["cells"])
    # nothing in the grid but its boxes and the labels' <bdi>: no element came of a label
    assert heatmap.locator(".bv-hm *:not(div):not(bdi)").count() == 0
    assert page.evaluate(NOTHING_RAN), "a symbol became an element or ran"

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

    box = main.get_by_label("Go to step", exact=True)
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
    # each token cell is isolated (FSI ... PDI, drawn as nothing): compare what is inside
    cells = {t.strip("\u2068\u2069") for t in table.locator("td").all_inner_texts()}
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
            # the hover isolates each symbol (U+2066..U+2069, drawn as nothing)
            "t => (document.querySelector('.js-plotly-plot .hoverlayer') || {})"
            ".textContent?.replace(/[\\u2066-\\u2069]/g, '').includes(t)",
            arg=expected, timeout=10_000)
    labels = chart.locator(".xtick text, .ytick text").all_text_contents()
    assert not any("&lt;" in t or "&amp;" in t or "&#36;" in t for t in labels)
    _hostile_tokens(page)
