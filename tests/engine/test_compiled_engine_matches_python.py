"""The compiled merge loop (bpeviz.engine._merge) gives exactly what the Python reference gives."""

from __future__ import annotations

import os
import random
import sysconfig
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import regex
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, train
from bpeviz.core import encoding
from bpeviz.core.encoding import _char_classes, _Encoder, split_words
from bpeviz.core.training import _MergeLoop, base_vocabulary, initial_symbols, make_options
from bpeviz.core.training import train as train_merges
from bpeviz.engine.inputs import initial_ids
from bpeviz.engine.merge_word import merge_word
from bpeviz.engine.python import PairState
from tests.support.reference import random_ranks

# skipped where bpeviz.engine._merge is not built, but a failure under CI (see conftest.compiled)
pytestmark = pytest.mark.usefixtures("compiled")

STDLIB = Path(sysconfig.get_paths()["stdlib"])


def run(corpus, options, engine, forced=None, base=None):
    loop = _MergeLoop(corpus, options, base or base_vocabulary(corpus, options), engine=engine)
    loop.run(forced=forced)
    return loop.result()


def forest(training):
    log = training._log
    return [a.tolist() for a in (log.token, log.step, log.until, log.word, log.word_start)]


def assert_same(compiled, python):
    assert compiled.merges == python.merges  # steps, tokens, ids, counts, scores, replaced
    assert compiled.vocab == python.vocab
    assert compiled.stop_reason == python.stop_reason
    assert compiled.initial_tokens == python.initial_tokens
    assert np.array_equal(compiled.vocab_sizes, python.vocab_sizes)
    assert forest(compiled) == forest(python)


words = st.text(alphabet=st.sampled_from("abcab ab#\u00e9\u4e2d\U0001f600"), min_size=1,
                max_size=10).filter(lambda w: w.strip() == w and " " not in w)
corpora = st.dictionaries(words, st.integers(1, 6), min_size=1, max_size=10)
options = st.builds(
    lambda algorithm, tie_break, scoring, marker, style, min_frequency, by_size, n: make_options(
        algorithm, tie_break=tie_break, scoring=scoring,
        marker=marker if algorithm == "bpe" else None, marker_style=style,
        min_frequency=min_frequency, special_tokens=() if algorithm == "bbpe" else None,
        **({"vocab_size": n + 60} if by_size else {"merges": n})),
    st.sampled_from(["bpe", "bbpe", "wordpiece"]), st.sampled_from(["first", "ids"]),
    st.sampled_from(["score", "frequency"]), st.sampled_from([None, "</w>", "_"]),
    st.sampled_from(["separate", "glued"]), st.sampled_from([0, 0, 2, 3]), st.booleans(),
    st.integers(0, 25),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora, options)
# a word spelt with WordPiece's own "##": its units are not its initial symbols, so a
# merged node's start cannot be taken from the unit offset
@example({"##aaaa": 1}, make_options("wordpiece", tie_break="first", scoring="score",
                                     merges=3))
def test_compiled_and_python_engines_train_identically(table, opts):
    corpus = Corpus.from_counts(table)
    assert_same(run(corpus, opts, "compiled"), run(corpus, opts, "python"))


@settings(max_examples=150, deadline=None)
@given(corpora, options, st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)),
                                  max_size=12))
def test_compiled_and_python_engines_replay_identically(table, opts, picks):
    corpus = Corpus.from_counts(table)
    vocab = list(base_vocabulary(corpus, opts))
    forced = []  # any merges, even of pairs that never occur (count 0)
    for i, j in picks:
        left, right = vocab[i % len(vocab)], vocab[j % len(vocab)]
        forced.append((left, right))
        token = left + right[2:] if (opts.algorithm == "wordpiece"
                                     and right.startswith("##")) else left + right
        if token not in vocab:
            vocab.append(token)
    assert_same(run(corpus, opts, "compiled", forced), run(corpus, opts, "python", forced))


