"""Encoding any text at any step: golden seeds, corpus splits, offsets, [UNK], caches, and
round trips over arbitrary Unicode (Hypothesis)."""

from __future__ import annotations

import inspect
import random
import string
import textwrap
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, replay, train
from bpeviz.algorithms import surface
from bpeviz.core.coders import MAX_WORDPIECE_CHARS
from bpeviz.core.encoded import Encoding, Token
from bpeviz.core.encoding import _Encoder, encode_ids, split_words
from bpeviz.core.training import make_options
from bpeviz.engine.merge_word import _merge_with_heap, merge_word
from bpeviz.text.pretokenize import spans
from tests.support.reference import apply_merge, random_ranks

# every test runs on both engines: the compiled one and the pure-Python one (conftest)
pytestmark = pytest.mark.usefixtures("engine")

SEED_004_TEXT = "low low low lowly lower newer newer\nhappy dog happy cat"
SEED_003_SENTENCES = [
    "我", "喜欢", "吃", "苹果", "他", "不", "喜欢", "吃", "苹果派",
    "I like to eat apples", "She has a cute cat", "you are very cute", "give you a hug",
]
#: A real text for the split checks: a standard-library module's source.
REAL_TEXT = inspect.getsource(textwrap)


def texts(tokens):
    return [t.text for t in tokens]


# -- golden: the seeds ---------------------------------------------------------------------
def seed_004_with_alphabet():
    """Seed 004's tokenizer knows every letter (its encode has no alphabet check), so
    the 5 merges are replayed on a base holding a-z as well as the corpus's symbols."""
    corpus = Corpus.from_text(SEED_004_TEXT)
    trained = train(corpus, "bpe", merges=5, marker="</w>")
    base = ["[UNK]", "</w>", *string.ascii_lowercase]
    options = make_options("bpe", merges=5, marker="</w>")
    return replay(corpus, options, [(m.left, m.right) for m in trained.merges], base=base)


def test_seed_004_encode_hilowest():
    snap = seed_004_with_alphabet().at(5)
    assert texts(snap.encode("hilowest")) == ["h", "i", "low", "e", "s", "t", "</w>"]


def test_seed_004_decode_turns_the_marker_into_a_space():
    snap = seed_004_with_alphabet().at(5)
    vocab = snap.vocab
    ids = [vocab.index(t) for t in ("low</w>", "low", "l", "y</w>")]
    assert snap.decode(ids) == "low lowly "


def test_seed_004_letters_outside_the_corpus_are_unk_one_per_character():
    training = train(Corpus.from_text(SEED_004_TEXT), "bpe", merges=5, marker="</w>")
    tokens = training.at(5).encode("hilowest")
    assert texts(tokens) == ["h", "[UNK]", "low", "e", "[UNK]", "t", "</w>"]
    unk = [t for t in tokens if t.unk]
    assert [(t.id, t.start, t.end, t.bytes) for t in unk] == [(0, 1, 2, b"i"), (0, 6, 7, b"s")]
    assert training.vocab[0] == "[UNK]"  # special tokens come first


def test_seed_001_segmentations():
    corpus = Corpus.from_counts({"fast_": 4, "faster_": 3, "tall_": 5, "taller_": 4})
    trained = train(corpus, "bpe", merges=10)
    # seed 001's symbols: a-z, '_' and [UNK]
    base = ["[UNK]", "_", *string.ascii_lowercase]
    training = replay(corpus, make_options("bpe", merges=10),
                      [(m.left, m.right) for m in trained.merges], base=base)
    snap = training.at(10)
    assert [" ".join(texts(snap.encode(word))) for word in ["tallest_", "fatter_", "hello"]] == [
        "tall e s t _", "fa t t er_", "h e l l o"
    ]
    assert len(snap.encode("tallest_ fatter_ hello")) == 14


