"""The "Why this merge?" panel in a real browser (Chromium + ``streamlit run``): it is
drawn under the merge card, survives st.html's sanitizer with its numbers, and shows
the numbers of training.explain(k)."""

from __future__ import annotations

import pytest

from tests.test_app import reference
from tests.test_browser import browser, go, no_error, page  # noqa: F401 (fixtures)

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
def test_the_panel_shows_explain_under_the_merge_card(page, server, algorithm, step):  # noqa: F811
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
