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

from collections.abc import Callable
from dataclasses import replace
from inspect import Parameter, signature

from bpeviz.unigram import VARIANTS, UnigramTraining, train_unigram
from bpeviz.unigram.model import unigram_word

#: the options ``bpeviz.train`` takes for merging algorithms, with their defaults: Unigram
#: takes none of them (it prunes a large vocabulary down to ``vocab_size``)
MERGE_ONLY = {"merges": None, "tie_break": "first", "marker": None,
              "marker_style": "separate", "scoring": "score", "min_frequency": 0,
              "special_tokens": None}


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


def trainer_options(variant: str) -> tuple[str, ...]:
    """The keyword options of a variant's trainer (besides ``vocab_size``).

    >>> trainer_options("course")
    ('seed_size', 'prune_fraction')
    """
    if variant == "course":
        from bpeviz.unigram.course import train_course as trainer
    else:
        from bpeviz.unigram.trainer import train_sentencepiece as trainer
    return tuple(name for name, p in signature(trainer).parameters.items()
                 if p.kind is Parameter.KEYWORD_ONLY)


def train_keywords(corpus: object, *, progress: Callable[[int, int], None] | None = None,
                   variant: str = "sentencepiece", vocab_size: int | None = None,
                   **options: object) -> UnigramTraining:
    """What ``bpeviz.train(corpus, algorithm="unigram", ...)`` does: check the keywords
    and train with :func:`train_corpus` (the same training as :func:`train_unigram` on
    the corpus's ``▁`` words).

    ``vocab_size``: the pieces to prune down to (``<unk>``, ``<s>``, ``</s>`` included
    for ``"sentencepiece"``); None chooses one that gives the corpus about 8 pruning
    rounds, as the app does. ``options``: the variant's trainer options
    (:func:`trainer_options`). A merge option (``merges=``, ``tie_break=``, ...) or an
    option the variant's trainer does not take is a ValueError. The trainer reports no
    progress as it goes: ``progress(done, total)`` is called once, when it is done.
    """
    given = [name for name, default in MERGE_ONLY.items()
             if name in options and options[name] != default]
    if given:
        many = len(given) > 1
        raise ValueError(
            f"{', '.join(f'{name}={options[name]!r}' for name in given)}: "
            f"{'merge options' if many else 'a merge option'}; Unigram does not train by "
            "merges (it prunes a large vocabulary down to vocab_size)"
            + ("; its special tokens are the sentencepiece trainer's specials=(...)"
               if "special_tokens" in given else ""))
    for name in MERGE_ONLY:
        options.pop(name, None)
    if variant not in VARIANTS:
        raise ValueError(f"unknown Unigram variant {variant!r}; choose one of "
                         f"{', '.join(VARIANTS)}")
    allowed = trainer_options(variant)
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise ValueError(f"{', '.join(unknown)}: not an option of the {variant} Unigram "
                         f"trainer, which takes vocab_size and {', '.join(allowed)}")
    if vocab_size is not None and (isinstance(vocab_size, bool)
                                   or not isinstance(vocab_size, int) or vocab_size < 1):
        raise ValueError(f"vocab_size must be a whole number >= 1 (or None: chosen for the "
                         f"corpus), got {vocab_size!r}")
    training = train_corpus(corpus, vocab_size, variant, **options)
    if progress is not None:
        progress(len(training) - 1, len(training) - 1)
    return training
