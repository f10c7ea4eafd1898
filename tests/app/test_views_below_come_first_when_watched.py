"""Explore sends the views below the first screen (the heatmap, the word list, the
merges table) before the first screen when the step report says a person was looking at
them: the browser draws a rerun's parts in the order they come, and the first screen
already shows the step. Otherwise the first screen comes first. Either way the page is
the same."""

from __future__ import annotations

from bpeviz.ui import stage, trace
from tests.support.app import ok, open_page


def _order(log: str) -> list[str]:
    return trace.events(log, ("bar", "heatmap"))


def _page(at) -> tuple:
    return ([c.value for c in at.caption], [m.value for m in at.markdown],
            len(at.get("plotly_chart")))


def test_watched_views_below_are_sent_first_and_only_for_that_report(monkeypatch, capfd):
    monkeypatch.setenv("BPEVIZ_TRACE", "1")
    at = open_page("pages/1_Explore.py")
    capfd.readouterr()
    at.session_state["step"] = 12
    at.run()
    assert _order(capfd.readouterr().err) == ["bar", "heatmap"]
    usual = _page(ok(at))

    # what the bar's report does when some of the views below were in view
    at.session_state[stage.BELOW_FIRST] = True
    at.run()
    assert _order(capfd.readouterr().err) == ["heatmap", "bar"]
    assert stage.BELOW_FIRST not in at.session_state, "once per report"
    assert _page(ok(at)) == usual, "the same page, sent in another order"

    at.run()  # the next run (a widget, say) draws in the usual order again
    assert _order(capfd.readouterr().err) == ["bar", "heatmap"]
