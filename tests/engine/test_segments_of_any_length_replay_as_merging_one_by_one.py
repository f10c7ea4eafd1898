"""A replay by segments finds each distinct segment by a key: a short segment's key is its
ids themselves, packed into 64 bits, and a longer one's a hash that is checked against
its ids. Words long enough for segments past the packed keys' limit (62 bits: 62 ids of
two symbols, 20 of eight), over alphabets whose ids take one and three bits, replay and
then train exactly as the Python loop merges one by one."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpeviz import Corpus
from bpeviz.core.training import base_vocabulary, make_options
from bpeviz.core.training import train as train_merges
from tests.engine.test_compiled_engine_matches_python import assert_same, replay_then_train


@st.composite
def long_words(draw):
    """A table of words over "ab" or "a".."h", some longer than a packed key holds."""
    letters = draw(st.sampled_from(["ab", "abcdefgh"]))
    word = st.text(alphabet=st.sampled_from(letters), min_size=1, max_size=80)
    return draw(st.dictionaries(word, st.integers(1, 3), min_size=1, max_size=6))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(long_words(), st.integers(0, 40),
       st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)), max_size=6),
       st.integers(0, 6))
def test_long_and_short_segments_replay_as_merging_one_by_one(table, learned, picks, more):
    corpus = Corpus.from_counts(table)
    opts = make_options("bpe", merges=learned, special_tokens=())
    forced = [(m.left, m.right) for m in train_merges(corpus, opts).merges]
    vocab = list(base_vocabulary(corpus, opts)) + [left + right for left, right in forced]
    for i, j in picks:  # pairs that join more symbols, so that segments grow long
        left, right = vocab[i % len(vocab)], vocab[j % len(vocab)]
        forced.append((left, right))
        if left + right not in vocab:
            vocab.append(left + right)
    assert_same(replay_then_train(corpus, opts, "compiled", forced, more, 64, True),
                replay_then_train(corpus, opts, "python", forced, more))


def test_segments_that_differ_only_past_a_packed_keys_reach_are_told_apart():
    # every boundary joined by a merge, so each word is one segment; ids take one bit.
    # 70 symbols each, too long for a packed key, differing in the last one only; and 63
    # symbols beside the same 62 after a "b" (62 fit a packed key, 63 do not: packed, the
    # 63 would read as the 62)
    words = {"ab" * 35: 2, "ab" * 34 + "aa": 3, "b" + "ab" * 31: 1, "ab" * 31: 4}
    corpus = Corpus.from_counts(words)
    opts = make_options("bpe", merges=0, special_tokens=())
    forced = [("a", "b"), ("b", "a"), ("a", "a")]
    compiled = replay_then_train(corpus, opts, "compiled", forced, 3, 64, True)
    assert_same(compiled, replay_then_train(corpus, opts, "python", forced, 3))
    assert [m.count for m in compiled.merges[:3]] == [2 * 35 + 3 * 34 + 31 + 4 * 31, 0, 3]