class Scanning:
    """A compiled state whose replay scans words of up to ``scan`` symbols, or replays
    each distinct segment once (``segments``: stretches no merge crosses)."""

    def __init__(self, state, scan, segments=False):
        self.state = state
        self.replay = lambda a, b, t: state.replay(a, b, t, scan, segments)

    def __getattr__(self, name):
        return getattr(self.state, name)


def replay_then_train(corpus, opts, engine, forced, more, scan=None, segments=False):
    """``forced``'s merges made at once (the compiled engine word by word: by scanning
    words of up to ``scan`` symbols, through a heap longer ones; or segment by segment),
    then ``more`` merges chosen from the pair table the replay leaves."""
    loop = _MergeLoop(corpus, opts, base_vocabulary(corpus, opts), engine=engine)
    loop._start()
    if scan is not None:
        loop.state = Scanning(loop.state, scan, segments)
    loop.replay_merges(forced)
    for step in range(len(forced) + 1, len(forced) + more + 1):
        p = loop._pop_best()
        if p is None:
            break
        loop._merge(p, step)
    return loop.result()


# runs of one letter (a pair counted more often than it is merged) and letters that merge
# into the same token twice ("ab" + "c" and "a" + "bc"), so a pair can be made again
runs = st.text(alphabet=st.sampled_from("aaaabc"), min_size=1, max_size=14)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(runs, st.integers(1, 5), min_size=1, max_size=8),
       st.sampled_from(["first", "ids"]), st.integers(0, 30),
       st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), max_size=6),
       st.integers(0, 8), st.sampled_from([0, 4, 64]), st.booleans())
def test_merges_replayed_at_once_then_trained_on_equal_merging_one_by_one(
        table, tie_break, learned, picks, more, scan, segments):
    corpus = Corpus.from_counts(table)
    opts = make_options("bpe", merges=learned, tie_break=tie_break, special_tokens=())
    learned = train_merges(corpus, opts).merges
    forced = [(m.left, m.right) for m in learned]
    vocab = list(base_vocabulary(corpus, opts)) + [m.token for m in learned]
    for i, j in picks:  # then any pairs, a token made a second way among them
        left, right = vocab[i % len(vocab)], vocab[j % len(vocab)]
        forced.append((left, right))
        if left + right not in vocab:
            vocab.append(left + right)
    assert_same(replay_then_train(corpus, opts, "compiled", forced, more, scan, segments),
                replay_then_train(corpus, opts, "python", forced, more))


@pytest.mark.parametrize("tie_break", ["first", "ids"])
def test_phrases_replayed_segment_by_segment_equal_replayed_word_by_word(tie_break):
    # SuperBPE's stage 2: byte-level merges learned on GPT-2's words, replayed on whole
    # phrases; a phrase is cut between bytes no merge joins (before a space, around
    # punctuation), and its stretches repeat, so each distinct one is replayed once
    text = (STDLIB / "LICENSE.txt").read_text(encoding="utf-8")[:30000]
    opts = make_options("bbpe", merges=400, tie_break=tie_break, special_tokens=())
    learned = train_merges(Corpus.from_text(text, "gpt2"), opts).merges
    forced = [(m.left, m.right) for m in learned]
    phrases = Corpus.from_text(text, "none")
    by_words, by_segments = (
        replay_then_train(phrases, opts, "compiled", forced, 20, scan, segments)
        for scan, segments in ((64, False), (64, True)))
    assert_same(by_segments, by_words)
    assert_same(by_segments, replay_then_train(phrases, opts, "python", forced, 20))
    assert by_words.merges[0].count > 100  # the phrases hold the merges many times


