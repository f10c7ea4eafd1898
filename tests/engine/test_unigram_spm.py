"""Unigram against ``sentencepiece`` and ``tokenizers``: trained pieces, opened models, export.

The corpus is real text: the installed Python standard library's documentation (the
benchmarks' generator, ``bench/data.py``), 0.1 MB for training, and text further on for
"unseen" encoding checks.
"""

from __future__ import annotations

import math

import pytest
import sentencepiece as spm
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer

from bench.data import corpus_path, corpus_text
from bpeviz.unigram import train_unigram
from bpeviz.unigram.hf_export import to_hf_json
from bpeviz.unigram.spm import load_spm
from bpeviz.unigram.spm_input import (
    SentencePieceInput,
    sentencepiece_input,
    sentencepiece_sentences,
    uncovered_characters,
    words_input,
)
from bpeviz.unigram.trainer import train_sentencepiece

SPM_OPTIONS = dict(model_type="unigram", normalization_rule_name="identity",
                   character_coverage=1.0, byte_fallback=False, split_digits=False,
                   minloglevel=2)


@pytest.fixture(scope="module")
def corpus():
    return str(corpus_path(0.1))


@pytest.fixture(scope="module")
def unseen():
    lines = corpus_text(0.05, offset=0.3).split("\n")
    return [*lines, "  ab\u00a0x \u2603\u2603 y  ", "", "   ", "ｆｕｌｌ　ｗｉｄｔｈ ①",
            "tab\there", "e\u0301 combining", "日本語のテキスト", "\U0001f600 emoji",
            "<s> </s> <unk>"]


def spm_model(tmp_path, corpus, name, **options):
    prefix = str(tmp_path / name)
    spm.SentencePieceTrainer.train(input=corpus, model_prefix=prefix, **options)
    return prefix + ".model"


def spm_pieces(model_file):
    sp = spm.SentencePieceProcessor(model_file=model_file)
    return [sp.id_to_piece(i) for i in range(sp.get_piece_size())]


def spm_scored(model_file):
    """The normal pieces (after the three specials) with their float32 scores, in id order."""
    sp = spm.SentencePieceProcessor(model_file=model_file)
    return [(sp.id_to_piece(i), sp.get_score(i)) for i in range(3, sp.get_piece_size())]


@pytest.fixture(scope="module")
def trained(corpus, tmp_path_factory):
    """Ours and sentencepiece's at two sizes, same text, same settings."""
    tmp = tmp_path_factory.mktemp("spm")
    with open(corpus, encoding="utf-8") as f:
        data = sentencepiece_input(f.read())
    out = {}
    for size in (800, 1500):
        theirs = spm_scored(spm_model(tmp, corpus, f"u{size}", vocab_size=size, **SPM_OPTIONS))
        out[size] = (train_sentencepiece(data, size), theirs)
    return out


@pytest.mark.parametrize("size", [800, 1500])
def test_unigram_trains_sentencepieces_pieces_and_scores_to_the_last_bit(trained, size):
    ours, theirs = trained[size]
    final = ours.final
    assert len(final.pieces) + 3 == size
    # the same pieces in the same order with the same float32 scores: at these sizes a
    # frequent piece's expected count rounded once more than sentencepiece's (one float32
    # rounding per term) was enough to change a pruning
    assert list(zip(final.pieces, final.model.log_probs)) == theirs
    # rounds shrink the vocabulary until 1.1 x size (sentencepiece's stopping rule)
    # (the trainer's own model: without the characters every round keeps for the learner)
    sizes = [len(s.pieces) - len(s.restored) for s in ours.steps]
    assert sizes[-2] <= int(size * 1.1) < sizes[-3]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == len(sizes)


