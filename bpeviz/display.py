"""How symbols, bytes and whitespace are shown: one place for every page and export.

Bytes show as GPT-2's printable stand-ins (``Ġ`` for a space) or as hex (``<0xE6>``);
whitespace and invisible characters of text are made visible; partial UTF-8 characters
never turn into U+FFFD.

>>> display(b" the"), display(b"\\x9c\\xe6", "hex")
('Ġthe', '<0x9C><0xE6>')
>>> label(" the"), visible("a\\tb\\n"), readable("苹".encode()[:2])
('·the', 'a→b↵', '<0xE8><0x8B>')
"""

from __future__ import annotations

import codecs
import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bpeviz.symbols import Symbol

_INVISIBLE = ("Cc", "Cf", "Zs", "Zl", "Zp", "Cs", "Mn", "Me")
#: how whitespace shows when made visible
VISIBLE_WHITESPACE = {" ": "·", "\t": "→", "\n": "↵", "\r": "␍"}


# -- bytes ------------------------------------------------------------------------------


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
    """The inverse of :func:`bytes_to_gpt2`; unknown characters raise ValueError.

    >>> gpt2_to_bytes("Ġhi")
    b' hi'
    """
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


def readable(token: bytes) -> str:
    """Bytes as text where they are whole UTF-8 characters, ``<0xE6>`` where not.

    >>> readable("苹".encode()), readable("苹".encode()[:2]), readable(b" \\xe6")
    ('苹', '<0xE8><0x8B>', ' <0xE6>')
    """
    return token.decode("utf-8", "bpeviz-hex")


def _hex_errors(err: UnicodeError) -> tuple[str, int]:
    assert isinstance(err, UnicodeDecodeError)
    bad = err.object[err.start : err.end]
    return "".join(f"<0x{b:02X}>" for b in bad), err.end


codecs.register_error("bpeviz-hex", _hex_errors)


# -- symbols ----------------------------------------------------------------------------


def raw_bytes(symbol: Symbol) -> bytes:
    """A symbol's bytes: a bytes symbol itself, a text symbol in UTF-8 (a lone surrogate
    kept as its three bytes, as the corpus reader keeps it).

    >>> raw_bytes("é"), raw_bytes(b"\\xc3")
    (b'\\xc3\\xa9', b'\\xc3')
    """
    return symbol if isinstance(symbol, bytes) else symbol.encode("utf-8", "surrogatepass")


def display(symbol: Symbol, byte_style: str = "gpt2") -> str:
    """A readable string for any symbol; bytes never turn into U+FFFD.

    >>> display(b"\\x9c\\xe6", "hex"), display(b" the")
    ('<0x9C><0xE6>', 'Ġthe')
    """
    if isinstance(symbol, bytes):
        return bytes_to_hex(symbol) if byte_style == "hex" else bytes_to_gpt2(symbol)
    return symbol


def label(symbol: Symbol, byte_style: str = "gpt2") -> str:
    """A readable, never-empty name for a symbol, for chips, tables and chart labels.

    Bytes follow ``byte_style`` ("gpt2" or "hex"); spaces, tabs and newlines become
    ``·``, ``→``, ``↵``; other invisible characters become ``⟨U+200B⟩``; a leading
    combining mark sits on a dotted circle.

    >>> label(" the"), label("a\\u200bb"), label(b"\\x9c\\xe6", "hex")
    ('·the', 'a⟨U+200B⟩b', '<0x9C><0xE6>')
    """
    text = display(symbol, byte_style)
    if not isinstance(symbol, bytes):
        text = visible(text)
        if text and all(unicodedata.category(ch) in _INVISIBLE for ch in text):
            text = "".join(f"⟨U+{ord(ch):04X}⟩" for ch in text)  # a lone joiner, say
    if text and unicodedata.combining(text[0]):
        text = "\u25cc" + text
    return text or "∅"


def visible(text: str) -> str:
    """Whitespace and invisible characters of ``text`` made visible (see :func:`label`)."""
    out = []
    for i, ch in enumerate(text):
        if ch in VISIBLE_WHITESPACE:
            out.append(VISIBLE_WHITESPACE[ch])
        elif ch == "\u200d" and 0 < i < len(text) - 1 and not (
                text[i - 1].isascii() or text[i + 1].isascii()):
            out.append(ch)  # a joiner inside an emoji sequence: keep the sequence whole
        elif unicodedata.category(ch) in ("Cc", "Cf", "Zs", "Zl", "Zp", "Cs"):
            out.append(f"⟨U+{ord(ch):04X}⟩")
        else:
            out.append(ch)
    return "".join(out)
