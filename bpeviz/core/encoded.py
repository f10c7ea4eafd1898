"""What :func:`bpeviz.core.encoding.encode` returns: an :class:`Encoding`, a read-only sequence
of :class:`Token` records made when they are read. No streamlit here.

>>> from bpeviz import Corpus, train
>>> enc = train(Corpus.from_text("hug hug pug"), merges=2).at().encode("hug pug")
>>> enc.ids == [t.id for t in enc], enc.starts, enc[1].text
(True, [0, 4, 5], 'p')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, overload

import numpy as np

#: a token's flags: it holds part of a UTF-8 character; it is the unknown token
_PARTIAL, _UNK = 1, 2
#: every token's start, end and flags (None when no token has a flag), as NumPy columns
_Columns = tuple[np.ndarray, np.ndarray, np.ndarray | None]


class _BytesOfTokens(Protocol):
    def token_bytes(self, enc: Any, text: str, ids: Sequence[int], starts: Sequence[int],
                    ends: Sequence[int]) -> Iterator[bytes]: ...


class TokenSource(Protocol):
    """What an :class:`Encoding` reads of the encoder that made it (the layer above,
    :mod:`bpeviz.core.encoding`): every known id's text, the unknown token's text, and
    the word coder that gives the tokens' bytes."""

    texts: dict[int, str]
    unk_text: str
    word_coder: _BytesOfTokens


@dataclass(frozen=True)
class Token:
    """One token of an encoded text.

    ``start``/``end`` are character offsets into the input (``text[start:end]``); for a
    byte-level token that holds only part of a UTF-8 character, they point at the
    whole character and ``partial`` is True. ``unk`` marks an ``[UNK]`` token.

    ``text`` is the token as shown: the vocabulary string (``"##ing"``, ``"low</w>"``,
    ``"[UNK]"``), for byte-level tokens the decoded text, or, when the bytes are not
    whole UTF-8 characters, a readable form such as ``"<0xE6><0x9C>"``. ``bytes`` is
    exact: the token's bytes for BBPE, and the UTF-8 of the input it covers otherwise
    (empty for a separate end-of-word marker, which covers no character).
    """

    text: str
    id: int
    start: int
    end: int
    bytes: bytes
    partial: bool = False
    unk: bool = False

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict (``bytes`` as hex), as the command line prints it."""
        return {"text": self.text, "id": self.id, "start": self.start, "end": self.end,
                "bytes": self.bytes.hex(), "partial": self.partial, "unk": self.unk}


class Encoding(Sequence[Token]):
    """The tokens of one text: a read-only sequence of :class:`Token` records.

    Records are made when they are read, so encoding a long text stays fast; ``ids``
    (and, computed on first use, ``starts`` and ``ends``) are plain lists for bulk use.
    An ``Encoding`` equals any sequence holding the same tokens.
    """

    __slots__ = ("_columns", "_encoder", "_ends", "_flags", "_starts", "_text", "ids")

    def __init__(self, encoder: TokenSource, text: str, ids: list[int],
                 columns: _Columns | Callable[[], _Columns]) -> None:
        self._encoder = encoder
        self._text = text  # the input: a token's bytes may be the text it covers
        self.ids = ids
        self._columns = columns  # NumPy columns, or a function that computes them
        self._starts: list[int] | None = None
        self._ends: list[int] | None = None
        self._flags: list[int] | None = None

    def __len__(self) -> int:
        return len(self.ids)

    def _arrays(self) -> _Columns:
        columns = self._columns
        if callable(columns):
            columns = self._columns = columns()
        return columns

    @property
    def starts(self) -> list[int]:
        """Every token's ``start``."""
        if self._starts is None:
            self._starts = self._arrays()[0].tolist()
        return self._starts

    @property
    def ends(self) -> list[int]:
        """Every token's ``end``."""
        if self._ends is None:
            self._ends = self._arrays()[1].tolist()
        return self._ends

    @property
    def texts(self) -> list[str]:
        """Every token's ``text``."""
        return [t.text for t in self]

    def _make(self, ids: Sequence[int], starts: Sequence[int], ends: Sequence[int],
              flags: Sequence[int] | None) -> Iterator[Token]:
        enc = self._encoder
        texts, unk_text = enc.texts, enc.unk_text
        raws = enc.word_coder.token_bytes(enc, self._text, ids, starts, ends)
        if flags is None:
            for i, s, e, raw in zip(ids, starts, ends, raws):
                yield Token(texts[i], i, s, e, raw)
        else:
            for i, s, e, raw, f in zip(ids, starts, ends, raws, flags):
                yield Token(unk_text if f & _UNK else texts[i], i, s, e, raw,
                            bool(f & _PARTIAL), bool(f & _UNK))

    def __iter__(self) -> Iterator[Token]:
        flags = self._arrays()[2]
        if flags is not None and self._flags is None:
            self._flags = flags.tolist()
        return self._make(self.ids, self.starts, self.ends, self._flags)

    @overload
    def __getitem__(self, index: int) -> Token: ...
    @overload
    def __getitem__(self, index: slice) -> list[Token]: ...
    def __getitem__(self, index: Any) -> Any:
        n = len(self.ids)
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(n))]
        if not -n <= index < n:
            raise IndexError("token index out of range")
        index %= n
        starts, ends, flags = self._arrays()
        flag = None if flags is None else [int(flags[index])]
        return next(self._make([self.ids[index]], [int(starts[index])], [int(ends[index])], flag))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(repr(t) for t in self[:3])
        more = f", ... ({len(self)} tokens)" if len(self) > 3 else ""
        return f"Encoding([{shown}{more}])"
