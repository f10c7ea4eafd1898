"""Vocabulary's frequency says which it is (the corpus tokenized at this step) and why it
can be 0 beside the count a token was created with; the Kinds filter shows its three
kinds whole."""

from __future__ import annotations

import json

from tests.support.app import ok, open_page, plain
from tests.support.trainings import reference


def test_frequency_names_its_step_and_why_it_can_be_zero():
    at = ok(open_page("pages/4_Vocabulary.py", step=200))
    columns = json.loads(at.dataframe[0].proto.columns)
    assert columns["frequency"]["label"] == "in corpus at 200"
    assert "at this step" in columns["frequency"]["help"]
    assert "absorbed into longer tokens" in columns["frequency"]["help"]
    assert any("It can be 0 for a token created with a count of 2" in plain(c.value)
               for c in at.caption)


def test_a_token_at_frequency_zero_shows_the_count_it_was_created_with():
    at = ok(open_page("pages/4_Vocabulary.py", step=200))
    frame = at.dataframe[0].value
    absorbed = frame[(frame["kind"] == "merged") & (frame["frequency"] == 0)]
    assert len(absorbed)
    training = reference()
    for row in absorbed.itertuples():
        made = training.merges[row._4 - 1]  # "created at step"
        assert row._6 == made.count >= 2  # "created with count"


def test_the_kinds_filter_shows_all_three_kinds_and_filters():
    at = ok(open_page("pages/4_Vocabulary.py"))
    kinds = at.button_group(key="vocab_kinds")
    assert kinds.options == ["special", "base", "merged"]
    kinds.set_value(["merged"]).run()
    ok(at)
    assert set(at.dataframe[0].value["kind"]) == {"merged"}
