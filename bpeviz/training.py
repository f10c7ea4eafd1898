"""Training: one incremental merge loop for BPE, byte-level BPE and WordPiece.

The loop keeps pair counts, an index from each pair to the words that hold it and a
priority queue with lazy deletion, so a merge only touches the words that contain its
pair. Every merge site becomes a node of a merge forest (:class:`SplitLog`); the state at
any step is read back from it (see :mod:`bpeviz.snapshot`), never stored per step.

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_counts({"low": 5, "lower": 2, "newest": 6, "widest": 3}),
...           algorithm="bpe", merges=2, marker="</w>")
>>> [(m.left, m.right, m.count) for m in t.merges]
[('e', 's', 9), ('es', 't', 9)]
"""

from __future__ import annotations

import heapq
import os
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from itertools import accumulate, pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from bpeviz.corpus import Corpus
from bpeviz.symbols import (
    DEFAULT_SPECIAL_TOKENS,
    WORDPIECE_PREFIX,
    Symbol,
    check_algorithm,
    initial_symbols,
    join,
    utf8_bytes,
)

try:  # the compiled merge loop, built by `python setup.py build_ext --inplace`
    from bpeviz import _merge as _compiled
except ImportError:  # not built: the pure-Python loop gives the same results, slower
    _compiled = None

if TYPE_CHECKING:
    from bpeviz.explain import Explanation
    from bpeviz.snapshot import Snapshot

#: "compiled" (bpeviz._merge, a C extension) or "python" (the reference loop)
ENGINES = ("compiled", "python")


def default_engine() -> str:
    """The merge loop :func:`train` uses: ``BPEVIZ_ENGINE`` if set, else compiled if built."""
    return os.environ.get("BPEVIZ_ENGINE") or ("compiled" if _compiled else "python")

TIE_BREAKS = ("first", "ids")
SCORINGS = ("score", "frequency")
MARKER_STYLES = ("separate", "glued")

STOP_REASONS = {
    "merges": "made the requested number of merges",
    "vocab_size": "reached the requested vocabulary size",
    "no_pairs": "no pair of symbols was left to merge",
    "min_frequency": "no pair left reaches the minimum frequency",
    "replayed": "replayed a given list of merges",
}


@dataclass(frozen=True)
class TrainOptions:
    """Everything that decides a training's result, besides the corpus."""

    algorithm: str = "bpe"
    merges: int | None = None
    vocab_size: int | None = None
    tie_break: str = "first"
    marker: str | None = None
    marker_style: str = "separate"
    scoring: str = "score"
    min_frequency: int = 0
    special_tokens: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "special_tokens": list(self.special_tokens)}


@dataclass(frozen=True)
class Merge:
    """One merge: at ``step`` (1-based), ``left`` + ``right`` became ``token``.

    ``count`` is the pair's weighted count when it was chosen and ``score`` the value it
    won with (the count itself for BPE and BBPE). ``replaced`` is how many occurrences
    were merged (fewer than ``count`` when occurrences overlap, as in "a a a").
    """

    step: int
    left: Symbol
    right: Symbol
    token: Symbol
    count: int
    score: float
    left_id: int
    right_id: int
    token_id: int
    replaced: int


def make_options(
    algorithm: str,
    *,
    merges: int | None = None,
    vocab_size: int | None = None,
    tie_break: str = "first",
    marker: str | None = None,
    marker_style: str = "separate",
    scoring: str = "score",
    min_frequency: int = 0,
    special_tokens: Sequence[str] | None = None,
) -> TrainOptions:
    """Check the training options and fill in the defaults; raise ValueError if wrong."""
    check_algorithm(algorithm)
    if merges is not None and vocab_size is not None:
        raise ValueError("give either merges or vocab_size, not both")
    if merges is None and vocab_size is None:
        raise ValueError("say how long to train: merges=N or vocab_size=V")
    for name, value in (("merges", merges), ("vocab_size", vocab_size),
                        ("min_frequency", min_frequency)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 0):
            raise ValueError(f"{name} must be a whole number >= 0, got {value!r}")
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {TIE_BREAKS}, got {tie_break!r}")
    if scoring not in SCORINGS:
        raise ValueError(f"scoring must be one of {SCORINGS}, got {scoring!r}")
    if marker_style not in MARKER_STYLES:
        raise ValueError(f"marker_style must be one of {MARKER_STYLES}, got {marker_style!r}")
    if marker is not None and algorithm != "bpe":
        raise ValueError("an end-of-word marker is a BPE option; BBPE and WordPiece have none")
    if special_tokens is None:
        special_tokens = DEFAULT_SPECIAL_TOKENS[algorithm]
    if algorithm == "bbpe" and special_tokens:
        raise ValueError("byte-level BPE keeps ids 0-255 for the bytes; it takes no special tokens")
    return TrainOptions(
        algorithm=algorithm,
        merges=merges,
        vocab_size=vocab_size,
        tie_break=tie_break,
        marker=marker or None,
        marker_style=marker_style,
        scoring=scoring if algorithm == "wordpiece" else "frequency",
        min_frequency=min_frequency,
        special_tokens=tuple(special_tokens),
    )


