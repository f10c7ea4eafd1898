"""Encoding text with the vocabulary of a snapshot (work in progress: see issue 3)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Token:
    """One token of an encoded text.

    ``start``/``end`` are character offsets into the input (``text[start:end]``); for a
    byte-level token that holds only part of a UTF-8 character, they point at the
    whole character and ``partial`` is True. ``unk`` marks an ``[UNK]`` token.
    """

    text: str
    id: int
    start: int
    end: int
    bytes: bytes
    partial: bool = False
    unk: bool = False
