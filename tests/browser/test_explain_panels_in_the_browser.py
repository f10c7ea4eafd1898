"""Why this merge / why this split in a real browser (Chromium + ``streamlit run``).

- Explore: the "Why this merge?" panel is drawn under the merge card, survives st.html's
  sanitizer with its numbers, and shows ``training.explain(k)``; after stepping with the
  arrow keys (focus on the body) it shows the explanation of the step the
  ``[data-bpeviz-step]`` element shows, and the chips drawn by the stage component carry
  their glossary notes.
- Tokenize: the rows of "Why this split?" are ``snapshot.trace(word)`` at the page's step.
- Explore: "Why this split?" keeps its word while the list of words changes and the arrow
  keys step, and shows the trace at the new step.
- Screenshots of the panel for BPE, BBPE and WordPiece (``why-bpe.png``, ``why-bbpe.png``,
  ``why-wordpiece.png``) and of Explore's "Why this split?" (``explore-why-split.png``)
  go to ``BPEVIZ_SCREENSHOTS`` (a temporary folder by default):

      BPEVIZ_SCREENSHOTS=docs/screenshots python -m pytest \
          tests/browser/test_explain_panels_in_the_browser.py
"""

from __future__ import annotations

import pytest

from bpeviz.present.glossary import CHIP_NOTES, chip_note
from bpeviz.text.display import label
from tests.support.browser import blur, go, hook, no_error, ready, settled
from tests.support.trainings import reference

pytestmark = pytest.mark.browser

READ = """() => {
  const why = document.querySelector('.bv-why');
  const card = document.querySelector('.bv-card');
  return {data: {...why.dataset}, text: why.innerText,
          below: why.getBoundingClientRect().top >= card.getBoundingClientRect().bottom,
          words: [...why.querySelectorAll('.bv-why-word')].map(w => +w.dataset.contribution),
          rivals: [...why.querySelectorAll('.bv-why-rival')].map(
            r => [+r.dataset.leftId, +r.dataset.rightId, +r.dataset.count])};
}"""


@pytest.mark.parametrize(("algorithm", "step"), [("bpe", 7), ("bbpe", 1), ("wordpiece", 60)])
def test_the_panel_shows_explain_under_the_merge_card(page, server, algorithm, step):
    why = reference(algorithm).explain(step)
    go(page, server, f"Explore?algo={algorithm}&step={step}")
    no_error(page)
    page.wait_for_selector(".bv-why")
    seen = page.evaluate(READ)
    assert seen["below"], "the panel sits under the merge card"
    assert int(seen["data"]["step"]) == step and int(seen["data"]["count"]) == why.merge.count
    assert int(seen["data"]["tie"]) == len(why.tie)
    assert seen["words"] == why.words["contribution"].iloc[:8].tolist()
    assert seen["rivals"] == [list(r) for r in why.runners_up[
        ["left_id", "right_id", "count"]].iloc[:5].itertuples(index=False, name=None)]
    assert f"in the corpus {'before any merge' if step == 1 else f'after {step - 1} merges'}" \
        in seen["text"]
    if algorithm == "wordpiece":
        assert f"{why.merge.count} / ({why.count_left} × {why.count_right})" in seen["text"]


playwright_api = pytest.importorskip("playwright.sync_api")

TRACE = """() => {
  const t = document.querySelector('.bv-trace');
  const chips = el => [...el.querySelectorAll('.bv-chip')].map(c => c.textContent);
  return {
    rows: [...t.querySelectorAll('.bv-trace-row')].map(r => ({
      merge: r.dataset.merge, count: r.dataset.count, start: r.dataset.start,
      id: r.dataset.id, chips: chips(r), text: r.innerText})),
    ids: [...t.querySelectorAll('.bv-trace-end .bv-chip')].map(c => +c.dataset.id),
    text: t.innerText};
}"""

WHY = """() => {
  const why = document.querySelector('.bv-why');
  return {data: {...why.dataset}, text: why.innerText,
          words: [...why.querySelectorAll('.bv-why-word')].map(
            w => [+w.dataset.count, +w.dataset.occurrences, +w.dataset.contribution]),
          rivals: [...why.querySelectorAll('.bv-why-rival')].map(
            r => [+r.dataset.leftId, +r.dataset.rightId, +r.dataset.count])};
}"""


def seen_text(page) -> str:
    return page.locator(".bv-why").first.inner_text()


