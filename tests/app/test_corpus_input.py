"""The corpus a user brings in the sidebar: a paste (with its Train button and its
limit on the box), an upload, a ``word<TAB>count`` table read as counts; and a sentence
that says what to do when it is empty, not UTF-8, or holds a bad counts line (named in the
page and in the sidebar)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from bpeviz import Corpus, train
from tests.support import ROOT
from tests.support.app import html_text, ok, open_page, plain, stage


@pytest.mark.parametrize("text,expected", [
    ("", "Paste a text"),
    ("   \n\t  ", "Paste a text"),
])
def test_empty_or_blank_paste_says_what_to_do(text, expected):
    at = open_page("pages/1_Explore.py", source="paste", paste=text)
    ok(at)
    messages = [m.value for m in [*at.info, *at.error]]
    assert any(expected in m for m in messages), messages
    assert at.text_area(key="w_paste").value == text


def test_choosing_paste_or_upload_in_the_sidebar_asks_for_input():
    at = open_page("pages/1_Explore.py")
    at.segmented_control(key="w_source").set_value("paste").run()
    assert "Paste a text" in ok(at).info[0].value
    at.text_area(key="w_paste").input("low lower lowest " * 5).run()
    assert not any("Paste" in i.value for i in ok(at).info) and "bv-card" in html_text(at)
    at.segmented_control(key="w_source").set_value("upload").run()
    assert "Upload a UTF-8 text file" in ok(at).info[0].value


def test_a_file_that_is_not_utf8_gets_a_clear_error():
    at = open_page("pages/1_Explore.py", source="upload",
                   upload=("latin1.txt", "café crème".encode("latin-1")))
    ok(at)
    assert at.error and "not UTF-8" in plain(at.error[0].value)


def test_a_word_count_paste_is_read_as_counts():
    """"cd" (10 times) is merged before "ab" (once); read as 1 each, the tie would go to
    the first pair, "ab"."""
    at = open_page("pages/1_Explore.py", source="paste", paste="ab\t1\ncd\t10\n",
                   merges=3, step=1)
    ok(at)
    expected = train(Corpus.from_counts({"ab": 1, "cd": 10}), "bpe", merges=3)
    assert [(m.token, m.count) for m in expected.merges] == [("cd", 10), ("ab", 1)]
    card = stage(at, "card")
    assert card["step"] == 1
    assert [m[:3] for m in card["merges"]] == [
        [m.left_id, m.right_id, m.token_id] for m in expected.merges]
    assert [m[3] for m in card["merges"]] == ["count 10", "count 1"]


def test_the_paste_box_has_a_train_button_and_names_the_limit():
    from bpeviz.core.limits import LIMITS

    at = open_page("pages/1_Explore.py", source="paste")
    box = at.sidebar.text_area(key="w_paste")
    # (max_chars stays above the limit: Streamlit cuts a longer text to max_chars on the
    # server, which would train on the first million characters without a word)
    assert f"Up to {LIMITS.text_chars:,} characters" in box.help
    train_button = at.sidebar.button(key="paste_train")
    assert train_button.label == "Train"
    box.input("low lower lowest newer wider " * 20)
    train_button.click().run()
    ok(at)
    assert any("bv-card" in el.proto.body for el in at.get("html"))


def test_the_app_names_the_bad_line_in_the_page_and_the_sidebar():

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state["source"] = "upload"
    at.session_state["upload"] = ("counts.tsv", b"word\tcount\nlow\t5\nlower\tsix\nnew\t2\n")
    at.run()
    assert not at.exception
    expected = "counts.tsv, line 3: the count 'six' is not a whole number"
    unescaped = [e.value.replace("\\", "") for e in at.error]
    assert any(expected in m for m in unescaped), unescaped
    assert any(expected in e.value.replace("\\", "") for e in at.sidebar.error)
