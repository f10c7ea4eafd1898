"""Tracing with the encoder of a step: how one word is cut (:func:`trace`, which
``snapshot.trace(word)`` calls) and the words of a text as encoding cuts them
(:func:`text_words`). The records a trace is made of are :mod:`bpeviz.core.trace`'s.
"""

from __future__ import annotations

from bpeviz.core.encoding import encoder, split_words
from bpeviz.core.trace import Trace
from bpeviz.core.training_data import AtStep, TrainingData


def trace(snapshot: AtStep, word: str, *, cut: bool = False) -> Trace:
    """How ``snapshot.encode`` cuts one pre-tokenized ``word`` (see :class:`Trace`).
    ``cut``: the word is a pre-token as a text or the corpus was cut (the pages' word
    lists), traced as it is; a pre-tokenizer whose cut depends on what follows (SuperBPE's
    spaces before a word) can cut it again differently when it stands alone.

    >>> from bpeviz import Corpus, train
    >>> t = train(Corpus.from_counts({"hug": 3, "pug": 1}), "wordpiece", merges=2)
    >>> [(p.piece, p.tried) for p in t.at(2).trace("pug").pieces]
    [('pu', ('pug', 'pu')), ('##g', ('##g',))]
    >>> t.at(2).trace("pugs").unk
    True
    """
    if not isinstance(word, str) or not word:
        raise ValueError("give one word to trace (not empty)")
    enc = encoder(snapshot.training, snapshot.step)
    if enc.pretokenizer == "metaspace":  # its words carry "▁": "hug" is traced as "▁hug"
        word = word if word.startswith("\u2581") else "\u2581" + word
        words, _ = split_words(word[1:], "metaspace")
    else:
        words, _ = split_words(word, enc.pretokenizer)
    if words != [word] and not (cut and "".join(words) == word):
        raise ValueError(f"{word!r} is {len(words)} words for the {enc.pretokenizer!r} "
                         "pre-tokenizer; trace one word at a time")
    return enc.word_coder.trace(snapshot, enc, word)


def text_words(training: TrainingData, text: str, limit: int = 500) -> list[str]:
    """The distinct words of ``text`` as encoding cuts it (pre-tokenized), in order.

    >>> from bpeviz import Corpus, train
    >>> text_words(train(Corpus.from_text("a b"), merges=1), "to be or not to be")
    ['to', 'be', 'or', 'not']
    """
    pretokenizer = training.corpus.pretokenizer
    words, _ = split_words(text, "whitespace" if pretokenizer == "counts" else pretokenizer)
    return list(dict.fromkeys(words))[:limit]
