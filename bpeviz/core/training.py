"""Training: one incremental merge loop for BPE, byte-level BPE and WordPiece.

The loop keeps pair counts, an index from each pair to the words that hold it and a
priority queue with lazy deletion, so a merge only touches the words that contain its
pair. Every merge site becomes a node of a merge forest (:class:`SplitLog`); the state at
any step is read back from it (see :mod:`bpeviz.core.snapshot`), never stored per step.

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_counts({"low": 5, "lower": 2, "newest": 6, "widest": 3}),
...           algorithm="bpe", merges=2, marker="</w>")
>>> [(m.left, m.right, m.count) for m in t.merges]
[('e', 's', 9), ('es', 't', 9)]
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bpeviz.algorithms import get as get_algorithm
from bpeviz.algorithms import initial_symbols
from bpeviz.core.explain import Explanation, explain
from bpeviz.core.protocol import steps_at_most, vocab_sizes
from bpeviz.core.snapshot import Snapshot
from bpeviz.core.training_data import STOP_REASONS as STOP_REASONS  # callers read it here
from bpeviz.core.training_data import Merge, TrainingData, TrainOptions
from bpeviz.engine import COMPILED_SCORES, ENGINES, compiled_module, default_engine
from bpeviz.engine.inputs import (
    INT64_MAX,
    _weighted_counts,
    initial_ids,
)
from bpeviz.engine.python import PairState
from bpeviz.engine.splitlog import SplitLog
from bpeviz.text.corpus import Corpus
from bpeviz.text.symbols import Symbol

TIE_BREAKS = ("first", "ids")
SCORINGS = ("score", "frequency")
MARKER_STYLES = ("separate", "glued")


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
    alg = get_algorithm(algorithm)
    if alg.trainer:  # its own trainer, not the merge loop
        raise ValueError(f"{alg.label} does not train by merges, so merge options do not "
                         f"apply: train it with bpeviz.train(corpus, algorithm={algorithm!r}, "
                         f"vocab_size=...), which calls its own trainer ({alg.trainer})")
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
    if marker is not None and not alg.takes_marker:
        raise ValueError("an end-of-word marker is a BPE option; BBPE and WordPiece have none")
    if special_tokens is None:
        special_tokens = alg.special_tokens
    alg.check_special_tokens(special_tokens)
    return TrainOptions(
        algorithm=algorithm,
        merges=merges,
        vocab_size=vocab_size,
        tie_break=tie_break,
        marker=marker or None,
        marker_style=marker_style,
        # what a pair wins with, as the record names it: its score, else its count
        scoring="score" if alg.value_name(scoring) == "score" else "frequency",
        min_frequency=min_frequency,
        special_tokens=tuple(special_tokens),
    )


def base_vocabulary(corpus: Corpus, options: TrainOptions) -> list[Symbol]:
    """Special tokens, then the initial alphabet sorted by code point (bytes 0-255 for BBPE).

    With a glued end-of-word marker and the ``ids`` tie rule, the alphabet is Hugging
    Face's (``BpeTrainer`` with ``end_of_word_suffix``): every character of the corpus,
    sorted, characters that only end words included, then the suffixed characters
    (``"z</w>"``), sorted. Hugging Face numbers its suffixed characters in the order its
    word table (a hash map) yields them, which changes from process to process; bpeviz
    sorts them by code point. Merges and ids are therefore Hugging Face's exactly when
    the corpus has one suffixed character, and in general whenever no tie is decided by
    comparing the ids of two suffixed characters (pairs with the same left token whose
    right tokens are two different suffixed characters); the plain characters' ids, and
    every plain character ranking before every suffixed one, always match.

    >>> from bpeviz.core.training import make_options
    >>> base_vocabulary(Corpus.from_text("ab acz"), make_options(
    ...     "bpe", merges=1, tie_break="ids", marker="</w>", marker_style="glued"))
    ['[UNK]', 'a', 'b', 'c', 'z', 'b</w>', 'z</w>']
    """
    specials = list(options.special_tokens)
    fixed = get_algorithm(options.algorithm).base_symbols
    if fixed:  # the same base whatever the corpus (the 256 bytes)
        return specials + list(fixed)
    alphabet = _alphabet(corpus, options) - set(specials)
    if options.marker and options.marker_style == "glued" and options.tie_break == "ids":
        # Hugging Face's end_of_word_suffix: every character of the corpus (those that
        # only end words too), then the suffixed ones ("z</w>"); see the docstring
        plain = set("".join(corpus.words)) - set(specials)
        return specials + sorted(plain) + sorted(alphabet - plain)  # type: ignore[type-var]
    return specials + sorted(alphabet)  # type: ignore[type-var]


def _alphabet(corpus: Corpus, options: TrainOptions) -> set[Symbol]:
    """Every initial symbol of the corpus (BPE and WordPiece), without a loop per word."""
    words, marker = corpus.words, options.marker
    prefix = get_algorithm(options.algorithm).continuing_prefix
    if not all(words):  # an empty word: let initial_symbols decide what it holds
        alphabet: set[Symbol] = set()
        for word in words:
            alphabet.update(initial_symbols(word, options.algorithm, marker,
                                            options.marker_style))
        return alphabet
    if prefix:
        return ({w[0] for w in words}
                | {prefix + ch for ch in set("".join(w[1:] for w in words))})
    if marker and options.marker_style == "glued":
        return set("".join(w[:-1] for w in words)) | {w[-1] + marker for w in words}
    return set("".join(words)) | ({marker} if marker else set())


#: ``trainer(corpus, progress=..., **settings)`` for each trainer a record names, by that
#: name (``Algorithm.trainer``): registered from above, as this layer imports none of them
OWN_TRAINERS: dict[str, Callable[..., Any]] = {}
_DEFAULT_SETTINGS = TrainOptions().to_dict()


def takes_languages(algorithm: str) -> bool:
    """Whether ``algorithm`` trains on one corpus per language (a mapping of language ->
    corpus): its own trainer takes ``dev``, a dev text per language (parity-aware BPE's).
    Asked of the trainer, not of the name: the record has no field saying so.

    >>> takes_languages("bpe"), takes_languages("parity")
    (False, True)
    """
    trainer = OWN_TRAINERS.get(get_algorithm(algorithm).trainer)
    if trainer is None:
        return False
    try:
        return "dev" in inspect.signature(trainer).parameters
    except (TypeError, ValueError):  # a builtin without a signature
        return False


def train(
    corpus: Corpus,
    options: TrainOptions | str | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
    **settings: Any,
) -> Training:
    """Train on ``corpus`` with ``options`` (a :class:`TrainOptions`): the core.

    The keyword form is a thin wrapper: ``train(corpus, "bpe", merges=10)`` or
    ``train(corpus, algorithm="bpe", merges=10)`` builds the options with
    :func:`make_options` (which lists the keywords and their defaults) and trains.

    Give ``merges`` (how many merges) or ``vocab_size`` (special tokens, alphabet and
    merged tokens together). Training stops early, without error, when no pair is left
    or none reaches ``min_frequency``; ``Training.stop_reason`` says why it stopped.
    ``progress(done, total)`` is called now and then, for progress bars.

    An algorithm whose record names its own trainer trains with the one registered for it
    in :data:`OWN_TRAINERS` (Unigram: :func:`bpeviz.unigram.corpus_words.train_keywords`,
    which takes ``vocab_size``, ``variant`` and that trainer's options, and refuses merge
    options), from keywords or the options set in a :class:`TrainOptions`.

    >>> opts = make_options("wordpiece", merges=1)
    >>> [m.token for m in train(Corpus.from_counts({"hug": 3}), opts).merges]
    ['hu']
    >>> train(Corpus.from_counts({"hug": 3}), algorithm="wordpiece", merges=1).options == opts
    True
    >>> u = train(Corpus.from_text("hug pug hug pun bun hugs"), algorithm="unigram",
    ...           vocab_size=12, variant="course")
    >>> u.final.splits["▁hugs"], u.at(0).step, u.at().step
    (('▁hug', 's'), 0, 12)
    >>> train(Corpus.from_text("hug pug"), TrainOptions("unigram", vocab_size=9)).variant
    'sentencepiece'
    """
    if isinstance(options, TrainOptions):
        if settings:
            raise TypeError("give a TrainOptions or keyword settings, not both "
                            f"(got {', '.join(sorted(settings))})")
        algorithm, settings = options.algorithm, options.to_dict()
    else:
        if options is not None and "algorithm" in settings:
            raise TypeError("the algorithm is given twice")
        algorithm = settings.pop("algorithm", options or "bpe")
    settings.pop("algorithm", None)
    own = OWN_TRAINERS.get(get_algorithm(algorithm).trainer)
    if own is not None:
        if isinstance(options, TrainOptions):  # its own trainer takes what was set
            settings = {k: v for k, v in settings.items() if v != _DEFAULT_SETTINGS[k]}
        return own(corpus, progress=progress, **settings)  # type: ignore[no-any-return]
    options = make_options(algorithm, **settings)  # checked even when built by hand
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
    ``bpeviz.engine._merge.State`` when it is built, else
    :class:`~bpeviz.engine.python.PairState`, its pure-Python
    reference (``BPEVIZ_ENGINE=python`` forces it). Both give identical results.
    """

    def __init__(self, corpus: Corpus, options: TrainOptions, base: list[Symbol],
                 engine: str | None = None) -> None:
        self.corpus = corpus
        self.options = options
        self.algorithm = options.algorithm
        self.alg = get_algorithm(options.algorithm)
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
        """Every word's initial symbols as ids (a hook: :mod:`bpeviz.core.recount` maps
        symbols the vocabulary lacks to its unknown token)."""
        return initial_ids(self.corpus, self.options, self.ids)

    def _tie_ranks(self) -> None:
        """The ids the engine works with: ours, but where the algorithm ranks its initial
        symbols otherwise for the ``ids`` tie rule (:attr:`Algorithm.tie_order`), the base
        symbols renumbered in that order (a permutation of the base ids; merged tokens
        keep theirs), so that the engine's smallest (left id, right id) is Hugging Face's."""
        self.to_engine = self.from_engine = None
        ranked = (self.alg.tie_ranks(self.vocab[:self.n_base])
                  if self.options.tie_break == "ids" else None)
        if ranked is None:
            return
        self.from_engine = np.array(ranked, dtype=np.int32)
        self.to_engine = np.argsort(self.from_engine).astype(np.int32)

    def _engine_id(self, i: int) -> int:
        return int(self.to_engine[i]) if self.to_engine is not None and i < self.n_base else i

    def _our_id(self, i: int) -> int:
        return int(self.from_engine[i]) if self.from_engine is not None and i < self.n_base else i

    def _pop_best(self) -> tuple[int, int] | None:
        """The engine's next pair, in our ids (None: no pair is left)."""
        p = self.state.pop_best()
        return None if p is None else (self._our_id(p[0]), self._our_id(p[1]))

    def _start(self) -> None:
        flat, lengths = self._initial_ids()
        self._tie_ranks()
        if self.to_engine is not None:
            flat = np.where(flat < self.n_base, self.to_engine[np.minimum(flat, self.n_base - 1)],
                            flat).astype(np.int32)
        counts, self.initial_tokens = _weighted_counts(self.corpus.counts, lengths)
        # what a pair wins with: the algorithm's score, or its count when scoring is off
        scored = self.alg.value_name(self.options.scoring) == "score"
        kind = self.alg.score_kind if scored else "count"
        fits = counts.dtype == np.int64 and self.options.min_frequency <= INT64_MAX
        first_rule = self.options.tie_break == "first"
        if (self.engine == "compiled" and fits and kind in COMPILED_SCORES
                and (not len(counts) or counts.min() > 0)):
            compiled = compiled_module("compiled")
            if compiled is None:
                raise RuntimeError("the compiled merge loop is not built: run "
                                   "`python setup.py build_ext --inplace`")
            self.state = compiled.State(flat, lengths, counts, len(self.vocab), first_rule,
                                        COMPILED_SCORES[kind], self.options.min_frequency)
        else:  # a formula the compiled loop lacks, or counts past 64 bits: the Python loop
            self.state = PairState(flat, lengths, counts, len(self.vocab), first_rule,
                                   self.alg.score if scored else None,
                                   self.options.min_frequency)

    def _token_id(self, a: int, b: int) -> int:
        """The id of the token (a, b) makes: a new one is added to the vocabulary, one
        that already exists keeps its id; the vocabulary's size after the merge is
        recorded (``vocab_lens``)."""
        token = self.alg.join(self.vocab[a], self.vocab[b])
        t = self.ids.get(token)
        if t is None:
            t = len(self.vocab)
            self.vocab.append(token)
            self.ids[token] = t
        self.vocab_lens.append(len(self.vocab))
        return t

    def _merge(self, p: tuple[int, int], step: int) -> None:
        a, b = p
        t = self._token_id(a, b)
        count, score, replaced = self.state.merge(self._engine_id(a), self._engine_id(b),
                                                  self._engine_id(t), step)
        self.merges.append(Merge(step, self.vocab[a], self.vocab[b], self.vocab[t], count,
                                 score, a, b, t, replaced))

    def replay_merges(self, forced: Sequence[tuple[Symbol, Symbol]], name: str = "merge") -> None:
        """Make ``forced``'s merges, steps 1..n, as given: the tokens in Python, the words
        in one call to the engine (the compiled one makes them stretch by stretch of each
        word, between boundaries no merge crosses, each distinct stretch once, rather than
        merge by merge). ``name`` is what an error calls a merge."""
        # _token_id's work inline: thousands of merges, and a call each cost as much
        ids, vocab, join, sizes = self.ids, self.vocab, self.alg.join, self.vocab_lens
        a, b, t = [], [], []
        for step, (left, right) in enumerate(forced, 1):
            try:
                x, y = ids[left], ids[right]
            except KeyError as err:
                raise ValueError(
                    f"{name} {step} ({left!r}, {right!r}) uses {err.args[0]!r}, which is "
                    "neither in the base vocabulary nor made by an earlier merge") from None
            token = join(vocab[x], vocab[y])
            z = ids.get(token)
            if z is None:
                z = len(vocab)
                vocab.append(token)
                ids[token] = z
            sizes.append(len(vocab))
            a.append(x)
            b.append(y)
            t.append(z)
        if self.to_engine is None:  # the engine's ids are ours
            engine = [np.array(col, dtype=np.int32) for col in (a, b, t)]
        else:
            engine = [np.array([self._engine_id(i) for i in col], dtype=np.int32)
                      for col in (a, b, t)]
        counts, scores, replaced = self.state.replay(*engine)
        if isinstance(counts, bytes):  # the compiled engine's arrays
            counts = np.frombuffer(counts, dtype=np.int64).tolist()
            scores = np.frombuffer(scores, dtype=np.float64).tolist()
            replaced = np.frombuffer(replaced, dtype=np.int64).tolist()
        at = vocab.__getitem__
        self.merges.extend(map(Merge, range(1, len(a) + 1), map(at, a), map(at, b), map(at, t),
                               counts, scores, a, b, t, replaced))

    def run(
        self,
        forced: Sequence[tuple[Symbol, Symbol]] | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self._start()
        if forced is not None:
            self.stop_reason = "replayed"
            self.replay_merges(forced)
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
                self.stop_reason = self.state.stop_reason()
                break
            step += 1
            self._merge(p, step)
            if progress is not None and step % 100 == 0:
                progress(step, total)
        if progress is not None:
            progress(step, total)

    def result(self) -> Training:
        n_words, n_steps = len(self.corpus.words), len(self.merges)
        from_engine, n_base = self.from_engine, self.n_base

        def arrays(forest: tuple[Any, ...]) -> list[np.ndarray]:
            nodes = [np.frombuffer(x, dtype=np.int32) if isinstance(x, bytes) else x
                     for x in forest]
            if from_engine is not None:  # the nodes' tokens in our ids again
                token = nodes[0]
                nodes[0] = np.where(token < n_base, from_engine[np.minimum(token, n_base - 1)],
                                    token).astype(np.int32)
            return nodes

        # a forest the engine holds compactly (after a replay by segments) is written out
        # when first read; any other now
        later = getattr(self.state, "forest_later", lambda: None)()
        if later is not None:
            log = SplitLog.later(lambda: arrays(later.arrays()), n_words, n_steps)
        else:
            log = SplitLog.from_forest(*arrays(self.state.forest()), n_words=n_words,
                                       n_steps=n_steps)
        del self.state  # the engine's tables are spent: free them
        return Training(
            corpus=self.corpus,
            options=self.options,
            merges=tuple(self.merges),
            vocab=tuple(self.vocab),
            n_base=self.n_base,
            stop_reason=self.stop_reason,
            vocab_sizes=np.array([self.n_base, *self.vocab_lens], dtype=np.int64),
            initial_tokens=self.initial_tokens,
            _log=log,
        )


@dataclass(frozen=True, eq=False)
class Training(TrainingData):
    """The result of :func:`train`: the merges, the vocabulary, and the split log (the
    data, :class:`TrainingData`'s, which says how ids are laid out) with what is read
    step by step (:meth:`at`, :meth:`explain`, :meth:`steps_for_vocab_sizes`)."""

    def steps_for_vocab_sizes(self, targets: Sequence[int] | np.ndarray) -> np.ndarray:
        """For each target size, the last step whose vocabulary has at most that many
        tokens (step 0 when even it has more): the vocabulary only grows, so of the steps
        of one size (merges that made a token already known) the last has merged most.

        >>> t = train(Corpus.from_text("aaab aab"), merges=2, special_tokens=())
        >>> [t.vocab_size_at(k) for k in range(3)], t.steps_for_vocab_sizes([1, 3, 5]).tolist()
        ([2, 3, 4], [0, 1, 2])
        """
        return steps_at_most(vocab_sizes(self), targets, latest=True)

    def at(self, step: int | None = None) -> Snapshot:
        """The state after ``step`` merges (default: the last one)."""
        if step is None:
            step = len(self.merges)
        if isinstance(step, bool) or not isinstance(step, int | np.integer):
            raise ValueError(f"step must be a whole number, got {step!r}")
        if not 0 <= step <= len(self.merges):
            raise ValueError(f"step must be between 0 and {len(self.merges)}, got {step}")
        return Snapshot(self, int(step))

    def explain(self, step: int) -> Explanation:
        """Why merge ``step`` was chosen: the words, rivals and tie behind it
        (see :mod:`bpeviz.core.explain`)."""
        return explain(self, step)

