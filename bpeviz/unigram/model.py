"""A Unigram model (pieces with log-probabilities) and the steps of its training.

:class:`UnigramModel` encodes text as SentencePiece does: the text is normalized
(``identity``: spaces become ``▁`` (U+2581), runs of spaces count once, leading and
trailing spaces go, and a ``▁`` is put in front), then the whole normalized text is cut
by Viterbi over the pieces; a character that no piece covers is ``<unk>`` (a run of them
is one ``<unk>`` token, as SentencePiece returns it). Offsets point into the input text.
Subword sampling: ``encode(text, alpha=0.1, nbest_size=-1, seed=...)`` draws a
segmentation with probability proportional to ``P(segmentation) ** alpha``
(``nbest_size=-1``: over all segmentations; ``nbest_size=n``: among the n best).

>>> m = UnigramModel(("▁", "a", "b", "▁a", "ab"), (-2.0, -2.0, -2.0, -1.5, -3.0))
>>> [(t.text, t.id, t.start, t.end) for t in m.encode("ab")]
[('▁a', 6, 0, 1), ('b', 5, 1, 2)]
>>> [t.text for t in m.encode("a¿b")]
['▁a', '<unk>', 'b']
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

import bpeviz.unigram.lattice as lat
from bpeviz.core.encoded import Token
from bpeviz.core.protocol import step_name, steps_at_most, vocab_sizes
from bpeviz.text.owned import OwnedCache
from bpeviz.unigram.reasons import SENTENCEPIECE_REFUSALS, UNIGRAM_STOP_REASONS

# how a step and a round are shown lives a layer below, which reads them through small
# protocols; Removal is defined there, as both read it, and callers import it from here
from bpeviz.unigram.views import (
    Removal,
    RoundExplanation,
    WordLattice,
    explain_round,
    word_lattice,
)

WS = "\u2581"
#: SentencePiece's default meta pieces, ids 0, 1, 2.
SPM_SPECIALS = ("<unk>", "<s>", "</s>")


def normalize_identity(text: str, dummy_prefix: bool = True, remove_extra: bool = True,
                       escape: bool = True) -> tuple[str, list[int]]:
    """SentencePiece's ``identity`` normalization, with the input offset of every char.

    ``offsets[i]`` is where normalized character ``i`` comes from; a ``▁`` made from a
    run of spaces points at the first space, the dummy prefix at the first character.
    The flags are a model's normalizer spec (``add_dummy_prefix``,
    ``remove_extra_whitespaces``, ``escape_whitespaces``); the defaults are the trainer's.

    >>> normalize_identity("  hug  the ")
    ('▁hug▁the', [2, 2, 3, 4, 5, 7, 8, 9])
    >>> normalize_identity(" a  b", dummy_prefix=False, remove_extra=False, escape=False)
    (' a  b', [0, 1, 2, 3, 4])
    """
    space = WS if escape else " "
    out: list[str] = []
    offsets: list[int] = []
    pending: int | None = None  # the first space of a run, written before the next char
    started = False
    for i, ch in enumerate(text):
        if ch == " " and remove_extra:
            if started and pending is None:
                pending = i
            continue
        if not started:
            if dummy_prefix:
                out.append(space)
                offsets.append(i)
            started = True
        if pending is not None:
            out.append(space)
            offsets.append(pending)
            pending = None
        out.append(space if ch == " " else ch)
        offsets.append(i)
    return "".join(out), offsets


@dataclass(frozen=True)
class UnigramModel:
    """Normal pieces with their scores (log-probabilities), after the special tokens.

    Ids: ``specials`` first (``<unk>`` at 0, as SentencePiece), then ``pieces`` in order.
    """

    pieces: tuple[str, ...]
    log_probs: tuple[float, ...]
    specials: tuple[str, ...] = SPM_SPECIALS
    unk: str = "<unk>"
    #: the HF course's rules: words split on whitespace with "▁" in front, float64
    #: sums, and a word that cannot be cut is one ``<unk>``
    course: bool = False

    def __post_init__(self) -> None:
        if len(self.pieces) != len(self.log_probs):
            raise ValueError("a Unigram model needs one log-probability per piece")

    @cached_property
    def scores(self) -> dict[str, float]:
        return dict(zip(self.pieces, self.log_probs))

    @cached_property
    def ids(self) -> dict[str, int]:
        table = {p: i for i, p in enumerate(self.specials)}
        for i, p in enumerate(self.pieces):
            table.setdefault(p, len(self.specials) + i)
        return table

    @cached_property
    def unk_id(self) -> int:
        return self.ids.get(self.unk, -1)

    def unknown(self, piece: str) -> bool:
        """Whether ``piece`` is unknown to this model: one of its normal pieces or not.

        The one rule every view of a Unigram model marks unknowns by (the encoder's
        ``Token.unk``: a lattice has nodes for the normal pieces only, and text no node
        covers is ``<unk>``); ``<unk>`` itself is unknown.

        >>> m = UnigramModel(("▁", "a"), (-1.0, -1.0))
        >>> m.unknown("a"), m.unknown("T"), m.unknown("<unk>")
        (False, True, True)
        """
        return piece not in self.scores

    @cached_property
    def max_piece_length(self) -> int:
        return max((len(p) for p in self.pieces), default=1)

    @cached_property
    def unk_score(self) -> float:
        return lat.f32(min(self.log_probs, default=0.0) - lat.UNK_PENALTY)

    def lattice(self, word: str) -> lat.Lattice:
        """Every way to cut ``word`` (already normalized) into this model's pieces."""
        return lat.Lattice.build(word, self.scores, max_piece_length=self.max_piece_length,
                                 unk_score=self.unk_score)

    def split(self, word: str) -> tuple[str, ...]:
        """The Viterbi segmentation of an already normalized word (``<unk>`` kept as text)."""
        if self.course:

            return tuple(encode_word(word, {p: -s for p, s in self.scores.items()})[0])
        return tuple(word[n.start:n.end] for n in lat.viterbi(self.lattice(word))[0])

    def encode(self, text: str, *, alpha: float | None = None, nbest_size: int = -1,
               seed: int | None = None) -> list[Token]:
        """Cut ``text`` into tokens (offsets into ``text``); sampling when ``alpha`` is set."""
        if self.course and alpha is None:
            return self._encode_course(text)
        normalized, offsets = normalize_identity(text)
        return self.encode_normalized(normalized, offsets, len(text), alpha=alpha,
                                      nbest_size=nbest_size, seed=seed)

    def encode_normalized(self, normalized: str, offsets: Sequence[int], text_length: int, *,
                          alpha: float | None = None, nbest_size: int = -1,
                          seed: int | None = None) -> list[Token]:
        lattice = self.lattice(normalized)
        if alpha is None or nbest_size in (0, 1):
            path = lat.viterbi(lattice)[0]
        else:
            rng = random.Random(seed)
            if nbest_size < 0:
                path = lat.sample(lattice, alpha, rng)
            else:
                paths = lat.nbest(lattice, nbest_size)
                weights = [math.exp(alpha * (s - paths[0][1])) for _, s in paths]
                path = rng.choices([p for p, _ in paths], weights)[0]
        return self._tokens(normalized, path, offsets, text_length)

    def _encode_course(self, text: str) -> list[Token]:
        from bpeviz.text.metaspace import metaspace_spans

        tokens: list[Token] = []
        for start, end in metaspace_spans(text):
            pieces = self.split(WS + text[start:end])
            if pieces == ("<unk>",):
                tokens.append(Token(self.unk, self.unk_id, start, end,
                                    text[start:end].encode("utf-8", "surrogatepass"), unk=True))
                continue
            lead = start - 1 if start > 0 and text[start - 1].isspace() else start

            def at(i: int, start: int = start, lead: int = lead) -> int:
                return lead if i == 0 else start + i - 1  # "▁" stands for the space before

            pos = 0
            for piece in pieces:
                tokens.append(Token(piece, self.ids[piece], at(pos), at(pos + len(piece)),
                                    piece.encode("utf-8", "surrogatepass")))
                pos += len(piece)
        return tokens

    def _tokens(self, normalized: str, path: list[lat.Node], offsets: Sequence[int],
                text_length: int) -> list[Token]:
        def where(i: int) -> int:
            return offsets[i] if i < len(offsets) else text_length

        tokens: list[Token] = []
        for node in path:
            start, end = where(node.start), where(node.end)
            if node.piece is None or self.unknown(node.piece):  # (the same thing)
                raw = normalized[node.start:node.end].encode("utf-8", "surrogatepass")
                if tokens and tokens[-1].unk and tokens[-1].end == start:  # one <unk> per run
                    prev = tokens.pop()
                    start, raw = prev.start, prev.bytes + raw
                tokens.append(Token(self.unk, self.unk_id, start, end, raw, unk=True))
                continue
            tokens.append(Token(node.piece, self.ids[node.piece], start, end,
                                node.piece.encode("utf-8", "surrogatepass")))
        return tokens