def test_step_records_say_what_each_round_removes(trained):
    training, _ = trained[800]
    assert training.at(0).pieces[:1] == ("▁",)  # the seed starts with the commonest char
    for step, following in zip(training.steps, training.steps[1:]):
        gone = set(step.pieces) - set(following.pieces)
        assert {r.piece for r in step.removed} == gone
        pruned = [r for r in step.removed if r.reason == "pruned"]
        # the approximated loss increase can be negative; it is always a number
        assert all(r.cost is not None and math.isfinite(r.cost) for r in pruned)
        # single characters only go when no split uses them (or EM), never by cost
        assert all(r.reason in ("unused", "em", "final") for r in step.removed
                   if len(r.piece) == 1)
    final = training.final
    chars = {c for w in final.words for c in w} - {"\u2585"}
    assert chars <= set(final.pieces)  # every corpus character is back at the end
    for word in final.words[:300]:
        assert "".join(final.splits[word]) == word
    losses = [s.loss for s in training.steps[1:]]
    assert losses == sorted(losses)  # fewer pieces, longer splits, higher loss


def test_words_with_counts_train_like_one_word_per_line(tmp_path):
    words = {"▁low": 50, "▁lower": 20, "▁newest": 30, "▁widest": 15, "▁lowest": 8,
             "▁new": 40, "▁wide": 12, "▁slow": 9, "▁slower": 6, "▁news": 11}
    path = tmp_path / "words.txt"
    path.write_text("".join((w[1:] + "\n") * c for w, c in words.items()), encoding="utf-8")
    # one word per line: no whole word is right-branching, so only 16 pieces exist
    model = spm_model(tmp_path, str(path), "w", vocab_size=19, **SPM_OPTIONS)
    ours = train_sentencepiece(words_input(words), 19)
    assert list(ours.final.pieces) == spm_pieces(model)[3:]


# -- opened .model files: exact ids on unseen text ----------------------------------------------
@pytest.mark.parametrize("name,options", [
    ("unigram-identity", SPM_OPTIONS),
    ("bpe-identity", dict(SPM_OPTIONS, model_type="bpe")),
    ("unigram-nfkc", dict(model_type="unigram", minloglevel=2)),
    ("bpe-nfkc-bytes", dict(model_type="bpe", byte_fallback=True, minloglevel=2)),
])
def test_opened_model_encodes_exactly_as_sentencepiece(tmp_path, corpus, unseen, name, options):
    model_file = spm_model(tmp_path, corpus, name, vocab_size=600, **options)
    ours = load_spm(model_file)
    sp = spm.SentencePieceProcessor(model_file=model_file)
    for line in unseen:
        assert ours.encode_ids(line) == sp.encode(line), line
    pieces = ours.encode(unseen[5])
    assert [p.id for p in pieces] == sp.encode(unseen[5])


def test_opened_model_offsets_and_bad_files(tmp_path, corpus):
    model_file = spm_model(tmp_path, corpus, "o", vocab_size=500, **SPM_OPTIONS)
    model = load_spm(model_file)
    text = "  import  os"
    tokens = model.encode(text)
    assert "".join(t.text for t in tokens).replace("▁", " ").strip() == "import os"
    assert tokens[0].start == 2 and tokens[-1].end == len(text)
    with pytest.raises(ValueError, match="SentencePiece model"):
        load_spm(b"not a model at all")


# -- export to tokenizer.json ------------------------------------------------------------
def test_exported_tokenizer_json_encodes_as_the_model(trained, unseen):
    model = trained[800][0].final.model
    tokenizer = Tokenizer.from_str(to_hf_json(model))
    checked = 0
    # tokenizers reads "<s>" in a text as the special token (as its own conversions of
    # SentencePiece models do); SentencePiece and bpeviz read it as text
    unseen = [line for line in unseen if "<s>" not in line and "<unk>" not in line]
    for line in unseen:
        ours = model.encode(line)
        theirs = tokenizer.encode(line)
        if [t.id for t in ours] == theirs.ids:
            checked += 1
            continue
        # tokenizers sums scores in float64, SentencePiece (and we) in float32: on an
        # exact float32 tie the two may pick different best segmentations
        assert "".join(t.text for t in ours) == "".join(theirs.tokens)
        ours_score = sum(model.scores.get(t.text, model.unk_score) for t in ours)
        theirs_score = sum(model.scores.get(t, model.unk_score) for t in theirs.tokens)
        assert math.isclose(ours_score, theirs_score, rel_tol=0, abs_tol=1e-4), line
    assert checked >= len(unseen) - 5


