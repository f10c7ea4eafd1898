"""What the app calls things: algorithms, pre-tokenizers, markers, scorings, tie rules and
Unigram's trainers, as the widgets, captions and cards write them.

The lowest of the widget modules (it draws nothing): the sidebar's settings, Unigram's
settings and the pages read the same labels here, so neither has to import the other
for them.
"""

from __future__ import annotations

from collections.abc import Callable

from bpeviz import algorithms


def algorithm_labels() -> dict[str, str]:
    """What the app calls each algorithm, from the records (``{"bpe": "BPE (characters)"}``)."""
    return algorithms.labels()


#: what the app calls each algorithm (from the records, :mod:`bpeviz.algorithms`)
ALGORITHM_LABELS = algorithm_labels()

PRETOKENIZER_LABELS = {
    "auto": "auto (GPT-2 for byte-level, whitespace otherwise)",
    "whitespace": "whitespace",
    "gpt2": "GPT-2 regex",
    "none": "none (one word per line)",
    "cl100k": "GPT-4 regex (cl100k)",
    "o200k": "GPT-4o regex (o200k)",
    "metaspace": "SentencePiece (▁ before each word)",
    "bert": "BERT (punctuation apart, each CJK character a word)",
}
#: what a pre-tokenizer box shows (short enough for the sidebar; auto says what it picks)
PRETOKENIZER_SHORT = {"whitespace": "whitespace", "gpt2": "GPT-2 regex",
                      "none": "one word per line", "cl100k": "GPT-4 regex (cl100k)",
                      "o200k": "GPT-4o regex (o200k)", "metaspace": "SentencePiece (▁word)",
                      "bert": "BERT (CJK apart)"}
MARKER_LABELS = {"none": "none", "</w>": "</w>", "_": "_"}
SCORING_LABELS = {"score": "score = count(ab) / (count(a)·count(b))",
                  "frequency": "frequency (like HF's WordPieceTrainer)"}
#: a scoring as a training's short description names it
SHORT_SCORING = {"score": "scored pairs", "frequency": "pair frequency"}
TIE_LABELS = {"first": "first seen in the corpus (minbpe, tiktoken)",
              "ids": "smallest ids (Hugging Face)"}
TIE_HELP = ("Which pair wins when several have the best count or score: the pair seen first "
            "in the corpus, or the pair of the smallest token ids.")
#: Unigram's trainers (the ``uvariant`` setting)
VARIANT_LABELS = {"sentencepiece": "SentencePiece's trainer (EM, then prune)",
                  "course": "Hugging Face course (prune 10% a round)"}


def pretokenizer_for(choice: str, algorithm: str) -> str:
    """The pre-tokenizer a setting names: ``auto`` is the algorithm's own.

    >>> pretokenizer_for("auto", "bbpe"), pretokenizer_for("none", "bbpe")
    ('gpt2', 'none')
    """
    return algorithms.get(algorithm).pretokenizer_for(choice)


def pretokenizer_label(algorithm: str) -> Callable[[str], str]:
    """A format function for a pre-tokenizer box: ``auto`` names what it picks.

    >>> pretokenizer_label("bbpe")("auto"), pretokenizer_label("bpe")("none")
    ('auto: GPT-2 regex', 'one word per line')
    """
    def label(choice: str) -> str:
        if choice == "auto":
            return f"auto: {PRETOKENIZER_SHORT[pretokenizer_for('auto', algorithm)]}"
        return PRETOKENIZER_SHORT[choice]
    return label