@dataclass(frozen=True)
class UnigramStep:
    """The vocabulary after ``step`` pruning rounds (step 0: the seed)."""

    step: int
    model: UnigramModel
    loss: float
    removed: tuple[Removal, ...]
    words: tuple[str, ...] = field(repr=False)
    counts: tuple[int, ...] = field(repr=False)
    #: characters of the corpus that the trainer's own model lacked after this round
    #: (SentencePiece's re-estimation or pruning dropped them) and that the round's
    #: vocabulary keeps anyway, at the lowest score, as the final cut puts them back:
    #: every round has every character of the corpus, as a SentencePiece model does
    restored: tuple[str, ...] = ()

    @property
    def pieces(self) -> tuple[str, ...]:
        return self.model.pieces

    @property
    def log_probs(self) -> dict[str, float]:
        return self.model.scores

    @cached_property
    def splits(self) -> dict[str, tuple[str, ...]]:
        """The Viterbi segmentation of every corpus word with this step's pieces."""
        return {w: self.model.split(w) for w in self.words}

    def encode(self, text: str, **options: object) -> list[Token]:
        return self.model.encode(text, **options)  # type: ignore[arg-type]

    @property
    def token_count(self) -> int:
        """Tokens in the whole corpus at this step: every word's count times the pieces of
        its best split (as ``Snapshot.token_count`` for a merge step)."""
        splits = self.splits
        return sum(c * len(splits[w]) for w, c in zip(self.words, self.counts))

    def trace(self, word: str, n: int = 5) -> WordLattice:
        """How ``word`` is cut at this step: its lattice, the best split and the ``n``
        best (see :func:`bpeviz.unigram.views.word_lattice`); the word is read as a
        corpus word is (``▁`` in front when it has none)."""
        normalized = unigram_word(word)
        if not normalized:
            raise ValueError(f"{word!r} holds no characters to cut")
        return word_lattice(self.model, normalized, n)