def test_a_forest_whose_later_merges_carry_earlier_step_numbers_is_still_in_order():
    # after a replay by segments the forest is the segments' inner nodes merged with the
    # state's own, in (position, step) order; merges numbered below the replay's steps
    # put the state's nodes out of creation order, and the forest must sort them
    corpus = Corpus.from_counts({"abcab abc": 2, "cabab": 3, "ab c": 1})
    opts = make_options("bpe", merges=3, special_tokens=())
    forced = [(m.left, m.right) for m in train_merges(corpus, opts).merges]
    results = []
    for engine in ("compiled", "python"):
        loop = _MergeLoop(corpus, opts, base_vocabulary(corpus, opts), engine=engine)
        loop._start()
        loop.replay_merges(forced)
        for step in (1, 0):  # numbered before the replayed merges
            p = loop._pop_best()
            assert p is not None
            loop._merge(p, step)
        results.append(loop.result())
    assert_same(*results)
    assert [m.step for m in results[0].merges[-2:]] == [1, 0], "numbered out of order"


def test_a_run_of_one_symbol_counts_every_pair_it_holds_and_merges_every_other():
    corpus = Corpus.from_counts({"aaaaa": 2, "aa": 3})
    opts = make_options("bpe", merges=0, special_tokens=())
    for name in ("compiled", "python"):
        t = run(corpus, opts, name, forced=[("a", "a"), ("aa", "a")])
        # before: 4 + 1 pairs, 2 + 1 merged; then "aa aa a" holds ("aa", "a") once
        assert [(m.count, m.replaced) for m in t.merges] == [(2 * 4 + 3, 2 * 2 + 3), (2, 2)]


@pytest.mark.parametrize("steps", [(1, 2, 3), (3, 1, 2), (2, 3, 1)])
def test_the_forest_is_in_word_position_and_step_order_whatever_order_steps_came_in(steps):
    from bpeviz.engine import compiled_module

    # words "abc" and "ab" (ids a 0, b 1, c 2); merges ab (3), abc (4), bc (5)
    flat = np.array([0, 1, 2, 0, 1], dtype=np.int32)
    outs = []
    for engine in (compiled_module("compiled").State, PairState):
        state = engine(flat, np.array([3, 2], dtype=np.int64), np.array([1, 1], dtype=np.int64),
                       3, True, *((0,) if engine is not PairState else (None,)), 0)
        for (a, b, t), step in zip([(0, 1, 3), (3, 2, 4), (1, 2, 5)], steps):
            state.merge(a, b, t, step)
        token, word, step, until = (np.frombuffer(x, dtype=np.int32).tolist()
                                    if isinstance(x, bytes) else np.asarray(x).tolist()
                                    for x in state.forest())
        outs.append((token, word, step, until))
    assert outs[0] == outs[1]  # the Python engine sorts every word's nodes
    token, word, step, until = outs[0]
    # word "abc": a, ab and abc start at its first position, in the order of their steps;
    # then b and c
    chain = sorted([(0, 0), (3, steps[0]), (4, steps[1])], key=lambda node: node[1])
    assert list(zip(token, step))[:5] == [*chain, (1, 0), (2, 0)]


@pytest.mark.parametrize("algorithm, pretokenizer, scoring", [
    ("bpe", "whitespace", "frequency"), ("bbpe", "gpt2", "frequency"),
    ("wordpiece", "whitespace", "score"), ("wordpiece", "whitespace", "frequency")])
@pytest.mark.parametrize("tie_break", ["first", "ids"])
def test_engines_agree_on_real_text(algorithm, pretokenizer, scoring, tie_break):
    text = (STDLIB / "LICENSE.txt").read_text(encoding="utf-8")[:20000]
    corpus = Corpus.from_text(text, pretokenizer)
    opts = make_options(algorithm, merges=300, tie_break=tie_break, scoring=scoring,
                        special_tokens=() if algorithm == "bbpe" else None)
    assert_same(run(corpus, opts, "compiled"), run(corpus, opts, "python"))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from("ab#\u00e9\U0001f600\ud800"), min_size=0,
                        max_size=5), min_size=1, max_size=6),
       st.sampled_from(["bpe", "bbpe", "wordpiece"]), st.sampled_from([None, "</w>"]),
       st.sampled_from(["separate", "glued"]))
