"""Trainings made the way the app makes them, for the expected values of the app tests
(made with the engine directly, never read from the page)."""

from __future__ import annotations

from bpeviz import Corpus, train
from bpeviz.samples import DEFAULT_SAMPLE, SAMPLES, load_sample, sample_bytes
from bpeviz.ui import pretokenizer_for, train_options
from bpeviz.unigram.corpus_words import train_corpus


def reference(algorithm: str = "bpe", sample: str = "tour", merges: int = 200, **settings):
    """The training the app should show, made with the engine directly."""
    pretok = "gpt2" if algorithm == "bbpe" else "whitespace"
    return train(load_sample(sample, pretok), **train_options(algorithm, merges=merges,
                                                              **settings))


def sample_training(vocab: int | None = None, variant: str = "sentencepiece",
                    sample=DEFAULT_SAMPLE):
    """What the app trains for a sample: the same corpus, through the same adapter, with
    the sidebar's defaults (vocab None: the size chosen for the corpus)."""
    corpus = Corpus.from_bytes(sample_bytes(sample), pretokenizer_for("auto", "unigram"),
                               "auto", name=SAMPLES[sample].filename)
    options = {"seed_size": None} if variant == "course" else {"shrinking_factor": None}
    return train_corpus(corpus, vocab, variant, **options)


def unigram_reference(vocab: int = 400, variant: str = "sentencepiece"):
    corpus = Corpus.from_bytes(sample_bytes("tour"), pretokenizer_for("auto", "unigram"),
                               "auto")
    # the app's options: a Compare configuration's course seed is chosen for the corpus
    return train_corpus(corpus, vocab, variant,
                        **({"seed_size": None} if variant == "course" else {}))


def many_symbols_training(algorithm: str = "bpe"):
    """Words over 80 distinct letters, so 60 symbols per axis are there at step 0."""
    letters = [chr(c) for c in range(0x3b1, 0x3c9)] + [chr(c) for c in range(0x430, 0x450)]
    letters += list("abcdefghijklmnopqrstuvwxyz")
    words = {"".join(letters[(i * 7 + k * 3) % len(letters)] for k in range(5)): 1 + i % 4
             for i in range(300)}
    return train(Corpus.from_counts(words), **train_options(algorithm, merges=5))