@pytest.mark.parametrize("algorithm", ["bpe", "bbpe", "wordpiece"])
def test_tokenize_why_this_split_rows_are_the_trace(small, server, algorithm):
    page, step, word = small, 150, "tokenizers"
    page.goto(f"{server}/Tokenize?algo={algorithm}&step={step}")
    ready(page)
    box = page.get_by_label("Text", exact=True)
    box.fill(f"{word} lowest")
    box.press("Control+Enter")
    page.wait_for_timeout(300)
    ready(page)
    page.get_by_text("Why this split?", exact=True).click()
    page.wait_for_selector(".bv-trace")
    no_error(page)
    seen = page.evaluate(TRACE)
    found = reference(algorithm).at(step).trace(word)
    assert f"at step {step}" in seen["text"]
    if algorithm == "wordpiece":
        assert [(int(r["start"]), int(r["id"])) for r in seen["rows"]] == [
            (p.start, p.id if p.piece is not None else -1) for p in found.pieces]
        for r, p in zip(seen["rows"], found.pieces):
            assert r["chips"] == [label(p.piece)]
            misses = [t for t in p.tried if t != p.piece]
            assert (f"tried, not in the vocabulary: {', '.join(misses[:12])}" in r["text"]) \
                == bool(misses)
    else:
        assert [(int(r["merge"]), int(r["count"] or 0)) for r in seen["rows"]] == [(0, 0)] + [
            (s.step, s.count) for s in found.steps]
        assert [r["chips"] for r in seen["rows"]] == [[label(x) for x in found.initial]] + [
            [label(x) for x in s.symbols] for s in found.steps]
        assert len(found.steps) >= 4
    assert seen["ids"] == list(found.ids)


# steps that read well: a tie decided by the rule (BPE), Ġ + t in many words (BBPE), the
# Hugging Face course's "hug" corpus with its score formula written out and a tie
@pytest.mark.parametrize(("algorithm", "sample", "start", "presses", "tie"),
                         [("bpe", "tour", 3, 3, True), ("bbpe", "tour", 0, 3, False),
                          ("wordpiece", "hug", 0, 2, True)])
def test_explore_why_this_merge_follows_the_arrow_keys(small, server, screenshots, algorithm,
                                                       sample, start, presses, tie):
    page = small
    training = reference(algorithm, sample=sample)
    page.goto(f"{server}/Explore?algo={algorithm}&sample={sample}&step={start}")
    ready(page)
    page.wait_for_selector("[data-bpeviz-step]")
    blur(page)
    for _ in range(presses):
        page.keyboard.press("ArrowRight")
    step = start + presses
    assert hook(page) == step
    settled(page, step)
    page.wait_for_function("s => document.querySelector('.bv-why')?.dataset.step === s",
                           arg=str(step), timeout=30_000)
    no_error(page)
    assert hook(page) == step
    why = training.explain(step)
    assert bool(len(why.tie)) == tie
    assert ("The tie rule “first seen in the corpus” decided" in seen_text(page)) == tie
    seen = page.evaluate(WHY)
    assert int(seen["data"]["count"]) == why.merge.count == int(seen["data"]["wordSum"])
    assert int(seen["data"]["words"]) == len(why.words)
    assert int(seen["data"]["tie"]) == len(why.tie)
    assert float(seen["data"]["score"]) == why.score
    assert seen["words"] == [list(r) for r in why.words[
        ["count", "occurrences", "contribution"]].iloc[:8].itertuples(index=False, name=None)]
    assert seen["rivals"] == [list(r) for r in why.runners_up[
        ["left_id", "right_id", "count"]].iloc[:5].itertuples(index=False, name=None)]
    assert f"occurs {why.merge.count} times" in seen["text"] or why.merge.count <= 2
    if algorithm == "wordpiece":
        assert f"{why.merge.count} / ({why.count_left} × {why.count_right})" in seen["text"]
    # the stage's chips (drawn by the step component) carry their glossary notes in their titles
    chips = page.evaluate("() => [...document.querySelectorAll('.bv-stage-words .bv-chip, "
                          ".bv-stage-card .bv-chip')].map(c => [+c.dataset.id, c.title])")
    assert chips
    for i, title in chips:
        note = chip_note(training, training.vocab[i])
        assert title.endswith(f" · {note}") if note else title.count(" · ") == 2
    wanted = {"bbpe": "byte-space", "wordpiece": "wordpiece-prefix"}.get(algorithm)
    if wanted:
        assert any(CHIP_NOTES[wanted] in title for _, title in chips)
    # the panel, as a student sees it
    panel = page.locator('[data-testid="stExpander"]', has=page.locator(".bv-why")).first
    panel.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    screenshots.mkdir(parents=True, exist_ok=True)
    path = screenshots / f"why-{algorithm}.png"
    panel.screenshot(path=str(path))
    assert path.stat().st_size > 5_000