def test_vectorized_initial_ids_equal_initial_symbols(words, algorithm, marker, style):
    corpus = Corpus(tuple(words), (1,) * len(words), "counts")
    opts = make_options(algorithm, merges=1, marker=marker if algorithm == "bpe" else None,
                        marker_style=style, special_tokens=() if algorithm == "bbpe" else None)
    vocab = base_vocabulary(corpus, opts)
    ids = {sym: i for i, sym in reversed(list(enumerate(vocab)))}
    expected = [[ids[s] for s in initial_symbols(w, algorithm, opts.marker, style)]
                for w in words]
    flat, lengths = initial_ids(corpus, opts, ids)
    ends = np.cumsum(lengths)
    assert [flat[e - n : e].tolist() for e, n in zip(ends, lengths)] == expected
    alphabet = {s for w in words for s in initial_symbols(w, algorithm, opts.marker, style)}
    assert set(vocab) - set(opts.special_tokens) >= alphabet


def test_a_symbol_missing_from_the_base_vocabulary_is_named():
    corpus = Corpus.from_counts({"abc": 1})
    opts = make_options("bpe", merges=1, special_tokens=())
    with pytest.raises(ValueError, match="'abc' holds 'c'"):
        initial_ids(corpus, opts, {"a": 0, "b": 1})


@contextmanager
def engine(name):
    """Make snapshots use the compiled helpers or the NumPy code (BPEVIZ_ENGINE)."""
    old = os.environ.get("BPEVIZ_ENGINE")
    os.environ["BPEVIZ_ENGINE"] = name
    try:
        yield
    finally:
        if old is None:
            del os.environ["BPEVIZ_ENGINE"]
        else:
            os.environ["BPEVIZ_ENGINE"] = old


def snapshot_views(training, step, name):
    with engine(name):
        snap = training.at(step)
        return snap._ids, snap.splits, snap.pairs, snap.changed_words, snap.split_ids(0)


def assert_same_snapshots(training):
    for step in range(len(training.merges) + 1):
        (c_ids, c_word), c_splits, c_pairs, c_changed, c_first = snapshot_views(
            training, step, "compiled")
        (p_ids, p_word), p_splits, p_pairs, p_changed, p_first = snapshot_views(
            training, step, "python")
        assert c_ids.dtype == p_ids.dtype and np.array_equal(c_ids, p_ids)
        assert c_word.dtype == p_word.dtype and np.array_equal(c_word, p_word)
        assert c_splits == p_splits and list(c_splits) == list(p_splits)
        pd.testing.assert_frame_equal(c_pairs, p_pairs)  # rows, order and column types
        assert c_changed == p_changed and c_first == p_first


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora, options)
def test_compiled_and_numpy_snapshots_are_identical(table, opts):
    corpus = Corpus.from_counts(table)
    assert_same_snapshots(run(corpus, opts, "compiled"))


@pytest.mark.parametrize("algorithm, pretokenizer, scoring", [
    ("bpe", "whitespace", "frequency"), ("bbpe", "gpt2", "frequency"),
    ("wordpiece", "whitespace", "score")])
@pytest.mark.parametrize("tie_break", ["first", "ids"])
def test_compiled_and_numpy_snapshots_agree_on_real_text(algorithm, pretokenizer, scoring,
                                                         tie_break):
    text = (STDLIB / "LICENSE.txt").read_text(encoding="utf-8")[:6000]
    training = train(Corpus.from_text(text, pretokenizer), algorithm, merges=60,
                     tie_break=tie_break, scoring=scoring)
    assert_same_snapshots(training)


