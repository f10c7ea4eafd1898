"""``snapshot.trace(word).tokens`` are the tokens ``snapshot.encode(word)`` gives: an
unknown character is the unknown token there too (never the character itself), and a
WordPiece word that cannot be matched is the one unknown token."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, train

pytestmark = pytest.mark.usefixtures("engine")

TEXT = "hug pug pun bun hugs hugging pugs the bun runs"
CONFIGS = {
    "bpe": dict(algorithm="bpe"),
    "bpe-no-specials": dict(algorithm="bpe", special_tokens=()),
    "bpe-glued": dict(algorithm="bpe", marker="</w>", marker_style="glued"),
    "bpe-separate": dict(algorithm="bpe", marker="</w>"),
    "bbpe": dict(algorithm="bbpe"),
    "wordpiece": dict(algorithm="wordpiece"),
    "wordpiece-unk": dict(algorithm="wordpiece", special_tokens=("<unk>",)),
}


def encoded_tokens(snap, word):
    vocab = snap.training.vocab
    return tuple(t.text if t.unk else vocab[t.id] for t in snap.encode(word))


def trained(name, merges=8):
    config = dict(CONFIGS[name])
    return train(Corpus.from_text(TEXT, "whitespace"), config.pop("algorithm"), merges=merges,
                 **config)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_an_unknown_character_is_the_unknown_token_in_the_trace(name):
    training = trained(name)
    for step in (0, 4, 8):
        snap = training.at(step)
        for word in ("Jhug", "hugJ", "JKhugJ", "J", "pugs", "xyz"):
            found = snap.trace(word)
            assert found.tokens == encoded_tokens(snap, word), (name, step, word)
            assert found.ids == tuple(t.id for t in snap.encode(word)), (name, step, word)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(CONFIGS)), st.integers(0, 8),
       st.text(alphabet="hugpnbsJé\u00ff", min_size=1, max_size=8))
def test_trace_tokens_are_encode_tokens_on_any_word(name, step, word):
    snap = _trainings(name).at(step)
    assert snap.trace(word).tokens == encoded_tokens(snap, word)


_CACHE: dict[str, object] = {}


def _trainings(name):
    if name not in _CACHE:
        _CACHE[name] = trained(name)
    return _CACHE[name]