@settings(max_examples=30, deadline=None)
@given(st.text(alphabet="ab \u00e9\u2603\n\t", max_size=12))
def test_exported_course_model_matches_tokenizers_on_any_text(text):
    # (a literal "▁" at the start of a text differs: tokenizers' Metaspace then adds none)
    model = _course_model()
    tokenizer = Tokenizer.from_str(to_hf_json(model))
    spm_like = model.encode_normalized(*_norm(text), len(text))
    assert [t.id for t in spm_like] == tokenizer.encode(text).ids


def _norm(text):
    from bpeviz.unigram.model import normalize_identity

    return normalize_identity(text)


_COURSE = {}


def _course_model():
    if not _COURSE:
        training = train_unigram("a ab abab b ba baba aab bba", 12, variant="course")
        _COURSE["m"] = training.final.model
    return _COURSE["m"]


def test_seed_counts_the_sentence_end_node_as_sentencepiece_0_2_3(tmp_path):
    # "▁ab" ends the last line and two lines in all: sentencepiece 0.2.3 reads it off the
    # suffix array node "▁ab<end of sentence>" too, and adds that node's count to its
    # seed frequency (6 + 2, not 6). Scores then come out identical to the last bit.
    text = "ab ab ab\nab ab\nabc ab\n"
    path = tmp_path / "micro.txt"
    path.write_text(text, encoding="utf-8")
    model = spm_model(tmp_path, str(path), "micro", vocab_size=12, hard_vocab_limit=False,
                      **SPM_OPTIONS)
    sp = spm.SentencePieceProcessor(model_file=model)
    theirs = [(sp.id_to_piece(i), sp.get_score(i)) for i in range(3, sp.get_piece_size())]
    ours = train_sentencepiece(sentencepiece_input(text), 12).final
    assert list(zip(ours.pieces, ours.model.log_probs)) == theirs


def test_cjk_text_trains_identically(tmp_path):
    # sentencepiece 0.2.3's suffix array is over UTF-8 bytes: "開發" followed by "及" and
    # "好" (both E5 ..) is not right-branching there, so not a seed piece; and Han with
    # kana is one script. The stdlib's CJK test lines train to the same pieces.
    lines = [line for line in corpus_text(0.3).split("\n")
             if any("\u3000" <= ch <= "\ud7ff" for ch in line)]
    assert len(lines) > 50
    text = "\n".join(lines) + "\n"
    path = tmp_path / "cjk.txt"
    path.write_text(text, encoding="utf-8")
    size = 560  # the text has 515 distinct characters
    theirs = spm_scored(spm_model(tmp_path, str(path), "cjk", vocab_size=size,
                                  **SPM_OPTIONS))
    ours = train_sentencepiece(sentencepiece_input(text), size).final
    assert list(zip(ours.pieces, ours.model.log_probs)) == theirs


def test_unigram_seed_ties_go_in_sentencepieces_order_so_every_score_matches(tmp_path):
    # sentencepiece 0.2.3 sorts its seed candidates by score, then by length in UTF-8
    # bytes (longer first), then by their bytes (ascending). That order is the pieces'
    # ids, and the M-step adds the expected counts in id order: with the ties in another
    # order (the pieces in descending order, as measured once) the float32 total rounds
    # differently and most scores move by a bit (459 of 997 equal on this text).
    corpus = str(corpus_path(0.5))
    theirs = spm_scored(spm_model(tmp_path, corpus, "half", vocab_size=1000, **SPM_OPTIONS))
    with open(corpus, encoding="utf-8") as f:
        ours = train_sentencepiece(sentencepiece_input(f.read()), 1000).final
    assert list(zip(ours.pieces, ours.model.log_probs)) == theirs


