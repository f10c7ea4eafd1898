"""Explore's merges rows (the merges around the step, the step's row marked) travel to
the browser for the steps around the current one, so the bar's step is marked in the
same frame as the card, with no Python rerun."""

from __future__ import annotations

import json
import re

import pytest

from bpeviz.present.html_tree import tree_html
from bpeviz.text import display
from tests.support.app import ALGORITHMS, ok, open_page
from tests.support.trainings import reference


def merges_views(at) -> dict[int, str]:
    """The merges panel's views as HTML, by step (what the browser swaps in)."""
    for el in at.get("bidi_component"):
        data = json.loads(el.proto.json or "null")
        if isinstance(data, dict) and data.get("role") == "panel":
            views = {int(k): tree_html(v) for k, v in (data.get("views") or {}).items()}
            if views and all("bv-merges" in body for body in views.values()):
                return views
    raise AssertionError("no merges panel on the page")


def rows(body: str) -> list[list[str]]:
    """Each table row's cells, as text."""
    found = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.S)[1:]:  # no header
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)
        found.append([re.sub(r"<[^>]+>", "", c) for c in cells])
    return found


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_step_near_the_bar_marks_its_own_merge(algorithm):
    training = reference(algorithm)
    at = open_page("pages/1_Explore.py", algo=algorithm)
    at.number_input(key="stage_box_10").set_value(20).run()
    views = merges_views(ok(at))
    assert {20, 21, 25, 19} <= set(views), "the steps ahead and behind travel too"
    for k, body in views.items():
        table = rows(body)
        marked = [r for r in table if r[0].startswith("▶")]
        if k == 0:
            assert not marked, "step 0 made no merge"
            continue
        assert len(marked) == 1
        m = training.merges[k - 1]
        step, left, right, token = marked[0][:4]
        assert step == f"▶ {k}"
        assert [html_unescape(t) for t in (left, right, token)] == [
            display.label(m.left, "gpt2"), display.label(m.right, "gpt2"),
            display.label(m.token, "gpt2")]
        # the rows around it, earlier merges first: the five before it, then it
        steps = [int(r[0].lstrip("▶ ")) for r in table]
        assert steps == list(range(max(1, k - 5), max(1, k - 5) + len(steps)))
        assert k in steps and len(steps) == min(12, len(training.merges) - steps[0] + 1)


def html_unescape(text: str) -> str:
    import html

    return html.unescape(text)
