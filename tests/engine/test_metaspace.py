"""The ``metaspace`` pre-tokenizer (SentencePiece's ``▁word``) for every algorithm.

Trained and encoded on both engines (the ``engine`` fixture): the compiled encoder does
not know metaspace and must hand it to the Python path, with the same tokens.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, formats, train
from bpeviz.core.encoding import encoder
from bpeviz.text.pretokenize import PRETOKENIZERS, spans, words

pytestmark = pytest.mark.usefixtures("engine")

WS = "\u2581"
TEXT = ("the quick brown fox jumps over the lazy dog and the hugging fox hugs the pug "
        "while the dog hugs the hugger\nthen  the   pugs\tjump over  foxes ") * 3
ALGORITHMS = ("bpe", "bbpe", "wordpiece")


@pytest.fixture(scope="module")
def trainings():
    # trained once per engine run would be slower; training does not depend on the
    # encoder's engine, and every encoder is made fresh per engine (keyed by engine)
    return {a: train(Corpus.from_text(TEXT, "metaspace"), a, merges=40) for a in ALGORITHMS}


def test_registered_and_words():
    assert "metaspace" in PRETOKENIZERS
    assert words(" hug\t the\n", "metaspace") == [WS + "hug", WS + "the"]
    assert list(spans(" hug\t the\n", "metaspace")) == [(1, 4), (6, 9)]
    corpus = Corpus.from_text("hug the hug", "metaspace")
    assert (corpus.words, corpus.counts, corpus.pretokenizer) == (
        (WS + "hug", WS + "the"), (2, 1), "metaspace")


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_encoding_the_corpus_gives_the_training_splits(trainings, algorithm):
    """Every word of the corpus text encodes to its split in the training, step by step."""
    t = trainings[algorithm]
    for step in (0, 7, len(t.merges)):
        snap = t.at(step)
        got = snap.encode(TEXT).ids
        expected = [t.vocab.index(s) for w in words(TEXT, "metaspace") for s in snap.splits[w]]
        assert got == expected


def _check_offsets(text: str, tokens, algorithm: str) -> None:
    """Tokens cover every non-space character once, in order; a leading ``▁`` covers the
    space before its word (nothing at the start of the text)."""
    pos = 0
    seen: list[str] = []
    last_span = None
    for tok in tokens:
        assert 0 <= tok.start <= tok.end <= len(text)
        covered = text[tok.start:tok.end]
        if tok.partial:  # bytes of one character: the whole character, once
            assert tok.start >= pos or (tok.start, tok.end) == last_span
            if (tok.start, tok.end) != last_span:
                seen.append(covered.lstrip())
        else:
            assert tok.start >= pos
            shown = (tok.bytes.decode() if algorithm == "bbpe"
                     else tok.text[2:] if tok.text.startswith("##") else tok.text)
            if shown.startswith(WS):
                if tok.start == 0 and not covered[:1].isspace():
                    assert covered == shown[1:]
                else:
                    assert covered[0].isspace() and covered[1:] == shown[1:]
                seen.append(covered.lstrip())
            else:
                assert covered == shown
                seen.append(covered)
        pos, last_span = tok.end, (tok.start, tok.end)
    assert "".join(seen) == "".join(text.split())


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_offsets_point_into_the_original_text(trainings, algorithm):
    snap = trainings[algorithm].at()
    text = "the pugs  jump\nover the lazy hugger"
    tokens = list(snap.encode(text))
    _check_offsets(text, tokens, algorithm)
    first = tokens[0]
    assert (first.start, first.end) == ((0, 3) if first.text == WS + "the" else (0, 0))
    assert snap.decode(snap.encode(text).ids) == " ".join(text.split())


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet="thequickbrownfox \n\t", max_size=40))
def test_offsets_property_bpe(trainings, text):
    for algorithm in ("bpe", "bbpe"):
        snap = trainings[algorithm].at()
        tokens = list(snap.encode(text))
        _check_offsets(text, tokens, algorithm)
        assert snap.decode([t.id for t in tokens]) == " ".join(text.split())


def test_compiled_encoder_hands_metaspace_to_python(trainings, engine):
    """No compiled pre-tokenizer knows metaspace: the encoder must not use one."""
    enc = encoder(trainings["bbpe"], 10)
    assert enc._coder is None
    assert enc.pretokenizer == "metaspace"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="thequickbrownfoxzy", min_size=1, max_size=8), max_size=8))
def test_parity_with_hf_metaspace_bpe(trainings, parts):
    """Same tokens and offsets as Hugging Face's BPE behind its Metaspace pre-tokenizer
    (``prepend_scheme="always"``), on texts with single spaces (HF keeps a ``▁`` per
    extra space; SentencePiece and bpeviz drop extra whitespace). One known difference:
    a lone ``▁`` token at the very start spans nothing here, a character in HF."""
    tokenizers = pytest.importorskip("tokenizers")
    t = trainings["bpe"]
    for step in (5, len(t.merges)):
        size = t.vocab_size_at(step)
        vocab = {tok: i for i, tok in enumerate(t.vocab[:size])}
        merges = [(m.left, m.right) for m in t.merges[:step]]
        hf = tokenizers.Tokenizer(tokenizers.models.BPE(vocab, merges, unk_token="[UNK]"))
        hf.pre_tokenizer = tokenizers.pre_tokenizers.Metaspace(
            replacement=WS, prepend_scheme="always", split=True)
        text = " ".join(parts)
        ours = t.at(step).encode(text)
        theirs = hf.encode(text)
        assert [tok.id for tok in ours] == theirs.ids
        offsets = [(tok.start, tok.end) for tok in ours]
        if ours and ours[0].text == WS and theirs.offsets[0][0] == 0:
            # a lone "▁" before the first word: HF gives it the first character's span,
            # bpeviz (like its SentencePiece encoder) gives it none: (0, 0)
            assert offsets[0] == (0, 0)
            offsets[0] = theirs.offsets[0]
        assert offsets == theirs.offsets


def test_trace_takes_the_word_with_or_without_its_mark(trainings):
    snap = trainings["bpe"].at()
    assert snap.trace("hugs").initial == snap.trace(WS + "hugs").initial
    assert snap.trace("hugs").initial[0] == WS


@settings(max_examples=25, deadline=None)
@given(st.text(alphabet="thequickbrownfoxé日 \n\t", max_size=30))
def test_hf_export_encodes_and_decodes_the_same(trainings, text):
    """``tokenizer.json`` of a metaspace training: Split on whitespace, then Metaspace
    (prepend always): the same ids as bpeviz on any text, and the same decoding."""
    tokenizers = pytest.importorskip("tokenizers")
    from bpeviz.formats.hf import import_json

    for algorithm, t in trainings.items():
        snap = t.at(25)
        data = formats.export(snap, "hf")["tokenizer.json"]
        hf = tokenizers.Tokenizer.from_str(data)
        encoded = snap.encode(text)
        ids = encoded.ids
        assert hf.encode(text).ids == ids, algorithm
        if not any(tok.unk for tok in encoded):
            assert hf.decode(ids) == snap.decode(ids) == " ".join(text.split())
        back = import_json(data)
        assert back.corpus.pretokenizer == "metaspace"
        assert back.at().encode(text).ids == ids


def test_tiktoken_export_says_why_not(trainings):
    with pytest.raises(ValueError, match="no tiktoken pattern"):
        formats.export(trainings["bbpe"].at(), "tiktoken")