# -- encoding: bpeviz.engine._merge.Ranks / Coder against the Python encoder -----------------------
def encoders(training, step):
    compiled, python = _Encoder(training, step, "compiled"), _Encoder(training, step, "python")
    assert compiled._coder is not None and python._coder is None
    return compiled, python


def assert_same_encodings(training, step, text):
    compiled, python = encoders(training, step)
    ours, ref = compiled.encode(text), python.encode(text)
    assert ours.ids == ref.ids == compiled.encode_ids(text) == python.encode_ids(text)
    assert ours.starts == ref.starts and ours.ends == ref.ends
    assert list(ours) == list(ref)  # text, id, offsets, bytes, partial, unk
    if len(ref):
        assert ours[-1] == ref[-1] and ours[len(ref) // 2] == ref[len(ref) // 2]
    again = compiled.encode(text)  # from the word cache this time
    assert again.ids == ref.ids and list(again) == list(ref)


def test_compiled_merge_equals_merge_word():
    from bpeviz.engine._merge import Ranks

    rng = random.Random(7)
    for _ in range(600):
        n_symbols, ranks = random_ranks(rng, 1, 14)
        table = [(a, b, r, t) for (a, b), (r, t) in ranks.items()]
        dup = [(a, b, r + 100, t + 100) for a, b, r, t in table[:1]]  # the first entry wins
        columns = np.array(table + dup, dtype=np.int32).reshape(-1, 4).T
        compiled = Ranks(*map(np.ascontiguousarray, columns))
        ids = [rng.randrange(n_symbols) if rng.random() > 0.05 else -1
               for _ in range(rng.choice([rng.randint(0, 47), rng.randint(48, 200)]))]
        starts = [3 * i for i in range(len(ids))]
        ends = [s + 2 for s in starts]
        assert compiled.merge(ids, starts, ends) == merge_word(ids, starts, ends, ranks)


ENCODE_TEXT = st.lists(
    st.one_of(
        st.characters(),
        st.sampled_from(["'s", "'ll", "'re", "'ve", "'d", "'m", "'t", "'x", "  ", " \n ",
                         "\u00a0", "\u3000", "\u2028", "\x1c", "\x85", "\t\t", "  a", " 1",
                         " ,", "\ud800", "\udfff", "👨‍👩‍👧", "e\u0301", "中文", "½", "Ⅻ", "\r\n"]),
        st.text(alphabet="ab cd", min_size=1, max_size=8),
    ),
    max_size=40,
).map("".join)


def test_compiled_pre_tokenizers_cut_like_split_words():
    from bpeviz.engine._merge import Coder

    def one_token(word):  # every word one token: the token offsets are the word offsets
        return (0,), (0,), (len(word),), (0,)

    @settings(max_examples=400, deadline=None)
    @given(text=ENCODE_TEXT)
    def check(text):
        for split, name in enumerate(("whitespace", "gpt2", "none")):
            coder = Coder(split, _char_classes(), None, None, (0,), 1000)
            _, starts, ends, _ = coder.encode(text, one_token, True)
            words, offsets = split_words(text, name)
            assert np.frombuffer(starts, np.int64).tolist() == offsets, name
            assert np.frombuffer(ends, np.int64).tolist() == [
                o + len(w) for o, w in zip(offsets, words)], name

    check()


STAGE2_TEXT = st.lists(
    st.one_of(
        ENCODE_TEXT,
        st.sampled_from(["!!", " !!", "...\n", "!!/\r/\n", "12345", " 1,000", "  \n", "\r\n",
                         "\n\n", ": ", "\u00a0 ", "\u3000", "٣٤", "—©", "é"]),
    ),
    max_size=12,
).map("".join)


def test_compiled_scanners_cut_training_text_as_the_patterns_do():
    from bpeviz.engine._merge import cut

    from bpeviz.algorithms.superbpe import _LINES_REGEX
    from bpeviz.text.pretokenize import GPT2_PATTERN

    gpt2 = regex.compile(GPT2_PATTERN)

    @settings(max_examples=600, deadline=None)
    @given(text=STAGE2_TEXT)
    def check(text):
        assert cut(text, 1, _char_classes()) == gpt2.findall(text)
        assert cut(text, 3, _char_classes()) == _LINES_REGEX.findall(text)

    check()
    real = (STDLIB / "textwrap.py").read_text(encoding="utf-8")
    assert cut(real, 3, _char_classes()) == _LINES_REGEX.findall(real)
    assert cut(real, 1, _char_classes()) == gpt2.findall(real)
    with pytest.raises(ValueError, match="split must be"):
        cut(real, 2, _char_classes())


def test_compiled_counts_equal_counting_the_patterns_words():
    from bpeviz.engine._merge import count

    from bpeviz.algorithms.superbpe import _LINES_REGEX
    from bpeviz.text.pretokenize import GPT2_PATTERN

    gpt2 = regex.compile(GPT2_PATTERN)

    def counted(words):  # Counter's, as a list: the order of first appearance counts
        return list(Counter(words).items())

    @settings(max_examples=600, deadline=None)
    @given(text=STAGE2_TEXT, repeats=st.integers(1, 3))
    def check(text, repeats):
        text = text * repeats  # words seen again (a hash table's second visit)
        assert list(count(text, 1, _char_classes()).items()) == counted(gpt2.findall(text))
        assert list(count(text, 3, _char_classes()).items()) == counted(
            _LINES_REGEX.findall(text))

    check()
    # real text, wide characters among it (the text's code points stored 2 and 4 bytes
    # wide: a word is told by its bytes, not by its first byte or its length)
    real = (STDLIB / "textwrap.py").read_text(encoding="utf-8")
    for text in (real, real + " 中文 中文 苹果", real + " 😀 😀 a😀"):
        assert list(count(text, 1, _char_classes()).items()) == counted(gpt2.findall(text))
        assert list(count(text, 3, _char_classes()).items()) == counted(
            _LINES_REGEX.findall(text))
    more = real + (STDLIB / "argparse.py").read_text(encoding="utf-8")
    big = count(more, 1, _char_classes())
    assert len(big) > 1500, "past the hash table's first size (1,024 words)"
    assert list(big.items()) == counted(gpt2.findall(more))
    with pytest.raises(ValueError, match="split must be"):
        count(real, 2, _char_classes())


@pytest.fixture(scope="module")
def encode_trainings():
    text = ((STDLIB / "LICENSE.txt").read_text(encoding="utf-8")[:5000]
            + " naïve café 中文 苹果派 😀😀 👨‍👩‍👧 e\u0301 I'm we'll ½ x\u3000y \x1c z\u00a0w")
    out = [train(Corpus.from_text(text, name), "bbpe", merges=120)
           for name in ("gpt2", "whitespace", "none")]
    out += [train(Corpus.from_text(text, "gpt2"), "bpe", merges=120),
            train(Corpus.from_text(text), "bpe", merges=120, marker="</w>"),
            train(Corpus.from_text(text), "bpe", merges=120, marker="</w>",
                  marker_style="glued"),
            train(Corpus.from_text(text), "wordpiece", merges=120),
            train(Corpus.from_text(text, "gpt2"), "wordpiece", merges=120)]
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])
@given(text=ENCODE_TEXT, step=st.integers(0, 120))
def test_compiled_and_python_encoders_give_the_same_tokens(encode_trainings, text, step):
    for training in encode_trainings:
        assert_same_encodings(training, min(step, len(training.merges)), text)


