"""The tables and trees the explorer shows, computed from a training (no streamlit here).

Everything returns plain data (pandas frames, dataclasses); :mod:`bpeviz.present.render` turns
them into HTML and figures.

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_counts({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}),
...           merges=3, special_tokens=())
>>> select_words(words_frame(t.at(3)), "ug")["word"].tolist()
['hug', 'hugs', 'pug']
>>> print(tree_text(merge_tree(t, t.merges[2].token_id)))
hug = h + ug
  ug = u + g
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from bpeviz.core.snapshot import Snapshot, exact_counts
from bpeviz.core.trace import _first_merges, created_at
from bpeviz.core.training import Training
from bpeviz.text.display import isolate, label, mark_names, raw_bytes
from bpeviz.text.owned import OwnedCache
from bpeviz.text.symbols import Symbol


def symbol_bytes(symbol: Symbol) -> int:
    """Length of a symbol in UTF-8 bytes (bytes symbols: their length)."""
    return len(raw_bytes(symbol))


def symbol_chars(symbol: Symbol) -> int:
    """Length in characters (bytes symbols: characters of their lenient decoding)."""
    if isinstance(symbol, bytes):
        return len(symbol.decode("utf-8", "ignore"))
    return len(symbol)


# -- merges ---------------------------------------------------------------------------
def merges_frame(training: Training, byte_style: str = "gpt2") -> pd.DataFrame:
    """One row per merge: step, left, right, token (labels), count, score, token id.

    Built once per training and byte style (labelling thousands of merges is most of
    the time); each call returns a copy the caller may change.
    """
    key = ("merges_frame", byte_style)
    found = _cached(training, key)
    if found is None:
        merges = training.merges
        found = _cache(training, key, pd.DataFrame({
            "step": [m.step for m in merges],
            "left": [label(m.left, byte_style) for m in merges],
            "right": [label(m.right, byte_style) for m in merges],
            "token": [label(m.token, byte_style) for m in merges],
            "count": [m.count for m in merges],
            "score": [m.score for m in merges],
            "id": [m.token_id for m in merges],
        }, columns=["step", "left", "right", "token", "count", "score", "id"]))
    return found.copy()


def merges_table(training: Training, byte_style: str = "gpt2",
                 score: bool = True) -> pd.DataFrame:
    """The merges as the Explore page lists them: an empty ``now`` column first (the page
    marks the current step there), then :func:`merges_frame` (without ``score`` unless
    ``score``); built once per training, byte style and ``score`` (treat it as
    read-only). The Arrow table Streamlit sends is made in the app
    (:func:`bpeviz.ui.training.merges_arrow`)."""
    key = ("merges_table", byte_style, score)
    found = _cached(training, key)
    if found is None:
        frame = merges_frame(training, byte_style)
        frame.insert(0, "now", [""] * len(frame))
        if not score:
            frame = frame.drop(columns="score")
        found = _cache(training, key, frame)
    return found


def merges_matching(frame: pd.DataFrame, search: str) -> np.ndarray:
    """Which rows of :func:`merges_frame` have ``search`` in their token, left or right
    part (as labels show them, case-insensitive): a boolean array.

    >>> f = pd.DataFrame({"left": ["l", "lo"], "right": ["o", "w"], "token": ["lo", "low"]})
    >>> merges_matching(f, "OW").tolist()
    [False, True]
    """
    found = np.zeros(len(frame), dtype=bool)
    for column in ("token", "left", "right"):
        found |= frame[column].str.contains(search, regex=False, case=False).to_numpy()
    return found


_PER_TRAINING: OwnedCache[Any] = OwnedCache("views")


def _cached(training: Training, key: Any) -> Any:
    """What :func:`_cache` kept for this training under ``key``, or None."""
    return _PER_TRAINING.peek(training, key)


def _cache(training: Training, key: Any, value: Any) -> Any:
    """Keep ``value`` as long as the training lives (a training never changes)."""
    return _PER_TRAINING.get(training, key, lambda: value)


def token_label_list(training: Training, byte_style: str = "gpt2") -> list[str]:
    """``label(token, byte_style)`` of every token, by id; once per training and byte
    style (treat it as read-only)."""
    key = ("token_label_list", byte_style)
    found = _cached(training, key)
    if found is None:
        found = _cache(training, key, [label(s, byte_style) for s in training.vocab])
    return found


def words_frame(snapshot: Snapshot) -> pd.DataFrame:
    """Every corpus word with its count, its number of tokens and whether this step changed it.

    The frame's index is the word's index in the corpus (first-appearance order).
    """
    training = snapshot.training
    corpus = training.corpus
    ids, word_of = snapshot.token_ids
    n_tokens = np.bincount(word_of, minlength=len(corpus.words)) if len(ids) else np.zeros(
        len(corpus.words), dtype=np.int64)
    changed = np.zeros(len(corpus.words), dtype=bool)
    changed[snapshot.changed_words] = True
    base = _cached(training, "words")
    if base is None:  # the words and counts, as columns, once per training
        base = _cache(training, "words", pd.DataFrame({
            "word": list(corpus.words), "count": exact_counts(training)}))
    return pd.DataFrame({
        "word": base["word"].array,
        "count": base["count"].to_numpy(),
        "tokens": n_tokens.astype(np.int64),
        "changed": changed,
    })


SORTS = {
    "changed first, then corpus order": None,
    "changed first, then most frequent": None,
    "corpus order": None,
    "most frequent": ("count", False),
    "most tokens": ("tokens", False),
    "alphabetical": ("word", True),
}


#: from this many distinct words on, Explore lists the most frequent first (the order
#: of first appearance says little about a corpus that large)
LARGE_CORPUS_WORDS = 10_000


def default_sort(n_words: int) -> str:
    """The word list's order before the user picks one, for a corpus of ``n_words``.

    >>> default_sort(43), default_sort(191_738)
    ('changed first, then corpus order', 'changed first, then most frequent')
    """
    return ("changed first, then most frequent" if n_words >= LARGE_CORPUS_WORDS
            else "changed first, then corpus order")


def select_words(frame: pd.DataFrame, search: str = "",
                 sort: str = "changed first, then corpus order",
                 only_changed: bool = False) -> pd.DataFrame:
    """Filter ``words_frame`` by a plain substring (no regex) and sort it."""
    rows = frame
    if only_changed:
        rows = rows[rows["changed"]]
    if search:
        rows = rows[rows["word"].str.contains(search, regex=False, case=False)]
    if sort == "changed first, then corpus order":
        return rows.sort_values("changed", ascending=False, kind="stable")
    if sort == "changed first, then most frequent":
        return rows.sort_values(["changed", "count"], ascending=False, kind="stable")
    if sort in SORTS and SORTS[sort] is not None:
        column, ascending = SORTS[sort]
        return rows.sort_values(column, ascending=ascending, kind="stable")
    return rows


# -- heatmap --------------------------------------------------------------------------
@dataclass(frozen=True)
class PairGrid:
    """A left x right grid over the symbols of the best pairs at a step.

    ``count[i, j]`` and ``score[i, j]`` are the pair (rows[i], cols[j]); NaN where the pair
    does not occur. ``next_pair`` is the (row, column) of the pair the next merge takes.
    """

    rows: list[int]
    cols: list[int]
    count: np.ndarray
    score: np.ndarray
    next_pair: tuple[int, int] | None
    total_pairs: int = 0
    symbols: dict[int, Symbol] = field(default_factory=dict)


def pair_grid(snapshot: Snapshot, top_n: int = 20) -> PairGrid:
    """The ``top_n`` left symbols and ``top_n`` right symbols of the best pairs, best first.

    Walks ``snapshot.pairs`` (best first) and takes each pair's left symbol as a row and
    right symbol as a column until both have ``top_n``; so the pair chosen next is
    always the top-left cell.
    """
    pairs = snapshot.pairs
    rows: dict[int, int] = {}
    cols: dict[int, int] = {}
    left_ids = pairs["left_id"].to_numpy()
    right_ids = pairs["right_id"].to_numpy()
    for a, b in zip(left_ids.tolist(), right_ids.tolist()):
        if len(rows) >= top_n and len(cols) >= top_n:
            break
        if a not in rows and len(rows) < top_n:
            rows[a] = len(rows)
        if b not in cols and len(cols) < top_n:
            cols[b] = len(cols)
    count = np.full((len(rows), len(cols)), np.nan)
    score = np.full((len(rows), len(cols)), np.nan)
    if len(pairs):
        size = int(max(left_ids.max(), right_ids.max())) + 1
        row_of = np.full(size, -1, dtype=np.int64)
        col_of = np.full(size, -1, dtype=np.int64)
        row_of[list(rows)] = list(rows.values())
        col_of[list(cols)] = list(cols.values())
        r, c = row_of[left_ids], col_of[right_ids]
        inside = (r >= 0) & (c >= 0)
        ri, ci = r[inside], c[inside]
        count[ri, ci] = pairs["count"].to_numpy()[inside]
        score[ri, ci] = pairs["score"].to_numpy()[inside]
    vocab = snapshot.training.vocab
    next_pair = None
    if len(pairs) and snapshot.next_merge is not None:
        # the engine's next merge is the first row of pairs unless a min_frequency stop ends it
        nm = snapshot.next_merge
        if nm.left_id in rows and nm.right_id in cols:
            next_pair = (rows[nm.left_id], cols[nm.right_id])
    return PairGrid(
        rows=list(rows), cols=list(cols), count=count, score=score, next_pair=next_pair,
        total_pairs=len(pairs), symbols={i: vocab[i] for i in [*rows, *cols]},
    )


def pair_rank(pairs: pd.DataFrame, pair: object) -> int | None:
    """The row of ``pair`` (left id, right id) in ``snapshot.pairs``, or None if absent.

    >>> pair_rank(pd.DataFrame({"left_id": [3, 1], "right_id": [4, 2]}), (1, 2))
    1
    """
    try:
        left, right = (int(v) for v in pair)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        return None
    hits = np.flatnonzero((pairs["left_id"].to_numpy() == left)
                          & (pairs["right_id"].to_numpy() == right))
    return int(hits[0]) if len(hits) else None


# -- vocabulary -----------------------------------------------------------------------
def token_frequencies(snapshot: Snapshot) -> np.ndarray:
    """How often each token id occurs in the corpus at this step (weighted by word counts)."""
    ids, word_of = snapshot.token_ids
    counts = exact_counts(snapshot.training)
    n = len(snapshot.training.vocab)
    if not len(ids):
        return np.zeros(n, dtype=np.int64)
    if snapshot.training.initial_tokens > 2**53:  # bincount adds doubles: exact to 2**53
        out = np.zeros(n, dtype=counts.dtype)  # (int64, or Python ints past 64 bits)
        np.add.at(out, ids, counts[word_of])
        return out
    return np.bincount(ids, weights=counts[word_of], minlength=n).astype(np.int64)


def token_names(symbol: Symbol) -> str:
    """Each combining mark and invisible character of a token, drawn and named by its
    Unicode name, as a chip's hover title names them (a byte-level token: those of the
    characters outside ASCII it holds whole); ``""`` for a token without any.

    >>> token_names("स्ते"), token_names(b"\\xe2\\x80\\x8d"), token_names("the")
    ('◌् U+094D DEVANAGARI SIGN VIRAMA · ◌े U+0947 DEVANAGARI VOWEL SIGN E', \
'⟨ZWJ⟩ U+200D ZERO WIDTH JOINER', '')
    """
    if isinstance(symbol, bytes):
        if symbol.isascii():  # drawn as byte stand-ins (Ā for byte 0), which say the byte
            return ""
        text = symbol.decode("utf-8", "ignore")
    else:
        text = symbol
    if text.isascii() and text.isprintable():  # most tokens: nothing to name
        return ""
    return " · ".join(mark_names(text))


def vocab_frame(snapshot: Snapshot, byte_style: str = "gpt2") -> pd.DataFrame:
    """The vocabulary at this step: id, token, kind, step created, frequency, chars, bytes,
    names.

    ``token`` is the token's label between FSI and PDI: the table is a canvas grid, where
    no ``<bdi>`` reaches, and a right-to-left token would otherwise reorder the cells'
    text around it. ``names`` names its combining marks and invisible characters
    (:func:`token_names`), which the label draws but cannot name.
    """
    training = snapshot.training
    n = len(snapshot.vocab)
    key = ("vocab_columns", byte_style)
    whole = _cached(training, key)
    if whole is None:  # what does not change with the step, once per training (50,000
        vocab = training.vocab  # labels took a second per step)
        specials = set(training.options.special_tokens)
        whole = _cache(training, key, pd.DataFrame({
            "id": np.arange(len(vocab)),
            "token": [isolate(t) for t in token_label_list(training, byte_style)],
            "kind": ["special" if i < len(specials) and vocab[i] in specials
                     else "base" if i < training.n_base else "merged"
                     for i in range(len(vocab))],
            "chars": [symbol_chars(s) for s in vocab],
            "bytes": [symbol_bytes(s) for s in vocab],
            "names": [token_names(s) for s in vocab],
        }))
    frame = whole.iloc[:n].copy()
    frame.insert(3, "created at step", created_at(training)[:n])
    frame.insert(4, "frequency", token_frequencies(snapshot)[:n])
    return frame


@dataclass(frozen=True)
class TreeNode:
    """How a token was built: from ``left`` and ``right`` at ``step`` (leaves: step 0)."""

    token: Symbol
    id: int
    step: int = 0
    count: int = 0
    left: TreeNode | None = None
    right: TreeNode | None = None


def merge_tree(training: Training, token_id: int) -> TreeNode:
    """The merge tree of a token: each merged token splits into the two it was made from."""
    first_merge = _first_merges(training)

    def build(i: int, depth: int) -> TreeNode:
        m = first_merge.get(i)
        if m is None or i < training.n_base or depth > 200:
            return TreeNode(training.vocab[i], i)
        return TreeNode(m.token, i, m.step, m.count, build(m.left_id, depth + 1),
                        build(m.right_id, depth + 1))

    return build(int(token_id), 0)


def tree_text(node: TreeNode, byte_style: str = "gpt2", indent: str = "") -> str:
    """The tree as indented text: ``token = left + right`` per merged node."""
    if node.left is None or node.right is None:
        return ""
    line = (f"{indent}{label(node.token, byte_style)} = {label(node.left.token, byte_style)}"
            f" + {label(node.right.token, byte_style)}")
    parts = [line]
    for child in (node.left, node.right):
        sub = tree_text(child, byte_style, indent + "  ")
        if sub:
            parts.append(sub)
    return "\n".join(parts)


# -- summaries ------------------------------------------------------------------------
def corpus_chars(training: Training) -> int:
    """Non-whitespace characters in the corpus, with repeats.

    Whitespace is left out so that pre-tokenizers that keep it (GPT-2's keeps the space
    before a word) and those that drop it give the same count for the same text.
    """
    corpus = training.corpus
    return sum((len(w) - sum(ch.isspace() for ch in w)) * c
               for w, c in zip(corpus.words, corpus.counts))


def summary(training: Training, step: int | None = None) -> dict[str, int | float | str]:
    """Headline numbers for a training at ``step`` (default: the end)."""
    step = len(training.merges) if step is None else step
    tokens = int(training.token_counts()[step])
    chars = corpus_chars(training)
    return {
        "distinct words": len(training.corpus.words),
        "words": training.corpus.total,
        "merges": len(training.merges),
        "vocabulary": training.vocab_size_at(step),
        "corpus tokens": tokens,
        "chars per token": chars / tokens if tokens else 0.0,  # non-whitespace chars
    }


# -- the stage: what the browser needs to redraw any step by itself -------------------


def token_labels(training: Training, ids: Any = None,
                 byte_style: str = "gpt2") -> dict[int, tuple[str, str]]:
    """``{id: (label, bytes in hex)}`` for the tokens ``ids`` (default: all), as chips
    show them (:func:`label`) and title them.

    >>> from bpeviz import Corpus, train
    >>> token_labels(train(Corpus.from_counts({"a b": 1}), merges=0, special_tokens=()))
    {0: ('·', '20'), 1: ('a', '61'), 2: ('b', '62')}
    """
    vocab = training.vocab
    out = {}
    for i in (range(len(vocab)) if ids is None else sorted({int(i) for i in ids})):
        symbol = vocab[i]
        out[i] = (label(symbol, byte_style), raw_bytes(symbol).hex(" "))
    return out


#: the card's note for a replayed merge whose pair is not in the corpus