# -- the corpus's own words encode to snapshot.splits --------------------------------------
@pytest.mark.parametrize("algorithm, pretokenizer, marker, style", [
    ("bpe", "whitespace", None, "separate"),
    ("bpe", "whitespace", "</w>", "separate"),
    ("bpe", "whitespace", "</w>", "glued"),
    ("bpe", "none", None, "separate"),
    ("bbpe", "gpt2", None, "separate"),
    ("bbpe", "whitespace", None, "separate"),
])
def test_encoding_the_corpus_words_gives_the_splits(algorithm, pretokenizer, marker, style):
    corpus = Corpus.from_text(REAL_TEXT, pretokenizer)
    training = train(corpus, algorithm, merges=400, marker=marker, marker_style=style)
    for step in (0, 1, 7, 60, 250, 400):
        snap = training.at(step)
        vocab = training.vocab
        for word in corpus.words:
            got = tuple(vocab[t.id] for t in snap.encode(word))
            assert got == snap.splits[word], (step, word)


def test_wordpiece_corpus_words_give_the_splits_on_seed_003():
    corpus = Corpus.from_text("\n".join(SEED_003_SENTENCES))
    training = train(corpus, "wordpiece", vocab_size=55)
    for step in range(len(training.merges) + 1):
        snap = training.at(step)
        for word in corpus.words:
            assert tuple(t.text for t in snap.encode(word)) == snap.splits[word], (step, word)


def test_wordpiece_corpus_words_give_the_splits_on_a_real_text():
    corpus = Corpus.from_text(REAL_TEXT)
    training = train(corpus, "wordpiece", merges=150)
    for step in (0, 1, 10, 50, 150):
        snap = training.at(step)
        for word in corpus.words:
            assert tuple(t.text for t in snap.encode(word)) == snap.splits[word], (step, word)


def test_wordpiece_longest_match_can_differ_from_the_merges():
    """Greedy longest match (BERT, HF) is not the merge order: the documented exception.

    It shows on real text with frequency scoring (HF's WordPieceTrainer) within a few
    merges, and with score-based training after a few hundred.

    "##bc" is merged first (from "xbc"), so "abc" trains to a ##bc; then "ab" is merged
    (from "ab"), and longest match cuts "abc" as ab ##c.
    """
    corpus = Corpus.from_counts({"xbc": 10, "abc": 1, "ab": 3})
    training = replay(corpus, make_options("wordpiece", merges=2),
                      [("##b", "##c"), ("a", "##b")])
    snap = training.at(2)
    assert snap.splits["abc"] == ("a", "##bc")
    assert texts(snap.encode("abc")) == ["ab", "##c"]


# -- offsets, bytes and partial characters -------------------------------------------------
def test_bpe_offsets_point_into_the_input():
    training = train(Corpus.from_text(REAL_TEXT), "bpe", merges=200)
    text = "  The  wrapper\tbreaks long\nlines.  "
    tokens = training.at().encode(text)
    for t in tokens:
        assert text[t.start:t.end] == t.text
        assert t.bytes == t.text.encode()
    assert "".join(t.text for t in tokens) == "".join(text.split())


def test_separate_marker_covers_no_character_and_glued_marker_covers_the_last():
    corpus = Corpus.from_text(SEED_004_TEXT)
    separate = train(corpus, "bpe", merges=2, marker="</w>").at()
    marker = separate.encode("low")[-1]
    assert (marker.text, marker.start, marker.end, marker.bytes) == ("</w>", 3, 3, b"")
    glued = train(corpus, "bpe", merges=2, marker="</w>", marker_style="glued").at()
    tokens = glued.encode("lowly")
    assert (tokens[-1].text, tokens[-1].start, tokens[-1].end) == ("y</w>", 4, 5)
    assert all("lowly"[t.start:t.end] == t.text.removesuffix("</w>") for t in tokens)
    assert [t.start for t in tokens[1:]] == [t.end for t in tokens[:-1]]


