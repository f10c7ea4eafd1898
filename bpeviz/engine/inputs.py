"""What the merge loop is fed: every word's initial symbols as ids, and exact counts.

>>> from bpeviz import Corpus
>>> from bpeviz.core.training import make_options
>>> flat, lengths = initial_ids(Corpus.from_counts({"hug": 2, "pug": 1}),
...                             make_options("bpe", merges=1), {"g": 0, "h": 1, "p": 2, "u": 3})
>>> flat.tolist(), lengths.tolist()
([1, 3, 0, 2, 3, 0], [3, 3])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from bpeviz.algorithms import get as get_algorithm
from bpeviz.text.corpus import Corpus
from bpeviz.text.symbols import Symbol

INT64_MAX = 2**63 - 1


class SymbolOptions(Protocol):
    """What cutting words into initial symbols reads of the training options: the
    layer above (``bpeviz.core.training.TrainOptions``) has these and more."""

    @property
    def algorithm(self) -> str: ...

    @property
    def marker(self) -> str | None: ...

    @property
    def marker_style(self) -> str: ...


def count_array(counts: Sequence[int]) -> np.ndarray:
    """The counts as int64, or as Python ints (an object array) when one passes 64 bits."""
    try:
        return np.asarray(counts, dtype=np.int64)
    except OverflowError:
        return np.array(list(counts), dtype=object)


def _weighted_counts(counts: Sequence[int], lengths: np.ndarray) -> tuple[np.ndarray, int]:
    """The counts as an array, and the number of initial symbols they weigh (exactly).

    The array is int64 when every count the merge loop can reach fits in 64 bits, else
    an object array of Python ints, which only the pure-Python loop takes: no pair
    count, unit count or replaced total can exceed ``sum(count * length)``, so that sum
    is the test.

    >>> _weighted_counts([2**62, 2**62], np.array([2, 4]))[0].dtype
    dtype('O')
    >>> _weighted_counts([2**62 - 1], np.array([2]))
    (array([4611686018427387903]), 9223372036854775806)
    """
    array = count_array(counts)
    if not len(array):
        return array, 0
    if array.dtype == np.int64 and int(array.max()) <= INT64_MAX // max(int(lengths.sum()), 1):
        return array, int(lengths @ array)  # the sum fits: int64 arithmetic is exact
    total = sum(c * n for c, n in zip(counts, lengths.tolist()))
    if total > INT64_MAX and array.dtype == np.int64:
        array = np.array(list(counts), dtype=object)
    return array, total


def initial_ids(corpus: Corpus, options: SymbolOptions,
                ids: dict[Symbol, int]) -> tuple[np.ndarray, np.ndarray]:
    """Every word's initial symbols as ids: (all ids concatenated as int32, word lengths).

    Vectorized with NumPy for the usual cases; words whose symbols the vocabulary lacks,
    or empty words, take the per-word path, which raises a ValueError naming the word.

    >>> from bpeviz.core.training import make_options
    >>> flat, lengths = initial_ids(Corpus.from_counts({"ab": 1, "b": 2}),
    ...                             make_options("bpe", merges=1), {"a": 0, "b": 1})
    >>> flat.tolist(), lengths.tolist()
    ([0, 1, 1], [2, 1])
    """
    words, marker = corpus.words, options.marker
    alg = get_algorithm(options.algorithm)
    flat = None
    if words and all(words):
        codes, lengths = alg.unit_codes(words)  # characters or bytes: the record's units
        flat = _unit_ids(codes, ids, "")
        if flat is not None and alg.continuing_prefix:
            later = _unit_ids(codes, ids, alg.continuing_prefix, missing_ok=True)
            is_first = np.zeros(len(codes), dtype=bool)
            is_first[np.cumsum(lengths) - lengths] = True
            if flat is not None and not (later[~is_first] < 0).any():
                flat = np.where(is_first, flat, later)
            else:
                flat = None
        elif flat is not None and marker and options.marker_style == "glued":
            last = [ids.get(w[-1] + marker, -1) for w in words]
            flat[np.cumsum(lengths) - 1] = last
            if min(last) < 0:
                flat = None
        elif flat is not None and marker:
            marker_id = ids.get(marker)
            if marker_id is None:
                flat = None
            else:
                flat = np.insert(flat, np.cumsum(lengths), marker_id)
                lengths = lengths + 1
    if flat is None:  # the per-word path
        split: list[int] = []
        sizes = []
        for word in words:
            symbols = alg.initial_symbols(word, marker, options.marker_style)
            for sym in symbols:
                i = ids.get(sym)
                if i is None:
                    raise ValueError(
                        f"the word {word!r} holds {sym!r}, which the base vocabulary lacks"
                    )
                split.append(i)
            sizes.append(len(symbols))
        flat = np.array(split, dtype=np.int32)
        lengths = np.array(sizes, dtype=np.int64)
    return flat.astype(np.int32, copy=False), lengths


def _unit_ids(codes: np.ndarray, ids: dict[Symbol, int], prefix: str,
              missing_ok: bool = False) -> np.ndarray | None:
    """Map unit codes (see ``Algorithm.unit_codes``) to the ids of the one-unit symbols,
    ``prefix`` + a character or a lone byte; None (or -1s) if one lacks it."""
    table: dict[int, int] = {}
    for sym, i in ids.items():
        if isinstance(sym, bytes):
            if len(sym) == 1 and not prefix:
                table[sym[0]] = i
        elif len(sym) == len(prefix) + 1 and sym.startswith(prefix):
            table[ord(sym[-1])] = i
    keys = np.array(sorted(table), dtype=np.uint32)
    values = np.array([table[k] for k in keys.tolist()], dtype=np.int64)
    if not len(keys):
        return np.full(len(codes), -1, dtype=np.int64) if missing_ok else None
    top = int(keys[-1])
    if top < _DENSE:  # bytes, most alphabets: one look-up a unit instead of a search
        # ids fit int32 (the engine's type); the last slot: every code past top
        dense = np.full(top + 2, -1, dtype=np.int32)
        dense[keys] = values
        past = len(codes) and int(codes.max()) > top  # else no copy clipped to top + 1
        if not past and np.array_equal(dense[:-1], np.arange(top + 1)):
            return codes.astype(np.int32)  # each unit's id is its code (the 256 bytes)
        got = np.take(dense, np.minimum(codes, top + 1) if past else codes)
        return got if missing_ok or not (got < 0).any() else None
    where = np.minimum(np.searchsorted(keys, codes), len(keys) - 1)
    found = keys[where] == codes
    if missing_ok:
        return np.where(found, values[where], -1)
    return values[where] if found.all() else None


#: the largest alphabet (highest code + 1) looked up through a table of its own
_DENSE = 1 << 18
