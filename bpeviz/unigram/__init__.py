"""Unigram (SentencePiece): start from a large vocabulary and prune it, round by round.

BPE and WordPiece grow a vocabulary by merging; Unigram starts big and removes the
pieces the corpus misses least. Step k of a training is the vocabulary after k pruning
rounds (step 0: the seed)::

    from bpeviz.unigram import train_unigram
    training = train_unigram(text, vocab_size=2000)          # SentencePiece's trainer
    step = training.at(2)
    step.log_probs["▁the"], step.loss, step.removed[:3]       # Removal(piece, cost, reason)
    step.splits["▁tokenizer"]                                 # Viterbi split of a word
    training.final.encode("any text")                         # Token(text, id, start, end, ...)

``variant="course"`` is the Hugging Face course's algorithm (chapter 6), exactly.
``bpeviz.train(corpus, algorithm="unigram", vocab_size=..., variant=...)`` trains the
same way on a corpus's words (:func:`bpeviz.unigram.corpus_words.train_keywords`), and a
training answers what every training answers (:mod:`bpeviz.core.protocol`).
Modules: :mod:`.lattice` (Viterbi, forward-backward, n-best, sampling), :mod:`.model`
(a model and the step records), :mod:`.trainer` (SentencePiece), :mod:`.course`,
:mod:`.spm` (open a SentencePiece ``.model``), :mod:`.saved` (save and load a training),
:mod:`.hf_export` (``tokenizer.json``); the ``▁word`` pre-tokenizer is :mod:`bpeviz.text.metaspace`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bpeviz.unigram.model import Removal, UnigramModel, UnigramStep, UnigramTraining

VARIANTS = ("sentencepiece", "course")


def train_unigram(corpus: object, vocab_size: int, variant: str = "sentencepiece",
                  **options: object) -> UnigramTraining:
    """Train a Unigram vocabulary of ``vocab_size`` pieces.

    ``corpus``: a text (read as ``spm_train`` reads a file for ``"sentencepiece"``; split
    with :func:`~bpeviz.text.metaspace.metaspace_words` for ``"course"``), or words
    with counts (a :class:`bpeviz.Corpus`, a mapping or ``(word, count)`` pairs), used
    as given: make them with the ``metaspace`` pre-tokenizer to get ``▁`` words.
    ``vocab_size`` counts ``<unk>``, ``<s>`` and ``</s>`` for ``"sentencepiece"`` (as
    SentencePiece does) and is an upper bound for ``"course"``. Other options go to
    :func:`~bpeviz.unigram.trainer.train_sentencepiece` or
    :func:`~bpeviz.unigram.course.train_course`.
    """
    if variant not in VARIANTS:
        raise ValueError(f"unknown Unigram variant {variant!r}; choose 'sentencepiece' or "
                         "'course'")
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < 1:
        raise ValueError(f"vocab_size must be a positive integer, got {vocab_size!r}")
    table = _word_table(corpus)
    if variant == "course":
        from bpeviz.text.metaspace import metaspace_words
        from bpeviz.unigram.course import train_course

        if table is None:
            counts: dict[str, int] = {}
            for word in metaspace_words(str(corpus)):
                counts[word] = counts.get(word, 0) + 1
            table = counts
        return train_course(table, vocab_size, **options)  # type: ignore[arg-type]
    from bpeviz.unigram.spm_input import sentencepiece_input, words_input
    from bpeviz.unigram.trainer import train_sentencepiece

    data = sentencepiece_input(str(corpus)) if table is None else words_input(table)
    return train_sentencepiece(data, vocab_size, **options)  # type: ignore[arg-type]


def _word_table(corpus: object) -> dict[str, int] | None:
    if isinstance(corpus, str):
        return None
    words = getattr(corpus, "words", None)
    counts = getattr(corpus, "counts", None)
    if words is not None and counts is not None:
        return dict(zip(words, counts))
    if isinstance(corpus, Mapping):
        return dict(corpus)
    if isinstance(corpus, Iterable):
        table: dict[str, int] = {}
        for word, count in corpus:  # type: ignore[misc]
            table[word] = table.get(word, 0) + count
        return table
    raise ValueError("a Unigram corpus is a text, a Corpus, or words with counts")


__all__ = ["VARIANTS", "Removal", "UnigramModel", "UnigramStep", "UnigramTraining",
           "train_unigram"]