def test_bbpe_partial_character_tokens_point_at_their_character():
    corpus = Corpus.from_text("\n".join(SEED_003_SENTENCES))
    training = train(corpus, "bbpe", merges=1)
    assert training.merges[0].token == b"\x9c\xe6"  # the tail of 喜 and the head of 欢
    text = "喜欢苹果"
    tokens = training.at(1).encode(text)
    joint = [t for t in tokens if t.bytes == b"\x9c\xe6"]
    assert len(joint) == 1
    t = joint[0]
    assert (t.start, t.end, t.partial) == (0, 2, True)
    assert t.text == "<0x9C><0xE6>"
    assert b"".join(t.bytes for t in tokens) == text.encode()
    assert all(t.partial for t in tokens if text[t.start:t.end].encode() != t.bytes)
    whole = training.at(1).encode("I like")
    assert not any(t.partial for t in whole) and texts(whole) == ["I", "l", "i", "k", "e"]


def test_bbpe_token_text_is_the_decoded_text_for_whole_characters():
    training = train(Corpus.from_text("苹果 苹果 苹果", "gpt2"), "bbpe", merges=6)
    tokens = training.at().encode("苹果")
    assert texts(tokens) == ["苹果"] and tokens[0].bytes == "苹果".encode()


# -- WordPiece -----------------------------------------------------------------------------
def test_wordpiece_unknown_and_too_long_words_are_one_unk():
    training = train(Corpus.from_text("hug pug pun bun hugs " * 3), "wordpiece", merges=6)
    snap = training.at()
    long_word = "hug" + "s" * (MAX_WORDPIECE_CHARS - 3)
    assert not any(t.unk for t in snap.encode(long_word))
    text = f"hug xyz {long_word}s bun"
    tokens = snap.encode(text)
    unk = [t for t in tokens if t.unk]
    assert [(t.text, text[t.start:t.end]) for t in unk] == [
        ("[UNK]", "xyz"), ("[UNK]", long_word + "s")]
    assert all(t.id == training.vocab.index("[UNK]") for t in unk)
    assert training.vocab[:5] == ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")


def test_wordpiece_decode_joins_pieces_and_separates_words():
    training = train(Corpus.from_text("hug pug pun bun hugs " * 3), "wordpiece", merges=8)
    snap = training.at()
    assert snap.decode(snap.encode("hugs bun xyz").ids) == "hugs bun [UNK]"


def test_unknown_characters_without_an_unk_token_get_id_minus_1():
    training = train(Corpus.from_text("ab ab"), "bpe", merges=1, special_tokens=())
    tokens = training.at().encode("abc")
    assert [(t.text, t.id, t.unk) for t in tokens] == [("ab", 0 + 2, False), ("[UNK]", -1, True)]
    assert training.at().decode([2, -1]) == "ab[UNK]"


# -- decode --------------------------------------------------------------------------------
def test_decode_rejects_ids_outside_the_step():
    training = train(Corpus.from_text(SEED_004_TEXT), "bpe", merges=5, marker="</w>")
    later = training.merges[4].token_id
    with pytest.raises(ValueError, match="not a token id at step 2"):
        training.at(2).decode([later])
    with pytest.raises(ValueError, match="whole numbers"):
        training.at(2).decode([1.5])
    assert training.at(5).decode([later]) == "er"


def test_decode_without_marker_concatenates():
    training = train(Corpus.from_text("low lower", "gpt2"), "bpe", merges=3)
    snap = training.at()
    assert snap.decode(snap.encode("low lower").ids) == "low lower"


# -- the Encoding sequence -----------------------------------------------------------------
def test_encoding_is_a_sequence_of_tokens():
    training = train(Corpus.from_text(SEED_004_TEXT), "bpe", merges=5, marker="</w>")
    enc = training.at().encode("low lowly")
    assert isinstance(enc, Encoding) and len(enc) == 4
    listed = list(enc)
    assert enc == listed and listed == enc[:] and enc[-1] == listed[-1]
    assert enc[1] == Token("low", enc.ids[1], 4, 7, b"low")
    assert enc.ids == [t.id for t in listed] == encode_ids(training.at(), "low lowly")
    assert enc.starts == [t.start for t in listed] and enc.ends == [t.end for t in listed]
    assert enc.texts == texts(listed)
    assert enc != listed[:-1]
    with pytest.raises(IndexError):
        enc[4]
    assert "Encoding([" in repr(enc)
    assert training.at().encode("") == []


