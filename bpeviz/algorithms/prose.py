"""What an algorithm says about itself: sentences made of text and symbol chips
(:class:`Sym`), the helpers that write numbers and lists the way a newcomer reads them
aloud, and :class:`Prose`, the methods of the :class:`~bpeviz.algorithms.base.Algorithm`
record that write its own sentences and answer for its symbols. The lesson
(:mod:`bpeviz.analysis.lesson`) and the explanations call these and never ask which
algorithm they explain: a record with other words (its fields ``unit_word``,
``split_words``, ``encode_words``, ``trace_words``, ``unknown_words``, ``score_why``)
changes what they say.

>>> sentence_text(("merge ", Sym("a", 3), " + ", Sym("b", 4)))
'merge a + b'
>>> times(2), plural(1, "word"), plural(3, "word")
('twice', '1 word', '3 words')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bpeviz.text.display import label, visible
from bpeviz.text.symbols import Symbol


@dataclass(frozen=True)
class Sym:
    """A vocabulary symbol inside a sentence or a split: ``symbol``, its token ``id``;
    ``new`` marks the token a merge just made."""

    symbol: Symbol
    id: int
    new: bool = False


Part = str | Sym
Sentence = tuple[Part, ...]


def sentence_text(sentence: Sentence, byte_style: str = "gpt2") -> str:
    """A sentence as plain text."""
    return "".join(label(p.symbol, byte_style) if isinstance(p, Sym) else p for p in sentence)


# -- numbers and lists, read aloud ----------------------------------------------------
def times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n:,} times")


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def num(x: float) -> str:
    return f"{x:.4g}"


def short(word: str, limit: int = 32) -> str:
    return word if len(word) <= limit else word[: limit - 1] + "…"


def quote(word: str) -> str:
    """A word in quotes, whitespace made visible (a line break shows as ↵)."""
    return f"“{visible(short(word))}”"


def spaced(symbols: Sequence[Sym]) -> list[Part]:
    """Symbols separated by spaces, as sentence parts."""
    out: list[Part] = []
    for i, s in enumerate(symbols):
        if i:
            out.append(" ")
        out.append(s)
    return out


def listed(items: Sequence[Sequence[Part]], more: int = 0, what: str = "") -> list[Part]:
    """Items joined with commas and "and", with "N more <what>s" when some were left out.

    >>> sentence_text(tuple(listed([["a"], ["b"], ["c"]], 2, "word")))
    'a, b, c and 2 more words'
    """
    out: list[Part] = []
    for i, item in enumerate(items):
        if i:
            out.append(" and " if i == len(items) - 1 and more <= 0 else ", ")
        out.extend(item)
    if more > 0:
        out.append(f" and {more:,} more" + (f" {what}{'s' if more > 1 else ''}" if what else ""))
    return out


def whole_characters(symbol: Symbol) -> bool:
    """Whether ``symbol`` spells whole characters (bytes that are valid UTF-8; any text)."""
    if not isinstance(symbol, bytes):
        return True
    try:
        symbol.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _byte_chips(chunk: bytes) -> list[Part]:
    return spaced([Sym(bytes((x,)), x) for x in chunk])


# -- the record's own sentences -----------------------------------------------------------
class Prose:
    """The :class:`~bpeviz.algorithms.base.Algorithm` methods that write its sentences and
    answer for its symbols (mixed into the record; they read only its fields)."""

    # the record's fields these methods read (declared on Algorithm)
    name: str
    short: str
    units: str
    unit_word: str
    split_words: str
    encode_words: str
    trace_words: str
    unknown_words: str
    continuing_prefix: str
    score_kind: str
    byte_level: bool

    def units_named(self, n: int) -> str:
        """``n`` of the symbols a word starts as, in words.

        >>> from bpeviz.algorithms import get
        >>> get("bbpe").units_named(3), get("bpe").units_named(1)
        ('3 bytes', '1 symbol')
        """
        return plural(n, self.unit_word)

    def split_in_words(self, marker: str | None = None, marker_style: str = "separate") -> str:
        """How it cuts a word into its first symbols, a sentence up to its colon.

        >>> from bpeviz.algorithms import get
        >>> get("bpe").split_in_words("</w>", "glued")[:60]
        'BPE cuts every word into its characters and glues </w> to th'
        """
        if self.split_words:
            return self.split_words
        where = ("" if not marker else
                 f" and adds {marker} after the last one, so the end of a word is a symbol "
                 "of its own" if marker_style == "separate" else
                 f" and glues {marker} to the last one, so a word's last character differs "
                 "from the same character inside a word")
        return f"{self.short} cuts every word into its {self.units}{where}"

    def trace_in_words(self, word: str, step: int) -> str:
        """How encoding at ``step`` cuts ``word`` (already escaped for HTML if need be)."""
        return self.trace_words.format(word=word, step=f"{step:,}", units=self.units)

    def scoring_options(self, scoring: str) -> dict[str, Any]:
        """The ``scoring`` training option for a training that ranks pairs by ``scoring``:
        none when its pairs can only be ranked by count."""
        return {} if self.score_kind == "count" else {"scoring": scoring}

    def whole(self, symbol: Symbol) -> bool:
        """Whether one of its symbols holds whole characters only (a byte-level token may
        hold part of one)."""
        return whole_characters(symbol)

    def byte_spans(self, word: str, symbols: Sequence[Symbol]) -> list[tuple[int, int]] | None:
        """Where each of ``symbols``, the cut of ``word``, lies in the word's UTF-8 bytes,
        when a symbol may hold part of a character; None when its symbols hold whole
        characters (characters, not bytes) or are not the word's bytes.

        >>> from bpeviz.algorithms import get
        >>> get("bbpe").byte_spans("é!", [b"\\xc3", b"\\xa9!"]), get("bpe").byte_spans("a", ["a"])
        ([(0, 1), (1, 3)], None)
        """
        if not self.byte_level or not all(isinstance(s, bytes) for s in symbols):
            return None
        ends, end = [], 0
        for s in symbols:
            end += len(s)
            ends.append(end)
        if end != len(word.encode("utf-8", "surrogatepass")):
            return None
        return list(zip([0, *ends[:-1]], ends))

    def chip_symbol(self, symbol: Symbol, text: str, partial: bool) -> Symbol:
        """What the chip of an encoded token draws: its vocabulary ``symbol``; a byte-level
        token that holds whole characters, its ``text``."""
        return text if self.byte_level and not partial else symbol

    def alphabet_sentences(self, words: Sequence[str], used: Sequence[Sym], tokens: int,
                           specials: Sequence[str],
                           lengths: Sequence[tuple[int, int]]) -> list[Sentence]:
        """The lesson's sentences on the starting vocabulary: ``words``, the corpus words;
        ``used``, the symbols they start as; ``tokens``, how many symbols the corpus then
        is; ``lengths``, each word's (count, symbols)."""
        if self.byte_level:
            return self._byte_alphabet(words, used, tokens)
        out: list[Sentence] = []
        shown = list(used[:40])
        out.append((
            f"The starting vocabulary is the {len(used):,} different symbols: ",
            *spaced(shown), f" and {len(used) - 40:,} more" if len(used) > 40 else "",
            "." + ("" if not specials else
                   f" (It also holds the special token {specials[0]}, "
                   "which never merges.)" if len(specials) == 1 else
                   f" (It also holds {len(specials):,} special tokens, such as "
                   f"{specials[0]}, which never merge.)")))
        formula = (" = " + " + ".join(f"{c}×{k}" for c, k in lengths)
                   if len(lengths) <= 6 else "")
        out.append((
            f"The corpus is now {tokens:,} {self.unit_word}s long{formula} "
            f"(each word's {self.unit_word}s times how often the word appears).",))
        return out

    def _byte_alphabet(self, words: Sequence[str], used: Sequence[Sym],
                       tokens: int) -> list[Sentence]:
        out: list[Sentence] = []
        wide = next((ch for w in words for ch in w if len(ch.encode("utf-8")) > 1), None)
        if wide is not None:
            raw = wide.encode("utf-8")
            out.append((
                f"An English letter is one byte; {quote(wide)} is {len(raw)} bytes "
                f"({raw.hex(' ').upper()}), drawn ", *_byte_chips(raw),
                ": every byte shows as one stand-in character, as GPT-2 writes them."))
        if any(w[:1] == " " for w in words):
            out.append(("The space in front of a word is byte 32 (0x20 in "
                        "hexadecimal), drawn ", Sym(b" ", 32), "."))
        out.append((
            f"The starting vocabulary is all 256 possible bytes, so any text can be written, "
            f"even one never seen; this corpus uses {plural(len(used), 'of them', 'of them')}"
            f", and is now {tokens:,} bytes long.",))
        return out

    def merge_notes(self, token: Sym, word: str | None,
                    before: Sequence[Symbol]) -> list[Sentence]:
        """The lesson's notes on what a merge's new ``token`` holds, first made in ``word``
        after the symbols ``before`` it there: for byte-level BPE, a space or part of a
        character; nothing for an algorithm whose tokens are characters."""
        if not self.byte_level:
            return []
        raw = token.symbol
        out: list[Sentence] = []
        if isinstance(raw, bytes) and raw[:1] == b" " and len(raw) > 1:
            out.append((Sym(b" ", 32), " is the space in front of a word, so the token ",
                        token, f" stands for {quote(raw.decode('utf-8', 'replace'))}: "
                        "the start of a word."))
        if self.whole(raw) or word is None:
            return out
        start = sum(len(s) for s in before)
        data = word.encode("utf-8")
        chars = []  # (char, its bytes, the token's bytes inside it)
        offset = 0
        for ch in word:
            b = ch.encode("utf-8")
            lo, hi = max(offset, start), min(offset + len(b), start + len(raw))
            if lo < hi:
                chars.append((ch, b, data[lo:hi]))
            offset += len(b)
        parts: list[Part] = ["The bytes of ", token, " do not make whole characters: in ",
                             quote(word), " they are "]
        described = [[*_byte_chips(inside), f", all of {quote(ch)}"] if inside == b else
                     [*_byte_chips(inside), f", part of {quote(ch)} (", *_byte_chips(b), ")"]
                     for ch, b, inside in chars]
        parts.extend(listed(described))
        parts.append(". Byte-level BPE ignores where characters begin and end; the token "
                     "is drawn as bytes, never as a broken character.")
        if len(data) >= start + len(raw):
            out.append(tuple(parts))
        return out

    def rejoin_sentences(self, made: Sequence[tuple[Symbol, int, int]]) -> list[Sentence]:
        """The lesson's note on the longest token, of ``made`` (token, id, merge step), that
        joins units back into whole characters outside ASCII; none when its units are
        characters already."""
        if not self.byte_level:
            return []
        whole = [m for m in made if self.whole(m[0])
                 and any(b >= 0x80 for b in m[0])]  # type: ignore[union-attr]
        if not whole:
            return []
        token, token_id, step = max(whole, key=lambda m: len(m[0]))
        text = token.decode("utf-8")  # type: ignore[union-attr]
        return [("Bytes join back into whole characters: ", Sym(token, token_id),
                 f" (merge {step}, {len(token)} bytes) is {quote(text)}.",)]

    def reading_sentences(self, word: str, tokens: Sequence[Any]) -> list[Sentence]:
        """The lesson's note on how ``word``'s ``tokens`` (encoded tokens: ``text``,
        ``start``, ``end``, ``partial``) read as text, when its tokens are bytes and a
        token may hold part of a character; none when they are characters."""
        if not self.byte_level:
            return []
        read = [[f"part of {quote(word[t.start:t.end])}"] if t.partial
                else [quote(t.text)] for t in tokens]
        return [("Read as text, the tokens are ", *listed(read),
                 ": a token may hold part of a character, and decoding joins the bytes back.")]

    def missing_unit(self, word: str, vocab: Any) -> str | None:
        """The first character of ``word`` whose starting symbol ``vocab`` lacks (what
        makes it unknown), or None."""
        return next((ch for ch, s in zip(word, self.initial_symbols(word))  # type: ignore[attr-defined]
                     if s not in vocab), None)
