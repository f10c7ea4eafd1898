"""Compare in a real browser (Chromium + ``streamlit run``): the ``data-bpeviz-diff``
elements survive st.html's sanitizer and are exactly the engine's differing spans."""

from __future__ import annotations

import pytest

from bpeviz.compare import compare
from tests.test_app import reference
from tests.test_browser import browser, go, no_error, page  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

READ = """() => [...document.querySelectorAll('[data-config]')].map(cut => ({
  config: cut.dataset.config,
  diffs: [...cut.querySelectorAll('[data-bpeviz-diff]')].map(
    d => [+d.dataset.start, +d.dataset.end, d.querySelectorAll('.bv-chip').length]),
  chips: cut.querySelectorAll('.bv-chip').length,
}))"""


@pytest.mark.parametrize("step", [37, 200])
def test_difference_marks_are_the_engines_differing_spans(page, server, step):  # noqa: F811
    go(page, server, f"Compare?cmp_n=3&cmp_step={step}")
    no_error(page)
    page.wait_for_selector("[data-config]")
    text = page.locator("textarea").first.input_value()
    assert text
    expected = compare([(a, reference(a).at(step)) for a in ("bpe", "bbpe", "wordpiece")], text)
    assert expected.n_differing > 0
    seen = page.evaluate(READ)
    assert [s["config"] for s in seen] == ["A", "B", "C"]
    for shown, cut in zip(seen, expected.cuts):
        assert [d[:2] for d in shown["diffs"]] == [list(span) for span in cut.diff_spans]
        assert sum(d[2] for d in shown["diffs"]) == sum(cut.differs)  # differing tokens
        assert shown["chips"] == len(cut.tokens)
    caption = f"{expected.n_differing:,} token boundar"
    assert caption in page.locator('[data-testid="stMarkdown"]').all_inner_texts().__str__()


def test_the_slider_moves_every_configuration_and_the_marks_follow(page, server):  # noqa: F811
    from tests.test_browser import rerun_done

    go(page, server, "Compare?cmp_n=2&cmp_step=20")
    no_error(page)
    text = page.locator("textarea").first.input_value()
    thumb = page.get_by_role("slider").first
    thumb.focus()
    for _ in range(3):
        thumb.press("ArrowRight")
    page.wait_for_function("() => [...document.querySelectorAll("
                           "'[data-testid=\"stCaptionContainer\"]')]"
                           ".filter(c => c.innerText.includes('step 23 of 200')).length === 2",
                           timeout=20_000)
    rerun_done(page)
    expected = compare([(a, reference(a).at(23)) for a in ("bpe", "bbpe")], text)
    seen = page.evaluate(READ)
    assert [[d[:2] for d in s["diffs"]] for s in seen] == \
        [[list(span) for span in cut.diff_spans] for cut in expected.cuts]
    assert "cmp_step=23" in page.url  # a link reopens the same position
    no_error(page)


def test_unigram_beside_bpe_at_equal_vocabulary_size_marks_the_engines_spans(page, server):  # noqa: F811
    from bpeviz import compare as cmp
    from tests.test_compare_unigram_app import unigram_reference

    go(page, server, "Compare?c2_algo=unigram&c2_vocab=400&cmp_vocab=500")
    no_error(page)
    page.wait_for_selector("[data-config]")
    text = page.locator("textarea").first.input_value()
    bpe, uni = reference("bpe"), unigram_reference(400)
    found = [cmp.step_for_vocab_size(t, 500) for t in (bpe, uni)]
    expected = cmp.compare([("A", bpe.at(found[0].step)), ("B", cmp.at(uni, found[1].step))],
                           text)
    assert expected.n_differing > 0
    seen = page.evaluate(READ)
    assert [s["config"] for s in seen] == ["A", "B"]
    for shown, cut in zip(seen, expected.cuts):
        assert [d[:2] for d in shown["diffs"]] == [list(span) for span in cut.diff_spans]
        assert shown["chips"] == len(cut.tokens)
    captions = page.locator('[data-testid="stCaptionContainer"]').all_inner_texts()
    assert any(f"pruning round {found[1].step:,} of {len(uni) - 1:,}" in c for c in captions)
