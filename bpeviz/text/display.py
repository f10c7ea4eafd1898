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
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bpeviz.text.symbols import Symbol

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

    Bytes follow ``byte_style`` ("gpt2" or "hex"); text goes through :func:`visible`:
    spaces, tabs and newlines become ``·``, ``→``, ``↵``, invisible characters their
    short name in angle brackets (``⟨ZWJ⟩``), and a combining mark with no letter before
    it sits on a dotted circle (``◌्``), as the Unicode charts draw it.

    >>> label(" the"), label("a\\u200bb"), label(b"\\x9c\\xe6", "hex"), label("\\u094d")
    ('·the', 'a⟨ZWSP⟩b', '<0x9C><0xE6>', '◌्')
    """
    text = display(symbol, byte_style)
    if not isinstance(symbol, bytes):
        text = visible(text)
    return text or "∅"


# -- combining marks and invisible characters --------------------------------------------
#: the dotted circle a combining mark is drawn on when no letter carries it
DOTTED_CIRCLE = "\u25cc"
#: the short names invisible characters are drawn with (as the Unicode charts abbreviate
#: them); any other invisible character shows as ``⟨U+XXXX⟩``
INVISIBLE_NAMES = {
    0x00AD: "SHY", 0x034F: "CGJ", 0x061C: "ALM", 0x180E: "MVS", 0x200B: "ZWSP",
    0x200C: "ZWNJ", 0x200D: "ZWJ", 0x200E: "LRM", 0x200F: "RLM", 0x202A: "LRE",
    0x202B: "RLE", 0x202C: "PDF", 0x202D: "LRO", 0x202E: "RLO", 0x2060: "WJ",
    0x2061: "FA", 0x2062: "IT", 0x2063: "IS", 0x2064: "IP", 0x2066: "LRI", 0x2067: "RLI",
    0x2068: "FSI", 0x2069: "PDI", 0xFEFF: "BOM", 0xE0001: "LANG TAG", 0xE007F: "CANCEL TAG",
    **{0xFE00 + i: f"VS{i + 1}" for i in range(16)},
    **{0xE0100 + i: f"VS{i + 17}" for i in range(240)},
    **{0xE0020 + i: f"TAG {chr(0x20 + i)}" for i in range(0x5F)},
}


def is_invisible(ch: str) -> bool:
    """True for a character drawn as nothing: a format character (Cf: joiners, bidi
    controls, ...), a variation selector, the combining grapheme joiner, a control or
    separator that is not ordinary whitespace."""
    return (ord(ch) in INVISIBLE_NAMES
            or unicodedata.category(ch) in ("Cc", "Cf", "Zs", "Zl", "Zp", "Cs"))


def is_mark(ch: str) -> bool:
    """True for a combining mark (Mn, Mc, Me) that is not an invisible selector: a
    vowel sign, a virama, an accent."""
    return unicodedata.category(ch)[0] == "M" and ord(ch) not in INVISIBLE_NAMES


def invisible_mark(ch: str) -> str:
    """How an invisible character is drawn: ``⟨ZWJ⟩``, or ``⟨U+XXXX⟩`` without a short
    name."""
    return f"⟨{INVISIBLE_NAMES.get(ord(ch)) or f'U+{ord(ch):04X}'}⟩"


def char_name(ch: str) -> str:
    """``U+094D DEVANAGARI SIGN VIRAMA``: a character's code point and Unicode name."""
    name = unicodedata.name(ch, "") or (
        "a surrogate, half of a UTF-16 pair" if unicodedata.category(ch) == "Cs" else
        "a control character" if unicodedata.category(ch) == "Cc" else "unnamed")
    return f"U+{ord(ch):04X} {name}"


def drawn(ch: str) -> str:
    """How one combining mark or invisible character is drawn on its own: ``◌्``,
    ``⟨ZWJ⟩``."""
    return DOTTED_CIRCLE + ch if is_mark(ch) else invisible_mark(ch)


