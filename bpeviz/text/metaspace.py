"""The ``metaspace`` pre-tokenizer: SentencePiece's whitespace handling, word by word.

Text is split on whitespace (as ``str.split()``), and every word gets ``▁`` (U+2581) in
front, the first word too (SentencePiece's ``add_dummy_prefix``; Hugging Face's
``Metaspace`` with ``prepend_scheme="always"``). The ``▁`` stands for the space before the
word, so the word's span in the text does not include it.

>>> metaspace_words("This is  the Hugging Face Course.")
['▁This', '▁is', '▁the', '▁Hugging', '▁Face', '▁Course.']
>>> list(metaspace_spans(" hug pug"))
[(1, 4), (5, 8)]

:mod:`bpeviz.text.pretokenize` offers it as ``"metaspace"``: its words are
:func:`metaspace_words`, its spans :func:`metaspace_spans`.
"""

from __future__ import annotations

from collections.abc import Iterator

import regex

WS = "\u2581"
_WORD = regex.compile(r"[^\s\x1c-\x1f]+")  # what str.split() splits on


def metaspace_words(text: str) -> list[str]:
    """The words of ``text``, each with ``▁`` in front."""
    return [WS + w for w in text.split()]


def metaspace_spans(text: str) -> Iterator[tuple[int, int]]:
    """The ``(start, end)`` span of every word (without its ``▁``)."""
    for match in _WORD.finditer(text):
        yield match.span()
