"""A PickyBPE training read at any step for the app: every word's split read from one
replay of the events equals the segmenter's cut of the word, and each step's explanation
adds up: the words behind a merge make its count, the words where a removed token was
still alone make its count left alone, the rivals never outcount the merge, and the IoS
written on the card is the event's."""

from __future__ import annotations

import pytest

import bpeviz
from bpeviz.algorithms.picky_explain import explain_step, removal_headline
from bpeviz.samples import SAMPLES, load_sample


@pytest.fixture(scope="module", params=[(s, th) for s in SAMPLES for th in (0.6, 0.9)],
                ids=lambda p: f"{p[0]}-{p[1]}")
def training(request):
    sample, threshold = request.param
    return bpeviz.train(load_sample(sample, "whitespace"), algorithm="picky", merges=150,
                        threshold=threshold)


def test_the_replayed_splits_are_the_segmenters_at_every_step(training):
    for k in range(0, len(training.events) + 1, 7):
        step = training.at(k)
        assert training.splits_at(k) == [tuple(step.encode_word(w)) for w in training.words]


def test_each_step_is_explained_by_words_that_add_up_to_its_count(training):
    for e in training.events:
        why = explain_step(training, e.step)
        assert sum(count * times for _, count, times in why.words) == e.count, e
        if e.kind == "merge":
            assert all(n <= e.count for _, _, n in why.rivals)
            assert why.tied == sum(n == e.count for _, _, n in why.rivals) or why.tied > 5
        else:
            assert f"of its {e.inside + e.count:,} uses" in removal_headline(e)
            assert e.ios == pytest.approx(e.inside / (e.inside + e.count))
