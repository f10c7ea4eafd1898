"""A glued end-of-word marker with the ``ids`` tie rule trains as Hugging Face's
BpeTrainer with ``end_of_word_suffix``: the base vocabulary is every character of the
corpus sorted by code point (characters that only end words too), then the suffixed
characters (``"z</w>"``), then the merged tokens; ties go to the smallest (left id,
right id).

Hugging Face numbers its suffixed characters in the order it meets them in its word
table, a hash map whose order changes from process to process; bpeviz numbers them by
code point. So the merges are Hugging Face's exactly when no tie is decided between two
different suffixed characters; the comparisons below use corpora where that cannot
happen (one suffixed character, or ties that never compare two of them), each against
Hugging Face in several processes."""

from __future__ import annotations

import argparse
import inspect
import json
import os
import subprocess
import sys

import pytest

from bpeviz import Corpus, train

pytestmark = pytest.mark.usefixtures("engine")

HF_SCRIPT = r"""
import json, sys
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
text, merges = sys.stdin.read(), int(sys.argv[1])
tok = Tokenizer(models.BPE(unk_token="[UNK]", end_of_word_suffix="</w>"))
tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
trainer = trainers.BpeTrainer(vocab_size=10**6, min_frequency=0, show_progress=False,
                              special_tokens=["[UNK]"], end_of_word_suffix="</w>")
tok.train_from_iterator([text], trainer)
model = json.loads(tok.to_str())["model"]
vocab = model["vocab"]
print(json.dumps({"vocab": sorted(vocab, key=vocab.get), "merges": model["merges"]}))
"""


def hf_runs(text: str, runs: int = 3) -> list[dict]:
    """Hugging Face's vocabulary (in id order) and merges, from separate processes."""
    out = []
    for seed in range(runs):
        env = {**os.environ, "PYTHONHASHSEED": str(seed)}
        result = subprocess.run([sys.executable, "-c", HF_SCRIPT, "0"], input=text,
                                capture_output=True, text=True, env=env, timeout=120,
                                check=True)
        out.append(json.loads(result.stdout))
    return out


def ours(text: str, merges: int):
    return train(Corpus.from_text(text, "whitespace"), "bpe", merges=merges, tie_break="ids",
                 marker="</w>", marker_style="glued")


def test_plain_characters_rank_before_suffixed_ones_in_ties():
    """"ab acz": (a, c) and (a, b</w>) both occur once; c is plain, so (a, c) wins."""
    training = ours("ab acz", 3)
    assert [(m.left, m.right) for m in training.merges] == [
        ("a", "c"), ("a", "b</w>"), ("ac", "z</w>")]
    assert list(training.vocab[:training.n_base]) == [
        "[UNK]", "a", "b", "c", "z", "b</w>", "z</w>"]


def test_the_first_tie_rule_keeps_its_vocabulary():
    training = train(Corpus.from_text("ab acz", "whitespace"), "bpe", merges=1,
                     marker="</w>", marker_style="glued")
    assert list(training.vocab[:training.n_base]) == ["[UNK]", "a", "b</w>", "c", "z</w>"]
    assert (training.merges[0].left, training.merges[0].right) == ("a", "b</w>")


def test_ab_acz_merges_as_hugging_face_does_in_every_process():
    training = ours("ab acz", 10)
    for run in hf_runs("ab acz"):
        assert [m.split(" ") if isinstance(m, str) else m for m in run["merges"]] == [
            [m.left, m.right] for m in training.merges]
        suffixed = [t for t in run["vocab"] if t.endswith("</w>")]
        plain = [t for t in run["vocab"] if t not in suffixed]
        assert plain == [t for t in training.vocab if not t.endswith("</w>")]
        assert sorted(suffixed) == sorted(t for t in training.vocab if t.endswith("</w>"))


#: a real text whose words all end in "s": one suffixed character, so Hugging Face's ids
#: cannot depend on its hash order
ONE_SUFFIX = " ".join(word + "s" for word in inspect.getsource(argparse).split()[:6000])


def test_a_real_text_with_one_suffixed_character_trains_exactly_as_hugging_face():
    merges = 300
    training = ours(ONE_SUFFIX, merges)
    assert len(training.merges) == merges
    for run in hf_runs(ONE_SUFFIX, runs=2):
        hf_merges = [m.split(" ") if isinstance(m, str) else m for m in run["merges"]]
        assert hf_merges[:merges] == [[m.left, m.right] for m in training.merges]
        assert run["vocab"][:len(training.vocab)] == list(training.vocab)
