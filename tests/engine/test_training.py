"""Training: parity with Hugging Face tokenizers and tiktoken, properties, edge cases."""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, load, replay, save, train
from bpeviz.algorithms import surface
from bpeviz.text.display import bytes_to_gpt2
from bpeviz.text.pretokenize import GPT2_PATTERN
from tests.support import ROOT
from tests.support.reference import (
    apply_merge,
    best_pair,
    naive_train,
    pair_table,
    priorities,
    tie_ids,
)

# every test runs on both engines: the compiled one and the pure-Python one (conftest)
pytestmark = pytest.mark.usefixtures("engine")

STDLIB = Path(sysconfig.get_paths()["stdlib"])


def stdlib_text(name: str, limit: int | None = None) -> str:
    text = (STDLIB / name).read_text(encoding="utf-8")
    return text[:limit] if limit else text


# -- parity with the reference implementations ------------------------------------
@pytest.mark.parametrize("source", ["argparse.py", "LICENSE.txt"])
def test_ids_tie_rule_equals_hugging_face_bpe_trainer(source):
    tokenizers = pytest.importorskip("tokenizers")
    text = stdlib_text(source)
    training = train(Corpus.from_text(text), "bpe", merges=400, tie_break="ids",
                     special_tokens=())
    hf = tokenizers.Tokenizer(tokenizers.models.BPE())
    hf.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    trainer = tokenizers.trainers.BpeTrainer(vocab_size=training.n_base + 400, min_frequency=0,
                                             special_tokens=[], show_progress=False)
    hf.train_from_iterator([text], trainer)
    model = json.loads(hf.to_str())["model"]
    hf_merges = [m if isinstance(m, list) else m.split(" ") for m in model["merges"]]
    assert [[m.left, m.right] for m in training.merges] == hf_merges
    # ids: alphabet sorted by code point, then merged tokens in creation order
    assert {tok: i for i, tok in enumerate(training.vocab)} == model["vocab"]


@pytest.mark.parametrize("source", ["argparse.py", "LICENSE.txt"])
def test_byte_level_ids_tie_rule_equals_hugging_face_byte_level_trainer(source):
    # Hugging Face's byte-level ids are the GPT-2 characters sorted ("!" first, the
    # space's "Ġ" near the end), not the byte values: a tie between (Ġ, f) and (r, o)
    # goes to (r, o) there
    tokenizers = pytest.importorskip("tokenizers")
    text = stdlib_text(source)
    training = train(Corpus.from_text(text, "gpt2"), "bbpe", merges=1500, tie_break="ids")
    hf = tokenizers.Tokenizer(tokenizers.models.BPE())
    hf.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=256 + 1500, min_frequency=0, special_tokens=[], show_progress=False,
        initial_alphabet=tokenizers.pre_tokenizers.ByteLevel.alphabet())
    hf.train_from_iterator([text], trainer)
    hf_merges = [m if isinstance(m, list) else m.split(" ")
                 for m in json.loads(hf.to_str())["model"]["merges"]]
    ours = [[bytes_to_gpt2(m.left), bytes_to_gpt2(m.right)] for m in training.merges]
    assert ours == hf_merges
    ties = [m for m in training.merges if sum(x.count == m.count for x in training.merges) > 1]
    assert ties, "the text has ties for the rule to decide"
    # our ids stay the bytes' (tiktoken's ranks): only the order of a tie follows HF's
    assert [m.token_id for m in training.merges] == list(range(256, 256 + 1500))
    assert all(training.vocab[m.left_id] == m.left for m in training.merges)


def test_bbpe_gpt2_first_rule_equals_tiktoken_educational_bpe_train():
    educational = pytest.importorskip("tiktoken._educational")
    text = stdlib_text("LICENSE.txt", 6000)
    ranks = educational.bpe_train(text, 256 + 120, GPT2_PATTERN, visualise=None)
    training = train(Corpus.from_text(text, "gpt2"), "bbpe", merges=120)
    theirs = [token for token, rank in sorted(ranks.items(), key=lambda kv: kv[1]) if rank >= 256]
    assert [m.token for m in training.merges] == theirs
    assert [m.token_id for m in training.merges] == list(range(256, 256 + 120))