# -- caches --------------------------------------------------------------------------------
def test_the_word_cache_never_crosses_steps_or_trainings():
    corpus = Corpus.from_text(REAL_TEXT)
    a = train(corpus, "bpe", merges=300)
    b = train(corpus, "bpe", merges=300, tie_break="ids")
    text = "the wrapper breaks long lines of the text"
    fresh = {k: [(t.text, t.id) for t in a.at(k).encode(text)] for k in (0, 50, 300)}
    assert fresh[0] != fresh[50] != fresh[300]
    for _ in range(2):
        for k in (300, 0, 50):
            assert [(t.text, t.id) for t in a.at(k).encode(text)] == fresh[k]
    other = [(t.text, t.id) for t in b.at(300).encode(text)]
    rebuilt = replay(corpus, b.options, [(m.left, m.right) for m in b.merges])
    assert [(t.text, t.id) for t in rebuilt.at(300).encode(text)] == other


# -- the merge loop ------------------------------------------------------------------------
def test_heap_and_scan_merge_loops_agree():
    rng = random.Random(5)
    for _ in range(300):
        n_symbols, ranks = random_ranks(rng, 2, 12)
        ids = [rng.randrange(n_symbols) if rng.random() > 0.05 else -1
               for _ in range(rng.randint(1, 80))]
        starts = list(range(len(ids)))
        ends = [s + 1 for s in starts]
        scan = merge_word(ids[:40], starts[:40], ends[:40], ranks)
        assert _merge_with_heap(ids[:40], starts[:40], ends[:40], ranks) == scan
        assert merge_word(ids, starts, ends, ranks) == _merge_with_heap(ids, starts, ends, ranks)


def test_a_very_long_word_encodes_quickly_and_exactly():
    """A word of 10,000 characters (merged with a heap past _HEAP_FROM symbols) is cut as
    the merges applied one after the other, in order, cut it (tests.support.reference)."""
    rng = random.Random(11)
    lines = ["".join(rng.choice("aab c") for _ in range(60)) for _ in range(30)]
    training = train(Corpus.from_text("\n".join(lines), "none"), "bpe", merges=60)
    assert len(training.merges) == 60
    word = "".join(rng.choice("aab c") for _ in range(10_000))
    expected = list(word)
    for m in training.merges:
        expected = apply_merge(expected, m.left, m.right, m.token)
    tokens = training.at().encode(word)
    assert [training.vocab[t.id] for t in tokens] == texts(tokens) == expected
    assert len(expected) < len(word) / 2  # the merges did cut it


# -- properties (Hypothesis) ---------------------------------------------------------------
#: Any Unicode (no surrogates), mixed with emoji and ZWJ sequences, combining marks, CJK,
#: control characters and odd whitespace.
UNICODE = st.lists(
    st.one_of(
        # (surrogates: tests/formats/test_tiktoken_exports_encode_like_bpeviz.py)
        st.characters(exclude_categories=("Cs",)),
        st.sampled_from(["👨‍👩‍👧", "👍🏽", "e\u0301", "中文", "\u200d", "\x00", "\x1c", "\r\n",
                         " ", "\u3000", "😀", "ﷺ", "'s", "\U0001F1EB\U0001F1F7", "\u0301"]),
    ),
    max_size=40,
).map("".join)
PROPERTY = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def bbpe_trainings():
    text = "\n".join(SEED_003_SENTENCES) + " 👨‍👩‍👧 naïve café 😀😀 e\u0301 " + REAL_TEXT[:3000]
    return [train(Corpus.from_text(text, name), "bbpe", merges=150)
            for name in ("gpt2", "none")]


def covers_in_order(tokens, text):
    if not text:
        return not tokens
    if tokens[0].start != 0 or tokens[-1].end != len(text):
        return False
    return all(a.start <= b.start and a.end <= b.end and b.start <= a.end
               for a, b in pairwise(tokens))


