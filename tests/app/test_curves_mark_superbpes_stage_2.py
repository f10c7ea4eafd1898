"""Where a SuperBPE training's stage 2 starts is marked on the app's curves: Compare's
metric curves (against merge step and vocabulary size) and corpus-token chart, and Home's
corpus-token chart, at the step the training's ``landmarks()`` give."""

from __future__ import annotations

import json

from tests.support.app import ok, open_page
from tests.support.compare import TEXT, open_compare


def spec(at, key: str) -> dict:
    return next(json.loads(el.proto.spec) for el in at.get("plotly_chart")
                if key in el.proto.id)


def lines(figure: dict) -> list[float]:
    return [s["x0"] for s in figure["layout"].get("shapes", []) if s.get("name") == "landmark"]


def names(figure: dict) -> list[str]:
    return [a["text"] for a in figure["layout"].get("annotations", [])]


def test_compare_marks_stage_2_of_a_superbpe_configuration():
    at = open_compare(text=TEXT, text_edited=True, c2_algo="superbpe")
    assert not at.error, [e.value for e in at.error]
    # the sidebar's 200 merges, stage 2 from 90% of them (the transition box left empty)
    start = 181
    curves = spec(at, "compare_curve")
    assert lines(curves) == [start]
    assert names(curves) == ["B: stage 2: merges across spaces"]
    assert lines(spec(at, "compare_tokens")) == [start]
    at.radio(key="w_cmp_x").set_value("vocab_size").run()
    ok(at)
    vocab = lines(spec(at, "compare_curve"))
    assert len(vocab) == 1 and vocab[0] > start, "on the vocabulary axis: its size there"


def test_home_marks_stage_2_on_the_corpus_token_chart():
    at = open_page(algo="superbpe")
    assert lines(spec(at, "home_tokens")) == [181]
    at = open_page(algo="bbpe")
    assert lines(spec(at, "home_tokens")) == []
