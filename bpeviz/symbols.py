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

from functools import lru_cache
from typing import Any

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


@lru_cache(maxsize=1)
def gpt2_byte_chars() -> tuple[str, ...]:
    """GPT-2's printable stand-in for each byte value (space -> 'Ġ', newline -> 'Ċ')."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1),
                 *range(ord("®"), ord("ÿ") + 1)]
    table = {}
    extra = 0
    for byte in range(256):
        if byte in printable:
            table[byte] = chr(byte)
        else:
            table[byte] = chr(256 + extra)
            extra += 1
    return tuple(table[b] for b in range(256))


def bytes_to_gpt2(token: bytes) -> str:
    """``b' hi'`` -> ``'Ġhi'``: the GPT-2 / Hugging Face ByteLevel spelling of a token."""
    chars = gpt2_byte_chars()
    return "".join(chars[b] for b in token)


def gpt2_to_bytes(text: str) -> bytes:
    """The inverse of :func:`bytes_to_gpt2`; unknown characters raise ValueError."""
    index = _gpt2_char_index()
    try:
        return bytes(index[ch] for ch in text)
    except KeyError as err:
        raise ValueError(
            f"{text!r} is not a byte-level token: {err.args[0]!r} stands for no byte"
        ) from None


@lru_cache(maxsize=1)
def _gpt2_char_index() -> dict[str, int]:
    return {ch: b for b, ch in enumerate(gpt2_byte_chars())}


def bytes_to_hex(token: bytes) -> str:
    """``b'\\x9c\\xe6'`` -> ``'<0x9C><0xE6>'``; printable ASCII stays as it is."""
    return "".join(chr(b) if 0x21 <= b <= 0x7E else f"<0x{b:02X}>" for b in token)


def display(symbol: Symbol, byte_style: str = "gpt2") -> str:
    """A readable string for any symbol; bytes never turn into U+FFFD.

    >>> display(b"\\x9c\\xe6", "hex"), display(b" the")
    ('<0x9C><0xE6>', 'Ġthe')
    """
    if isinstance(symbol, bytes):
        return bytes_to_hex(symbol) if byte_style == "hex" else bytes_to_gpt2(symbol)
    return symbol