def test_explore_why_this_split_keeps_its_word_while_the_keys_step(small, server, screenshots):
    page, training, word = small, reference("bpe"), "tokenizer"
    page.goto(f"{server}/Explore?step=8")
    ready(page)
    search = page.get_by_label("Search words", exact=True)
    search.fill(word)
    search.press("Enter")
    page.wait_for_timeout(300)
    ready(page)
    page.get_by_text("Why this split?", exact=True).click()
    page.wait_for_selector(".bv-trace")
    box = page.get_by_role("combobox", name="Word", exact=True)
    box.click()
    page.keyboard.type(word)
    page.keyboard.press("Enter")
    page.wait_for_function("w => document.querySelector('.bv-trace')?.innerText.includes(w)",
                           arg=f"“{word}”", timeout=15_000)
    ready(page)
    search.fill("")  # the words listed change; the pick stays
    search.press("Enter")
    page.wait_for_timeout(300)
    ready(page)
    assert len(training.at(8).trace(word).steps) < len(training.at(11).trace(word).steps)
    for step in (8, 11):
        if step != 8:
            blur(page)
            for _ in range(3):
                page.keyboard.press("ArrowRight")
            settled(page, step)
            page.wait_for_function(
                "s => document.querySelector('.bv-trace')?.innerText.includes(s)",
                arg=f"at step {step}", timeout=15_000)
        no_error(page)
        seen = page.evaluate(TRACE)
        found = training.at(step).trace(word)
        assert f"“{word}”" in seen["text"] and f"at step {step}" in seen["text"]
        assert [(int(r["merge"]), int(r["count"] or 0)) for r in seen["rows"]] == [(0, 0)] + [
            (s.step, s.count) for s in found.steps]
        assert [r["chips"] for r in seen["rows"][1:]] == [
            [label(x) for x in s.symbols] for s in found.steps]
        assert seen["ids"] == list(found.ids)
    page.set_viewport_size({"width": 1280, "height": 1500})  # the whole expander in view
    page.locator(".bv-trace").first.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    screenshots.mkdir(parents=True, exist_ok=True)
    page.locator('[data-testid="stExpander"]', has=page.locator(".bv-trace")).first.screenshot(
        path=str(screenshots / "explore-why-split.png"))


def test_why_this_merge_keeps_up_with_play_past_the_steps_first_sent(page, server):
    """The page sends the Why panel of the steps around its own; Play at 10 steps/s
    runs past them within seconds, and the panel asks for the steps ahead as it nears
    their edge (its own small rerun: the rest of the page, the URL among it, stays as
    it was until the pause). So the panel shows the played step's explanation well past
    the first window, each one the explanation of the step the bar shows."""
    page.goto(f"{server}/Explore?merges=200&step=1")
    ready(page)
    page.wait_for_selector("[data-bpeviz-step]")
    page.wait_for_selector(".bv-why", state="attached")  # (in a closed expander)
    blur(page)
    page.locator('.bv-stage-speed[data-speed="4"]').click()
    blur(page)
    page.evaluate("""() => { window.__why = [];
        document.querySelector('.bv-stage-play').click();
        window.__watch = setInterval(() => {
          const why = document.querySelector('.bv-why');
          const bar = document.querySelector('[data-bpeviz-step]');
          window.__why.push([Number(bar.getAttribute('data-bpeviz-step')),
            why ? Number(why.dataset.step) : null,
            new URLSearchParams(location.search).get('step')]);
        }, 50); }""")
    page.wait_for_timeout(14_000)
    rows = page.evaluate("""() => { clearInterval(window.__watch);
        document.querySelector('.bv-stage-play').click(); return window.__why; }""")
    assert {url for *_, url in rows} <= {None, "1"}, "the page did not rerun while playing"
    explained = {bar for bar, why, _ in rows if why == bar}
    assert max(k for k, *_ in rows) >= 45, "Play ran on"
    assert max(explained) >= 40, f"the panel kept up past the first window: {sorted(explained)}"
    # no explanation of another step is ever on screen beside the bar's
    assert all(why in (None, bar) for bar, why, _ in rows), rows
    no_error(page)
