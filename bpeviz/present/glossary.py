"""What the special notations on screen mean, explained with the tokens actually shown.

Given the tokens a page draws, :func:`notes` picks the notations among them (``##``,
``Ġ``/``Ċ`` or ``<0xE8>`` bytes, ``</w>`` separate or glued, ``[UNK]``, tokens holding
part of a character, ``·`` for a space) and explains each with an example taken from
those tokens; :func:`legend_html` draws the list. No streamlit here.

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_counts({"hug": 3, "hugs": 1}), "wordpiece", merges=3)
>>> [n.key for n in notes(t, ["hug", "##s"])]
['wordpiece-prefix']
>>> notes(t, ["hug", "##s"])[0].text.split(":")[1]
' “##s” is “s” glued to the piece before it, with no space; a piece without ## starts a word.'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bpeviz.algorithms import get as get_algorithm
from bpeviz.text.display import (
    VISIBLE_WHITESPACE,
    bytes_to_gpt2,
    bytes_to_hex,
    char_name,
    drawn,
    is_invisible,
    is_mark,
)
from bpeviz.text.symbols import Symbol

if TYPE_CHECKING:
    from bpeviz.core.training import Training

#: the order notes are listed in
KEYS = ("wordpiece-prefix", "byte-gpt2", "byte-hex", "marker", "glued-marker", "space",
        "combining", "invisible", "partial", "unk")
#: how many combining marks, and invisible characters, the legend names at most
MAX_NAMED = 6


@dataclass(frozen=True)
class Note:
    """One notation: ``key`` (see :data:`KEYS`), the ``sample`` token it shows (as on
    screen) and ``text``, the explanation made with that sample."""

    key: str
    sample: str
    text: str


def _whole_chars(data: bytes) -> list[str]:
    """The characters ``data`` holds whole (UTF-8), in order."""
    return list(data.decode("utf-8", "ignore"))


def _is_text(data: bytes) -> bool:
    """True when ``data`` is whole UTF-8 characters."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def notes(training: Training, symbols: Iterable[Symbol], byte_style: str = "gpt2",
          partial: Sequence[tuple[bytes, str]] = (), unknown: Sequence[str] = ()) -> list[Note]:
    """The notes for the tokens on screen.

    ``symbols``: vocabulary symbols as drawn (strings, or bytes for BBPE); ``partial``:
    ``(token bytes, the character it is part of)`` for tokens holding part of a
    character; ``unknown``: the input text that became ``[UNK]`` tokens.
    """
    from bpeviz.text.display import label

    alg = get_algorithm(training.algorithm)
    prefix = alg.continuing_prefix
    options = getattr(training, "options", None)  # none for PickyBPE's own trainer
    marker = getattr(options, "marker", None)
    glued = getattr(options, "marker_style", "") == "glued"
    found: dict[str, Note] = {}
    marks: dict[str, None] = {}
    invisible: dict[str, None] = {}
    for symbol in symbols:
        if isinstance(symbol, str) and not symbol.isascii():
            for ch in symbol:
                if is_mark(ch) and len(marks) < MAX_NAMED:
                    marks.setdefault(ch)
                elif (ch not in VISIBLE_WHITESPACE and is_invisible(ch)
                      and len(invisible) < MAX_NAMED):
                    invisible.setdefault(ch)
        if len(found) == len(KEYS) - 2:
            continue
        if isinstance(symbol, bytes):
            _byte_notes(found, symbol, byte_style)
            if "partial" not in found and not _is_text(symbol):
                found["partial"] = _partial_note(symbol, None, byte_style)
            continue
        if not isinstance(symbol, str):
            continue
        if (prefix and symbol.startswith(prefix)
                and len(symbol) > len(prefix) and "wordpiece-prefix" not in found):
            rest = symbol[len(prefix):]
            found["wordpiece-prefix"] = Note(
                "wordpiece-prefix", symbol,
                f"## marks a piece inside a word: “{symbol}” is “{rest}” glued to the piece "
                "before it, with no space; a piece without ## starts a word.")
        if marker and symbol.endswith(marker):
            if symbol == marker and "marker" not in found:
                found["marker"] = Note(
                    "marker", marker,
                    f"{marker} is the end-of-word marker, a symbol of its own after each "
                    f"word's last character: merged into a token (such as “x{marker}”), it "
                    "lets a word's ending become a different token from the same letters "
                    "inside a word.")
            elif symbol != marker and "glued-marker" not in found:
                stem = symbol[: -len(marker)]
                found["glued-marker" if glued else "marker"] = Note(
                    "glued-marker" if glued else "marker", symbol,
                    f"“{symbol}” is “{stem}” at the end of a word: {marker} marks a word's "
                    f"end{', glued to its last character from the start' if glued else ''}, "
                    f"so “{stem}” inside a word is a different token.")
        if symbol != label(symbol, byte_style) and "space" not in found and any(
                ch.isspace() for ch in symbol):
            shown = label(symbol, byte_style)
            found["space"] = Note(
                "space", shown,
                f"“{shown}” holds whitespace made visible: · is a space, → a tab, ↵ a "
                "line break.")
    if marks:
        named = _named(marks)
        one = len(marks) == 1
        found["combining"] = Note(
            "combining", drawn(next(iter(marks))),
            f"{named} {'is a combining mark' if one else 'are combining marks'}: "
            f"{'it belongs' if one else 'each belongs'} to the letter before it (a vowel "
            "sign, a virama, an accent); a token that starts with one draws it on a dotted "
            "circle ◌, as the Unicode charts do.")
    if invisible:
        named = _named(invisible)
        one = len(invisible) == 1
        found["invisible"] = Note(
            "invisible", drawn(next(iter(invisible))),
            f"{named} {'is an invisible character' if one else 'are invisible characters'}"
            " (a joiner, a variation selector, a direction mark), drawn with "
            f"{'its' if one else 'their'} short name in ⟨ ⟩: "
            f"{'it is' if one else 'they are'} in the text and in the tokens, but not "
            "seen; inside an emoji sequence a joiner is left as it is, so the sequence "
            "shows as one picture.")
    if partial:  # a token of an encoded text: the character it is part of is known
        found["partial"] = _partial_note(*partial[0], byte_style)
    if unknown:
        what = unknown[0]
        found["unk"] = Note(
            "unk", "[UNK]",
            (f"[UNK] stands for “{what}”, which this vocabulary cannot spell: "
             + alg.unknown_words))
    return [found[k] for k in KEYS if k in found]