@dataclass(frozen=True)
class UnigramTraining:
    """Every step of a Unigram training: ``at(k)`` is the vocabulary after k rounds.

    ``steps[0]`` is the seed and ``final`` the trained vocabulary. A step is a pruning
    round, not a merge; what each variant records is in :mod:`bpeviz.unigram.trainer`
    and :mod:`bpeviz.unigram.course`.
    """

    variant: str
    steps: tuple[UnigramStep, ...]
    options: dict[str, object] = field(default_factory=dict)
    #: what the trainer read (a ``SentencePieceInput``; the course's word table), which
    #: ``bpeviz.save`` keeps so that ``bpeviz.load`` trains again to the very same steps
    source: object = field(default=None, repr=False, compare=False)

    @property
    def algorithm(self) -> str:
        """The registered algorithm's name (what ``Training.algorithm`` is for merges)."""
        return "unigram"

    # -- what every training answers (bpeviz.core.protocol) ------------------------------
    @property
    def step_unit(self) -> str:
        """What a step number is called where it is shown: the record's word for a step
        ("pruning round")."""
        return step_name(self)

    def steps_for_vocab_sizes(self, targets: Sequence[int] | np.ndarray) -> np.ndarray:
        """For each target size, the round whose vocabulary is the largest of at most
        that many tokens, the earliest of several (the round that first reached that
        size); the earliest round of the smallest vocabulary when every round has more.
        The sizes are scanned, not searched: they need not shrink round by round.

        >>> from dataclasses import replace
        >>> s0 = UnigramStep(0, UnigramModel(("a", "b", "c"), (-1.0,) * 3), 0.0, (), (), ())
        >>> s1 = UnigramStep(1, UnigramModel(("a", "b"), (-1.0,) * 2), 0.0, (), (), ())
        >>> t = UnigramTraining("course", (s0, s1, replace(s1, step=2)))
        >>> vocab_sizes(t).tolist(), t.steps_for_vocab_sizes([4, 5, 9]).tolist()
        ([6, 5, 5], [1, 1, 0])
        """
        return steps_at_most(vocab_sizes(self), targets, latest=False)

    def vocab_size_at(self, step: int) -> int:
        """How many tokens the vocabulary holds after ``step`` rounds: the special tokens
        and the pieces (every id the step's model gives)."""
        return len(self.at(step).model.ids)

    def token_counts(self) -> np.ndarray:
        """Tokens in the whole corpus after each step, for steps ``0..len(steps) - 1``:
        every word's count times the pieces of its best split (counted once per
        training; each call returns a copy the caller may change)."""
        return _TOKEN_COUNTS.get(self, None, lambda: np.asarray(
            [s.token_count for s in self.steps], dtype=np.int64)).copy()

    def explain(self, step: int) -> RoundExplanation:
        """What round ``step`` removed and why, and what it cost
        (see :func:`bpeviz.unigram.views.explain_round`)."""
        return explain_round(self, step)

    def at(self, k: int | None = None) -> UnigramStep:
        """The vocabulary after ``k`` rounds (default: the last step, the final one)."""
        if k is None:
            return self.steps[-1]
        if isinstance(k, bool) or not isinstance(k, int | np.integer):
            raise ValueError(f"step must be a whole number, got {k!r}")
        if not 0 <= k < len(self.steps):
            raise ValueError(f"step {k} is out of range; this training has steps 0 to "
                             f"{len(self.steps) - 1}")
        return self.steps[int(k)]

    @property
    def final(self) -> UnigramStep:
        return self.steps[-1]

    @property
    def requested_size(self) -> int | None:
        """The ``vocab_size`` asked for (None for a training made without one)."""
        size = self.options.get("vocab_size")
        return size if isinstance(size, int) else None

    @property
    def size(self) -> int:
        """The final vocabulary's size, counted as ``vocab_size`` counts it: with the
        special tokens for "sentencepiece", the pieces alone for "course"."""
        pieces = len(self.final.pieces)
        return pieces if self.variant == "course" else pieces + len(self.final.model.specials)

    @property
    def stop_reason(self) -> str:
        """Why the vocabulary has the size it has (a key of :data:`UNIGRAM_STOP_REASONS`):

        - ``"vocab_size"``: the size asked for ("sentencepiece"), or at most that
          ("course", whose last round may remove a few more);
        - ``"few_pieces"``: fewer pieces than asked, because the corpus offers no more
          (the seed, every candidate piece, is smaller; SentencePiece refuses to train:
          "Vocabulary size too high");
        - ``"characters"``: more than asked, because every character of the corpus is
          kept, and with them every piece the last round kept (SentencePiece refuses:
          "Vocabulary size is smaller than required_chars").

        A size chosen for the corpus (``options["auto"]`` names ``"vocab_size"``, see
        :func:`bpeviz.unigram.corpus_words.train_corpus`) is the pruning rounds' target
        and may be under the characters on purpose; :attr:`stop_message` says "chosen".
        """
        asked = self.requested_size
        if asked is None:
            return "vocab_size"
        if self.variant == "course":
            offered = len(self.steps[0].pieces)
            if offered < asked:
                return "few_pieces"
            return "characters" if self.size > asked else "vocab_size"
        if self.size < asked:
            return "few_pieces"
        return "characters" if self.size > asked else "vocab_size"

    @property
    def stopped_early(self) -> bool:
        """True when the vocabulary is not the size asked for (see :attr:`stop_reason`),
        as ``Training.stopped_early`` is for a merge training that stops early."""
        return self.stop_reason != "vocab_size"

    @property
    def stop_message(self) -> str:
        """One sentence: the size reached and why, for the CLI and the app.

        >>> s0 = UnigramStep(0, UnigramModel(("a", "b"), (-1.0, -1.0)), 0.0, (), (), ())
        >>> print(UnigramTraining("sentencepiece", (s0,), {"vocab_size": 9}).stop_message)
        ... # doctest: +NORMALIZE_WHITESPACE
        Only 5 tokens, not the 9 asked for: the corpus offers no more pieces
        (sentencepiece refuses this size: "Vocabulary size too high").
        >>> UnigramTraining("sentencepiece", (s0,), {"vocab_size": 5}).stop_message
        'Trained 5 tokens: reached the requested vocabulary size.'
        """
        asked, reason = self.requested_size, self.stop_reason
        what = UNIGRAM_STOP_REASONS[reason]
        if reason == "vocab_size" or asked is None:
            return f"Trained {self.size:,} tokens: {what}."
        refusal = SENTENCEPIECE_REFUSALS[reason]
        if self.variant == "sentencepiece":
            what += f' (sentencepiece refuses this size: "{refusal}")'
        how = "chosen for the corpus" if self.size_is_chosen else "asked for"
        if reason == "few_pieces":
            return f"Only {self.size:,} tokens, not the {asked:,} {how}: {what}."
        return f"{self.size:,} tokens, more than the {asked:,} {how}: {what}."

    @property
    def size_is_chosen(self) -> bool:
        """True when the vocabulary size was chosen for the corpus, not given."""
        return "vocab_size" in (self.options.get("auto") or ())

    def __len__(self) -> int:
        return len(self.steps)


_TOKEN_COUNTS: OwnedCache[np.ndarray] = OwnedCache("round token counts")


def encode_word(word: str, model: Mapping[str, float]) -> tuple[list[str], float | None]:
    """The course's ``encode_word``: best segmentation and its score (lower is better)."""
    best: list[tuple[int | None, float | None]] = [(0, 1.0)] + [(None, None)] * len(word)
    for start in range(len(word)):
        at_start = best[start][1]
        for end in range(start + 1, len(word) + 1):
            token = word[start:end]
            if token in model and at_start is not None:
                score = model[token] + at_start
                if best[end][1] is None or best[end][1] > score:  # type: ignore[operator]
                    best[end] = (start, score)
    start, score = best[-1]
    if score is None:
        return ["<unk>"], None
    tokens: list[str] = []
    end = len(word)
    while start != 0:
        tokens.insert(0, word[start:end])
        end, start = start, best[start][0]  # type: ignore[assignment]
    tokens.insert(0, word[start:end])
    return tokens, score


def unigram_word(word: str) -> str:
    """``word`` as the Unigram trainer sees it (with the ``▁`` in front)."""
    if word.startswith(WS):
        return word
    return normalize_identity(word)[0]
