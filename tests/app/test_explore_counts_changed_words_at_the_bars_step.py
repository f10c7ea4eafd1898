"""Explore's count of the words a merge changed travels for every step, so the browser
shows the bar's step's count beside the highlighted rows, not the count of the step
Python drew last."""

from __future__ import annotations

import json

import pytest

from tests.support.app import ALGORITHMS, ok, open_page
from tests.support.trainings import reference


def changed_metric(at) -> dict:
    for el in at.get("bidi_component"):
        data = json.loads(el.proto.json or "null")
        if isinstance(data, dict) and data.get("role") == "numbers" and "counts" in data:
            assert "{count}" in data["note"] and "{step}" in data["note"]
            return {"values": data["counts"], "n": data["n"]}
    raise AssertionError("no count of changed words on the page")


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_steps_count_of_changed_words_is_the_engines(algorithm):
    training = reference(algorithm)
    at = open_page("pages/1_Explore.py", algo=algorithm)
    metric = changed_metric(ok(at))
    values = metric["values"]
    assert len(values) == len(training.merges) + 1 == metric["n"] + 1
    for k in range(len(training.merges) + 1):
        assert values[k] == len(training.at(k).changed_words), k
    assert values[0] == 0 and max(values) > 1
    # the caption under it names no step of its own unless the list is the settled step's
    caption = " ".join(c.value for c in at.caption)
    assert "changed by merge" not in caption