def _named(chars: Iterable[str]) -> str:
    """``◌् (U+094D DEVANAGARI SIGN VIRAMA), ◌े (U+0947 ...)``."""
    return ", ".join(f"{drawn(ch)} ({char_name(ch)})" for ch in chars)


def _byte_notes(found: dict[str, Note], symbol: bytes, byte_style: str) -> None:
    if byte_style == "hex":
        high = [b for b in symbol if not 0x21 <= b <= 0x7E]
        if high and "byte-hex" not in found:
            b = high[0]
            found["byte-hex"] = Note(
                "byte-hex", f"<0x{b:02X}>",
                f"<0x{b:02X}> is one byte written in hexadecimal (byte {b}): byte-level "
                "tokens are bytes, and bytes that are not printable ASCII are shown this "
                "way; a character outside ASCII takes 2 to 4 bytes.")
        return
    if "byte-gpt2" in found:
        return
    odd = [(b, bytes_to_gpt2(bytes((b,)))) for b in symbol if not 0x21 <= b <= 0x7E]
    if not odd:
        return
    b, ch = odd[0]
    named = {0x20: "a space", 0x0A: "a line break", 0x09: "a tab"}.get(b, f"the byte {b}")
    chars = _whole_chars(symbol)
    wide = next((c for c in chars if len(c.encode()) > 1), None)
    example = (f" A character outside ASCII is several bytes, so several such characters: "
               f"“{wide}” is {bytes_to_gpt2(wide.encode())}." if wide else "")
    found["byte-gpt2"] = Note(
        "byte-gpt2", ch,
        f"{ch} stands for {named} (byte 0x{b:02X}): byte-level tokens are bytes, and each "
        "byte that is not printable shows as one printable character, as GPT-2 and "
        f"Hugging Face write them.{example}")


def _partial_note(raw: bytes, char: str | None, byte_style: str) -> Note:
    shown = bytes_to_hex(raw) if byte_style == "hex" else bytes_to_gpt2(raw)
    if char:
        full = char.encode("utf-8", "surrogatepass")
        whole = bytes_to_hex(full) if byte_style == "hex" else bytes_to_gpt2(full)
        text = (f"A dashed chip holds part of a character: “{shown}” is part of “{char}”, "
                f"whose {len(full)} bytes are {whole}; the other bytes are in the tokens "
                "next to it.")
    else:
        text = (f"“{shown}” holds part of a character (bytes {raw.hex(' ')}): a byte-level "
                "merge may join bytes of neighbouring characters, so a token need not hold "
                "whole characters.")
    return Note("partial", shown, text)


def token_notes(training: Training, text: str, tokens: Sequence[Any],
                byte_style: str = "gpt2") -> list[Note]:
    """The notes for an encoded text (:class:`bpeviz.core.encoding.Token` records).

    Byte-level tokens that hold whole characters are drawn as their text, so only the
    partial ones bring the byte notations.
    """
    vocab = training.vocab
    alg = get_algorithm(training.algorithm)
    symbols: list[Symbol] = [alg.chip_symbol(vocab[t.id], t.text, t.partial)
                             for t in tokens if not t.unk and 0 <= t.id < len(vocab)]
    partial = [(bytes(t.bytes), text[t.start:t.end]) for t in tokens if t.partial]
    unknown = [text[t.start:t.end] for t in tokens if t.unk]
    return notes(training, symbols, byte_style, partial, unknown)