def mark_names(text: str, limit: int = 8) -> list[str]:
    """Each distinct combining mark and invisible character of ``text`` (as drawn
    ``◌्`` or ``⟨ZWJ⟩``, or named by its drawn form ``⟨ZWJ⟩``), named: for a chip's
    hover title and the legend. Ordinary whitespace is left out (``·`` says it).

    >>> mark_names("नमस्ते")
    ['◌् U+094D DEVANAGARI SIGN VIRAMA', '◌े U+0947 DEVANAGARI VOWEL SIGN E']
    >>> mark_names("a⟨ZWJ⟩b")
    ['⟨ZWJ⟩ U+200D ZERO WIDTH JOINER']
    """
    found: dict[str, None] = {}
    for m in _DRAWN_NAME.finditer(text):
        ch = _BY_SHORT_NAME.get(m.group(1)) or (
            chr(int(m.group(1)[2:], 16)) if m.group(1).startswith("U+") else None)
        if ch is not None:
            found.setdefault(ch)
    for ch in text:
        if ch not in VISIBLE_WHITESPACE and (is_mark(ch) or is_invisible(ch)):
            found.setdefault(ch)
    return [f"{drawn(ch)} {char_name(ch)}" for ch in list(found)[:limit]]


def names_title(text: str) -> str:
    """``" · ◌् U+094D DEVANAGARI SIGN VIRAMA"``: :func:`mark_names` as the end of a
    chip's hover title, ``""`` without any."""
    names = mark_names(text)
    return "".join(f" · {n}" for n in names)


_BY_SHORT_NAME = {v: chr(k) for k, v in INVISIBLE_NAMES.items()}
_DRAWN_NAME = re.compile(r"⟨([A-Z0-9+ ]{2,12}|TAG .)⟩")


def mark_table(texts: Iterable[str]) -> dict[str, list[str]]:
    """For the browser: every combining mark and invisible character in ``texts``, as
    ``{character: [how it is drawn alone, its name]}`` (``["◌्", "U+094D DEVANAGARI
    SIGN VIRAMA"]``), so that the step bar's views draw and name them as Python does.

    >>> mark_table(["के", "a\\u200db"])
    {'े': ['◌े', 'U+0947 DEVANAGARI VOWEL SIGN E'], '\\u200d': ['⟨ZWJ⟩', \
'U+200D ZERO WIDTH JOINER']}
    """
    chars: set[str] = set()
    for text in texts:
        chars.update(text)
    return {ch: [drawn(ch), char_name(ch)] for ch in sorted(chars)
            if ord(ch) > 0x7E and (is_mark(ch) or is_invisible(ch))}


#: FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: text between them takes its direction
#: from its own first letter and moves none of the text around it
FSI, PDI = "\u2068", "\u2069"


def isolate(text: str) -> str:
    """``text`` between FSI and PDI, for a chart's label or hover text: Plotly draws plain
    text (no ``<bdi>``), where a right-to-left token next to others ("سل + ام → سلام") or
    next to a number would pull them into its own order. Meant for drawn text
    (:func:`label`, :func:`visible`): a bidi control of the user's own is drawn by name
    there, so none can end the isolate early.

    >>> isolate("سلام") == "\u2068سلام\u2069", isolate(label("\u2069"))
    (True, '\u2068⟨PDI⟩\u2069')
    """
    return FSI + text + PDI


def visible(text: str, whitespace: bool = True) -> str:
    """``text`` with nothing left unseen: spaces, tabs and newlines as ``·``, ``→``,
    ``↵`` (unless ``whitespace`` is False), invisible characters as ``⟨ZWJ⟩`` (a joiner
    inside an emoji sequence is kept, so the sequence stays one picture), and a combining
    mark with no letter to sit on (at the start, after whitespace or an invisible
    character) on a dotted circle: ``◌ेगा``.

    >>> visible("\\u0947गा"), visible("a\\u200cb"), visible("👩\\u200d💻") == "👩\\u200d💻"
    ('◌ेगा', 'a⟨ZWNJ⟩b', True)
    """
    out = []
    bare = True  # nothing before that a mark could sit on
    for i, ch in enumerate(text):
        if ch in VISIBLE_WHITESPACE:
            out.append(VISIBLE_WHITESPACE[ch] if whitespace else ch)
            bare = True
        elif ch == "\u200d" and 0 < i < len(text) - 1 and not (
                text[i - 1].isascii() or text[i + 1].isascii()) and not bare:
            out.append(ch)  # a joiner inside an emoji sequence: keep the sequence whole
        elif is_mark(ch) or (ord(ch) in INVISIBLE_NAMES and 0xFE00 <= ord(ch) <= 0xFE0F
                             and not bare and not is_mark(text[i - 1])
                             and not is_invisible(text[i - 1])):
            # a variation selector right after its base is part of it (❤️)
            out.append(DOTTED_CIRCLE + ch if bare else ch)
            bare = False
        elif is_invisible(ch):
            out.append(invisible_mark(ch))
            bare = True
        else:
            out.append(ch)
            bare = False
    return "".join(out)
