"""The paper's claim, on real text: at the same vocabulary size, a SuperBPE tokenizer
past its transition encodes held-out text in fewer tokens than byte-level BPE.

Training text: 150 KB of Python's own documentation (``pydoc_data.topics``, shipped with
CPython); held out: the library story of the parallel samples and the documentation's
last 40 KB (never trained on). The samples alone (2-4 KB) are too small for phrases to
recur across texts, so there the two come out even.
"""

from __future__ import annotations

import pydoc_data.topics
from importlib import resources

import pytest

import bpeviz
from bpeviz import Corpus

DOCS = "\n\n".join(pydoc_data.topics.topics[k] for k in sorted(pydoc_data.topics.topics))
TRAIN, HELD_DOCS = DOCS[:150_000], DOCS[-40_000:]
STORY = resources.files("bpeviz.samples").joinpath("parallel/en.txt").read_text("utf-8")
MERGES = 1200


@pytest.fixture(scope="module")
def plain() -> bpeviz.Training:
    return bpeviz.train(Corpus.from_text(TRAIN, "gpt2"), algorithm="bbpe", merges=MERGES)


@pytest.mark.parametrize("transition", [600, 960])
@pytest.mark.parametrize("held_out", [STORY, HELD_DOCS], ids=["story", "docs"])
def test_fewer_tokens_per_byte_than_bbpe_at_the_same_vocabulary_size(
        plain: bpeviz.Training, transition: int, held_out: str) -> None:
    assert len(DOCS) > 190_000  # the held-out part does not overlap the training part
    t = bpeviz.train(TRAIN, algorithm="superbpe", merges=MERGES, transition=transition)
    assert t.vocab_size_at(MERGES) == plain.vocab_size_at(MERGES)
    size = len(held_out.encode())
    ours, theirs = len(t.at().encode(held_out)), len(plain.at().encode(held_out))
    assert ours / size < 0.99 * theirs / size
    assert any(t.superword(k) for k in range(transition + 1, MERGES + 1))


def test_before_the_transition_it_encodes_as_bbpe_does_almost_everywhere(
        plain: bpeviz.Training) -> None:
    t = bpeviz.train(TRAIN, algorithm="superbpe", merges=MERGES, transition=600)
    assert [m.token for m in t.merges[:600]] == [m.token for m in plain.merges[:600]]
    ours, theirs = len(t.at(600).encode(STORY)), len(plain.at(600).encode(STORY))
    assert abs(ours - theirs) <= 0.01 * theirs