def legend_html(found: Sequence[Note]) -> str:
    """The notes as a short list (``class="bv-legend"``, one ``data-note`` per item)."""
    from bpeviz.present.render import esc, isolate_quoted

    if not found:
        return ""
    # every “quoted” sample is the user's text: isolated, so that a right-to-left one
    # leaves the sentence around it in order
    items = "".join(f'<li data-note="{esc(n.key)}">{isolate_quoted(esc(n.text))}</li>'
                    for n in found)
    return (f'<div class="bv-legend" style="font-size:.92em;opacity:.85">'
            f'<strong>What the marks mean</strong><ul style="margin:.2em 0 .4em 1.2em;padding:0">'
            f"{items}</ul></div>")


# -- notes on single chips (hover titles) ---------------------------------------------------
#: what each notation means, in a few words, for a chip's hover title
CHIP_NOTES = {
    "wordpiece-prefix": "## marks a piece inside a word: glued to the piece before it, "
                        "no space",
    "marker": "{marker} is the end-of-word marker: a word's ending becomes its own token",
    "marker-end": "ends with {marker}: this token ends a word (the same letters inside a "
                  "word are another token)",
    "glued-marker": "ends with {marker}, glued to the last character: this token ends a "
                    "word (the same letters inside a word are another token)",
    "space": "· is a space, → a tab, ↵ a line break, made visible",
    "byte-space": "Ġ is a space (byte 0x20)",
    "byte-newline": "Ċ is a line break (byte 0x0A)",
    "byte-tab": "ĉ is a tab (byte 0x09)",
    "byte-gpt2": "byte-level: each odd-looking character stands for one byte, as GPT-2 "
                 "writes bytes; a character outside ASCII is 2 to 4 bytes",
    "byte-hex": "<0x..> is one byte in hexadecimal; a character outside ASCII is 2 to 4 "
                "bytes",
    "partial": "dashed: holds only part of a character's bytes; the rest are in the "
               "tokens next to it",
    "unk": "[UNK] is the unknown token: it stands for text this vocabulary cannot spell",
}


def chip_note(training: Training, symbol: Symbol, byte_style: str = "gpt2") -> str:
    """The notes a chip of ``symbol`` carries in its hover title (``""`` when none),
    from :data:`CHIP_NOTES`, joined by "; ".

    >>> from bpeviz import Corpus, train
    >>> t = train(Corpus.from_counts({"hug": 3, "hugs": 1}), "wordpiece", merges=3)
    >>> chip_note(t, "##s")
    '## marks a piece inside a word: glued to the piece before it, no space'
    >>> chip_note(t, "hug")
    ''
    """
    keys = []
    # a training with its own trainer (PickyBPE's) may have no merge options: no marker,
    # its record's special tokens
    options = getattr(training, "options", None)
    specials = getattr(options, "special_tokens",
                       get_algorithm(training.algorithm).special_tokens)
    if isinstance(symbol, bytes):
        if byte_style == "hex":
            if any(not 0x21 <= b <= 0x7E for b in symbol):
                keys.append("byte-hex")
        else:
            keys += [k for b, k in ((0x20, "byte-space"), (0x0A, "byte-newline"),
                                    (0x09, "byte-tab")) if b in symbol]
            if any(not 0x21 <= b <= 0x7E and b not in (0x20, 0x0A, 0x09) for b in symbol):
                keys.append("byte-gpt2")
        if not _is_text(symbol):
            keys.append("partial")
    elif isinstance(symbol, str):
        marker = getattr(options, "marker", None)
        prefix = get_algorithm(training.algorithm).continuing_prefix
        if prefix and symbol.startswith(prefix) and len(symbol) > len(prefix):
            keys.append("wordpiece-prefix")
        if marker and symbol.endswith(marker):
            keys.append("marker" if symbol == marker else
                        "glued-marker" if getattr(options, "marker_style", "") == "glued"
                        else "marker-end")
        if symbol == "[UNK]" and symbol in specials:
            keys.append("unk")
        if any(ch in " \t\n" for ch in symbol):
            keys.append("space")
    return "; ".join(CHIP_NOTES[k].format(marker=getattr(options, "marker", None)) for k in keys)


class ChipNotes:
    """``chip_note`` for one training and byte style, remembered per symbol: pass it to
    the render functions (``notes=``) so that each chip's title says what its marks mean.

    >>> from bpeviz import Corpus, train
    >>> notes = ChipNotes(train(Corpus.from_counts({"hug": 3, "hugs": 1}), "wordpiece",
    ...                         merges=3))
    >>> notes("##s").startswith("## marks")
    True
    """

    def __init__(self, training: Training, byte_style: str = "gpt2") -> None:
        self.training, self.byte_style = training, byte_style
        self._seen: dict[Symbol, str] = {}

    def __call__(self, symbol: Symbol) -> str:
        note = self._seen.get(symbol)
        if note is None:
            note = self._seen[symbol] = chip_note(self.training, symbol, self.byte_style)
        return note