def test_compiled_and_python_encoders_agree_on_real_text(encode_trainings):
    text = (STDLIB / "textwrap.py").read_text(encoding="utf-8") + " " + "ab" * 3000
    for training in encode_trainings:
        for step in (0, 7, len(training.merges)):
            assert_same_encodings(training, step, text)


def test_native_byte_level_words_equal_the_python_ones(encode_trainings):
    compiled, python = encoders(encode_trainings[0], 120)
    words = ["hello", " world", "😀😀", " 苹果派", "e\u0301", "\ud800x", "ab" * 40, " ", ""]
    for word in words:
        assert compiled._coder.word(word, None) == python._encode_word(word)
        assert compiled.word(word) == python.word(word)


def test_the_compiled_word_cache_starts_afresh_when_full(encode_trainings, monkeypatch):
    monkeypatch.setattr(encoding, "_WORD_CACHE_SIZE", 5)
    text = (STDLIB / "LICENSE.txt").read_text(encoding="utf-8")[:3000]
    for training in (encode_trainings[0], encode_trainings[4], encode_trainings[6]):
        compiled, python = encoders(training, 60)
        assert compiled.encode(text) == python.encode(text)
        assert compiled._coder.cached() <= 5


def drive(state, n_vocab, steps=40):
    """Merge what ``state`` picks until it stops: each pick and what merging it returned."""
    spelled = [(i,) for i in range(n_vocab)]
    ids = {s: i for i, s in enumerate(spelled)}
    made = []
    for step in range(1, steps + 1):
        p = state.pop_best()
        if p is None:
            return made, state.stop_reason()
        token = spelled[p[0]] + spelled[p[1]]
        t = ids.setdefault(token, len(spelled))
        if t == len(spelled):
            spelled.append(token)
        made.append((p, state.merge(p[0], p[1], t, step)))
    return made, None


