"""Symbols (str or bytes) and how they are shown; the per-algorithm facts (initial symbols,
joins, surface forms) live in :mod:`bpeviz.algorithms`, and the functions here ask it.

>>> initial_symbols("hug", "wordpiece")
['h', '##u', '##g']
>>> initial_symbols("low", "bpe", marker="</w>", marker_style="glued")
['l', 'o', 'w</w>']
>>> join("##p", "##l", "wordpiece"), join("S", "##h", "wordpiece")
('##pl', 'Sh')
"""

from __future__ import annotations

from typing import Any

# how symbols show moved to bpeviz.text.display; these names stay importable from here
from bpeviz.text.display import (  # noqa: F401
    _gpt2_char_index,
    bytes_to_gpt2,
    bytes_to_hex,
    display,
    gpt2_byte_chars,
    gpt2_to_bytes,
)

Symbol = str | bytes

WORDPIECE_PREFIX = "##"


def __getattr__(name: str) -> Any:
    """``ALGORITHMS`` and ``DEFAULT_SPECIAL_TOKENS``, kept here for old imports, come from
    :mod:`bpeviz.algorithms` (read lazily: it imports this module)."""
    if name in ("ALGORITHMS", "DEFAULT_SPECIAL_TOKENS"):
        from bpeviz import algorithms

        return getattr(algorithms, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def utf8_bytes(text: str) -> bytes:
    r"""The UTF-8 bytes byte-level BPE starts from, read as tiktoken reads a Python string
    holding surrogate code points (halves of UTF-16 pairs, which UTF-8 cannot encode): a
    high surrogate followed by a low one is the character they encode, any other
    surrogate is U+FFFD, the replacement character.

    >>> utf8_bytes("a\ud800b").hex(" "), utf8_bytes("\ud83d\ude00") == "😀".encode()
    ('61 ef bf bd 62', True)
    """
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # what tiktoken's Encoding.encode does then
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode()


def check_algorithm(name: str) -> str:
    """``name`` if it is a registered algorithm, else ValueError naming the choices."""
    from bpeviz.algorithms import get

    return get(name).name


def initial_symbols(
    word: str, algorithm: str, marker: str | None = None, marker_style: str = "separate"
) -> list[Symbol]:
    """The symbols a word starts as, before any merge (see ``Algorithm.initial_symbols``)."""
    from bpeviz.algorithms import get

    return get(algorithm).initial_symbols(word, marker, marker_style)


def join(left: Symbol, right: Symbol, algorithm: str) -> Symbol:
    """The token a merge of ``left`` and ``right`` creates (see ``Algorithm.join``)."""
    from bpeviz.algorithms import get

    return get(algorithm).join(left, right)


def surface(
    symbols: tuple[Symbol, ...] | list[Symbol], algorithm: str, marker: str | None = None
) -> str:
    """The text a split stands for: markers and ``##`` removed, bytes decoded.

    >>> surface(("tall", "er_"), "bpe"), surface(("Sh", "##e"), "wordpiece")
    ('taller_', 'She')
    """
    from bpeviz.algorithms import get

    return get(algorithm).surface(symbols, marker)
