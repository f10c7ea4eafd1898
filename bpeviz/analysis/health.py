"""Vocabulary health: what is wrong with a vocabulary at a step.

``health(step, corpus=None)`` (also ``training.at(k).health(corpus)`` for a training of
merges) looks at the vocabulary of one step and returns a :class:`Health`, four tables
and a summary:

- ``unreachable``: tokens that encoding their own text never yields (the merge order,
  the pre-tokenizer or the normalizer make them impossible; see
  :mod:`bpeviz.analysis.health_reach`, and :mod:`bpeviz.analysis.health_normalizer` for
  an opened ``tokenizer.json``'s normalizer), each with the reason found;
- ``unused``: merged tokens that encoding the corpus at that step never produces, either
  ``absorbed`` (used when made, then every use merged into longer tokens: the sentence
  says how often at which step, and which tokens took the uses by when; see
  :mod:`bpeviz.analysis.health_unused`) or ``never used`` on this corpus. ``corpus=None`` reads the
  training's own corpus (its word counts); a text or a
  :class:`~bpeviz.text.corpus.Corpus` is replayed with the training's merges
  (:func:`bpeviz.core.recount.replay_on`). A tokenizer file holds no corpus: its unused
  tokens need one;
- ``near_duplicates``: groups of tokens that differ only by case, a word mark (a leading
  space, ``▁``, the continuing prefix ``##``, the end-of-word marker) or NFKC;
- ``partial``: byte-level tokens that end inside a UTF-8 character and never complete on
  the corpus (encoding it never produces them).

Every table has the columns ``id``, ``token`` and ``reason`` (a sentence). Special
tokens, and the initial symbols (the 256 bytes, the alphabet), are never unreachable
nor unused. :func:`unused_by_step` counts the unused merged tokens after every step
(from the training's merge forest: no encoding per step).

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_counts({"low": 5, "Low": 4, "lower": 2}), merges=5,
...           special_tokens=())
>>> h = t.at(5).health()
>>> h.unused[["token", "kind"]].values.tolist()
[['ow', 'absorbed'], ['lowe', 'absorbed']]
>>> print(h.unused.reason[0])  # doctest: +NORMALIZE_WHITESPACE
`ow` was used 11 times at step 1; by step 3 every use had become `low` (step 2, 7×) or
`Low` (step 3, 4×)
>>> h.near_duplicates[["token", "reason"]].values.tolist()
[['low', '1 near-duplicate: `Low`'], ['Low', 'the same as `low` but for case']]
>>> unused_by_step(t).tolist()
[0, 0, 0, 1, 1, 2]
"""

from __future__ import annotations

import importlib
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from bpeviz.algorithms import get as get_algorithm
from bpeviz.analysis.health_normalizer import normalizer_reasons
from bpeviz.analysis.health_reach import (
    checked_ids,
    piece_reasons,
    piece_table,
    q,
    reasons_for,
    shown,
    special_ids,
)
from bpeviz.analysis.health_unused import unused_frame
from bpeviz.core.coders import coder_of
from bpeviz.core.encoding import fresh_encoder
from bpeviz.core.recount import pretokenizer_of, replay_on
from bpeviz.core.snapshot import Snapshot
from bpeviz.engine.splitlog import NEVER
from bpeviz.text.corpus import Corpus
from bpeviz.text.metaspace import WS

KINDS = ("unreachable", "unused", "near_duplicates", "partial")
COLUMNS = ("id", "token", "reason")


@dataclass(frozen=True, eq=False)
class Health:
    """What is wrong with the vocabulary of one step (see the module docstring)."""

    step: int
    #: tokens the step's vocabulary holds (special tokens included)
    vocab_size: int
    unreachable: pd.DataFrame
    unused: pd.DataFrame
    near_duplicates: pd.DataFrame
    partial: pd.DataFrame
    #: one line per kind: its count and share of the vocabulary
    summary: list[str] = field(default_factory=list)
    #: what the unused and partial tokens were counted on ("" when on nothing)
    corpus: str = ""

    def table(self, kind: str) -> pd.DataFrame:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
        return getattr(self, kind)  # type: ignore[no-any-return]

    def to_dict(self, top: int | None = None) -> dict[str, Any]:
        """JSON-ready: the summary and every table's rows (the first ``top`` of each)."""
        out: dict[str, Any] = {"step": self.step, "vocab_size": self.vocab_size,
                               "corpus": self.corpus, "summary": list(self.summary)}
        for kind in KINDS:
            frame = self.table(kind)
            out[kind] = {"count": len(frame), "rows": [
                {k: (v.item() if isinstance(v, np.generic) else v) for k, v in row.items()}
                for row in frame.head(top if top is not None else len(frame))
                .to_dict("records")]}
        return out