@settings(max_examples=150, deadline=None)
@given(words=st.lists(st.lists(st.integers(0, 4), min_size=1, max_size=8), min_size=1,
                      max_size=12),
       counts=st.data(), keys=st.permutations(range(5)), min_frequency=st.integers(0, 3))
def test_the_spelling_tie_rule_is_the_same_in_both_loops(words, counts, keys, min_frequency):
    weights = counts.draw(st.lists(st.integers(1, 4), min_size=len(words),
                                   max_size=len(words)))
    flat = np.array([s for w in words for s in w], dtype=np.int32)
    lengths = np.array([len(w) for w in words], dtype=np.int64)
    weights = np.array(weights, dtype=np.int64)
    spell = np.array([k * 7 + 30 for k in keys], dtype=np.int32)
    compiled = encoding.compiled_module("compiled")
    python = drive(PairState(flat, lengths, weights, 5, False, None, min_frequency,
                             spell=spell.tolist()), 5)
    assert drive(compiled.State(flat, lengths, weights, 5, False, 0, min_frequency, spell),
                 5) == python


def test_between_equal_counts_the_later_spelling_wins_and_a_longer_one_beats_its_prefix():
    # a spells 10, b 20. "ba" is merged first (3 occurrences); then (ba, a) and (b, b)
    # occur once each: the left tokens decide, and "ba" sorts after its prefix "b", so
    # (ba, a) goes before (b, b), which the ids rule would have taken first
    words = [[1, 0], [1, 0, 0], [1, 1]]
    flat = np.array([s for w in words for s in w], dtype=np.int32)
    lengths = np.array([len(w) for w in words], dtype=np.int64)
    counts = np.array([2, 1, 1], dtype=np.int64)
    compiled = encoding.compiled_module("compiled")
    for state in (PairState(flat, lengths, counts, 2, False, None, 0, spell=[10, 20]),
                  compiled.State(flat, lengths, counts, 2, False, 0, 0,
                                 np.array([10, 20], dtype=np.int32))):
        made, stop = drive(state, 2)
        assert [p for p, _ in made] == [(1, 0), (2, 0), (1, 1)] and stop == "no_pairs"
    by_ids, _ = drive(compiled.State(flat, lengths, counts, 2, False, 0, 0), 2)
    assert [p for p, _ in by_ids] == [(1, 0), (1, 1), (2, 0)]