def base_vocabulary(corpus: Corpus, options: TrainOptions) -> list[Symbol]:
    """Special tokens, then the initial alphabet sorted by code point (bytes 0-255 for BBPE)."""
    if options.algorithm == "bbpe":
        return [bytes((b,)) for b in range(256)]
    specials = list(options.special_tokens)
    return specials + sorted(_alphabet(corpus, options) - set(specials))  # type: ignore[type-var]


def _alphabet(corpus: Corpus, options: TrainOptions) -> set[Symbol]:
    """Every initial symbol of the corpus (BPE and WordPiece), without a loop per word."""
    words, marker = corpus.words, options.marker
    if not all(words):  # an empty word: let initial_symbols decide what it holds
        alphabet: set[Symbol] = set()
        for word in words:
            alphabet.update(initial_symbols(word, options.algorithm, marker,
                                            options.marker_style))
        return alphabet
    if options.algorithm == "wordpiece":
        return ({w[0] for w in words}
                | {WORDPIECE_PREFIX + ch for ch in set("".join(w[1:] for w in words))})
    if marker and options.marker_style == "glued":
        return set("".join(w[:-1] for w in words)) | {w[-1] + marker for w in words}
    return set("".join(words)) | ({marker} if marker else set())


def train(
    corpus: Corpus,
    algorithm: str = "bpe",
    *,
    merges: int | None = None,
    vocab_size: int | None = None,
    tie_break: str = "first",
    marker: str | None = None,
    marker_style: str = "separate",
    scoring: str = "score",
    min_frequency: int = 0,
    special_tokens: Sequence[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Training:
    """Train ``algorithm`` ("bpe", "bbpe" or "wordpiece") on ``corpus``.

    Give ``merges`` (how many merges) or ``vocab_size`` (special tokens, alphabet and
    merged tokens together). Training stops early, without error, when no pair is left
    or none reaches ``min_frequency``; ``Training.stop_reason`` says why it stopped.
    ``progress(done, total)`` is called now and then, for progress bars.
    """
    options = make_options(
        algorithm, merges=merges, vocab_size=vocab_size, tie_break=tie_break, marker=marker,
        marker_style=marker_style, scoring=scoring, min_frequency=min_frequency,
        special_tokens=special_tokens,
    )
    if not corpus.words:
        raise ValueError("the corpus has no words: give some text to train on")
    base = base_vocabulary(corpus, options)
    if options.vocab_size is not None and options.vocab_size < len(base):
        raise ValueError(
            f"vocab_size={options.vocab_size} is smaller than the starting vocabulary "
            f"({len(base)} = {len(options.special_tokens)} special tokens + "
            f"{len(base) - len(options.special_tokens)} initial symbols); "
            f"ask for at least {len(base)}"
        )
    loop = _MergeLoop(corpus, options, base)
    loop.run(progress=progress)
    return loop.result()


def replay(
    corpus: Corpus,
    options: TrainOptions,
    pairs: Sequence[tuple[Symbol, Symbol]],
    base: Sequence[Symbol] | None = None,
) -> Training:
    """Apply the given merges in order (no choosing), recording counts as they are.

    This rebuilds a saved training, opens an imported tokenizer (whose base vocabulary
    is ``base``) and is the reference the tests compare ``train`` against.
    """
    base = list(base) if base is not None else base_vocabulary(corpus, options)
    loop = _MergeLoop(corpus, options, base)
    loop.run(forced=pairs)
    return loop.result()


class _MergeLoop:
    """One training run, used once through :func:`train` or :func:`replay`.

    The loop owns the vocabulary and the merge records; the pair counts, the word index,
    the priority queue and the split log live in an engine: the compiled
    ``bpeviz._merge.State`` when it is built, else :class:`_PairState`, its pure-Python
    reference (``BPEVIZ_ENGINE=python`` forces it). Both give identical results.
    """

    def __init__(self, corpus: Corpus, options: TrainOptions, base: list[Symbol],
                 engine: str | None = None) -> None:
        self.corpus = corpus
        self.options = options
        self.algorithm = options.algorithm
        self.vocab: list[Symbol] = list(base)
        self.ids: dict[Symbol, int] = {}
        for i, sym in enumerate(self.vocab):
            self.ids.setdefault(sym, i)
        self.n_base = len(self.vocab)
        self.merges: list[Merge] = []
        self.vocab_lens: list[int] = []  # vocabulary size after each merge
        self.stop_reason = "merges"
        self.engine = engine or default_engine()
        if self.engine not in ENGINES:
            raise ValueError(f"engine must be one of {ENGINES}, got {self.engine!r}")

    def _initial_ids(self) -> tuple[np.ndarray, np.ndarray]:
        """Every word's initial symbols as ids (a hook: :mod:`bpeviz.recount` maps
        symbols the vocabulary lacks to its unknown token)."""
        return initial_ids(self.corpus, self.options, self.ids)

    def _start(self) -> None:
        flat, lengths = self._initial_ids()
        counts, self.initial_tokens = _weighted_counts(self.corpus.counts, lengths)
        engine: type[_PairState] | Any = _PairState
        fits = counts.dtype == np.int64 and self.options.min_frequency <= INT64_MAX
        if (self.engine == "compiled" and fits
                and (not len(counts) or counts.min() > 0)):
            if _compiled is None:
                raise RuntimeError("the compiled merge loop is not built: run "
                                   "`python setup.py build_ext --inplace`")
            engine = _compiled.State
        self.state = engine(flat, lengths, counts, len(self.vocab),
                            self.options.tie_break == "first",
                            self.options.algorithm == "wordpiece"
                            and self.options.scoring == "score",
                            self.options.min_frequency)

    def _merge(self, p: tuple[int, int], step: int) -> None:
        a, b = p
        token = join(self.vocab[a], self.vocab[b], self.algorithm)
        t = self.ids.get(token)
        if t is None:  # a new token; one that already exists keeps its id
            t = len(self.vocab)
            self.vocab.append(token)
            self.ids[token] = t
        count, score, replaced = self.state.merge(a, b, t, step)
        self.vocab_lens.append(len(self.vocab))
        self.merges.append(Merge(step, self.vocab[a], self.vocab[b], token, count, score,
                                 a, b, t, replaced))

    def run(
        self,
        forced: Sequence[tuple[Symbol, Symbol]] | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self._start()
        if forced is not None:
            self.stop_reason = "replayed"
            for step, (left, right) in enumerate(forced, 1):
                try:
                    p = (self.ids[left], self.ids[right])
                except KeyError as err:
                    raise ValueError(
                        f"merge {step} ({left!r}, {right!r}) uses {err.args[0]!r}, "
                        "which is neither in the base vocabulary nor made by an earlier merge"
                    ) from None
                self._merge(p, step)
            return
        o = self.options
        total = o.merges if o.merges is not None else o.vocab_size - len(self.vocab)  # type: ignore[operator]
        step = 0
        while True:
            if o.merges is not None and step >= o.merges:
                self.stop_reason = "merges"
                break
            if o.vocab_size is not None and len(self.vocab) >= o.vocab_size:
                self.stop_reason = "vocab_size"
                break
            p = self.state.pop_best()
            if p is None:
                self.stop_reason = self.state.stop_reason()
                break
            step += 1
            self._merge(p, step)
            if progress is not None and step % 100 == 0:
                progress(step, total)
        if progress is not None:
            progress(step, total)

    def result(self) -> Training:
        forest = [np.frombuffer(x, dtype=np.int32) if isinstance(x, bytes) else x
                  for x in self.state.forest()]
        del self.state  # the engine's tables are spent: free them before packing the log
        return Training(
            corpus=self.corpus,
            options=self.options,
            merges=tuple(self.merges),
            vocab=tuple(self.vocab),
            n_base=self.n_base,
            stop_reason=self.stop_reason,
            vocab_sizes=np.array([self.n_base, *self.vocab_lens], dtype=np.int64),
            initial_tokens=self.initial_tokens,
            _log=SplitLog.from_forest(*forest, n_words=len(self.corpus.words),
                                      n_steps=len(self.merges)),
        )


INT64_MAX = 2**63 - 1


def count_array(counts: Sequence[int]) -> np.ndarray:
    """The counts as int64, or as Python ints (an object array) when one passes 64 bits."""
    try:
        return np.asarray(counts, dtype=np.int64)
    except OverflowError:
        return np.array(list(counts), dtype=object)


def _weighted_counts(counts: Sequence[int], lengths: np.ndarray) -> tuple[np.ndarray, int]:
    """The counts as an array, and the number of initial symbols they weigh (exactly).

    The array is int64 when every count the merge loop can reach fits in 64 bits, else
    an object array of Python ints, which only the pure-Python loop takes: no pair
    count, unit count or replaced total can exceed ``sum(count * length)``, so that sum
    is the test.

    >>> _weighted_counts([2**62, 2**62], np.array([2, 4]))[0].dtype
    dtype('O')
    >>> _weighted_counts([2**62 - 1], np.array([2]))
    (array([4611686018427387903]), 9223372036854775806)
    """
    array = count_array(counts)
    if not len(array):
        return array, 0
    if array.dtype == np.int64 and int(array.max()) <= INT64_MAX // max(int(lengths.sum()), 1):
        return array, int(lengths @ array)  # the sum fits: int64 arithmetic is exact
    total = sum(c * n for c, n in zip(counts, lengths.tolist()))
    if total > INT64_MAX and array.dtype == np.int64:
        array = np.array(list(counts), dtype=object)
    return array, total


def initial_ids(corpus: Corpus, options: TrainOptions,
                ids: dict[Symbol, int]) -> tuple[np.ndarray, np.ndarray]:
    """Every word's initial symbols as ids: (all ids concatenated as int32, word lengths).

    Vectorized with NumPy for the usual cases; words whose symbols the vocabulary lacks,
    or empty words, take the per-word path, which raises a ValueError naming the word.

    >>> flat, lengths = initial_ids(Corpus.from_counts({"ab": 1, "b": 2}),
    ...                             make_options("bpe", merges=1), {"a": 0, "b": 1})
    >>> flat.tolist(), lengths.tolist()
    ([0, 1, 1], [2, 1])
    """
    words, algorithm, marker = corpus.words, options.algorithm, options.marker
    flat = None
    if words and all(words):
        if algorithm == "bbpe":
            flat, lengths = _byte_ids(words, ids)
        else:
            lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
            text = "".join(words)
            codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
            flat = _char_ids(codes, ids, "")
            if flat is not None and algorithm == "wordpiece":
                later = _char_ids(codes, ids, WORDPIECE_PREFIX, missing_ok=True)
                is_first = np.zeros(len(codes), dtype=bool)
                is_first[np.cumsum(lengths) - lengths] = True
                if flat is not None and not (later[~is_first] < 0).any():
                    flat = np.where(is_first, flat, later)
                else:
                    flat = None
            elif flat is not None and marker and options.marker_style == "glued":
                last = [ids.get(w[-1] + marker, -1) for w in words]
                flat[np.cumsum(lengths) - 1] = last
                if min(last) < 0:
                    flat = None
            elif flat is not None and marker:
                marker_id = ids.get(marker)
                if marker_id is None:
                    flat = None
                else:
                    flat = np.insert(flat, np.cumsum(lengths), marker_id)
                    lengths = lengths + 1
    if flat is None:  # the per-word path
        split: list[int] = []
        sizes = []
        for word in words:
            symbols = initial_symbols(word, algorithm, marker, options.marker_style)
            for sym in symbols:
                i = ids.get(sym)
                if i is None:
                    raise ValueError(
                        f"the word {word!r} holds {sym!r}, which the base vocabulary lacks"
                    )
                split.append(i)
            sizes.append(len(symbols))
        flat = np.array(split, dtype=np.int32)
        lengths = np.array(sizes, dtype=np.int64)
    return flat.astype(np.int32, copy=False), lengths


def _char_ids(codes: np.ndarray, ids: dict[Symbol, int], prefix: str,
              missing_ok: bool = False) -> np.ndarray | None:
    """Map code points to the ids of ``prefix + chr(code)``; None (or -1s) if one lacks it."""
    table = {ord(sym[-1]): i for sym, i in ids.items()
             if isinstance(sym, str) and len(sym) == len(prefix) + 1 and sym.startswith(prefix)}
    keys = np.array(sorted(table), dtype=np.uint32)
    values = np.array([table[k] for k in keys.tolist()], dtype=np.int64)
    if not len(keys):
        return np.full(len(codes), -1, dtype=np.int64) if missing_ok else None
    where = np.minimum(np.searchsorted(keys, codes), len(keys) - 1)
    found = keys[where] == codes
    if missing_ok:
        return np.where(found, values[where], -1)
    return values[where] if found.all() else None


def _byte_ids(words: Sequence[str], ids: dict[Symbol, int]) -> tuple[np.ndarray | None,
                                                                   np.ndarray]:
    data = [utf8_bytes(w) for w in words]
    lengths = np.fromiter(map(len, data), dtype=np.int64, count=len(data))
    table = np.array([ids.get(bytes((b,)), -1) for b in range(256)], dtype=np.int64)
    flat = table[np.frombuffer(b"".join(data), dtype=np.uint8)]
    return (None if (flat < 0).any() else flat), lengths


class _PairState:
    """The merge loop's state in pure Python: the reference for ``bpeviz._merge.State``.

    It keeps pair counts, an index from each pair to the words that may hold it (stale
    entries are skipped), a first-occurrence lower bound per pair (tie rule ``first``)
    and a heap with lazy deletion, so a merge only touches the words that hold its pair.
    Every merge site adds a node to the merge forest (see :class:`SplitLog`).
    """

    def __init__(self, flat: np.ndarray, lengths: np.ndarray, counts: np.ndarray,
                 n_vocab: int, first_rule: bool, scored: bool, min_frequency: int) -> None:
        symbols = flat.tolist()
        ends = np.cumsum(lengths).tolist()
        self.words: list[list[int]] = [symbols[e - n : e]
                                       for e, n in zip(ends, lengths.tolist())]
        self.counts: list[int] = counts.tolist()
        self.first_rule, self.scored, self.min_freq = first_rule, scored, min_frequency
        self.filtered = False  # a pair was passed over for min_frequency
        self.stop = "no_pairs"
        # units[i]: how many initial symbols token i spans (offsets for the "first" rule)
        self.units: list[int] = [1] * n_vocab
        self.unit_count: list[int] = [0] * n_vocab
        # the merge forest (see SplitLog): node i < len(flat) is initial symbol i; every
        # merge site adds a node, logged as (token, word, left child, right child), and
        # site_steps holds (step, number of sites) per merge. nodes[w][i] is the node of
        # words[w][i].
        self.initial = (flat, lengths)
        self.next_node = len(symbols)
        self.site_log: list[int] = []
        self.site_steps: list[tuple[int, int]] = []
        self.nodes: list[list[int]] = [list(range(e - n, e))
                                       for e, n in zip(ends, lengths.tolist())]
        self._count_pairs()

    def _count_pairs(self) -> None:
        pc: dict[tuple[int, int], int] = {}
        where: dict[tuple[int, int], set[int]] = {}
        first: dict[tuple[int, int], tuple[int, int]] = {}
        for w, word in enumerate(self.words):
            c = self.counts[w]
            for i, p in enumerate(pairwise(word)):
                if p in pc:
                    pc[p] += c
                    where[p].add(w)
                else:
                    pc[p] = c
                    where[p] = {w}
                    first[p] = (w, i)  # initial symbols are one unit each
        self.pc, self.where, self.first = pc, where, first
        if self.scored:
            self.pairs_of: dict[int, set[tuple[int, int]]] = {}
            for w, word in enumerate(self.words):
                c = self.counts[w]
                for s in word:
                    self.unit_count[s] += c
            for p in pc:
                self.pairs_of.setdefault(p[0], set()).add(p)
                self.pairs_of.setdefault(p[1], set()).add(p)
        self.heap = [self._entry(p) for p in pc]
        heapq.heapify(self.heap)

    def _priority(self, p: tuple[int, int]) -> float:
        count = self.pc.get(p, 0)
        if self.scored and count:
            return count / (self.unit_count[p[0]] * self.unit_count[p[1]])
        return count

    def _entry(self, p: tuple[int, int]) -> tuple:
        if self.first_rule:
            return (-self._priority(p), self.first[p], p)
        return (-self._priority(p), p)

    # -- choosing -----------------------------------------------------------------
    def _true_first(self, p: tuple[int, int], bound: tuple[int, int]) -> tuple[int, int]:
        """The first occurrence of ``p``, given a lower ``bound`` (often exact)."""
        a, b = p
        units = self.units
        w, target = bound
        word, off = self.words[w], 0
        for i in range(len(word) - 1):  # cheap check: is the bound itself an occurrence?
            if off == target:
                if word[i] == a and word[i + 1] == b:
                    return bound
                break
            off += units[word[i]]
        for w in sorted(self.where.get(p, ())):
            word = self.words[w]
            off = 0
            for i in range(len(word) - 1):
                if word[i] == a and word[i + 1] == b:
                    return (w, off)
                off += units[word[i]]
        raise AssertionError(f"pair {p} has a count but no occurrence")

    def pop_best(self) -> tuple[int, int] | None:
        """The pair to merge next, or None (and :meth:`stop_reason` says why)."""
        heap, min_freq = self.heap, self.min_freq
        while heap:
            entry = heap[0]
            p = entry[-1]
            if p not in self.pc:
                heapq.heappop(heap)  # merged away, or its last occurrence is gone
                continue
            fresh = self._entry(p)
            if fresh != entry:  # its count fell (or bound moved) since this entry was made
                heapq.heapreplace(heap, fresh)
                continue
            count = self.pc[p]
            if self.first_rule:
                true = self._true_first(p, entry[1])
                if true != entry[1]:  # the stored occurrence was only a lower bound
                    self.first[p] = true
                    heapq.heapreplace(heap, (entry[0], true, p))
                    continue
            if count < min_freq:
                if not self.scored:  # counts come out in order: nothing better is left
                    self.stop = "min_frequency"
                    return None
                heapq.heappop(heap)  # its count may not rise again, but a new entry would
                self.filtered = True
                continue
            heapq.heappop(heap)
            return p
        self.stop = "min_frequency" if self.filtered else "no_pairs"
        return None

    def stop_reason(self) -> str:
        return self.stop

    # -- merging ------------------------------------------------------------------
    def merge(self, a: int, b: int, t: int, step: int) -> tuple[int, float, int]:
        """Merge (a, b) into token t (``t == len(vocab)`` for a new one) at ``step``.

        Returns the pair's count and score before the merge and the occurrences replaced.
        """
        p = (a, b)
        count = self.pc.get(p, 0)
        score = float(self._priority(p)) if count else 0.0
        if t == len(self.units):
            self.units.append(self.units[a] + self.units[b])
            self.unit_count.append(0)
        # pairs whose count rose need a fresh heap entry; a count that fell is found
        # stale when popped and pushed again then (BPE counts of a pair never rise,
        # unless through a token that already existed, which lands here too)
        grown: set[tuple[int, int]] = set()
        dropped: set[tuple[int, int]] = set()
        replaced = self._merge_words(a, b, t, step, grown, dropped)
        if self.scored:  # scores rise when a unit count falls: every pair of a, b, t moves
            uc = self.unit_count
            uc[a] -= replaced
            uc[b] -= replaced
            uc[t] += replaced
            pairs_of, pc = self.pairs_of, self.pc
            for q in grown:
                pairs_of.setdefault(q[0], set()).add(q)
                pairs_of.setdefault(q[1], set()).add(q)
            for s in {a, b, t}:
                live = {q for q in pairs_of.get(s, ()) if q in pc}
                pairs_of[s] = live
                grown |= live
            grown |= dropped
        heap, pc, entry = self.heap, self.pc, self._entry
        for q in grown:
            if q in pc:
                heapq.heappush(heap, entry(q))
        return count, score, replaced

    def _merge_words(self, a: int, b: int, t: int, step: int,
                     grown: set[tuple[int, int]], dropped: set[tuple[int, int]]) -> int:
        """Merge (a, b) into t in every word that holds it, leftmost first.

        Updates pair counts, the pair index and the first-occurrence bounds, logs the new
        splits, and returns the number of occurrences replaced, weighted by word counts.
        """
        words, counts, pc, where, first = self.words, self.counts, self.pc, self.where, self.first
        track_first, units = self.first_rule, self.units
        nodes_of, log_site, node_id = self.nodes, self.site_log.extend, self.next_node
        replaced = 0
        for w in self.where.pop((a, b), ()):
            word = words[w]
            n = len(word)
            c = counts[w]
            nodes = nodes_of[w]  # edited in place: site k sits at position j - k there
            new: list[int] = []
            i = 0
            off = 0  # unit offset of word[i] ("first" rule only)
            sites = 0
            while i < n - 1:
                try:
                    j = word.index(a, i, n - 1)
                except ValueError:
                    break
                if word[j + 1] != b:
                    if track_first:
                        off += sum([units[s] for s in word[i : j + 1]])
                    new.extend(word[i : j + 1])
                    i = j + 1
                    continue
                if track_first:
                    off += sum([units[s] for s in word[i:j]])
                new.extend(word[i:j])
                if j:  # the left neighbour x: (x, a) -> (x', t)
                    q = (word[j - 1], a)
                    left = pc[q] - c
                    if left:
                        pc[q] = left
                        dropped.add(q)
                    else:
                        del pc[q]
                    q = (new[-1], t)
                    pc[q] = pc.get(q, 0) + c
                    grown.add(q)
                    ws = where.get(q)
                    if ws is None:
                        where[q] = {w}
                    else:
                        ws.add(w)
                    if track_first:
                        occ = (w, off - units[new[-1]])
                        if q not in first or occ < first[q]:
                            first[q] = occ
                if j + 2 < n:  # the right neighbour y: (b, y) -> (t, y)
                    y = word[j + 2]
                    if not (y == a and j + 3 < n and word[j + 3] == b):
                        q = (b, y)
                        left = pc[q] - c
                        if left:
                            pc[q] = left
                            dropped.add(q)
                        else:
                            del pc[q]
                        q = (t, y)
                        pc[q] = pc.get(q, 0) + c
                        grown.add(q)
                        ws = where.get(q)
                        if ws is None:
                            where[q] = {w}
                        else:
                            ws.add(w)
                        if track_first:
                            occ = (w, off)
                            if q not in first or occ < first[q]:
                                first[q] = occ
                    # else: the next site's left-neighbour step turns (b, a) into (t, t)
                q = (a, b)
                left = pc[q] - c
                if left:
                    pc[q] = left
                else:
                    del pc[q]
                new.append(t)
                # the forest: a new node over the two
                k = j - sites
                log_site((t, w, nodes[k], nodes[k + 1]))
                nodes[k : k + 2] = (node_id,)
                node_id += 1
                if track_first:
                    off += units[a] + units[b]
                sites += 1
                i = j + 2
            if not sites:
                continue  # a stale index entry: this word no longer holds the pair
            new.extend(word[i:])
            words[w] = new
            replaced += sites * c
        self.site_steps.append((step, node_id - self.next_node))
        self.next_node = node_id
        return replaced

    def forest(self) -> tuple[np.ndarray, ...]:
        """The merge forest as int32 arrays (token, word, step, until), one item per node,
        sorted by word, position and step (see :class:`SplitLog`)."""
        flat, lengths = self.initial
        n_initial = len(flat)
        sites = np.array(self.site_log, dtype=np.int64).reshape(-1, 4)
        steps, per_step = (np.array(self.site_steps, dtype=np.int64).reshape(-1, 2).T
                           if self.site_steps else (np.zeros(0, np.int64),) * 2)
        site_step = np.repeat(steps, per_step)
        token = np.concatenate([flat, sites[:, 0]])
        word = np.concatenate([np.repeat(np.arange(len(lengths)), lengths), sites[:, 1]])
        step = np.concatenate([np.zeros(n_initial, dtype=np.int64), site_step])
        until = np.full(len(token), NEVER, dtype=np.int64)
        until[sites[:, 2]] = site_step  # both children end where their parent begins
        until[sites[:, 3]] = site_step
        # a node starts where its leftmost initial symbol does: follow left children
        start = np.arange(len(token), dtype=np.int64)
        start[n_initial:] = sites[:, 2]
        while True:
            deeper = start[start]
            if np.array_equal(deeper, start):
                break
            start = deeper
        # one (position, step) per node; a word's positions come after the word before's
        order = np.argsort(start << 32 | step)
        return tuple(x[order].astype(np.int32) for x in (token, word, step, until))


#: the step a node that is never merged into a longer token is merged at
NEVER = 2**31 - 1


@dataclass(frozen=True)
class SplitLog:
    """Every token every word ever held: the merge forest, packed in NumPy arrays.

    Node ``i`` is token ``token[i]`` of word ``word[i]``, made at step ``step[i]`` (0 for
    an initial symbol) and merged into a longer token at step ``until[i]`` (``NEVER``
    if it never is). Nodes are sorted by word, then by position, then by step, so the
    split of every word after step ``k`` is the nodes with ``step <= k < until``, in
    order: one vectorized comparison. Memory: one node per initial symbol and one per
    merge site, so it grows with the corpus's symbols, never with a copy per step.

    Example: "aaa" with the merges (a, a) then (aa, a) has the nodes a a a (step 0),
    aa (step 1, over the first two) and aaa (step 2); at step 1 the split is aa a.
    """

    token: np.ndarray
    step: np.ndarray
    until: np.ndarray
    word: np.ndarray
    word_start: np.ndarray  # word w's nodes are word_start[w]:word_start[w + 1]
    n_words: int
    n_steps: int

    @classmethod
    def from_forest(cls, token: np.ndarray, word: np.ndarray, step: np.ndarray,
                    until: np.ndarray, n_words: int, n_steps: int) -> SplitLog:
        """Pack nodes already sorted by word, position in the word, and step."""
        return cls(
            token=token,
            step=step,
            until=until,
            word=word,
            word_start=np.searchsorted(word, np.arange(n_words + 1, dtype=np.int32)),
            n_words=n_words,
            n_steps=n_steps,
        )

    def live(self, step: int) -> np.ndarray:
        """Which nodes make up the splits after ``step`` merges (a boolean mask)."""
        return (self.step <= step) & (self.until > step)

    def split_ids(self, index: int, step: int) -> np.ndarray:
        """The token ids of word number ``index`` after ``step`` merges."""
        lo, hi = self.word_start[index], self.word_start[index + 1]
        live = (self.step[lo:hi] <= step) & (self.until[lo:hi] > step)
        return self.token[lo:hi][live]

    def history(self, index: int) -> tuple[list[int], list[int], list[int]]:
        """Every token word ``index`` ever holds, in split order: (token ids, the step
        each is made at, the step it is merged away at). Its split after step ``k`` is
        the tokens with ``made <= k < merged``; a token never merged away has
        ``merged = n_steps + 1``. This is the word's part of the merge forest, so a
        browser can redraw the word at any step without asking again.

        Example: "aaa" with the merges (a, a) then (aa, a) gives, as (token, made,
        merged), a(0,1) aa(1,2) aaa(2,3) a(0,1) a(0,2): at step 1 the live ones are aa
        and the last a.
        """
        lo, hi = self.word_start[index], self.word_start[index + 1]
        until = np.minimum(self.until[lo:hi], self.n_steps + 1)
        return self.token[lo:hi].tolist(), self.step[lo:hi].tolist(), until.tolist()

    def changed_words(self, step: int) -> np.ndarray:
        """The words that merge ``step`` changed (step >= 1), in order."""
        return np.unique(self.word[self.step == step])

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.token, self.step, self.until, self.word,
                                      self.word_start))


@dataclass(frozen=True, eq=False)
class Training:
    """The result of :func:`train`: the merges, the vocabulary, and the split log.

    ``vocab[i]`` is the token with id ``i``: special tokens, the initial alphabet (the 256
    bytes for BBPE), then each merged token in creation order. A merge whose token
    already exists keeps the existing id, so for BBPE merge ``k`` has id ``255 + k``
    unless an earlier merge already made the same bytes.
    """

    corpus: Corpus
    options: TrainOptions
    merges: tuple[Merge, ...]
    vocab: tuple[Symbol, ...]
    n_base: int
    stop_reason: str
    vocab_sizes: np.ndarray = field(repr=False)
    initial_tokens: int = field(repr=False)
    _log: SplitLog = field(repr=False)

    @property
    def algorithm(self) -> str:
        return self.options.algorithm

    def __len__(self) -> int:
        return len(self.merges)

    @property
    def stopped_early(self) -> bool:
        """True when training ended before the requested merges or vocabulary size."""
        return self.stop_reason in ("no_pairs", "min_frequency")

    @property
    def stop_message(self) -> str:
        return f"Stopped after {len(self.merges)} merges: {STOP_REASONS[self.stop_reason]}."

    def vocab_size_at(self, step: int) -> int:
        """How many tokens the vocabulary holds after ``step`` merges."""
        return int(self.vocab_sizes[step])

    def token_counts(self) -> np.ndarray:
        """Tokens in the whole corpus after each step, for steps ``0..len(merges)``."""
        if self.initial_tokens > INT64_MAX:  # counts past 64 bits: Python ints
            done = [0, *accumulate(m.replaced for m in self.merges)]
            return np.array([self.initial_tokens - d for d in done], dtype=object)
        replaced = np.fromiter((m.replaced for m in self.merges), np.int64, len(self.merges))
        return self.initial_tokens - np.concatenate([[0], np.cumsum(replaced)])

    def at(self, step: int | None = None) -> Snapshot:
        """The state after ``step`` merges (default: the last one)."""
        from bpeviz.snapshot import Snapshot

        if step is None:
            step = len(self.merges)
        if isinstance(step, bool) or not isinstance(step, int | np.integer):
            raise ValueError(f"step must be a whole number, got {step!r}")
        if not 0 <= step <= len(self.merges):
            raise ValueError(f"step must be between 0 and {len(self.merges)}, got {step}")
        return Snapshot(self, int(step))

    def replay(self, corpus: Corpus | str) -> Training:
        """The same merges, base vocabulary and ids, counted on another corpus (or text);
        see :func:`bpeviz.recount.replay_on`."""
        from bpeviz.recount import replay_on

        return replay_on(self, corpus)

    def explain(self, step: int) -> Explanation:
        """Why merge ``step`` was chosen: the words, rivals and tie behind it
        (see :mod:`bpeviz.explain`)."""
        from bpeviz.explain import explain

        return explain(self, step)

    def save(self, path: str) -> None:
        """Write this training as JSON (atomically); :func:`bpeviz.load` reads it back."""
        from bpeviz.serialize import save_training

        save_training(self, path)