def health(step: Any, corpus: Corpus | str | None = None) -> Health:
    """The health of the vocabulary at ``step`` (``training.at(k)`` of any training):
    counted on ``corpus`` (a text or a Corpus), or on the training's own corpus."""
    if isinstance(step, Snapshot):
        return _merge_health(step, corpus)
    own = _own_reading(getattr(step, "training", None))
    if own is not None:  # an algorithm whose steps are read their own way (PickyBPE's)
        return own.health(step, corpus)
    if not hasattr(getattr(step, "model", None), "lattice"):
        raise ValueError(f"vocabulary health reads a step of merges or of scored pieces "
                         f"(Unigram), not a {type(step).__name__}")
    return _piece_health(step, corpus)


def _own_reading(training: Any) -> Any:
    """The module its record names to read its health (``Algorithm.health``), or None."""
    name = get_algorithm(training.algorithm).health if training is not None else ""
    return importlib.import_module(name) if name else None


# -- the corpus the unused tokens are counted on --------------------------------------------
@dataclass
class _Counted:
    words: Sequence[str]
    counts: np.ndarray
    log: Any  # the training whose merge forest holds these words (None: none)
    label: str
    note: str = ""


def _corpus_of(training: Any, corpus: Corpus | str | None) -> _Counted | None:
    if corpus is None:
        if not training.corpus.words:
            return None
        return _Counted(training.corpus.words, np.asarray(training.corpus.counts, dtype=object),
                        training, "the training's corpus")
    try:
        replayed = replay_on(training, corpus)
        return _Counted(replayed.corpus.words,
                        np.asarray(replayed.corpus.counts, dtype=object), replayed,
                        "the given corpus")
    except ValueError:
        if not isinstance(corpus, str):
            raise
        words = Corpus.from_text(corpus, pretokenizer_of(training))
        return _Counted(words.words, np.asarray(words.counts, dtype=object), None,
                        "the given corpus", "(no merges to replay on it: every word encoded)")


def frequencies(training: Any, step: int, words: Sequence[str],
                counts: Sequence[int]) -> np.ndarray:
    """How often encoding ``words`` (pre-tokenized, with their counts) at ``step``
    produces each token id (the unknown token without an id left out)."""
    enc = fresh_encoder(training, step)
    freq = np.zeros(len(training.vocab), dtype=object)
    for word, count in zip(words, counts):
        for i, _, _ in enc.word(word):
            if i >= 0:
                freq[i] += count
    return freq


def _log_frequencies(log: Any, step: int, alg: Any) -> np.ndarray | None:
    """:func:`frequencies` read from the merge forest, when the record's coder cuts words
    by the merges' ranks (then encoding cuts every word as the forest holds it); None
    when it cuts otherwise (longest match: every word is encoded)."""
    if not coder_of(alg).by_ranks:
        return None
    ids, word_of = log.at(step).token_ids
    freq = np.zeros(len(log.vocab), dtype=object)
    if len(ids):
        weights = np.asarray(log.corpus.counts, dtype=object)[word_of]
        np.add.at(freq, ids, weights)
    return freq


