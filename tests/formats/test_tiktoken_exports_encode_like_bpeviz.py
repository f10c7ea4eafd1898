"""A tiktoken export encodes as bpeviz does, or is refused.

tiktoken does not read a merge list: it rebuilds each token from its ranks, so a
training whose merges make a token from other parts than tiktoken would pick (or make
one token twice) is refused with the merge named, by the library and in one line by the
command line; every export that is accepted encodes random texts exactly as bpeviz
does. A lone surrogate is read as U+FFFD (its bytes ef bf bd), as tiktoken reads it, by
both encoders and by training."""

from __future__ import annotations

import base64
import json

import pytest
import tiktoken
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, formats, save, train
from bpeviz.core.training import make_options, replay
from tests.support.cli import run_cli
from tests.support.engines import ENGINES, run_engine


def tiktoken_encoding(files):
    config = json.loads(files["tiktoken.json"])
    ranks = {base64.b64decode(token): int(rank) for token, rank in
             (line.split() for line in files["tokenizer.tiktoken"].splitlines())}
    return tiktoken.Encoding(config["name"], pat_str=config["pat_str"], mergeable_ranks=ranks,
                             special_tokens={}, explicit_n_vocab=config["explicit_n_vocab"])


def replayed_bbpe(pairs):
    options = make_options("bbpe", merges=len(pairs))
    return replay(Corpus.from_text("abc", "gpt2"), options, pairs)


def test_a_merge_tiktoken_would_make_otherwise_is_refused_with_the_reason():
    training = replayed_bbpe([(b"b", b"c"), (b"a", b"b"), (b"ab", b"c")])
    formats.export(training.at(2), "tiktoken")  # the first two merges alone are fine
    with pytest.raises(ValueError, match=r"merge 3 makes b'abc' as b'ab' \+ b'c', but "
                                         r"tiktoken would make it from b'a' \+ b'bc'"):
        formats.export(training.at(), "tiktoken")


def test_a_token_made_twice_is_refused_for_tiktoken():
    training = replayed_bbpe([(b"a", b"b"), (b"b", b"c"), (b"ab", b"c"), (b"a", b"bc")])
    with pytest.raises(ValueError, match=r"merge 4 makes b'abc'.*already made it"):
        formats.export(training.at(), "tiktoken")


def test_the_cli_refuses_such_an_export_in_one_line(tmp_path):
    path = tmp_path / "t.json"
    save(replayed_bbpe([(b"b", b"c"), (b"a", b"b"), (b"ab", b"c")]), str(path))
    result = run_cli("export", "--training", str(path), "--format", "tiktoken",
                     "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "cannot be exported to tiktoken" in result.stderr
    assert not (tmp_path / "out").exists()


@st.composite
def merge_lists(draw):
    """Random merges over a few byte symbols (any pair of known tokens, in any order)."""
    vocab = [b"a", b"b", b"c", "é".encode()[:1], "é".encode()[1:]]
    pairs = []
    for _ in range(draw(st.integers(1, 9))):
        left, right = draw(st.sampled_from(vocab)), draw(st.sampled_from(vocab))
        pairs.append((left, right))
        if left + right not in vocab:
            vocab.append(left + right)
    return pairs


texts = st.text(alphabet="abcé ", max_size=16)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(merge_lists(), st.lists(texts, min_size=1, max_size=5))
def test_an_accepted_tiktoken_export_encodes_like_bpeviz(pairs, samples):
    training = replayed_bbpe(pairs)
    for step in range(len(pairs) + 1):
        snap = training.at(step)
        try:
            files = formats.export(snap, "tiktoken")
        except ValueError as err:
            assert "cannot be exported to tiktoken" in str(err)
            continue
        enc = tiktoken_encoding(files)
        tokens = [t for t in snap.vocab if len(t) > 1]
        for text in [*samples, *(t.decode("utf-8", "replace") for t in tokens),
                     "".join(t.decode("utf-8", "replace") for t in tokens)]:
            assert enc.encode_ordinary(text) == snap.encode(text).ids, (pairs, step, text)


@pytest.fixture(scope="module")
def bbpe_with_replacement_tokens():
    text = ("hello world, the replacement character \ufffd\ufffd and x\ufffdy. " * 4
            + "café 中文 😀 " * 3)
    training = train(Corpus.from_text(text, "gpt2"), "bbpe", merges=60)
    files = formats.export(training.at(), "tiktoken")
    return training, tiktoken_encoding(files)


def as_tiktoken(text: str) -> bytes:
    """The bytes tiktoken encodes a Python string as (its Encoding.encode does this when
    the string holds surrogates): pairs joined, lone surrogates as U+FFFD."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode()


with_surrogates = st.text(alphabet=st.sampled_from(
    ["a", "x", "y", " ", "\ufffd", "中", "😀", ",", "\n", "\ud800", "\udbff", "\udc00",
     "\udfff", "\udc80", "\ud83d", "\ude00"]), max_size=24)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(with_surrogates)
def test_surrogates_encode_like_tiktoken_in_both_encoders(bbpe_with_replacement_tokens,
                                                              text):
    from bpeviz.core.encoding import _Encoder

    training, enc = bbpe_with_replacement_tokens
    expected = enc.encode_ordinary(text)
    for name in ENGINES:
        encoder = _Encoder(training, len(training.merges), name)
        assert (encoder._coder is not None) == (name == "compiled")
        tokens = encoder.encode(text)
        assert tokens.ids == expected, name
        assert encoder.encode_ids(text) == expected
        # offsets still point into the text as given, one character per surrogate
        assert b"".join(t.bytes for t in tokens) == as_tiktoken(text)
        for t in tokens:
            if not t.partial:
                assert as_tiktoken(text[t.start : t.end]) == t.bytes


def test_a_lone_surrogate_gives_ef_bf_bd(bbpe_with_replacement_tokens):
    training, _ = bbpe_with_replacement_tokens
    for name in ENGINES:
        from bpeviz.core.encoding import _Encoder

        tokens = _Encoder(training, 0, name).encode("\ud800")
        assert [t.bytes for t in tokens] == [b"\xef", b"\xbf", b"\xbd"]
        assert [(t.start, t.end, t.partial) for t in tokens] == [(0, 1, True)] * 3
        pair = _Encoder(training, 0, name).encode("a\ud83d\ude00")  # 😀 as two code points
        assert [t.bytes for t in pair] == [b"a", *(bytes((b,)) for b in "😀".encode())]
        assert [(t.start, t.end, t.partial) for t in pair] == [(0, 1, False)] + [(1, 3, True)] * 4


def test_training_reads_a_surrogate_as_ufffd_in_both_engines():
    corpus = Corpus.from_counts([("a" + chr(0xD800), 3), ("a\ufffd", 2)])
    options = make_options("bbpe", merges=3)
    compiled, python = (run_engine(corpus, options, e) for e in ENGINES)
    assert compiled.merges == python.merges
    first = python.merges[0]
    assert (first.left, first.right, first.count) == (b"a", b"\xef", 5)  # both words
    assert python.vocab[-1] == b"a\xef\xbf\xbd"
    assert not any(b"\xed" in token for token in python.vocab[256:])
