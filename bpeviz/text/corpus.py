"""A corpus is the table of unique words with their counts, in first-appearance order.

>>> c = Corpus.from_text("low low lower")
>>> list(zip(c.words, c.counts))
[('low', 2), ('lower', 1)]
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from bpeviz.text import pretokenize


@dataclass(frozen=True)
class Corpus:
    """Unique words, their counts, and the pre-tokenizer that produced them.

    ``pretokenizer`` is one of :data:`bpeviz.text.pretokenize.PRETOKENIZERS`, or ``"counts"``
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
        counts = pretokenize.counts(text, pretokenizer)
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

        ``fmt="auto"`` treats the file as counts when it is mostly ``word<TAB>count``
        lines (see :func:`looks_like_counts`); a bad line in such a file, like one in a
        ``fmt="counts"`` file, raises a ValueError naming the file, the line and what is
        wrong. One header line (``word<TAB>count``) is skipped. Undecodable bytes raise a
        ValueError that says where they are.
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
            return cls.from_counts(parse_counts(text, name, detected=fmt == "auto"))
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


#: Python's int() refuses longer digit strings (sys.get_int_max_str_digits()).
MAX_COUNT_DIGITS = 4300


def looks_like_counts(text: str) -> bool:
    r"""True when the text is *mostly* ``word<TAB>count`` lines, so it is read as counts.

    "Mostly": more than half of the non-empty lines, after an optional header line (see
    :func:`parse_counts`), are ``word<TAB>count`` with a whole-number count. Such a file
    is a word-count table with a few bad lines (which :func:`parse_counts` then names),
    not prose: a text rarely ends most of its lines with a tab and a number.

    >>> looks_like_counts("word\tcount\nlow\t5\nlower\t6\nlowest\tsix\n")
    True
    >>> looks_like_counts("Chapter\t1\nIt was a dark night.\n")
    False
    """
    lines = [line for line in text.splitlines() if line.strip()]
    if 2 * text.count("\t") <= len(lines) - 1:  # too few tabs: prose, decided at C speed
        return False
    if lines and _is_header(lines[0]):
        lines = lines[1:]
    bad = 0
    for line in lines:
        if _count_problem(line)[1] is not None:
            bad += 1
            if 2 * bad >= len(lines):
                return False
    return bool(lines)


def _split_count(line: str) -> tuple[str, str]:
    word, _, count = line.rstrip("\r").rpartition("\t")
    return word, count.strip()


def _is_header(line: str) -> bool:
    """A first line such as ``word<TAB>count``: a tab, and no digit in the last column."""
    word, count = _split_count(line)
    return "\t" in line and bool(word.strip()) and bool(count) and not any(
        c.isdigit() for c in count)


def _count_problem(line: str) -> tuple[tuple[str, int] | None, str | None]:
    """``((word, count), None)`` for a good ``word<TAB>count`` line, else ``(None, why)``."""
    if "\t" not in line:
        return None, "no tab between the word and its count"
    word, count = _split_count(line)
    if not word:
        return None, "the word before the tab is empty"
    if not count:
        return None, "the count after the tab is empty"
    digits = count[1:] if count[0] in "+-" else count
    if digits.isascii() and digits.isdigit():
        if count[0] == "-" and int(digits):
            return None, f"the count {count} is negative"
        if len(digits) > MAX_COUNT_DIGITS:
            return None, (f"the count has {len(digits):,} digits; bpeviz reads counts of "
                          f"up to {MAX_COUNT_DIGITS:,} digits")
        if not int(digits):
            return None, "the count is 0; every word needs a count of at least 1"
        return (word, int(digits)), None
    try:
        float(count)
    except ValueError:
        return None, f"the count {count[:20]!r} is not a whole number written in digits 0-9"
    return None, f"the count {count[:20]} is not a whole number"


def parse_counts(text: str, name: str = "input", detected: bool = False
                 ) -> list[tuple[str, int]]:
    r"""Parse ``word<TAB>count`` lines; a bad line raises a ValueError naming it.

    The first non-empty line may be a header, such as ``word<TAB>count`` (a line whose
    last column holds no digit); it is skipped. Empty lines are skipped too. ``detected``:
    the format was guessed (see :func:`looks_like_counts`), and the error says so.

    >>> parse_counts("word\tcount\nlow\t5\n")
    [('low', 5)]
    >>> parse_counts("low\t5\nlower\t-2\n", "counts.tsv")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: counts.tsv, line 2: the count -2 is negative ('lower\t-2'); expected ...
    """
    rows = []
    header_allowed = True
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if header_allowed and _is_header(line):
            header_allowed = False
            continue
        header_allowed = False
        row, problem = _count_problem(line)
        if row is None:
            raise ValueError(
                f"{name}, line {number}: {problem} ({line[:60]!r}); expected "
                "word<TAB>count with a whole-number count of at least 1"
                + (" (most lines are word<TAB>count, so the file is read as word counts)"
                   if detected else "")
            )
        rows.append(row)
    return rows