# -- merges -------------------------------------------------------------------------------
def _merge_health(snap: Snapshot, corpus: Corpus | str | None) -> Health:
    training, k = snap.training, snap.step
    alg = get_algorithm(training.algorithm)
    vocab, n_base = training.vocab, training.n_base
    size = int(training.vocab_sizes[k])
    specials = special_ids(training, k)

    def token(i: int) -> str:
        return shown(alg, vocab[i])

    reach = reasons_for(training, k)
    try:  # an opened tokenizer.json's normalizer comes first: text never reaches merges
        reach.update(normalizer_reasons(training, k))
        unread = ""
    except ValueError as err:
        unread = (f"normalizer: not checked: {err}, so the tokens it makes impossible are "
                  "not listed")
    unreachable = _frame([(i, token(i), why) for i, why in sorted(reach.items())])
    # the merged tokens, and any a file lists among its base tokens that no merge makes
    merged = list(checked_ids(training, k))
    counted = _corpus_of(training, corpus)
    if counted is None:
        unused = _frame([], kind=[], made_at=[])
        freq = None
    else:
        freq = _log_frequencies(counted.log, k, alg) if counted.log is not None else None
        if freq is None:
            freq = frequencies(training, k, counted.words, counted.counts)
        unused = unused_frame(training, k, merged, freq, counted, token, _frame)
    partial = _partial_frame(training, k, merged, freq, counted, token)
    near = near_duplicates(
        [(i, vocab[i], token(i)) for i in range(size) if i not in specials],
        word_marks(alg, training.options.marker), lambda i: i < n_base and alg.is_unit(
            vocab[i], training.options.marker, training.options.marker_style))
    found = _result(k, training.vocab_size_at(k), unreachable, unused, near, partial,
                    counted, "tokens past the initial symbols")
    if unread:  # said in the unreachable line: one line per kind
        found.summary[0] += f" ({unread})"
    return found


def _partial_frame(training: Any, k: int, merged: list[int], freq: np.ndarray | None,
                   counted: _Counted | None, token: Any) -> pd.DataFrame:
    vocab = training.vocab
    blob = None
    if counted is not None:
        blob = b"\x00".join(w.encode("utf-8", "surrogatepass") for w in counted.words)
    rows = []
    for i in merged:
        symbol = vocab[i]
        if not isinstance(symbol, bytes):
            continue
        inside = ends_inside(symbol)
        if inside is None:
            continue
        have, need = inside
        where = (f"it ends inside a character: the first {have} of its {need} bytes "
                 f"({symbol[-have:].hex(' ').upper()})")
        if blob is None:
            rows.append((i, token(i), f"{where}; no corpus to complete it on"))
        elif symbol not in blob:
            rows.append((i, token(i), f"{where}, and no word of {counted.label} "  # type: ignore[union-attr]
                                      "holds these bytes"))
        elif freq is not None and not freq[i]:
            rows.append((i, token(i), f"{where}; {counted.label} holds these bytes, but "  # type: ignore[union-attr]
                                      f"at step {k} they always sit inside other tokens"))
    return _frame(rows)


def ends_inside(data: bytes) -> tuple[int, int] | None:
    """``(bytes present, bytes needed)`` of the UTF-8 character ``data`` ends inside, or
    None when it ends a character (or holds no lead byte to tell).

    >>> ends_inside("朝".encode()[:2]), ends_inside(b" a"), ends_inside(b"\\x9c")
    ((2, 3), None, None)
    """
    for back in range(1, min(4, len(data)) + 1):
        b = data[-back]
        if b & 0xC0 == 0x80:  # a continuation byte: look further back
            continue
        need = 2 if b >> 5 == 0b110 else 3 if b >> 4 == 0b1110 else 4 if b >> 3 == 0b11110 else 1
        return (back, need) if back < need else None
    return None


