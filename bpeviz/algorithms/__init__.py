"""The algorithms bpeviz trains, one :class:`Algorithm` record each, and their registry.

>>> names()
('bpe', 'bbpe', 'wordpiece', 'unigram', 'parity', 'picky', 'superbpe')
>>> get("bbpe").label, get("bbpe").pretokenizer, get("wordpiece").scored
('Byte-level BPE', 'gpt2', True)
>>> get("unigram").step_kind  # its steps prune; bpeviz.unigram trains it
'prune'
>>> get("sentencepiece")  # doctest: +ELLIPSIS
Traceback (most recent call last):
ValueError: unknown algorithm 'sentencepiece'; choose one of bpe, bbpe, wordpiece, unigram, ...

Adding an algorithm: a module declaring its record, and one line here (or a call to
:func:`register` from anywhere, as tests/engine/test_algorithms.py does).
"""

from __future__ import annotations

from bpeviz.algorithms.base import Algorithm
from bpeviz.algorithms.bbpe import BBPE
from bpeviz.algorithms.bpe import BPE
from bpeviz.algorithms.parity import PARITY
from bpeviz.algorithms.picky import PICKY
from bpeviz.algorithms.superbpe import SUPERBPE
from bpeviz.algorithms.unigram import UNIGRAM
from bpeviz.algorithms.wordpiece import WORDPIECE
from bpeviz.text.symbols import Symbol

_REGISTRY: dict[str, Algorithm] = {}


def register(algorithm: Algorithm) -> Algorithm:
    """Make ``algorithm`` known by its name (again: the newer record replaces the older)."""
    _REGISTRY[algorithm.name] = algorithm
    return algorithm


def unregister(name: str) -> None:
    """Forget an algorithm (for tests that register a toy one)."""
    _REGISTRY.pop(name, None)


def names() -> tuple[str, ...]:
    """The names of every registered algorithm, in registration order."""
    return tuple(_REGISTRY)


def get(name: str) -> Algorithm:
    """The record of algorithm ``name``; ValueError naming the choices if there is none."""
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown algorithm {name!r}; choose one of "
                         f"{', '.join(_REGISTRY)}") from None


def labels() -> dict[str, str]:
    """What the UI calls each algorithm, by name (for select boxes' ``format_func``).

    >>> labels()["bbpe"]
    'Byte-level BPE'
    """
    return {a.name: a.label for a in _REGISTRY.values()}


def offered() -> tuple[str, ...]:
    """The algorithms the app offers (:attr:`Algorithm.offered`), in registration order:
    its choices of an algorithm, read when drawn, so a newly registered one is among them.

    >>> offered()[:4], {"parity", "picky", "superbpe"} <= set(offered())
    (('bpe', 'bbpe', 'wordpiece', 'unigram'), True)
    """
    return tuple(a.name for a in _REGISTRY.values() if a.offered)


def lessons() -> dict[str, str]:
    """The algorithms the Learn page teaches, in its order, with the sample each starts on.

    >>> lessons()
    {'bpe': 'low', 'wordpiece': 'hug', 'bbpe': 'seed003'}
    """
    taught = sorted((a for a in _REGISTRY.values() if a.lesson_sample),
                    key=lambda a: a.lesson_order)
    return {a.name: a.lesson_sample for a in taught}


register(BPE)
register(BBPE)
register(WORDPIECE)
register(UNIGRAM)

def initial_symbols(
    word: str, algorithm: str, marker: str | None = None, marker_style: str = "separate"
) -> list[Symbol]:
    """The symbols a word starts as, before any merge (``Algorithm.initial_symbols``).

    >>> initial_symbols("hug", "wordpiece")
    ['h', '##u', '##g']
    >>> initial_symbols("low", "bpe", marker="</w>", marker_style="glued")
    ['l', 'o', 'w</w>']
    """
    return get(algorithm).initial_symbols(word, marker, marker_style)


def join(left: Symbol, right: Symbol, algorithm: str) -> Symbol:
    """The token a merge of ``left`` and ``right`` creates (``Algorithm.join``).

    >>> join("##p", "##l", "wordpiece"), join("S", "##h", "wordpiece")
    ('##pl', 'Sh')
    """
    return get(algorithm).join(left, right)


def surface(
    symbols: tuple[Symbol, ...] | list[Symbol], algorithm: str, marker: str | None = None
) -> str:
    """The text a split stands for: markers and ``##`` removed, bytes decoded.

    >>> surface(("tall", "er_"), "bpe"), surface(("Sh", "##e"), "wordpiece")
    ('taller_', 'She')
    """
    return get(algorithm).surface(symbols, marker)


#: the built-in algorithms' names (``names()`` also lists those registered later)
ALGORITHMS = names()
#: special tokens put first in the vocabulary unless a training says otherwise
DEFAULT_SPECIAL_TOKENS: dict[str, tuple[str, ...]] = {a.name: a.special_tokens
                                                      for a in _REGISTRY.values()}
# after ALGORITHMS, the app's single-corpus choices: it trains on one corpus per language
register(PARITY)
register(PICKY)
register(SUPERBPE)

__all__ = ["ALGORITHMS", "BBPE", "BPE", "DEFAULT_SPECIAL_TOKENS", "UNIGRAM", "WORDPIECE",
           "Algorithm", "get", "initial_symbols", "join", "labels", "lessons", "names", "offered",
           "register", "surface", "unregister"]
