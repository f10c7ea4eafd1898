"""Compare in a real browser (Chromium + ``streamlit run``): the position steps in the
browser as on Explore (keys with the focus on the body, ``data-bpeviz-step`` follows),
the ``data-bpeviz-diff`` marks it draws at each position are exactly the engine's
differing spans, and Python follows the settled position (captions, URL, number box)."""

from __future__ import annotations

import pytest

from bpeviz.analysis import compare as cmp
from bpeviz.analysis.compare import compare
from tests.support.browser import go, no_error, ready, settled
from tests.support.trainings import reference

pytestmark = pytest.mark.browser

HOOK = "[data-bpeviz-step]"
READ = """() => [...document.querySelectorAll('[data-config]')].map(cut => ({
  config: cut.dataset.config,
  diffs: [...cut.querySelectorAll('[data-bpeviz-diff]')].map(
    d => [+d.dataset.start, +d.dataset.end, d.querySelectorAll('.bv-chip').length]),
  chips: cut.querySelectorAll('.bv-chip').length,
  ids: [...cut.querySelectorAll('.bv-chip')].map(c => +c.dataset.id),
  titled: [...cut.querySelectorAll('.bv-chip')].every(
    c => c.title.startsWith('id ' + c.dataset.id)),
}))"""
COUNT = "() => (document.querySelector('.bv-cmp-count') || {}).innerText || ''"


def hook(page) -> int:
    return int(page.locator(HOOK).first.get_attribute("data-bpeviz-step"))


