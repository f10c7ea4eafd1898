"""The pair heatmap's margins are given to plotly up front, large enough for what
Streamlit's theme draws in them (the tick labels, the axis titles, the colour bar, the
legend): plotly then lays its axes out once, not a second time to grow a margin, which
was about half of its drawing time on every step the heatmap follows."""

from __future__ import annotations

import pytest

from tests.support.browser import chart_in_view, go, no_error

MARGINS = """(plot) => {
  const size = plot._fullLayout._size, asked = plot.layout.margin;
  return {drawn: [size.l, size.r, size.t, size.b].map(Math.round),
          asked: [asked.l, asked.r, asked.t, asked.b]};
}"""


@pytest.mark.parametrize("query", [
    "step=30",                                   # short labels, upright
    "algo=wordpiece&step=60",                    # "##" labels, turned
    "algo=bbpe&step=60&present=1",               # a projector's type, wide columns
    "algo=wordpiece&step=100&top_n=40",          # long labels on many symbols
    "step=0&top_n=60",                           # the most symbols the page draws
])
def test_plotly_keeps_the_margins_it_was_given(page, server, query):
    go(page, server, f"Explore?{query}")
    found = chart_in_view(page).evaluate(MARGINS)
    # automargin stays on (a margin grows rather than cut a label), but never had to
    assert found["drawn"] == found["asked"], found
    no_error(page)
