"""Symbols: a token of text (``str``) or of bytes (``bytes``), and the bytes text starts as.

What an algorithm makes of them (initial symbols, joins, surface forms) is its record's,
in :mod:`bpeviz.algorithms`; how they are shown is :mod:`bpeviz.text.display`'s.
"""

from __future__ import annotations

Symbol = str | bytes

WORDPIECE_PREFIX = "##"


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
