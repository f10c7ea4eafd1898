"""Moving the step: the merge card, the word splits and the text's tokens follow, the
step is shared by the pages and goes into the URL, a request that crossed the last run
never moves it back, and a new step never retrains."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpeviz.present.text_history import tokens_at
from tests.support import APP
from tests.support.app import ALGORITHMS, ok, open_page, pair_box, shown_splits, stage
from tests.support.trainings import reference


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_moving_the_step_changes_the_merge_the_splits_and_the_tokens(algorithm):
    training = reference(algorithm)
    at = open_page("pages/1_Explore.py", algo=algorithm)
    at.number_input(key="stage_box_10").set_value(5).run()
    splits5 = shown_splits(ok(at))
    at.number_input(key="stage_box_5").set_value(6).run()
    splits6 = shown_splits(ok(at))
    assert at.session_state["step"] == 6
    assert stage(at, "controls")["step"] == stage(at, "card")["step"] == 6
    assert splits5 != splits6
    m = training.merges[5]
    assert stage(at, "card")["merges"][5][:3] == [m.left_id, m.right_id, m.token_id]
    assert all(ids == training.at(6).split_ids(i) for i, ids in splits6.items())
    # the words this merge changed come first (they are the ones with a token made now)
    words = stage(at, "words")["words"]
    changed = [w[0] for w in words if 6 in w[4]]
    assert sorted(changed) == sorted(training.at(6).changed_words)[:50]

    at.switch_page("pages/2_Tokenize.py").run()
    assert at.session_state["step"] == 6, "the step is shared by the pages"
    ids_at_6 = ok(at).code[0].value
    # the browser draws the text's tokens of every step from one history (the stage)
    assert [str(t[0]) for t in tokens_at(stage(at, "tokens"), 6)] == ids_at_6.split()
    at.number_input(key="stage_box_6").set_value(0).run()
    ids_at_0 = ok(at).code[0].value
    at.number_input(key="stage_box_0").set_value(len(training.merges)).run()
    ids_at_end = ok(at).code[0].value
    assert len(ids_at_0.split()) >= len(ids_at_6.split()) >= len(ids_at_end.split())
    assert ids_at_0 != ids_at_end
    text = at.session_state["text"]
    expected = [t.id for t in training.at(len(training.merges)).encode(text)]
    assert ids_at_end.split() == [str(i) for i in expected]


def test_the_number_box_moves_the_step_and_the_url():
    at = open_page("pages/1_Explore.py")
    at.number_input(key="stage_box_10").set_value(42).run()
    assert stage(ok(at), "controls")["step"] == 42
    assert ok(at).number_input(key="stage_box_42").value == 42, "a fresh box shows the step"
    at.number_input(key="stage_box_42").set_value(41).run()
    assert ok(at).session_state["step"] == 41
    assert at.query_params["step"] == ["41"] or at.query_params["step"] == "41"


def test_a_request_that_crossed_the_last_run_never_moves_the_step_back():
    """A busy browser can send a request with the widgets it still shows after the run
    that replaced them: the bar's report set the step to 14, the run that drew box 14 ended
    (dropping box 10's value), and the request carries box 10 still at 10. With no old
    value to compare with, that unchanged 10 looks like a change; if its callback moved the
    step back, the bar would follow Python there and a step the user made would be lost.
    An element of an old tree reruns with that tree's widget states, as such a request
    does."""
    at = open_page("pages/1_Explore.py")
    old_box = at.number_input(key="stage_box_10")
    old_pair = pair_box(at)  # Pair details, one box per step too
    old_pair.set_value(old_pair.value)  # the value the browser still shows in it
    at.session_state["step"] = 14  # what the bar's report does (stage._from_browser)
    at.run()
    assert ok(at).number_input(key="stage_box_14").value == 14
    old_box.set_value(10).run()  # the browser's request with the widgets it still shows
    assert ok(at).session_state["step"] == 14
    assert at.session_state["pair_step"] is None, "an unchanged old box picked no pair"
    assert stage(at, "controls")["step"] == 14
    # a number really typed into a box still moves the step, even into an old box
    at.number_input(key="stage_box_14").set_value(20).run()
    assert ok(at).session_state["step"] == 20


def test_a_crossed_request_never_moves_the_step_back_on_vocabulary_either():
    """The same race on Vocabulary, which steps with the same bar and box."""
    at = open_page("pages/4_Vocabulary.py")
    old_box = at.number_input(key="stage_box_10")
    at.session_state["step"] = 14
    at.run()
    assert ok(at).number_input(key="stage_box_14").value == 14
    old_box.set_value(10).run()
    assert ok(at).session_state["step"] == 14
    at.number_input(key="stage_box_14").set_value(3).run()
    assert ok(at).session_state["step"] == 3


def test_a_box_drawn_again_at_a_step_shows_that_step_not_what_was_typed_there():
    """Vocabulary's Health view steps in a fragment, whose reruns keep the boxes they no
    longer draw: the box typed into at step 200 still held 0 when the bar came back to
    200, and showed 0 beside a bar at 200."""
    at = open_page("pages/4_Vocabulary.py")
    at.button_group(key="w_vocab_view").set_value("health").run()
    at.number_input(key="stage_box_10").set_value(200).run()
    at.number_input(key="stage_box_200").set_value(0).run()
    assert ok(at).session_state["step"] == 0
    at.session_state["step"] = 200  # the bar reports 200
    at.run()
    assert ok(at).number_input(key="stage_box_200").value == 200


def test_changing_only_the_step_never_retrains(monkeypatch):
    import bpeviz.ui.training as cache

    calls = []
    real = cache.train

    def counting(*args, **kwargs):  # train(corpus, options) or train(corpus, **keywords)
        calls.append(args[1].merges if len(args) > 1 else kwargs.get("merges"))
        return real(*args, **kwargs)

    monkeypatch.setattr(cache, "train", counting)
    at = open_page("pages/1_Explore.py", merges=137)
    trained = len(calls)
    for step in (3, 50, 136):
        box = next(b for b in at.number_input if b.key.startswith("stage_box_"))
        box.set_value(step).run()
        ok(at)
    at.switch_page("pages/4_Vocabulary.py").run()
    at.switch_page("pages/2_Tokenize.py").run()
    assert len(calls) == trained <= 1
    at.number_input(key="w_merges").set_value(139).run()
    assert ok(at) and calls[-1] == 139


def test_explore_has_no_timer_and_no_fragment():
    """Play runs in the browser (the stage component); Explore reruns only when the step
    settles, never on a ``run_every`` timer: under load, the reruns a timed fragment
    queues leave pages blank ("Cannot set a node at a delta path")."""
    source = (Path(APP).parent / "pages" / "1_Explore.py").read_text()
    assert "run_every=" not in source and "@st.fragment" not in source
    at = open_page("pages/1_Explore.py", merges=12, step=10)
    assert stage(ok(at), "controls")["n"] == 12
    assert "playing" not in at.session_state


def test_a_request_crossing_a_change_of_algorithm_picks_no_pair():
    """The browser's request may carry the Pair details box of the training before an
    algorithm change, at the same step: that box is not drawn any more, and the page
    goes on with no pair picked (and no error box)."""
    at = open_page("pages/1_Explore.py")
    old_key = pair_box(at).key
    shown = at._tree.get_widget_states()  # what the browser still shows
    ok(at.selectbox(key="w_algo").set_value("bbpe").run())
    assert pair_box(at).key != old_key, "another training, so another box"
    at._run(shown)  # that request, arriving after the change
    assert not ok(at).error, [e.value for e in at.error]
    assert at.session_state["pair_step"] is None


def test_a_pair_picked_in_one_training_never_reaches_the_next_ones_box():
    """A pair picked in Pair details names ids of its training's vocabulary. At the same
    step another training (a corpus with a far smaller vocabulary) draws its own box, at
    its own merge: the widget states the browser sends back hold only pairs of the
    vocabulary shown, so every label can be drawn."""
    at = open_page("pages/1_Explore.py", algorithm="bbpe", step=3)
    box = pair_box(at)
    box.select_index(len(box.options) - 1).run()  # the rarest pair: ids far past 'a'
    picked = tuple(ok(at).session_state["pair"])
    at.segmented_control(key="w_source").set_value("paste").run()
    at.text_area(key="w_paste").input("low lower lowest newer wider " * 3).run()
    at.selectbox(key="w_algo").set_value("bpe").run()
    ok(at)._tree.get_widget_states()  # formats every box's value as the browser shows it
    box = pair_box(at)
    assert box.format_func(box.value) in box.options
    assert tuple(box.value) == tuple(at.session_state["pair"]) != picked
