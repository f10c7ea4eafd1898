"""The Tokenize page sends the browser what it needs to draw the text's tokens:
unknown and partial tokens flagged apart, and whether to show whitespace.
(tests/browser/test_tokenize_steps_in_the_browser.py checks the drawing.)"""

from __future__ import annotations

from bpeviz.present.text_history import tokens_at
from tests.support.app import ok, open_page, stage


def test_tokenize_draws_unknown_and_partial_tokens_distinctly():
    at = open_page("pages/2_Tokenize.py", text="lowest 😀 苹果", text_edited=True,
                   sample="low", merges=10, marker="</w>", step=4)
    flags = {f for *_, f in tokens_at(stage(ok(at), "tokens"), 4)}  # 1 partial, 2 unknown
    assert 2 in flags, "😀 and 苹 are not in the BPE alphabet of this corpus"
    assert not any(f & 1 for f in flags)
    at.selectbox(key="w_algo").set_value("bbpe").run()
    data = stage(ok(at), "tokens")
    flags = {f for *_, f in tokens_at(data, 4)}
    assert 1 in flags and not any(f & 2 for f in flags), "bytes of 苹 are partial tokens"
    assert "�" not in str(data["labels"])
    partial = [m.value for m in at.metric if m.label == "Partial characters"]
    assert partial and int(partial[0]) > 0


def test_the_whitespace_toggle_makes_spaces_tabs_and_newlines_visible():
    at = open_page("pages/2_Tokenize.py", text="a b\tc\nd", text_edited=True)
    # the browser draws the text (tests/browser/ checks what it shows)
    data = stage(ok(at), "tokens")
    assert data["text"] == "a b\tc\nd" and data["showWs"] is False
    at.toggle(key="show_ws").set_value(True).run()
    assert stage(ok(at), "tokens")["showWs"] is True
