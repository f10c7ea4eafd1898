"""Every value a page is handed (a widget's, a link's, the step bar's, one left by an older
run) is made a valid setting before any code reads it, and a page whose own code fails
says so in one sentence, logs the trace and offers a way on: Streamlit's error box never
shows.

The first tests replay what a browser does when a select box's labels change under it:
the pre-tokenizer box labels its "auto" option after the algorithm ("auto: whitespace"
for BPE, "auto: GPT-2 regex" for byte-level BPE), and a request the browser sends with
the box it still shows carries the old label. Streamlit hands back a text it cannot map
as the value itself; stored as the setting, it ended every page in a KeyError.
"""

from __future__ import annotations

import itertools
import logging

import pytest
from streamlit.testing.v1 import AppTest

from bpeviz.samples import SAMPLES
from bpeviz.ui import state
from tests.support.app import ok, open_page

ALL = ["bpe", "bbpe", "wordpiece", "unigram"]


def label_of(at: AppTest, key: str) -> str:
    """The text the select box ``key`` shows for its value (what the browser sends)."""
    box = at.selectbox(key=key)
    return box.format_func(box.value)


def run_with_label(at: AppTest, key: str, label: str) -> AppTest:
    """Rerun with the widget states the browser shows, the select box ``key`` holding
    ``label`` (its text in an earlier run) instead of one of its options."""
    states = at._tree.get_widget_states()
    box_id = at.selectbox(key=key).id
    found = [w for w in states.widgets if w.id == box_id]
    assert found, f"no widget state for {key}"
    found[0].string_value = label
    at._run(states)
    return at


def step_box(at: AppTest):
    return next(b for b in at.number_input if b.key.startswith(("stage_box_", "step_box_")))


@pytest.mark.parametrize("before, after", list(itertools.permutations(ALL, 2)))
def test_a_label_from_before_the_algorithm_changed_is_never_stored(before, after):
    at = open_page("pages/1_Explore.py", algo=before)
    old_label = label_of(at, "w_pretok")
    at.selectbox(key="w_algo").set_value(after).run()
    ok(at)
    run_with_label(at, "w_pretok", old_label)
    ok(at)
    assert at.session_state["pretok"] == "auto"
    assert at.selectbox(key="w_pretok").value == "auto"
    assert any("Explore" in t.value for t in at.title)
    if after != "unigram":  # the step still moves, as a typed step or a key does
        target = int(at.session_state["step"]) + 1
        step_box(at).set_value(target).run()
        ok(at)
        assert at.session_state["step"] == target


def test_compare_keeps_working_when_a_column_changes_algorithm():
    at = open_page("pages/3_Compare.py", c1_algo="bbpe")
    old_label = label_of(at, "w_c1_pretok")
    at.selectbox(key="w_c1_algo").set_value("wordpiece").run()
    ok(at)
    run_with_label(at, "w_c1_pretok", old_label)
    ok(at)
    assert at.session_state["c1_pretok"] == "auto"
    assert not at.error, [e.value for e in at.error]


@pytest.mark.parametrize("name, bad", [
    ("pretok", "auto: whitespace"),   # a label stored by an older run
    ("merges", -5),                   # out of range
    ("algo", "GPT-2"),                # not an algorithm
    ("step", "ten"),                  # not a number
    ("present", "yes"),               # not a yes/no
    ("pair", "t + o"),                # a "Pair details" label from another step
])
def test_a_stored_value_that_no_longer_fits_goes_back_to_its_default_with_a_note(name, bad):
    at = open_page("pages/1_Explore.py")
    at.session_state[name] = bad
    at.run()
    ok(at)
    setting = state.SETTINGS[name]
    # back at the default, or (a pair of Pair details) at what the page picks in its place
    assert at.session_state[name] == setting.default or (
        setting.default is None and setting.accepts(at.session_state[name]))
    notes = [c.value for c in at.caption if c.value.startswith("↺")]
    assert len(notes) == 1 and "does not fit here" in notes[0], notes
    at.run()  # said once
    assert not [c.value for c in ok(at).caption if c.value.startswith("↺")]


