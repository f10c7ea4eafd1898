"""A PickyBPE step's pair counts (:attr:`PickyStep.pairs`, what the heatmap draws) are
the counts the trainer chooses from: before every merge, the pair counted most (smaller
ids first among equals) is the pair merged, with the count it was merged at, removals
and runs of one token (``x x x`` counts one ``(x, x)``) included; no pair holds a special
token or is longer than the longest token allowed."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import bpeviz
from bpeviz.algorithms.picky import PICKY
from bpeviz.samples import load_sample


@pytest.mark.parametrize("sample", ["tour", "seed003", "lowly"])
@pytest.mark.parametrize("threshold", [0.6, 0.9])
def test_the_pair_counted_most_before_each_merge_is_the_pair_merged(sample, threshold):
    training = bpeviz.train(load_sample(sample, "whitespace"), algorithm="picky",
                            merges=150, threshold=threshold)
    assert any(e.kind == "removal" for e in training.events)
    for k, event in enumerate(training.events):
        pairs = training.at(k).pairs
        if event.kind != "merge":
            continue
        best = pairs.iloc[0]
        assert (int(best.left_id), int(best.right_id), int(best["count"])) == (
            event.left_id, event.right_id, event.count), k
        assert training.at(k).next_merge == event
    assert training.at(len(training.events)).next_merge is None


def test_a_step_before_a_removal_has_no_next_merge():
    training = bpeviz.train(load_sample("tour", "whitespace"), algorithm="picky",
                            merges=150, threshold=0.6)
    removal = next(e for e in training.events if e.kind == "removal")
    assert training.at(removal.step - 1).next_merge is None


def test_a_count_that_outlived_every_occurrence_of_its_pair_is_not_merged():
    # "▁bababa", tokens of at most 2 characters: after "ba" the run "ba ba ba" counts one
    # pair where "a b" occurred twice, so "a b" keeps a count of 1 that no word holds;
    # merged, it made no token and divided by zero in its Intersection over Self
    training = bpeviz.train("bababa", algorithm="picky", merges=6, threshold=0.5,
                            max_type_length=2)
    assert [(e.kind, e.token, e.count) for e in training.events] == [("merge", "ba", 3)]
    assert training.stop_reason == "no_pairs"
    assert training.at(1).pairs.empty


@settings(max_examples=60, deadline=None)
@example(text="bababa", longest=2)
@given(text=st.text(alphabet="aab  \u00e9xyz\u4e2d", min_size=1, max_size=60),
       longest=st.integers(2, 6))
def test_pairs_are_sorted_as_the_trainer_takes_them_and_only_mergeable(text, longest):
    if not text.split():
        return
    training = bpeviz.train(text, algorithm="picky", merges=6, threshold=0.5,
                            max_type_length=longest)
    specials = len(PICKY.special_tokens)
    for k in range(len(training.events) + 1):
        pairs = training.at(k).pairs
        keys = [(-int(c), int(a), int(b)) for a, b, c in
                zip(pairs.left_id, pairs.right_id, pairs["count"])]
        assert keys == sorted(keys) and len(set(keys)) == len(keys)
        for a, b in zip(pairs.left_id.tolist(), pairs.right_id.tolist()):
            assert a >= specials and b >= specials
            assert len(training.vocab[a]) + len(training.vocab[b]) <= longest
        assert (pairs["score"] == pairs["count"]).all()