@PROPERTY
@given(text=UNICODE, step=st.integers(0, 150))
def test_bbpe_round_trips_any_unicode_with_offsets_in_order(bbpe_trainings, text, step):
    for training in bbpe_trainings:
        snap = training.at(step)
        tokens = snap.encode(text)
        assert snap.decode(tokens.ids) == text
        assert covers_in_order(tokens, text)
        assert b"".join(t.bytes for t in tokens) == text.encode("utf-8", "surrogatepass")
        for t in tokens:
            piece = text[t.start:t.end].encode("utf-8", "surrogatepass")
            assert (t.bytes != piece) == t.partial and t.bytes in piece


@pytest.fixture(scope="module")
def bpe_training():
    return train(Corpus.from_text(REAL_TEXT + " naïve 中文 😀", "gpt2"), "bpe", merges=150)


@PROPERTY
@given(text=UNICODE, step=st.integers(0, 150))
def test_bpe_round_trips_up_to_unk_characters(bpe_training, text, step):
    snap = bpe_training.at(step)
    alphabet = set(bpe_training.vocab[: bpe_training.n_base])
    tokens = snap.encode(text)
    assert snap.decode(tokens.ids) == "".join(c if c in alphabet else "[UNK]" for c in text)
    assert covers_in_order(tokens, text)
    assert all(t.end - t.start == 1 for t in tokens if t.unk)


@pytest.fixture(scope="module")
def wordpiece_training():
    return train(Corpus.from_text(REAL_TEXT + " naïve 中文 😀"), "wordpiece", merges=150)


@PROPERTY
@given(text=UNICODE, step=st.integers(0, 150))
def test_wordpiece_round_trips_up_to_unk_words(wordpiece_training, text, step):
    snap = wordpiece_training.at(step)
    tokens = snap.encode(text)
    words = text.split()
    by_word: dict[int, list] = {}
    starts = [s for s, _ in spans(text, "whitespace")]
    for t in tokens:
        by_word.setdefault(max(s for s in starts if s <= t.start), []).append(t)
    expected = []
    for start, word in zip(starts, words):
        pieces = by_word[start]
        if pieces[0].unk:
            assert len(pieces) == 1 and (pieces[0].start, pieces[0].end) == (start,
                                                                              start + len(word))
            expected.append("[UNK]")
        else:
            assert surface(tuple(t.text for t in pieces), "wordpiece") == word
            assert "".join(text[t.start:t.end] for t in pieces) == word
            expected.append(word)
    assert snap.decode(tokens.ids) == " ".join(expected)


def longest_match_by_definition(encoder, word):
    """WordPiece by its definition: at each position the longest piece in the vocabulary,
    trying every length from the longest token's down."""
    if len(word) > MAX_WORDPIECE_CHARS:
        return ((encoder.unk_id,), (0,), (len(word),), (2,))
    pieces, start = [], 0
    while start < len(word):
        for end in range(min(len(word), start + encoder.longest), start, -1):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in encoder.ids:
                pieces.append((encoder.ids[piece], start, end, 0))
                start = end
                break
        else:
            return ((encoder.unk_id,), (0,), (len(word),), (2,))
    return tuple(zip(*pieces)) if pieces else ((), (), (), ())


@PROPERTY
@given(words=st.lists(st.text(alphabet="abcdefghilmnoprstuwy_#.é中[]UNK", min_size=1,
                              max_size=30), max_size=20), step=st.integers(0, 150))
def test_wordpiece_finds_the_longest_piece_at_every_position(wordpiece_training, words, step):
    encoder = _Encoder(wordpiece_training, step, "python")
    for word in [*words, "[UNK]", "##", "#", "a" * 101, "the", "functions"]:
        assert encoder._encode_word(word) == longest_match_by_definition(encoder, word), word


@settings(max_examples=200, deadline=None)
@given(text=UNICODE)
def test_split_words_cuts_like_the_pre_tokenizers(text):
    for name in ("whitespace", "gpt2", "none"):
        words, offsets = split_words(text, name)
        assert list(zip(offsets, [o + len(w) for o, w in zip(offsets, words)])) == list(
            spans(text, name))