def test_a_value_the_user_chose_is_kept_and_not_noted():
    at = open_page("pages/1_Explore.py")
    at.selectbox(key="w_pretok").set_value("gpt2").run()
    assert ok(at).session_state["pretok"] == "gpt2"
    assert not [c.value for c in at.caption if c.value.startswith("↺")]


def test_widgets_start_at_their_settings_value_not_at_their_minimum():
    """A browser that mounts a widget from a reply it got late shows the widget's
    starting value: it must be the setting's, or the box comes up at 0 merges and the
    next request trains 0 merges."""
    at = open_page("pages/1_Explore.py", merges=137, top_n=7, search="low")
    at.run()  # a run in which no widget is given a value through session state
    ok(at)
    assert at.number_input(key="w_merges").proto.default == 137
    assert list(at.slider(key="w_top_n").proto.default) == [7]
    assert at.text_input(key="word_search").proto.default == "low"
    assert at.selectbox(key="w_pretok").proto.default == 0  # "auto", the first option


def test_back_and_forward_read_the_settings_from_the_address(monkeypatch):
    """Streamlit runs the page of a history entry with that entry's query string; the
    settings follow it (a link is read only once otherwise), and what the entry does not
    name is at its default."""
    at = open_page("pages/1_Explore.py", merges=120)
    at.session_state["step"] = 40
    at.run()
    assert ok(at).query_params["step"] == "40"
    monkeypatch.setattr(state, "_history_navigation", lambda: True)
    at.query_params.clear()
    at.query_params["step"] = "7"
    at.run()
    ok(at)
    assert at.session_state["step"] == 7
    assert at.session_state["merges"] == state.SETTINGS["merges"].default
    monkeypatch.setattr(state, "_history_navigation", lambda: False)
    at.query_params["step"] = "9"  # an ordinary rerun keeps what the session holds
    at.run()
    assert ok(at).session_state["step"] == 7


# -- a failing page ------------------------------------------------------------------------


def test_a_failing_page_says_so_logs_the_trace_and_offers_a_reset(monkeypatch, caplog):
    at = open_page("pages/1_Explore.py", source="paste", paste="low lower lowest " * 20,
                   merges=30, tie="ids")
    import bpeviz.analysis.views

    def broken(*args, **kwargs):
        raise RuntimeError("planted failure")

    monkeypatch.setattr(bpeviz.analysis.views, "words_frame", broken)
    with caplog.at_level(logging.ERROR):
        at.run()
    assert not at.exception, "Streamlit's error box was shown"
    messages = [e.value for e in at.error]
    assert any("Something went wrong on this page (RuntimeError)" in m for m in messages)
    traces = [r for r in caplog.records if r.exc_info and "planted failure" in str(r.exc_info[1])]
    assert traces, "the trace is not in the server log"
    assert any(r.name == "bpeviz.ui" and "planted failure" in r.getMessage()
               for r in caplog.records)
    monkeypatch.undo()
    at.button(key="reset_after_error").click().run()
    ok(at)
    assert at.session_state["tie"] == "first" and at.session_state["merges"] == 200
    assert at.session_state["source"] == "paste"
    assert at.session_state["paste"].startswith("low lower lowest")
    assert not [e.value for e in at.error]


def test_a_failing_callback_is_caught_the_same_way(monkeypatch):
    at = open_page("pages/4_Vocabulary.py")
    from bpeviz.ui import page_setup

    def broken():
        raise RuntimeError("planted failure in a callback")

    monkeypatch.setattr(page_setup, "_apply_sample_settings", broken)
    # the select box's callback is the one bound when it was drawn: draw it again
    at.run()
    other = next(name for name in SAMPLES if name != at.session_state["sample"])
    at.selectbox(key="w_sample").set_value(other).run()
    assert not at.exception
    assert any("Something went wrong" in e.value for e in at.error)


@pytest.mark.parametrize("page", ["pages/1_Explore.py", "pages/2_Tokenize.py",
                                  "pages/4_Vocabulary.py"])
def test_a_training_of_no_merges_puts_step_0_in_the_link(page):
    """A minimum frequency no pair reaches trains no merge: the session's step goes to 0,
    and the link must say 0 too, not the 10 it said before."""
    at = open_page(page)
    at.number_input(key="w_min_freq").set_value(50_000).run()
    ok(at)
    assert at.session_state["step"] == 0
    assert at.query_params["step"] == "0"
