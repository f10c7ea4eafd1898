"""Training: one incremental merge loop for BPE, byte-level BPE and WordPiece.

The loop keeps pair counts, an index from each pair to the words that hold it and a
priority queue with lazy deletion, so a merge only touches the words that contain its
pair. Every change of a word's split is logged as ``(word, step, split)``; the state at
any step is read back from that log (see :mod:`bpeviz.snapshot`), never stored per step.

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_counts({"low": 5, "lower": 2, "newest": 6, "widest": 3}),
...           algorithm="bpe", merges=2, marker="</w>")
>>> [(m.left, m.right, m.count) for m in t.merges]
[('e', 's', 9), ('es', 't', 9)]
"""

from __future__ import annotations

import heapq
from itertools import chain
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from bpeviz.corpus import Corpus
from bpeviz.symbols import (
    DEFAULT_SPECIAL_TOKENS,
    Symbol,
    check_algorithm,
    initial_symbols,
    join,
)

if TYPE_CHECKING:
    from bpeviz.snapshot import Snapshot

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
    alphabet: set[Symbol] = set()
    for word in corpus.words:
        alphabet.update(initial_symbols(word, options.algorithm, options.marker,
                                        options.marker_style))
    specials = list(options.special_tokens)
    return specials + sorted(alphabet - set(specials))  # type: ignore[type-var]


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
    """The state of one training run. Used once, through :func:`train` or :func:`replay`."""

    def __init__(self, corpus: Corpus, options: TrainOptions, base: list[Symbol]) -> None:
        self.corpus = corpus
        self.options = options
        self.algorithm = options.algorithm
        self.vocab: list[Symbol] = list(base)
        self.ids: dict[Symbol, int] = {}
        for i, sym in enumerate(self.vocab):
            self.ids.setdefault(sym, i)
        self.n_base = len(self.vocab)
        # units[i]: how many initial symbols token i spans (offsets for the "first" rule)
        self.units: list[int] = [1] * len(self.vocab)
        self.words: list[list[int]] = []
        self.counts: list[int] = list(corpus.counts)
        self.merges: list[Merge] = []
        self.vocab_lens: list[int] = []  # vocabulary size after each merge
        self.stop_reason = "merges"
        # the split log: event e says word ev_word[e] became ev_split[e] at step ev_step[e]
        self.ev_word: list[int] = []
        self.ev_step: list[int] = []
        self.ev_split: list[list[int]] = []
        self.scored = options.algorithm == "wordpiece" and options.scoring == "score"
        self.first_rule = options.tie_break == "first"
        self.filtered = False  # a pair was passed over for min_frequency

    # -- set-up -------------------------------------------------------------------
    def _initial_words(self) -> None:
        o = self.options
        for w, word in enumerate(self.corpus.words):
            ids = []
            for sym in initial_symbols(word, self.algorithm, o.marker, o.marker_style):
                i = self.ids.get(sym)
                if i is None:
                    raise ValueError(
                        f"the word {word!r} holds {sym!r}, which the base vocabulary lacks"
                    )
                ids.append(i)
            self.words.append(ids)
            self._log(w, 0, ids)
        self.initial = list(self.words)

    def _log(self, w: int, step: int, ids: list[int]) -> None:
        self.ev_word.append(w)
        self.ev_step.append(step)
        self.ev_split.append(ids)

    def _count_pairs(self) -> None:
        pc: dict[tuple[int, int], int] = {}
        where: dict[tuple[int, int], set[int]] = {}
        first: dict[tuple[int, int], tuple[int, int]] = {}
        for w, word in enumerate(self.words):
            c = self.counts[w]
            for i in range(len(word) - 1):
                p = (word[i], word[i + 1])
                if p in pc:
                    pc[p] += c
                    where[p].add(w)
                else:
                    pc[p] = c
                    where[p] = {w}
                    first[p] = (w, i)  # initial symbols are one unit each
        self.pc, self.where, self.first = pc, where, first
        self.unit_count = [0] * len(self.vocab)
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

    def _pop_best(self) -> tuple[int, int] | None:
        """The pair to merge next, or None (and ``stop_reason`` set) when there is none."""
        heap, min_freq = self.heap, self.options.min_frequency
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
                    self.stop_reason = "min_frequency"
                    return None
                heapq.heappop(heap)  # its count may not rise again, but a new entry would
                self.filtered = True
                continue
            heapq.heappop(heap)
            return p
        self.stop_reason = "min_frequency" if self.filtered else "no_pairs"
        return None

    # -- merging ------------------------------------------------------------------
    def _merge(self, p: tuple[int, int], step: int) -> None:
        a, b = p
        count = self.pc.get(p, 0)
        score = float(self._priority(p)) if count else 0.0
        token = join(self.vocab[a], self.vocab[b], self.algorithm)
        t = self.ids.get(token)
        if t is None:
            t = len(self.vocab)
            self.vocab.append(token)
            self.ids[token] = t
            self.units.append(self.units[a] + self.units[b])
            self.unit_count.append(0)
        # pairs whose count rose need a fresh heap entry; a count that fell is found
        # stale when popped and pushed again then (BPE counts of a pair never rise,
        # unless through a token that already existed, which lands here too)
        grown: set[tuple[int, int]] = set()
        dropped: set[tuple[int, int]] = set()
        replaced = self._merge_words(a, b, t, step, grown, dropped)
        self.vocab_lens.append(len(self.vocab))
        self.merges.append(Merge(step, self.vocab[a], self.vocab[b], token, count, score,
                                 a, b, t, replaced))
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

    def _merge_words(self, a: int, b: int, t: int, step: int,
                     grown: set[tuple[int, int]], dropped: set[tuple[int, int]]) -> int:
        """Merge (a, b) into t in every word that holds it, leftmost first.

        Updates pair counts, the pair index and the first-occurrence bounds, logs the new
        splits, and returns the number of occurrences replaced, weighted by word counts.
        """
        words, counts, pc, where, first = self.words, self.counts, self.pc, self.where, self.first
        track_first, units = self.first_rule, self.units
        log_word, log_step, log_split = self.ev_word.append, self.ev_step.append, \
            self.ev_split.append
        replaced = 0
        for w in self.where.pop((a, b), ()):
            word = words[w]
            n = len(word)
            c = counts[w]
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
                if track_first:
                    off += units[a] + units[b]
                sites += 1
                i = j + 2
            if not sites:
                continue  # a stale index entry: this word no longer holds the pair
            new.extend(word[i:])
            words[w] = new
            log_word(w)
            log_step(step)
            log_split(new)
            replaced += sites * c
        return replaced

    # -- driving ------------------------------------------------------------------
    def _target(self) -> int | None:
        return self.options.merges

    def run(
        self,
        forced: Sequence[tuple[Symbol, Symbol]] | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self._initial_words()
        self._count_pairs()
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
            p = self._pop_best()
            if p is None:
                break
            step += 1
            self._merge(p, step)
            if progress is not None and step % 100 == 0:
                progress(step, total)
        if progress is not None:
            progress(step, total)

    def result(self) -> Training:
        return Training(
            corpus=self.corpus,
            options=self.options,
            merges=tuple(self.merges),
            vocab=tuple(self.vocab),
            n_base=self.n_base,
            stop_reason=self.stop_reason,
            vocab_sizes=np.array([self.n_base, *self.vocab_lens], dtype=np.int64),
            initial_tokens=sum(len(ids) * c for ids, c in zip(self.initial, self.counts)),
            _log=SplitLog.build(self.ev_word, self.ev_step, self.ev_split,
                                len(self.corpus.words), len(self.merges)),
        )


@dataclass(frozen=True)
class SplitLog:
    """Every word's split at every step where it changed, packed in NumPy arrays.

    Events are sorted by (word, step); ``key = word * (n_steps + 1) + step`` lets one
    ``searchsorted`` find, for all words at once, the last event at or before a step.
    """

    key: np.ndarray
    start: np.ndarray
    end: np.ndarray
    step: np.ndarray
    flat: np.ndarray
    n_words: int
    n_steps: int

    @classmethod
    def build(cls, ev_word: list[int], ev_step: list[int], ev_split: list[list[int]],
              n_words: int, n_steps: int) -> SplitLog:
        words = np.array(ev_word, dtype=np.int64)
        steps = np.array(ev_step, dtype=np.int64)
        lengths = np.fromiter(map(len, ev_split), dtype=np.int64, count=len(ev_split))
        ends = np.cumsum(lengths)
        flat = np.fromiter(chain.from_iterable(ev_split), dtype=np.int32, count=int(ends[-1])
                           if len(ends) else 0)
        order = np.argsort(words, kind="stable")  # events were logged in step order
        return cls(
            key=words[order] * (n_steps + 1) + steps[order],
            start=(ends - lengths)[order],
            end=ends[order],
            step=steps[order],
            flat=flat,
            n_words=n_words,
            n_steps=n_steps,
        )

    def events_at(self, step: int) -> np.ndarray:
        """For every word, the index of its event in force at ``step``."""
        probe = np.arange(self.n_words, dtype=np.int64) * (self.n_steps + 1) + step
        return np.searchsorted(self.key, probe, side="right") - 1

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.key, self.start, self.end, self.step, self.flat))


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

    def save(self, path: str) -> None:
        """Write this training as JSON (atomically); :func:`bpeviz.load` reads it back."""
        from bpeviz.serialize import save_training

        save_training(self, path)
