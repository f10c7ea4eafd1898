"""How encoding reaches a word's tokens at a step (``snapshot.trace(word)``): each merge
applied, in order (BPE, BBPE), or each longest match with the pieces tried (WordPiece).
The record's word coder (:class:`bpeviz.core.coders.WordCoder`) traces its own cut, with
:func:`merge_trace` or :func:`longest_match_trace`; :mod:`bpeviz.core.explain` says it in
sentences. No streamlit here.

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_counts({"hats": 2, "its": 1}), merges=2, special_tokens=())
>>> [(s.step, s.left, s.right, s.symbols) for s in t.at(2).trace("hats").steps]
[(1, 't', 's', ('h', 'a', 'ts')), (2, 'h', 'a', ('ha', 'ts'))]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from bpeviz.core.training_data import AtStep, TrainingData
from bpeviz.text.owned import OwnedCache
from bpeviz.text.symbols import Symbol


@dataclass(frozen=True)
class TraceStep:
    """One merge applied to a word while encoding it (BPE, BBPE).

    Merge ``step`` (count ``count`` when it was made) joined ``left`` and ``right`` at
    symbol ``position``, leaving ``symbols`` (and their ``ids``).
    """

    step: int
    left: Symbol
    right: Symbol
    token: Symbol
    count: int
    position: int
    symbols: tuple[Symbol, ...]
    ids: tuple[int, ...]


@dataclass(frozen=True)
class TracePiece:
    """One WordPiece longest match: at character ``start``, the pieces ``tried``, longest
    first, until ``piece`` (id ``id``, made at merge ``step``, 0 for the alphabet) matched
    and covered the characters up to ``end``; ``piece`` is None when nothing matched (the
    whole word is then [UNK])."""

    start: int
    end: int
    piece: str | None
    id: int
    step: int
    tried: tuple[str, ...]


@dataclass(frozen=True)
class Trace:
    """How encoding reaches ``word``'s tokens at ``step``.

    ``initial``: the symbols the word starts as (BPE, BBPE; ``None`` for an unknown
    character); ``steps``: each merge applied, in order (BPE, BBPE); ``pieces``: each
    longest match (WordPiece); ``ids``: the final token ids (-1: unknown), which are
    the ids of ``snapshot.encode(word)``; ``unk``: the whole word is the unknown token
    (WordPiece found no match somewhere).
    """

    word: str
    algorithm: str
    step: int
    initial: tuple[Symbol, ...]
    steps: tuple[TraceStep, ...]
    pieces: tuple[TracePiece, ...]
    ids: tuple[int, ...]
    unk: bool = False
    initial_ids: tuple[int, ...] = ()
    #: the unknown token's text, as ``encode`` writes it
    unk_text: str = "[UNK]"
    #: per final symbol (BPE, BBPE): True where it is a character the vocabulary lacks
    unknown: tuple[bool, ...] = ()

    @property
    def tokens(self) -> tuple[Symbol, ...]:
        """The tokens ``snapshot.encode(word)`` gives: the final symbols (BPE, BBPE) or
        matched pieces (WordPiece), with the unknown token where encoding has one (a
        character the vocabulary lacks; a WordPiece word that cannot be matched)."""
        if self.unk:
            return (self.unk_text,)
        if self.pieces:
            return tuple(p.piece for p in self.pieces if p.piece is not None)
        symbols = self.steps[-1].symbols if self.steps else self.initial
        unknown = self.unknown or (False,) * len(symbols)
        return tuple(self.unk_text if u else s for s, u in zip(symbols, unknown))


def merge_trace(snapshot: AtStep, enc: Any, word: str, symbols: list[Symbol],
                ids: list[int]) -> Trace:
    """The merges that cut ``word``, from its initial ``symbols`` and their ``ids`` (-1: not
    in the vocabulary): :func:`bpeviz.engine.merge_word.merge_word`'s loop, each step kept."""
    training = snapshot.training
    symbols, ids = list(symbols), list(ids)
    initial, initial_ids = tuple(symbols), tuple(ids)
    merges, ranks, vocab = training.merges, enc.ranks, training.vocab
    steps = []
    while len(ids) > 1:  # merge_word's loop: the leftmost pair of lowest rank, again
        best = None
        at = 0
        for i in range(len(ids) - 1):
            found = ranks.get((ids[i], ids[i + 1]))
            if found is not None and (best is None or found[0] < best[0]):
                best, at = found, i
        if best is None:
            break
        merge = merges[best[0] - 1]
        ids[at: at + 2] = [best[1]]
        symbols[at: at + 2] = [vocab[best[1]]]
        steps.append(TraceStep(merge.step, merge.left, merge.right, merge.token, merge.count,
                               at, tuple(symbols), tuple(ids)))
    return Trace(word, enc.algorithm, snapshot.step, initial, tuple(steps), (),
                 tuple(enc.unk_id if i < 0 else i for i in ids), initial_ids=initial_ids,
                 unk_text=enc.unk_text, unknown=tuple(i < 0 for i in ids))


def longest_match_trace(snapshot: AtStep, enc: Any, word: str, max_chars: int) -> Trace:
    """The longest matches that cut ``word``, longest piece tried first at each place; a
    word over ``max_chars`` characters, or with no match somewhere, is the unknown token."""
    made = created_at(snapshot.training)
    n = len(word)
    name = enc.algorithm
    initial = tuple(enc.alg.initial_symbols(word))
    if n > max_chars:
        return Trace(word, name, snapshot.step, initial, (),
                     (TracePiece(0, n, None, enc.unk_id, 0, ()),), (enc.unk_id,), unk=True,
                     unk_text=enc.unk_text)
    pieces = []
    start = 0
    while start < n:
        head = enc.prefix if start else ""
        tried = []
        match = None
        for end in range(min(n, start + enc.longest), start, -1):  # longest first
            piece = head + word[start:end]
            tried.append(piece)
            i = enc.ids.get(piece)
            if i is not None:
                match = TracePiece(start, end, piece, i, int(made[i]), tuple(tried))
                break
        if match is None:
            pieces.append(TracePiece(start, n, None, enc.unk_id, 0, tuple(tried)))
            return Trace(word, name, snapshot.step, initial, (), tuple(pieces),
                         (enc.unk_id,), unk=True, unk_text=enc.unk_text)
        pieces.append(match)
        start = match.end
    return Trace(word, name, snapshot.step, initial, (), tuple(pieces),
                 tuple(p.id for p in pieces))


# -- the step each token was made at ------------------------------------------------
_PER_TRAINING: OwnedCache[Any] = OwnedCache("trace")


def created_at(training: TrainingData) -> np.ndarray:
    """For every token id, the step that created it (0 for special tokens and the alphabet).

    Computed once per training; each call returns a copy the caller may change.
    """
    found = _PER_TRAINING.peek(training, "created_at")
    if found is None:
        steps = np.zeros(len(training.vocab), dtype=np.int64)
        for i, m in _first_merges(training).items():
            if i >= training.n_base:
                steps[i] = m.step
        found = _PER_TRAINING.get(training, "created_at", lambda: steps)
    return found.copy()


def _first_merges(training: TrainingData) -> dict[int, Any]:
    """Token id -> the first merge that makes it, once per training (read-only)."""
    found = _PER_TRAINING.peek(training, "first_merges")
    if found is None:
        first: dict[int, Any] = {}
        for m in training.merges:
            first.setdefault(m.token_id, m)
        found = _PER_TRAINING.get(training, "first_merges", lambda: first)
    return found
