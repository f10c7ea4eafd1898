"""Errors the step bar's script caught in the browser reach the server log.

The script (bpeviz/ui/stepper/src/, joined by bpeviz.present.stage_script) catches its
own errors, keeps the bar working and reports each one with the trigger ``error``; every
element of the stage is mounted
with a callback that logs it (``bpeviz.ui.stage.mount``). Its own unit tests run under
``node --test bpeviz/ui/stepper/tests/``;
tests/browser/test_step_bar_survives_bad_data.py checks the whole way in a browser.
"""

from __future__ import annotations

import logging

import pytest

from bpeviz.ui import stage
from tests.support import ROOT

REPORT = {"where": "redraw", "message": "Cannot read properties of undefined (reading '0')",
          "stack": "TypeError: Cannot read properties of undefined (reading '0')\n"
                   "    at one (blob:x:503:32)\n    at drawCard (blob:x:515:5)"}


def test_a_reported_error_is_logged_with_its_element_place_message_and_stack(caplog):
    with caplog.at_level(logging.ERROR, logger="bpeviz.ui"):
        assert stage.log_browser_error("stage_card", REPORT)
    [record] = caplog.records
    assert record.name == "bpeviz.ui" and record.levelno == logging.ERROR
    text = record.getMessage()
    assert text.startswith("the step bar's script caught an error (stage_card, redraw): "
                           "Cannot read properties of undefined (reading '0')\n")
    assert "at drawCard (blob:x:515:5)" in text


def test_a_report_cannot_forge_log_lines(caplog):
    """The text came from the browser: the message stays on one line, control characters
    go, every line of the stack is indented, and the lengths are bounded."""
    forged = {"where": "key\nINFO fake",
              "message": "boom\n2024-01-01 ERROR fake\x1b[31m" + "x" * 900,
              "stack": "line one\r\nline two\x00\n" + "y" * 9000}
    with caplog.at_level(logging.ERROR, logger="bpeviz.ui"):
        assert stage.log_browser_error("stage", forged)
    text = caplog.records[0].getMessage()
    first, *rest = text.split("\n")
    assert "boom 2024-01-01 ERROR fake" in first and "key INFO fake" in first
    assert "\x1b" not in text and "\x00" not in text and "\r" not in text
    assert rest and all(line.startswith("    ") for line in rest), rest[:3]
    assert len(text) < 6000


@pytest.mark.parametrize("sent", [None, "an error", 3, [], {}, {"message": ""},
                                  {"where": "mount"}])
def test_what_is_no_report_is_not_logged(caplog, sent):
    with caplog.at_level(logging.ERROR, logger="bpeviz.ui"):
        assert not stage.log_browser_error("stage", sent)
    assert not caplog.records


def test_every_element_of_the_stage_is_mounted_with_the_error_callback(monkeypatch, caplog):
    """``stage.mount`` passes an ``on_error_change`` callback that logs the element's
    report, and nothing in the app mounts the stage component any other way."""
    calls = []
    monkeypatch.setattr(stage, "_component",
                        lambda: lambda **kwargs: calls.append(kwargs))
    stage.mount("stage_card", {"role": "card"}, on_step_change=print)
    [kwargs] = calls
    assert kwargs["key"] == "stage_card" and kwargs["on_step_change"] is print
    monkeypatch.setattr(stage.st, "session_state", {"stage_card": {"error": REPORT}})
    with caplog.at_level(logging.ERROR, logger="bpeviz.ui"):
        kwargs["on_error_change"]()
    assert "(stage_card, redraw)" in caplog.records[0].getMessage()
    sources = [*ROOT.glob("bpeviz/**/*.py"), *ROOT.glob("pages/*.py"), ROOT / "app.py"]
    calling = {str(path.relative_to(ROOT)): text.count("_component()(") for path in sources
               if (text := path.read_text(encoding="utf-8")).count("_component()(")}
    assert calling == {"bpeviz/ui/stage.py": 1}, "only stage.mount calls the component"