# -- near-duplicates ------------------------------------------------------------------------
def word_marks(alg: Any, marker: str | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The word marks a token's text may carry, in front (a space, ``▁``, the record's
    continuing prefix) and at the end (the training's end-of-word marker)."""
    front = tuple(m for m in (" ", WS, alg.continuing_prefix) if m)
    return front, ((marker,) if marker else ())


def near_duplicates(tokens: Sequence[tuple[int, Any, str]],
                    marks: tuple[tuple[str, ...], tuple[str, ...]],
                    is_unit: Any = lambda i: False) -> pd.DataFrame:
    """Groups of ``(id, symbol, shown)`` tokens whose texts differ only by case, a word
    mark (``marks``: in front, at the end) or NFKC; a group of initial symbols alone
    (``a``, ``A``) is left out."""
    front, back = marks
    groups: dict[str, list[tuple[int, str, str, bool]]] = {}
    for i, symbol, text_shown in tokens:
        text = symbol.decode("utf-8", "replace") if isinstance(symbol, bytes) else symbol
        if "\ufffd" in text:  # part of a character
            continue
        bare, marked = _unmarked(text, front, back)
        if not bare:
            continue
        key = unicodedata.normalize("NFKC", bare).casefold()
        groups.setdefault(key, []).append((i, text_shown, bare, marked))
    rows, group_ids = [], []
    for key, members in groups.items():
        if len(members) < 2 or all(is_unit(i) for i, _, _, _ in members):
            continue
        # the plainest first: unmarked, as its key spells it, then by id
        members.sort(key=lambda m: (m[3] != "", m[2] != key, m[0]))
        first = members[0]
        for n, (i, text_shown, bare, marked) in enumerate(members):
            if n == 0:
                others = ", ".join(q(m[1]) for m in members[1:])
                plural = "s" if len(members) > 2 else ""
                why = f"{len(members) - 1} near-duplicate{plural}: {others}"
            else:
                ways = []
                if marked != first[3]:
                    ways.append("a word mark")
                ways += _differences(bare, first[2])
                why = f"the same as {q(first[1])} but for {' and '.join(ways) or 'spelling'}"
            rows.append((i, text_shown, why))
            group_ids.append(key)
    return _frame(rows, group=group_ids)


def _differences(text: str, other: str) -> list[str]:
    """What tells two unmarked texts of one group apart: case, NFKC, or both."""
    if text == other:
        return []
    if text.casefold() == other.casefold():
        return ["case"]
    nfkc = unicodedata.normalize("NFKC", text), unicodedata.normalize("NFKC", other)
    if nfkc[0] == nfkc[1]:
        return ["Unicode normalization (NFKC)"]
    return ["case", "Unicode normalization (NFKC)"]


def _unmarked(text: str, front: tuple[str, ...], back: tuple[str, ...]) -> tuple[str, str]:
    """``text`` without one word mark in front and one at the end, and the marks taken."""
    marks = ""
    for mark in front:
        if text.startswith(mark) and len(text) > len(mark):
            text, marks = text[len(mark):], mark
            break
    for mark in back:
        if text.endswith(mark) and len(text) > len(mark):
            text, marks = text[: -len(mark)], marks + "|" + mark
            break
    return text, marks


# -- Unigram pieces -----------------------------------------------------------------------------
def _piece_health(step: Any, corpus: Corpus | str | None) -> Health:
    table = piece_table(step)
    reach = piece_reasons(step)
    unreachable = _frame([(i, table[i][1], why) for i, why in sorted(reach.items())])
    counted = _piece_counts(step, corpus)
    candidates = [(i, p) for i, p, special in table
                  if not special and len(p.removeprefix(WS)) > 1]
    if counted is None:
        unused = _frame([], kind=[], made_at=[])
    else:
        freq, label = counted
        unused = _frame([(i, p, f"no best cut of {label} holds it at round {step.step}")
                         for i, p in candidates if not freq.get(i)],
                        kind="never used", made_at=0)
    near = near_duplicates([(i, p, p) for i, p, special in table if not special],
                           ((" ", WS), ()), lambda i: len(table[i][1].removeprefix(WS)) <= 1)
    label = counted[1] if counted is not None else ""
    return _result(step.step, len(table), unreachable, unused, near, _frame([]),
                   _Counted((), np.zeros(0), None, label) if counted else None, "pieces")


def _piece_counts(step: Any, corpus: Corpus | str | None) -> tuple[dict[int, int], str] | None:
    freq: dict[int, int] = {}
    ids = dict((p, i) for i, p, _ in reversed(piece_table(step)))
    if corpus is None:
        words = getattr(step, "words", ())
        if not words:
            return None
        for word, count in zip(words, step.counts):
            for piece in step.splits[word]:
                i = ids.get(piece)
                if i is not None:
                    freq[i] = freq.get(i, 0) + count
        return freq, "the training's corpus"
    pairs = ([(corpus, 1)] if isinstance(corpus, str)
             else [(w.removeprefix(WS), c) for w, c in zip(corpus.words, corpus.counts)])
    for text, count in pairs:
        for tok in step.encode(text):
            freq[tok.id] = freq.get(tok.id, 0) + count
    return freq, "the given corpus"


# -- results ----------------------------------------------------------------------------------
def _frame(rows: Sequence[tuple[int, str, str]], **extra: Any) -> pd.DataFrame:
    frame = pd.DataFrame(list(rows), columns=list(COLUMNS))
    frame["id"] = frame["id"].astype(np.int64)
    for name, values in extra.items():
        frame[name] = values
    return frame


def _result(step: int, size: int, unreachable: pd.DataFrame, unused: pd.DataFrame,
            near: pd.DataFrame, partial: pd.DataFrame, counted: _Counted | None,
            what: str) -> Health:
    def share(n: int) -> str:
        return f"{n:,} token{'' if n == 1 else 's'} ({100 * n / max(size, 1):.1f}% of {size:,})"

    lines = [f"unreachable: {share(len(unreachable))}: encoding their own text never "
             "yields them"]
    if counted is None:
        lines.append("unused: not counted: this tokenizer holds no corpus (give one)")
    else:
        split = unused["kind"].value_counts().to_dict() if len(unused) else {}
        parts = ", ".join(f"{split.get(k, 0):,} {k}" for k in ("absorbed", "never used"))
        lines.append(f"unused: {share(len(unused))} of the {what} are never produced on "
                     f"{counted.label} ({parts}) {counted.note}".rstrip())
    groups = near["group"].nunique() if len(near) else 0
    lines.append(f"near-duplicates: {share(len(near))} in {groups:,} group"
                 f"{'' if groups == 1 else 's'}: they differ only by case, a word mark or NFKC")
    lines.append(f"partial characters: {share(len(partial))}: byte-level tokens that end "
                 "inside a character and never complete on the corpus")
    return Health(step, size, unreachable, unused, near, partial, lines,
                  counted.label if counted is not None else "")


# -- unused tokens against the step --------------------------------------------------------------
def unused_by_step(training: Any, corpus: Corpus | str | None = None) -> pd.Series:
    """How many tokens made so far are unused after every step (index: the step): for
    merges, the merged tokens that no word's split holds (the training's merge forest,
    read once for all steps); for Unigram rounds, the pieces no best cut holds."""
    own = _own_reading(training)
    if own is not None:
        return own.unused_by_step(training, corpus)
    if not hasattr(training, "_log"):
        counts = []
        for k in range(len(getattr(training, "steps", (None,)))):  # each round's best cuts
            step = training.at(k)
            counted = _piece_counts(step, corpus)
            if counted is None:
                raise ValueError("this model holds no corpus: give one to count unused "
                                 "pieces on")
            counts.append(sum(1 for i, p, special in piece_table(step) if not special
                              and len(p.removeprefix(WS)) > 1 and not counted[0].get(i)))
        return pd.Series(counts, name="unused", dtype=np.int64).rename_axis("step")
    counted = _corpus_of(training, corpus)
    if counted is None:
        raise ValueError("this tokenizer holds no corpus: give one to count unused tokens on")
    log, n = counted.log._log, len(training.merges)
    n_base = training.n_base
    keep = log.token >= n_base
    tok = log.token[keep].astype(np.int64)
    start = log.step[keep].astype(np.int64)
    end = np.minimum(log.until[keep], n + 1).astype(np.int64)
    end[log.until[keep] == NEVER] = n + 1
    used = np.zeros(n + 2, dtype=np.int64)
    if len(tok):
        order = np.lexsort((start, tok))
        tok, start, end = tok[order], start[order], end[order]
        span = n + 2
        run = np.maximum.accumulate(tok * span + end) - tok * span  # furthest end so far
        same = np.concatenate([[False], tok[1:] == tok[:-1]])
        begins = ~same | (start > np.concatenate([[-1], run[:-1]]))
        at = np.flatnonzero(begins)
        np.add.at(used, start[at], 1)  # one disjoint stretch of use per token per run
        np.add.at(used, np.maximum.reduceat(end, at), -1)
    live = np.cumsum(used)[: n + 1]
    made = np.asarray(training.vocab_sizes, dtype=np.int64) - n_base
    return pd.Series(made - live, name="unused").rename_axis("step")


__all__ = ["KINDS", "Health", "ends_inside", "frequencies", "health", "near_duplicates",
           "unused_by_step", "word_marks"]