# -- properties ---------------------------------------------------------------------
words = st.text(alphabet=st.sampled_from("abcab ab\u00e9\u4e2d\U0001f600"), min_size=1,
                max_size=8).filter(lambda w: w.strip() == w and " " not in w)
corpora = st.dictionaries(words, st.integers(1, 5), min_size=1, max_size=8)
configs = st.sampled_from([
    ("bpe", "first", "frequency", None), ("bpe", "ids", "frequency", None),
    ("bpe", "first", "frequency", "</w>"), ("bbpe", "first", "frequency", None),
    ("bbpe", "ids", "frequency", None), ("wordpiece", "first", "score", None),
    ("wordpiece", "ids", "score", None), ("wordpiece", "first", "frequency", None),
])


def _train(table, config, merges=12):
    algorithm, tie_break, scoring, marker = config
    corpus = Corpus.from_counts(table)
    return corpus, train(corpus, algorithm, merges=merges, tie_break=tie_break,
                         scoring=scoring, marker=marker)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora, configs)
def test_every_merge_is_the_best_pair_recounted_from_the_step_before(table, config):
    algorithm, tie_break, scoring, _marker = config
    corpus, training = _train(table, config)
    ids = tie_ids(training.vocab, algorithm)
    for merge in training.merges:
        before = training.at(merge.step - 1)
        splits = [list(before.splits[w]) for w in corpus.words]
        prio = priorities(splits, list(corpus.counts), algorithm, scoring)
        assert merge.score == max(prio.values())
        assert merge.count == pair_table(splits, list(corpus.counts))[(merge.left, merge.right)]
        assert best_pair(splits, list(corpus.counts), algorithm, scoring, tie_break,
                         ids) == (merge.left, merge.right)


@settings(max_examples=150, deadline=None)
@given(corpora, configs)
def test_splits_concatenate_back_to_the_word(table, config):
    _corpus, training = _train(table, config)
    for step in range(len(training.merges) + 1):
        for word, split in training.at(step).splits.items():
            assert surface(split, training.algorithm, training.options.marker) == word


@settings(max_examples=150, deadline=None)
@given(corpora, configs)
def test_snapshot_equals_replaying_the_first_k_merges_from_scratch(table, config):
    algorithm, tie_break, scoring, marker = config
    corpus, training = _train(table, config)
    chosen, history = naive_train(corpus, algorithm, 12, tie_break, scoring, marker,
                                  base=list(training.at(0).vocab))
    assert [(m.left, m.right) for m in training.merges] == chosen
    for step, naive_splits in enumerate(history):
        snap = training.at(step)
        assert [list(snap.splits[w]) for w in corpus.words] == naive_splits
        table_now = pair_table(naive_splits, list(corpus.counts))
        assert dict(zip(zip(snap.pairs.left, snap.pairs.right), snap.pairs["count"])) == table_now
        replayed = replay(corpus, training.options, chosen[:step]).at(step)
        assert replayed.splits == snap.splits


@settings(max_examples=60, deadline=None)
@given(corpora, configs)
def test_pairs_table_lists_the_next_merge_first(table, config):
    _corpus, training = _train(table, config)
    for merge in training.merges:
        top = training.at(merge.step - 1).pairs.iloc[0]
        assert (top.left, top.right) == (merge.left, merge.right)


# -- options and stopping -------------------------------------------------------------
def test_overlapping_pairs_count_twice_but_merge_leftmost_first():
    training = train(Corpus.from_counts({"aaa": 1}), "bpe", merges=1)
    merge = training.merges[0]
    assert (merge.count, merge.replaced) == (2, 1)
    assert training.at(1).splits["aaa"] == ("aa", "a")


