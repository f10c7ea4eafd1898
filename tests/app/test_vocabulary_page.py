"""The Vocabulary page: the token table at the step, the merge tree of a picked token
(its list holds the newest tokens the table shows, a search reaches older ones), the
strength chart and the downloads."""

from __future__ import annotations

import json

from tests.support.app import body_with, ok, open_page
from tests.support.trainings import reference


def test_vocabulary_table_tree_and_downloads():
    training = reference()
    at = open_page("pages/4_Vocabulary.py", step=30)
    ok(at)
    table = at.dataframe[0].value
    assert len(table) == training.vocab_size_at(30)
    assert at.selectbox(key="w_tree_token").value == training.merges[29].token_id
    tree = body_with(at, "bv-tree")
    assert tree.count("<li>") >= 3  # a token and its two parts at least
    assert any(c.value == "One bar per merge: the count of the pair it merged."
               for c in at.caption)
    labels = [b.label for b in at.get("download_button")]
    assert "tokenizer.json" in labels and "training.json" in labels


def test_the_merge_tree_list_holds_the_newest_tokens_the_table_shows():
    """Past 500 merged tokens the tree's list holds the 500 newest the table shows (not
    every token, which would travel to the browser on every step) and says so; a search
    in the table reaches an older token, and the picked one stays a choice."""
    training = reference(merges=700)
    assert len(training.merges) == 700
    at = open_page("pages/4_Vocabulary.py", merges=700, step=700)
    box = at.selectbox(key="w_tree_token")
    ids = [int(o.rsplit("(id ", 1)[1].rstrip(")")) for o in box.options]
    assert box.value == training.merges[-1].token_id == ids[0]
    assert ids == sorted(ids, reverse=True) and len(ids) == 500
    assert any("500 newest merged tokens" in c.value for c in at.caption)
    old = training.merges[9]  # made at step 10: far from the newest 500
    assert old.token_id not in ids
    at.text_input(key="vocab_search").set_value(old.token).run()
    ok(at)
    box = at.selectbox(key="w_tree_token")
    ids = [int(o.rsplit("(id ", 1)[1].rstrip(")")) for o in box.options]
    assert old.token_id in ids and len(ids) < 500
    box.set_value(old.token_id).run()
    ok(at)
    assert at.selectbox(key="w_tree_token").value == old.token_id
    assert body_with(at, "bv-tree").count("<li>") >= 3  # the tree, not the legend


def test_the_views_only_python_draws_sit_under_a_mark_of_their_step():
    """The table, the tree, the charts and the downloads are Streamlit widgets: they sit
    in one container with a mark of the step Python drew them for (the browser dims them
    while the bar is elsewhere), of the same training as the bar."""
    at = ok(open_page("pages/4_Vocabulary.py", step=30))
    marks = [json.loads(el.proto.json) for el in at.get("bidi_component")
             if el.proto.id.endswith("-stage_drawn_vocabulary")]
    bars = [json.loads(el.proto.json) for el in at.get("bidi_component")
            if el.proto.id.endswith("-stage")]
    assert len(marks) == 1 and len(bars) == 1
    assert marks[0]["role"] == "drawn" and marks[0]["step"] == 30
    assert marks[0]["hist"] == bars[0]["hist"] and marks[0]["n"] == bars[0]["n"]
    at.number_input(key="stage_box_30").set_value(12).run()
    ok(at)
    marks = [json.loads(el.proto.json) for el in at.get("bidi_component")
             if el.proto.id.endswith("-stage_drawn_vocabulary")]
    assert marks[0]["step"] == 12
    assert len(at.dataframe[0].value) == reference().vocab_size_at(12)
