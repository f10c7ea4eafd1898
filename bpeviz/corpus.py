"""A corpus is the table of unique words with their counts, in first-appearance order.

>>> c = Corpus.from_text("low low lower")
>>> list(zip(c.words, c.counts))
[('low', 2), ('lower', 1)]
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from bpeviz import pretokenize


@dataclass(frozen=True)
class Corpus:
    """Unique words, their counts, and the pre-tokenizer that produced them.

    ``pretokenizer`` is one of :data:`bpeviz.pretokenize.PRETOKENIZERS`, or ``"counts"``
    for a table given as counts (its words are then encoded with whitespace splitting).
    """

    words: tuple[str, ...]
    counts: tuple[int, ...]
    pretokenizer: str = "whitespace"

    def __post_init__(self) -> None:
        if len(self.words) != len(self.counts):
            raise ValueError("a corpus needs exactly one count per word")

    # -- constructors -------------------------------------------------------------
    @classmethod
    def from_text(cls, text: str, pretokenizer: str = "whitespace") -> Corpus:
        """Pre-tokenize ``text`` and count its words (first appearance order kept)."""
        counts = Counter(pretokenize.words(text, pretokenizer))
        return cls(tuple(counts), tuple(counts.values()), pretokenizer)

    @classmethod
    def from_counts(cls, counts: Mapping[str, int] | Iterable[tuple[str, int]]) -> Corpus:
        """A corpus from a word-frequency table, such as ``{"low": 5, "lower": 2}``.

        Repeated words are added up; words must be non-empty and counts positive integers.
        """
        items = counts.items() if isinstance(counts, Mapping) else counts
        table: dict[str, int] = {}
        for word, count in items:
            if not isinstance(word, str) or not word:
                raise ValueError(f"corpus words must be non-empty strings, got {word!r}")
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise ValueError(f"the count of {word!r} must be a positive integer, got {count!r}")
            table[word] = table.get(word, 0) + count
        return cls(tuple(table), tuple(table.values()), "counts")

    @classmethod
    def from_file(
        cls, path: str | Path, pretokenizer: str = "whitespace", fmt: str = "auto"
    ) -> Corpus:
        """Read a UTF-8 text file, or a ``word<TAB>count`` file (``fmt="counts"``).

        ``fmt="auto"`` treats the file as counts when every non-empty line is
        ``word<TAB>count``. Undecodable bytes raise a ValueError that says where they are.
        """
        return cls.from_bytes(Path(path).read_bytes(), pretokenizer, fmt, name=str(path))

    @classmethod
    def from_bytes(
        cls, data: bytes, pretokenizer: str = "whitespace", fmt: str = "auto", name: str = "input"
    ) -> Corpus:
        """Like :meth:`from_file`, for bytes already read (an upload, say)."""
        text = decode_utf8(data, name)
        if fmt not in ("auto", "text", "counts"):
            raise ValueError(f"unknown corpus format {fmt!r}; use 'auto', 'text' or 'counts'")
        if fmt == "counts" or (fmt == "auto" and looks_like_counts(text)):
            return cls.from_counts(parse_counts(text, name))
        return cls.from_text(text, pretokenizer)

    # -- facts --------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.words)

    @property
    def total(self) -> int:
        """Number of words with repeats (the sum of the counts)."""
        return sum(self.counts)

    @property
    def digest(self) -> str:
        """A short content hash, stable across runs: a cache key and a URL-safe id."""
        h = hashlib.sha256(self.pretokenizer.encode())
        for word, count in zip(self.words, self.counts):
            h.update(word.encode("utf-8", "surrogatepass"))
            h.update(b"\x00%d\x00" % count)
        return h.hexdigest()[:16]


def decode_utf8(data: bytes, name: str = "input") -> str:
    """Decode UTF-8 (a leading BOM is dropped); say where decoding fails, and how to fix it."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        bad = data[err.start : err.start + 4].hex(" ")
        raise ValueError(
            f"{name} is not UTF-8 text: byte {err.start} (line {line}, column {column}; "
            f"bytes {bad}) cannot be decoded. Save the file as UTF-8 and try again."
        ) from None


def looks_like_counts(text: str) -> bool:
    """True when every non-empty line is ``word<TAB>count``."""
    lines = [line for line in text.splitlines() if line.strip()]
    return bool(lines) and all(_count_line(line) is not None for line in lines)


def _count_line(line: str) -> tuple[str, int] | None:
    word, tab, count = line.rstrip("\r").rpartition("\t")
    if not tab or not word or not count.strip().isdigit():
        return None
    return word, int(count)


def parse_counts(text: str, name: str = "input") -> list[tuple[str, int]]:
    """Parse ``word<TAB>count`` lines; a bad line raises a ValueError naming it."""
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        row = _count_line(line)
        if row is None:
            raise ValueError(
                f"{name}, line {number}: expected 'word<TAB>count', got {line[:60]!r}"
            )
        rows.append(row)
    return rows