def test_glued_marker_sticks_to_the_last_character():
    training = train(Corpus.from_counts({"low": 3, "slow": 1}), "bpe", merges=2,
                     marker="</w>", marker_style="glued")
    assert training.at(0).splits["low"] == ("l", "o", "w</w>")
    assert [m.token for m in training.merges] == ["lo", "low</w>"]


def test_training_stops_early_when_no_pair_is_left_and_says_so():
    training = train(Corpus.from_counts({"ab": 2}), "bpe", merges=10)
    assert len(training.merges) == 1
    assert training.stop_reason == "no_pairs" and training.stopped_early
    assert "no pair" in training.stop_message


def test_min_frequency_stops_bpe_and_filters_wordpiece():
    corpus = Corpus.from_counts({"ab": 3, "cd": 1, "ef": 1})
    training = train(corpus, "bpe", merges=10, min_frequency=2)
    assert [m.token for m in training.merges] == ["ab"]
    assert training.stop_reason == "min_frequency"
    wp = train(corpus, "wordpiece", merges=10, min_frequency=2)
    assert [m.token for m in wp.merges] == ["ab"] and wp.stop_reason == "min_frequency"


def test_vocab_size_counts_special_tokens_alphabet_and_merges():
    corpus = Corpus.from_counts({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5})
    training = train(corpus, "wordpiece", vocab_size=15)
    assert len(training.vocab) == 15
    assert training.vocab[:5] == ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
    assert training.merges[0].token == "##gs"  # the HF course's worked example


def test_frequency_scoring_is_what_hf_wordpiece_trainer_does():
    corpus = Corpus.from_counts({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5})
    training = train(corpus, "wordpiece", merges=1, scoring="frequency")
    assert (training.merges[0].left, training.merges[0].right) == ("##u", "##g")


def test_vocab_size_at_and_token_counts_follow_the_steps():
    corpus = Corpus.from_counts({"fast_": 4, "faster_": 3, "tall_": 5, "taller_": 4})
    training = train(corpus, "bpe", merges=10)
    counts = training.token_counts()
    assert counts[0] == 4 * 5 + 3 * 7 + 5 * 5 + 4 * 7
    for step in range(11):
        snap = training.at(step)
        assert counts[step] == sum(len(s) * c for s, c in zip(snap.splits.values(),
                                                              corpus.counts))
        assert len(snap.vocab) == training.vocab_size_at(step) == training.n_base + step
    assert training.at(3).changed_words == [2, 3]  # (tal, l) touches tall_ and taller_


@pytest.mark.parametrize("kwargs, message", [
    ({"merges": 3, "vocab_size": 10}, "not both"),
    ({}, "merges=N or vocab_size=V"),
    ({"merges": -1}, ">= 0"),
    ({"merges": 3, "tie_break": "random"}, "tie_break"),
    ({"vocab_size": 3}, "at least"),
    ({"merges": 3, "algorithm": "morfessor"}, "unknown algorithm"),
    ({"merges": 3, "algorithm": "unigram"}, "does not train by merges"),
    ({"merges": 3, "algorithm": "bbpe", "marker": "</w>"}, "BPE option"),
])
def test_bad_options_raise_clear_value_errors(kwargs, message):
    kwargs = {"algorithm": "bpe", **kwargs}
    with pytest.raises(ValueError, match=message):
        train(Corpus.from_counts({"hello": 2, "world": 1}), **kwargs)


def test_step_out_of_range_is_a_value_error():
    training = train(Corpus.from_counts({"ab": 1}), "bpe", merges=1)
    with pytest.raises(ValueError, match="between 0 and 1"):
        training.at(2)


# -- edge cases -------------------------------------------------------------------------
def test_empty_and_whitespace_only_corpora_are_refused_clearly():
    for text in ["", "   \n\t "]:
        with pytest.raises(ValueError, match="no words"):
            train(Corpus.from_text(text), "bpe", merges=5)


