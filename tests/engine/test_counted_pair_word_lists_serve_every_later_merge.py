"""The pair table the compiled engine counts (every pair's word list a slice of one shared
buffer, copied out to its own memory when the pair gains a word) serves every later merge
exactly as the Python loop's does: after a replay, trained until no pair is left, so that
every pair's word list is read; and a counted pair that a merge makes in another word."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpeviz import Corpus
from bpeviz.core.training import base_vocabulary, make_options
from bpeviz.core.training import train as train_merges
from tests.engine.test_compiled_engine_matches_python import assert_same, replay_then_train

# runs and repeats, so that pairs recur within a word and across words
phrases = st.text(alphabet=st.sampled_from("aab bc"), min_size=1, max_size=16)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(phrases, st.integers(1, 4), min_size=1, max_size=8),
       st.sampled_from(["first", "ids"]), st.integers(0, 12),
       st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20)), max_size=5),
       st.booleans())
def test_training_to_the_last_pair_after_a_replay_merges_as_the_python_loop(
        table, tie_break, learned, picks, segments):
    corpus = Corpus.from_counts(table)
    opts = make_options("bpe", merges=learned, tie_break=tie_break, special_tokens=())
    forced = [(m.left, m.right) for m in train_merges(corpus, opts).merges]
    vocab = list(base_vocabulary(corpus, opts)) + [left + right for left, right in forced]
    for i, j in picks:  # any pairs after, so that a token can be made a second way
        left, right = vocab[i % len(vocab)], vocab[j % len(vocab)]
        forced.append((left, right))
        if left + right not in vocab:
            vocab.append(left + right)
    every = 2 * sum(len(w) for w in table)  # more merges than pairs can ever be left
    compiled = replay_then_train(corpus, opts, "compiled", forced, every, 64, segments)
    assert_same(compiled, replay_then_train(corpus, opts, "python", forced, every))


def test_a_counted_pair_that_a_merge_makes_in_another_word_is_merged_in_both():
    # ids x=0, a=1, b=2, T=3: (x, T) is counted at the start in words 0 and 2; merging
    # (a, b) into the existing T makes it in word 1 too, so its word list, counted as a
    # slice of a shared buffer, gains a word; merging (x, T) then replaces it everywhere
    from bpeviz.engine import compiled_module
    from bpeviz.engine.python import PairState
    compiled = compiled_module("compiled")
    flat = np.array([0, 3, 0, 1, 2, 0, 3, 0, 3], dtype=np.int32)
    lengths, counts = np.array([2, 3, 4]), np.array([2, 3, 5])
    results = []
    for state in (compiled.State(flat, lengths, counts, 5, True, 0, 0),
                  PairState(flat, lengths, counts, 5, True, None, 0)):
        assert state.pop_best() == (0, 3)  # counted before any merge
        made = [state.merge(1, 2, 3, 1), state.merge(0, 3, 4, 2)]
        nodes = [np.frombuffer(a, dtype=np.int32) if isinstance(a, bytes) else np.asarray(a)
                 for a in state.forest()]
        results.append((made, [a.tolist() for a in nodes]))
    assert results[0] == results[1]
    assert results[0][0][1][2] == 2 + 3 + 2 * 5  # (x, T) replaced in all three words
