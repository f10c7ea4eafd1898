"""A token's chip has one colour wherever it is drawn: by Python (Pair details) or by the
browser's stage (the word splits), on a page in Chromium. Both only name the id; the
page's one CSS rule turns it into colours, which are checked against the formula here."""

from __future__ import annotations

import colorsys
import re

import pytest

from tests.support.browser import no_error, ready

CHIPS = """() => [...document.querySelectorAll('.bv-chip[data-id]')].map(c => [
  +c.dataset.id, Boolean(c.closest('[class*=bv-stage]')), c.classList.contains('bv-strong'),
  getComputedStyle(c).backgroundColor])"""


def expected_rgb(token_id: int, strong: bool) -> tuple[int, ...]:
    hue = (token_id * 137.508) % 360 / 360
    sat, light = (0.90, 0.80) if strong else (0.75, 0.87)
    return tuple(round(v * 255) for v in colorsys.hls_to_rgb(hue, light, sat))


def rgb(css: str) -> tuple[int, ...]:
    return tuple(int(float(v)) for v in re.findall(r"[\d.]+", css)[:3])


@pytest.mark.browser
@pytest.mark.parametrize("present", [False, True])
def test_a_tokens_chip_has_one_colour_whoever_draws_it(page, server, present):
    page.goto(f"{server}/Explore?algo=bpe&step=3" + ("&present=1" if present else ""))
    ready(page)
    page.wait_for_selector(".bv-stage-words .bv-chip")
    no_error(page)
    chips = page.evaluate(CHIPS)
    by_python = {(i, s): c for i, inside, s, c in chips if not inside}
    by_stage = {(i, s): c for i, inside, s, c in chips if inside}
    shared = by_python.keys() & by_stage.keys()
    assert shared, "Pair details and the word splits show some of the same tokens"
    for key in shared:
        assert by_python[key] == by_stage[key], key
    for (token_id, strong), colour in {**by_python, **by_stage}.items():
        got, want = rgb(colour), expected_rgb(token_id, strong)
        assert all(abs(a - b) <= 2 for a, b in zip(got, want)), (token_id, colour, want)
    assert len({c for c in by_stage.values()}) > len(by_stage) // 2, "ids differ in colour"