def test_one_word_and_merges_zero():
    training = train(Corpus.from_text("hello"), "bpe", merges=0)
    assert training.merges == () and training.at(0).splits == {"hello": tuple("hello")}


def test_one_character_repeated_merges_by_doubling():
    training = train(Corpus.from_text("a" * 64), "bpe", merges=10)
    assert [m.token for m in training.merges] == ["a" * 2 ** k for k in range(1, 7)]
    assert training.at().splits["a" * 64] == ("a" * 64,)
    assert training.stop_reason == "no_pairs"


@pytest.mark.parametrize("text", [
    "我喜欢吃苹果 我喜欢苹果派",  # CJK without spaces
    "👩\u200d👩\u200d👧 👍🏽 👍🏽 👩\u200d👩\u200d👧",  # ZWJ sequences and skin tones
    "e\u0301e\u0301 cafe\u0301 nai\u0308ve",  # combining marks
    "שלום עולם שלום",  # right to left
])
@pytest.mark.parametrize("algorithm", ["bpe", "bbpe", "wordpiece"])
def test_hard_scripts_train_and_split_back_to_their_words(text, algorithm):
    corpus = Corpus.from_text(text, "gpt2" if algorithm == "bbpe" else "whitespace")
    training = train(corpus, algorithm, merges=30)
    for word, split in training.at().splits.items():
        assert surface(split, algorithm) == word


def test_bbpe_tokens_may_hold_part_of_a_character():
    training = train(Corpus.from_text("欢 苹 派 欢苹"), "bbpe", merges=3)
    partial = [m.token for m in training.merges if not _decodes(m.token)]
    assert partial, "expected a merge inside a multi-byte character"


def _decodes(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


# -- files and the package boundary ----------------------------------------------------
@pytest.mark.parametrize("algorithm", ["bpe", "bbpe", "wordpiece"])
def test_save_and_load_round_trip_exactly(tmp_path, algorithm):
    corpus = Corpus.from_text(stdlib_text("LICENSE.txt", 4000))
    training = train(corpus, algorithm, merges=60, tie_break="ids")
    path = tmp_path / "training.json"
    save(training, str(path))
    loaded = load(path)
    assert loaded.merges == training.merges
    assert loaded.vocab == training.vocab and loaded.options == training.options
    assert loaded.stop_reason == training.stop_reason
    assert loaded.at(30).splits == training.at(30).splits


def test_load_rejects_a_tampered_file(tmp_path):
    training = train(Corpus.from_counts({"low": 5, "lower": 2}), "bpe", merges=2)
    path = tmp_path / "t.json"
    save(training, str(path))
    data = json.loads(path.read_text())
    data["merges"][0][2] = 99
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="corrupt"):
        load(path)
    path.write_text("{not json")
    with pytest.raises(ValueError, match="not a JSON training file"):
        load(path)


def test_importing_bpeviz_does_not_import_streamlit():
    code = "import sys, bpeviz; bpeviz.train; print('streamlit' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


def test_an_overlapping_pair_is_encoded_leftmost_first():
    """"aaaaa" with the one merge a + a: aa aa a, as the merge applied left to right."""
    training = train(Corpus.from_counts({"aaa": 1}), "bpe", merges=1)
    tokens = [t.text for t in training.at().encode("aaaaa")]
    assert tokens == apply_merge(list("aaaaa"), "a", "a", "aa") == ["aa", "aa", "a"]


def test_a_failed_save_leaves_the_old_file_intact(tmp_path, monkeypatch):
    import os

    path = tmp_path / "training.json"
    first = train(Corpus.from_counts({"low": 5, "lower": 2}), "bpe", merges=1)
    save(first, str(path))
    before = path.read_bytes()

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    second = train(Corpus.from_counts({"new": 5, "newer": 2}), "bpe", merges=2)
    with pytest.raises(OSError, match="disk full"):
        save(second, str(path))
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["training.json"]  # no temp file left
