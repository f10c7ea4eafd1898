"""The stage component's data: what the browser needs to redraw any step by itself.

The browser draws a word at step ``k`` from its history (token, made at, merged at) as
the tokens with ``made <= k < merged``; here that rule is checked against an independent
replay of the merges (tests/support/reference.py), for every word and every step.
The drawing itself is checked in a browser (tests/browser/test_stepping_in_the_browser.py).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, train
from bpeviz.analysis.views import token_labels, words_frame
from bpeviz.present.stage_data import expand_stage_merges, stage_merges, stage_words
from bpeviz.text.display import label
from tests.support.reference import apply_merge

ALGORITHMS = ["bpe", "bbpe", "wordpiece"]
WORDS = st.dictionaries(st.text("abcé文 ", min_size=1, max_size=9), st.integers(1, 9),
                        min_size=1, max_size=12)


def at_step(history: tuple[list[int], list[int], list[int]], k: int) -> list[int]:
    """The rule the browser uses (the step component's drawWords)."""
    return [t for t, made, gone in zip(*history) if made <= k < gone]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@settings(max_examples=25, deadline=None)
@given(counts=WORDS)
def test_each_word_at_each_step_matches_a_replay_of_the_merges(algorithm, counts):
    training = train(Corpus.from_counts(counts), algorithm, merges=30)
    vocab = training.vocab
    start = training.at(0)
    for index, word in enumerate(training.corpus.words):
        history = training._log.history(index)
        assert max(history[2]) <= len(training.merges) + 1
        split = [vocab[i] for i in start.split_ids(index)]
        assert [vocab[i] for i in at_step(history, 0)] == split
        for m in training.merges:
            split = apply_merge(split, m.left, m.right, m.token)
            assert [vocab[i] for i in at_step(history, m.step)] == split, (word, m.step)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_the_card_data_names_every_merge_and_labels_every_token(algorithm):
    training = train(Corpus.from_text("low lower lowest newer wider " * 3), algorithm,
                     merges=12)
    compact = stage_merges(training, "hex")
    data = expand_stage_merges(compact)
    assert len(data["merges"]) == len(training.merges)
    for m, (left, right, token, value) in zip(training.merges, data["merges"]):
        assert (left, right, token) == (m.left_id, m.right_id, m.token_id)
        assert f"count {m.count:,}" in value
        assert ("score" in value) == (algorithm == "wordpiece")
    assert [row[0] for row in data["labels"]] == [label(s, "hex") for s in training.vocab]
    assert [row[1] for row in data["labels"]] == [
        (s if isinstance(s, bytes) else s.encode()).hex(" ") for s in training.vocab]
    assert stage_merges(training, "hex") is compact, "built once per training"


def test_the_words_data_carries_the_words_as_text_and_only_their_labels():
    hostile = {"<img src=x onerror=alert(1)>": 3, "a\tb": 2, "x" * 200: 1}
    training = train(Corpus.from_counts(hostile), "bpe", merges=5, special_tokens=())
    frame = words_frame(training.at(2))
    data = stage_words(training, frame)
    shown = [w[1] for w in data["words"]]
    assert "<img·src=x·onerror=alert(1)>" in shown, "raw text: the browser uses textContent"
    assert "a→b" in shown and "x" * 120 + "…" in shown
    used = {t for w in data["words"] for t in w[3]}
    assert set(map(int, data["labels"])) == used
    assert data["labels"][str(next(iter(used)))][:2] == list(  # [2]: its note (if any)
        token_labels(training, [next(iter(used))])[next(iter(used))])


def test_the_script_draws_text_only_as_text_and_loads_nothing():
    """User text reaches the page only through ``data``; the script must never parse it
    as HTML, and nothing may come from the network (the app works offline)."""
    from bpeviz.ui.stage import CSS, JS

    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                 "new Function"):
        assert sink not in JS, sink
    for source in ("http://", "https://", "//cdn", "import(", "fetch(", "@import"):
        assert source not in JS and source not in CSS, source
    assert "textContent" in JS