def blur(page) -> None:
    """Focus on the page body, as after a click on empty space."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); }")
    assert page.evaluate("() => document.activeElement === document.body")


def open_compare(page, server: str, query: str) -> str:
    """Open Compare; return the text it cuts."""
    go(page, server, f"Compare?{query}")
    no_error(page)
    page.wait_for_selector(HOOK, timeout=60_000)
    page.wait_for_selector("[data-config]")
    blur(page)
    text = page.locator("textarea").first.input_value()
    assert text
    return text


def check_marks(page, expected: cmp.Comparison, position: int, only: bool = False) -> int:
    """The browser's cuts and marks at ``position`` are the engine's (``only``: only the
    differing tokens are drawn); returns the number of marks."""
    seen = page.evaluate(READ)
    assert [s["config"] for s in seen] == ["A", "B", "C"][: len(expected.cuts)]
    for shown, cut in zip(seen, expected.cuts):
        assert [d[:2] for d in shown["diffs"]] == [list(span) for span in cut.diff_spans], \
            (position, cut.label)
        assert sum(d[2] for d in shown["diffs"]) == sum(cut.differs), position
        drawn = [t.id for t, differs in zip(cut.tokens, cut.differs) if differs or not only]
        assert shown["ids"] == drawn, position  # ids on hover too
        assert shown["titled"]
    count = page.evaluate(COUNT)
    if expected.n_differing:
        assert f"{expected.n_differing:,} token boundar" in count, (position, count)
    else:
        assert "No differences" in count
    return sum(len(c.diff_spans) for c in expected.cuts)


def captions(page) -> str:
    return "\n".join(page.locator('[data-testid="stCaptionContainer"]').all_inner_texts())


@pytest.mark.parametrize("step", [37, 200])
def test_difference_marks_are_the_engines_differing_spans(page, server, step):
    text = open_compare(page, server, f"cmp_n=3&cmp_step={step}")
    assert hook(page) == step
    expected = compare([(a, reference(a).at(step)) for a in ("bpe", "bbpe", "wordpiece")], text)
    assert expected.n_differing > 0
    check_marks(page, expected, step)
    assert all(s["chips"] == len(c.tokens) for s, c in zip(page.evaluate(READ), expected.cuts))


def test_keys_step_every_configuration_by_the_same_step_and_python_follows(page, server):
    trainings = [reference(a) for a in ("bpe", "bbpe", "wordpiece")]
    text = open_compare(page, server, "cmp_n=3&cmp_step=20")
    assert hook(page) == 20
    marks = 0
    for key, step in [("ArrowRight", 21), ("Shift+ArrowRight", 31), ("ArrowLeft", 30),
                      ("End", 200), ("Shift+ArrowLeft", 190), ("Home", 0),
                      ("PageDown", 1), ("Shift+ArrowRight", 11), ("ArrowRight", 12)]:
        page.keyboard.press(key)
        assert hook(page) == step, key  # the browser moved at once
        expected = compare([(a, t.at(step)) for a, t in zip("ABC", trainings)], text)
        marks += check_marks(page, expected, step)
    assert marks
    assert page.evaluate("() => document.activeElement === document.body"), "focus stays"
    settled(page, 12, setting="cmp_step", box="Go to step")
    assert hook(page) == 12
    for letter in "ABC":  # the rest of the page follows: captions of the metrics
        assert f"{letter}: " in captions(page)
    assert captions(page).count("step 12 of 200") == 3
    check_marks(page, compare([(a, t.at(12)) for a, t in zip("ABC", trainings)], text), 12)
    # a key typed in a text box is the text box's
    page.locator("textarea").first.click()
    page.keyboard.press("ArrowLeft")
    assert hook(page) == 12
    no_error(page)


def test_keys_move_by_vocabulary_size_each_configuration_at_its_own_step(page, server):
    trainings = [reference(a) for a in ("bpe", "bbpe")]
    text = open_compare(page, server, "cmp_mode=vocab&cmp_vocab=400")
    assert hook(page) == 400
    lo, hi = (min(cmp.vocab_range(t)[0] for t in trainings),
              max(cmp.vocab_range(t)[1] for t in trainings))
    presses = [("ArrowRight", 401), ("Shift+ArrowLeft", 391), ("Home", lo),
               ("Shift+ArrowRight", lo + 10), ("End", hi), ("ArrowLeft", hi - 1)]
    for key, size in presses:
        page.keyboard.press(key)
        assert hook(page) == size, key
        found = [cmp.step_for_vocab_size(t, size) for t in trainings]
        expected = compare([(a, t.at(f.step)) for a, t, f in zip("AB", trainings, found)],
                           text)
        check_marks(page, expected, size)
    settled(page, hi - 1, setting="cmp_vocab", box="Go to size")
    found = [cmp.step_for_vocab_size(t, hi - 1) for t in trainings]
    for f in found:
        assert f"step {f.step:,} of 200, {f.vocab_size:,} tokens" in captions(page)
    no_error(page)


def test_unigram_beside_bpe_steps_by_vocabulary_size_in_the_browser(page, server):
    from tests.support.trainings import unigram_reference

    text = open_compare(page, server, "c2_algo=unigram&c2_vocab=400&cmp_vocab=500")
    bpe, uni = reference("bpe"), unigram_reference(400)
    assert hook(page) == 500
    lo = min(cmp.vocab_range(bpe)[0], cmp.vocab_range(uni)[0])
    rounds, marks = set(), 0
    for key, size in [("Shift+ArrowLeft", 490), ("Shift+ArrowLeft", 480), ("ArrowRight", 481),
                      ("Home", lo), ("Shift+ArrowRight", lo + 10)]:
        page.keyboard.press(key)
        assert hook(page) == size, key
        found = [cmp.step_for_vocab_size(t, size) for t in (bpe, uni)]
        rounds.add(found[1].step)
        expected = cmp.compare([("A", bpe.at(found[0].step)),
                                ("B", cmp.at(uni, found[1].step))], text)
        marks += check_marks(page, expected, size)
        assert f"pruning round {found[1].step:,} of {len(uni) - 1:,}" in \
            page.locator(".bv-cmp-where").nth(1).inner_text()
    assert marks and len(rounds) > 1  # the keys moved Unigram between rounds
    settled(page, lo + 10, setting="cmp_vocab", box="Go to size")
    found = cmp.step_for_vocab_size(uni, lo + 10)
    assert f"pruning round {found.step:,} of {len(uni) - 1:,}" in captions(page)
    no_error(page)


def test_only_the_differences_are_drawn_when_asked_and_keys_still_step(page, server):
    trainings = [reference(a) for a in ("bpe", "bbpe")]
    text = open_compare(page, server, "cmp_step=50")
    page.get_by_text("Show only the differences").click()
    page.wait_for_function("() => document.querySelectorAll("
                           "'[data-config] > .bv-chip').length === 0", timeout=20_000)
    ready(page)
    blur(page)
    for key, step in [("ArrowRight", 51), ("Shift+ArrowLeft", 41)]:
        page.keyboard.press(key)
        expected = compare([(a, t.at(step)) for a, t in zip("AB", trainings)], text)
        seen = page.evaluate(READ)
        for shown, cut in zip(seen, expected.cuts):  # only the chips of the marked runs
            assert shown["chips"] == sum(cut.differs) > 0, step
        check_marks(page, expected, step, only=True)
    no_error(page)


# -- the curves' dots, Play and a drag (the position settles, Python follows) --------------
DOTS = """() => [...document.querySelectorAll('.js-plotly-plot')]
  .flatMap(gd => (gd.data || []).filter(t => t.mode === 'markers' && t.x && t.x.length === 1)
  .map(t => [t.x[0], t.y[0]]))"""


def expected_dots(text: str, algorithms: tuple[str, ...], step: int) -> list[list[float]]:
    """Each configuration's dot on the default curve (tokens per word against merge
    step): the curve's sampled point nearest to its step, as curve_figure puts it."""
    from bpeviz.analysis.curves import metric_curve
    from bpeviz.ui.state import SETTINGS

    metric = SETTINGS["cmp_metric"].default

    dots = []
    for algorithm in algorithms:
        rows = metric_curve(reference(algorithm), text)
        row = min(rows, key=lambda r: abs(r["step"] - step))
        dots.append([row["step"], row[metric]])
    return dots


