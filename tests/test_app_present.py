"""Presentation mode keeps the pair heatmap within a projector's screen."""

from __future__ import annotations

from bpeviz.present import figures
from tests.test_app import chart_spec, ok, open_page


def _symbols(at) -> int:
    layout = chart_spec(at, "heatmap")["layout"]
    return len(layout["xaxis"]["tickvals"])


def test_presentation_mode_draws_at_most_its_heatmap_size_and_says_so():
    at = ok(open_page("pages/1_Explore.py", merges=200, step=0, top_n=60, present=True))
    limit = figures.HEATMAP_SYMBOLS_PRESENTATION
    assert _symbols(at) == limit
    assert any(f"at most {limit} symbols per axis" in c.value for c in at.caption)
    assert at.session_state["top_n"] == 60, "the setting itself is kept for normal mode"


def test_outside_presentation_mode_the_chosen_size_is_drawn():
    at = ok(open_page("pages/1_Explore.py", merges=200, step=0, top_n=60))
    assert _symbols(at) > figures.HEATMAP_SYMBOLS_PRESENTATION
