"""Train Unigram on a :class:`bpeviz.Corpus`: the adapter the app and other callers use.

A Unigram word starts with ``▁`` (U+2581), the space SentencePiece puts before every
word. Words from the ``metaspace`` pre-tokenizer already do; words from another
pre-tokenizer are read as SentencePiece's ``identity`` rule reads a text: spaces become
``▁``, runs of them one, none at the end, and a ``▁`` in front.

>>> unigram_word("hug"), unigram_word(" the  end "), unigram_word("\\u2581hug")
('▁hug', '▁the▁end', '▁hug')
>>> from bpeviz import Corpus
>>> t = train_corpus(Corpus.from_text("hug pug hug pun"), vocab_size=12, variant="course")
>>> t.final.splits["▁hug"]
('▁hug',)
"""

from __future__ import annotations

from dataclasses import replace

from bpeviz.unigram import UnigramTraining, train_unigram
from bpeviz.unigram.model import WS, normalize_identity


def unigram_word(word: str) -> str:
    """``word`` as the Unigram trainer sees it (with the ``▁`` in front)."""
    if word.startswith(WS):
        return word
    return normalize_identity(word)[0]


def unigram_words(corpus: object) -> dict[str, int]:
    """The corpus's words (``▁`` in front) with their counts; words that differ only in
    spaces add up."""
    table: dict[str, int] = {}
    for word, count in zip(corpus.words, corpus.counts):  # type: ignore[attr-defined]
        key = unigram_word(word)
        if key:
            table[key] = table.get(key, 0) + int(count)
    return table


def train_corpus(corpus: object, vocab_size: int | None, variant: str = "sentencepiece",
                 **options: object) -> UnigramTraining:
    """``train_unigram`` on the corpus's words; ValueError for the user when it cannot.

    ``vocab_size=None`` and options given as ``None`` (``shrinking_factor``,
    ``seed_size``) are taken from :func:`bpeviz.unigram.teaching.plan`: the settings
    that give this corpus about 8 pruning rounds. The training's ``options["plan"]`` is
    then that plan, and ``options["auto"]`` names what it chose.
    """
    table = unigram_words(corpus)
    if not table:
        raise ValueError("the corpus has no words: give some text to train on")
    wanted = [name for name, value in options.items() if value is None]
    if vocab_size is None or wanted:
        from bpeviz.unigram.teaching import plan

        found = plan(table, variant)
        auto = (["vocab_size"] if vocab_size is None else []) + [
            name for name in wanted if name in found.options]
        given = {name: value for name, value in options.items() if value is not None}
        given.update({name: found.options[name] for name in wanted if name in found.options})
        training = train_unigram(table, found.vocab_size if vocab_size is None else vocab_size,
                                 variant, **given)
        return replace(training, options={**training.options, "plan": found,
                                          "auto": tuple(auto)})
    return train_unigram(table, vocab_size, variant, **options)