def test_the_rarest_characters_of_a_large_corpus_are_unknown_as_in_sentencepiece(tmp_path):
    # At character_coverage=1.0 sentencepiece takes characters by count until the share
    # taken, rounded to float32, is 1.0: past 2**25 characters the rarest ones fall out of
    # the alphabet and read as the unknown character. Here 35 million characters: of the
    # two seen once, U+1F973 (the lower code point, taken first) stays and U+2010C goes.
    words = {"the": 2_300_000, "of": 1_550_000, "and": 1_150_000, "to": 1_080_000,
             "in": 770_000, "that": 540_000, "is": 460_000, "then": 385_000,
             "other": 310_000, "these": 230_000, "thing": 155_000, "nothing": 77_000,
             "ok\U0001f973": 1, "x\U0002010c": 1, "ab": 3}
    assert 2 ** 25 <= sum((len(w) + 1) * c for w, c in words.items()) < 36_000_000
    path = tmp_path / "words.tsv"
    path.write_text("".join(f"{w}\t{c}\n" for w, c in words.items()), encoding="utf-8")
    model = spm_model(tmp_path, str(path), "tsv", vocab_size=40, input_format="tsv",
                      hard_vocab_limit=False, **SPM_OPTIONS)
    table = {"▁" + w: c for w, c in words.items()}
    raw = SentencePieceInput(tuple(table), tuple(table.values()), (2,) * len(table))
    assert uncovered_characters(raw) == {"\U0002010c"}
    data = words_input(table)
    assert "▁x\u2585" in data.words
    ours = train_sentencepiece(data, 40).final
    assert list(zip(ours.pieces, ours.model.log_probs)) == spm_scored(model)
    assert "\U0001f973" in ours.pieces and "\U0002010c" not in ours.pieces


def test_small_corpora_keep_every_character():
    # below 2**25 characters a character seen once is more than 2**-25 of the whole
    data = words_input({"▁the": 3_000_000, "▁x\U0002010c": 1})
    assert uncovered_characters(data) == set()  # (4 x 3 million + 3 characters)
    assert data.words == ("▁the", "▁x\U0002010c")


@pytest.fixture(scope="module")
def identity_normalizer(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("norm")
    path = tmp / "t.txt"
    path.write_text("ab a b\nba ab\n", encoding="utf-8")
    return spm.SentencePieceProcessor(model_file=spm_model(
        tmp, str(path), "n", vocab_size=8, hard_vocab_limit=False, **SPM_OPTIONS))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([" ", "▁", "a", "é", "\t", "x y"]), max_size=12).map("".join))
def test_lines_are_normalized_as_sentencepiece_normalizes_them(identity_normalizer, line):
    # spaces become "▁", runs of them one, and trailing ones go, even a "▁" of the text
    theirs = identity_normalizer.normalize(line)
    assert sentencepiece_sentences(line) == ([theirs] if theirs else [])


def test_a_blank_line_moves_the_last_sentence_as_sentencepiece_drops_it(tmp_path):
    # sentencepiece drops a line of spaces by moving its last sentence into the line's
    # place: "abc ab" becomes the last sentence instead of "cd", so "▁ab" ends the last
    # sentence and gets the sentence-end node's count in the seed
    text = "ab ab ab\n   \nab ab\nabc ab\ncd\n"
    assert sentencepiece_sentences(text) == ["▁ab▁ab▁ab", "▁cd", "▁ab▁ab", "▁abc▁ab"]
    path = tmp_path / "blank.txt"
    path.write_text(text, encoding="utf-8")
    theirs = spm_scored(spm_model(tmp_path, str(path), "blank", vocab_size=13,
                                  hard_vocab_limit=False, **SPM_OPTIONS))
    ours = train_sentencepiece(sentencepiece_input(text), 13).final
    assert list(zip(ours.pieces, ours.model.log_probs)) == theirs


def test_sentence_markers_in_the_text_are_unknown_characters(tmp_path):
    # the normalizer turns "<unk>", "<s>" and "</s>" into U+001F, which is never in the
    # alphabet: it reads as the unknown character, as does a U+001F of the text
    text = "a<s>b c\x1fd <unk>\nab cd a\x1fb\nab ab cd\ncd ab <s>x\n"
    data = sentencepiece_input(text)
    assert data.words[:3] == ("▁a\u2585b", "▁c\u2585d", "▁\u2585")
    path = tmp_path / "markers.txt"
    path.write_text(text, encoding="utf-8")
    theirs = spm_scored(spm_model(tmp_path, str(path), "markers", vocab_size=14,
                                  hard_vocab_limit=False, **SPM_OPTIONS))
    ours = train_sentencepiece(data, 14).final
    assert list(zip(ours.pieces, ours.model.log_probs)) == theirs
