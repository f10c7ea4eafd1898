"""The step bar's trace (bpeviz.ui.trace): off unless BPEVIZ_TRACE is set; on, one line
per event that the concurrency browser test can pick out by session."""

from __future__ import annotations

from bpeviz.ui import trace


def test_off_by_default_it_prints_nothing(monkeypatch, capsys):
    monkeypatch.delenv("BPEVIZ_TRACE", raising=False)
    trace.event("heard", step=3, seq=1)
    assert capsys.readouterr().err == ""


def test_on_it_prints_one_line_per_event_that_lines_picks_by_session(monkeypatch, capsys):
    monkeypatch.setenv("BPEVIZ_TRACE", "1")
    trace.event("heard", step=3, seq=1)
    err = capsys.readouterr().err
    prefix, seconds, sid, name, rest = err.strip().split(" ", 4)
    assert (prefix, sid, name, rest) == (trace.PREFIX, "-", "heard", "step=3 seq=1")
    assert float(seconds) > 0
    log = "\n".join([err.strip(), "other output",
                     f"{trace.PREFIX} 1.000 abcdef12 run page=Explore run=2 step=10",
                     f"{trace.PREFIX} 1.500 0000aaaa run page=Explore run=1 step=10"])
    assert trace.lines(log, "abcdef12") == [
        f"{trace.PREFIX} 1.000 abcdef12 run page=Explore run=2 step=10"]
    assert trace.lines(log, "-") == [err.strip()]
    assert trace.lines(log, name="run") == log.splitlines()[2:]
    assert trace.lines(log, "abcdef12", name="heard") == []