def dots(page) -> list[list[float]]:
    page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
    page.wait_for_function(f"() => ({DOTS})().length > 0", timeout=30_000)
    return page.evaluate(DOTS)


def test_the_curves_dots_follow_the_settled_position(page, server):
    algorithms = ("bpe", "bbpe")
    text = open_compare(page, server, "cmp_step=20")
    assert dots(page) == expected_dots(text, algorithms, 20)
    page.locator(HOOK).first.scroll_into_view_if_needed()
    blur(page)
    for key in ("Shift+ArrowRight", "Shift+ArrowRight", "Shift+ArrowRight", "ArrowRight"):
        page.keyboard.press(key)
    assert hook(page) == 51
    settled(page, 51, setting="cmp_step", box="Go to step")
    want = expected_dots(text, algorithms, 51)
    assert want != expected_dots(text, algorithms, 20)  # the dots have somewhere to go
    page.wait_for_function(f"w => JSON.stringify(({DOTS})()) === JSON.stringify(w)",
                           arg=want, timeout=30_000)
    blur(page)
    page.keyboard.press("End")
    settled(page, 200, setting="cmp_step", box="Go to step")
    want = expected_dots(text, algorithms, 200)
    page.wait_for_function(f"w => JSON.stringify(({DOTS})()) === JSON.stringify(w)",
                           arg=want, timeout=30_000)
    no_error(page)


def test_play_on_compare_runs_at_the_set_rate_and_space_pauses(page, server):
    from tests.support.browser import play_rate

    trainings = [reference(a) for a in ("bpe", "bbpe")]
    text = open_compare(page, server, "cmp_step=0")
    page.locator(HOOK).first.scroll_into_view_if_needed()
    rates = {speed: play_rate(page, speed) for speed in ("2", "10")}
    print("Compare play rates (positions/s):", {k: round(v, 2) for k, v in rates.items()})
    for speed, rate in rates.items():  # the first step comes one period after Play
        assert 0.6 * float(speed) <= rate <= 1.05 * float(speed), rates
    # Space plays and pauses; the marks drawn while playing are the engine's
    blur(page)
    page.keyboard.press("Home")
    page.keyboard.press("Space")
    page.wait_for_function(f"() => +document.querySelector('{HOOK}')"
                           ".getAttribute('data-bpeviz-step') >= 3", timeout=10_000)
    page.keyboard.press("Space")
    paused = hook(page)
    assert paused >= 3
    check_marks(page, compare([(a, t.at(paused)) for a, t in zip("AB", trainings)], text),
                paused)
    page.wait_for_timeout(1200)
    assert hook(page) == paused, "Space pauses"
    settled(page, paused, setting="cmp_step", box="Go to step")
    assert hook(page) == paused
    assert captions(page).count(f"step {paused} of 200") == 2
    no_error(page)


def test_a_slider_drag_redraws_the_marks_at_the_dropped_position(page, server):
    trainings = [reference(a) for a in ("bpe", "bbpe", "wordpiece")]
    text = open_compare(page, server, "cmp_n=3&cmp_step=0")
    slider = page.locator(".bv-stage-slider")
    slider.scroll_into_view_if_needed()
    page.evaluate("() => { window.__moves = []; document.addEventListener('input', e => {"
                  " if (e.target.classList.contains('bv-stage-slider')) window.__moves.push("
                  "+document.querySelector('[data-bpeviz-step]')"
                  ".getAttribute('data-bpeviz-step')); }, true); }")
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + 4, y)
    page.mouse.down()
    for i in range(1, 13):  # about two thirds along, in small moves
        page.mouse.move(box["x"] + 4 + (box["width"] - 8) * 0.055 * i, y)
        page.wait_for_timeout(40)
    during = hook(page)
    assert 0 < during < 200
    check_marks(page, compare([(a, t.at(during)) for a, t in zip("ABC", trainings)], text),
                during)  # redrawn while the thumb is held
    page.mouse.up()
    dropped = hook(page)
    assert dropped == during
    assert len(set(page.evaluate("() => window.__moves"))) > 3, "the drag moved through"
    marks = check_marks(page, compare([(a, t.at(dropped)) for a, t in zip("ABC", trainings)],
                                      text), dropped)
    assert marks
    settled(page, dropped, setting="cmp_step", box="Go to step")
    assert hook(page) == dropped
    check_marks(page, compare([(a, t.at(dropped)) for a, t in zip("ABC", trainings)], text),
                dropped)
    assert captions(page).count(f"step {dropped} of 200") == 3
    no_error(page)
