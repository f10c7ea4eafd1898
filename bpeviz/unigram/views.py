"""What the app shows of a Unigram training, as plain data (no streamlit).

- :func:`removed_at`: the pieces a round removed, with the loss each would cost and why;
  :func:`round_sentence` says it in words.
- :func:`word_lattice`: every piece occurrence in a word, the best (Viterbi) path
  marked, and the n best segmentations with their scores.
- :func:`segmentation_cloud`: sample a text's segmentation many times and count them.

The model's ``trace()`` and ``explain()`` call this module, so it reads a model, a step
and a training through small protocols, and defines :class:`Removal`, which both read.

>>> from bpeviz.unigram.model import UnigramModel
>>> m = UnigramModel(("▁", "a", "b", "▁a", "ab"), (-2.0, -2.0, -2.0, -1.5, -3.0))
>>> lat = word_lattice(m, "▁ab", 3)
>>> lat.best, [(p, round(s, 2)) for p, s in lat.nbest]
(('▁a', 'b'), [(('▁a', 'b'), -3.5), (('▁', 'ab'), -5.0), (('▁', 'a', 'b'), -6.0)])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import pandas as pd

import bpeviz.unigram.lattice as lat
from bpeviz.text import display
from bpeviz.unigram.reasons import UNIGRAM_STOP_REASONS


@dataclass(frozen=True)
class Removal:
    """A piece that the next round removes, and why.

    ``cost`` is the increase of the loss that the trainer computed for removing it
    (``None`` when it was not computed); ``reason`` is ``"pruned"`` (among the pieces
    whose removal costs least), ``"unused"`` (no word's best split uses it),
    ``"split"`` (its own best split does not use it), ``"em"`` (re-estimation gave it
    an expected count under 0.5), ``"unreachable"`` (SentencePiece's last check: its own
    best split does not use it) or ``"final"`` (cut to the final size).

    What the trainer computed on the way, as data (``None`` where it did not):

    - ``uses``: how many times the corpus's best (Viterbi) splits used the piece when the
      round judged it (word counts included; 0: nobody used it);
    - ``log_prob``: the piece's log-probability then (the scores that round's EM gave,
      which may differ from the step's listed ones for a piece that went);
    - ``alternative``: how the piece's own text is cut without it (SentencePiece: its
      second-best segmentation, which the loss estimate assumes every use turns into;
      the course: the best segmentation of the piece without it); a character that no
      live piece covers appears as itself (SentencePiece's estimate counts it as the
      unknown piece);
    - ``nats``: how many nats less likely the whole corpus becomes without it
      (SentencePiece's estimate: ``uses x`` the log-probability lost per use, from the
      Viterbi frequencies; the course: the exact rise of its loss, ``cost``).
    """

    piece: str
    cost: float | None
    reason: str
    uses: float | None = None
    log_prob: float | None = None
    alternative: tuple[str, ...] | None = None
    nats: float | None = None

    @property
    def unused(self) -> bool:
        """Nobody used it: re-estimation dropped it (expected count under 0.5) or no
        word's best split used it."""
        return self.reason in ("em", "unused") or self.uses == 0


class PieceModel(Protocol):
    """What these views read of a model (:class:`bpeviz.unigram.model.UnigramModel`)."""

    pieces: tuple[str, ...]
    log_probs: tuple[float, ...]
    specials: tuple[str, ...]
    unk: str
    ids: dict[str, int]

    def lattice(self, word: str) -> lat.Lattice: ...
    def encode(self, text: str, *, alpha: float | None = ..., seed: int | None = ...
               ) -> list[Any]: ...


class Round(Protocol):
    """What they read of a step (:class:`bpeviz.unigram.model.UnigramStep`)."""

    model: PieceModel
    pieces: tuple[str, ...]
    loss: float
    removed: tuple[Removal, ...]
    restored: tuple[str, ...]


class Rounds(Protocol):
    """What they read of a training (:class:`bpeviz.unigram.model.UnigramTraining`)."""

    variant: str
    steps: Sequence[Round]
    options: Mapping[str, Any]
    final: Round
    stop_reason: str
    size_is_chosen: bool

    def at(self, k: int | None = None) -> Round: ...
    def __len__(self) -> int: ...


#: what each removal reason means, in words
REASONS = {
    "pruned": "removing it raised the loss least",
    "unused": "no word's best split used it",
    "split": "its own best split does not use it",
    "em": "re-estimation gave it an expected count under 0.5",
    "unreachable": "its own best split does not use it (last check)",
    "final": "cut to the final vocabulary size",
}
#: the same for several pieces, after "N because ..." in :func:`round_sentence`
REASONS_MANY = {
    "pruned": "removing them raised the loss least",
    "unused": "no word's best split used them",
    "split": "their own best split does not use them",
    "em": "re-estimation gave them an expected count under 0.5",
    "unreachable": "their own best split does not use them (last check)",
    "final": "they were cut to reach the final vocabulary size",
}


def removed_at(training: Rounds, k: int) -> tuple[Removal, ...]:
    """The pieces round ``k`` removed (gone between step k - 1 and step k); () at step 0."""
    return training.at(k - 1).removed if k > 0 else ()


def _nan(value: float | None) -> float:
    return float("nan") if value is None else float(value)


def removed_frame(removed: tuple[Removal, ...]) -> pd.DataFrame:
    """One row per removed piece: piece, cost (the trainer's ranking key; NaN: not
    computed), reason, uses (in the corpus's best splits), nats (how much less likely
    the corpus becomes without it), instead (how the piece itself is cut without it).
    The pieces in use first, cheapest first; then the ones nobody used."""
    frame = pd.DataFrame({
        "piece": [r.piece for r in removed],
        "cost": [_nan(r.cost) for r in removed],
        "reason": [r.reason for r in removed],
        "why": [REASONS.get(r.reason, r.reason) for r in removed],
        "uses": [_nan(r.uses) for r in removed],
        "nats": [_nan(r.nats) for r in removed],
        "instead": [" + ".join(_quote(p) for p in r.alternative) if r.alternative else ""
                    for r in removed],
        "unused": [r.unused for r in removed],
    })
    return frame.sort_values(["unused", "cost"], kind="stable",
                             na_position="last").reset_index(drop=True)


def used_removals(removed: tuple[Removal, ...]) -> list[Removal]:
    """The removed pieces that some best split used, the cheapest (lowest cost) first."""
    used = [r for r in removed if not r.unused and r.reason == "pruned" and r.cost is not None]
    return sorted(used, key=lambda r: r.cost)  # type: ignore[arg-type,return-value]


def removal_sentence(r: Removal, course: bool = False) -> str:
    """What removing ``r`` costs, in words, from the trainer's data.

    >>> from bpeviz.unigram.model import Removal, UnigramModel, UnigramStep, UnigramTraining
    >>> print(removal_sentence(Removal("ing", 0.1, "pruned", 7.0, -3.2, ("in", "g"), 12.3)))
    ... # doctest: +NORMALIZE_WHITESPACE
    Removing ‘ing’ makes the corpus 12.3 nats less likely: its 7 uses must be cut into
    ‘in’ + ‘g’ instead.
    """
    uses = f"its {r.uses:,.0f} use{'' if r.uses == 1 else 's'}" if r.uses is not None else "it"
    instead = (" + ".join(_quote(p) for p in r.alternative) if r.alternative else None)
    if r.nats is None:
        return f"Removing {_quote(r.piece)} cost {r.cost:.4g}."
    how = "less" if r.nats >= 0 else "more"
    text = f"Removing {_quote(r.piece)} makes the corpus {abs(r.nats):,.3g} nats {how} likely"
    if course:
        text += (f" (the course's loss recomputed without it); {uses}"
                 + (f" go, and {_quote(r.piece)} itself is cut into {instead}."
                    if instead else " go."))
    else:
        text += (f": {uses} must be cut into {instead} instead" if instead else "")
        if r.nats < 0:
            text += (" (SentencePiece's estimate, from how often the pieces are used: the "
                     "pieces of the cut become more frequent, hence more probable)")
        text += "."
    return text


def round_sentence(training: Rounds, k: int) -> str:
    """What round ``k`` did, in one or two sentences from the data.

    >>> from bpeviz.unigram.model import Removal, UnigramModel, UnigramStep, UnigramTraining
    >>> s0 = UnigramStep(0, UnigramModel(("a", "b", "ab"), (-1.0, -1.0, -2.0)), 5.0,
    ...                  (Removal("ab", 0.25, "pruned"),), (), ())
    >>> s1 = UnigramStep(1, UnigramModel(("a", "b"), (-1.0, -1.0)), 6.0, (), (), ())
    >>> t = UnigramTraining("course", (s0, s1))
    >>> print(round_sentence(t, 1))  # doctest: +NORMALIZE_WHITESPACE
    Round 1 removed 1 piece: 1 because removing it raised the loss least.
    The vocabulary went from 3 to 2 pieces, the loss from 5.0 to 6.0.
    """
    if k == 0:
        nxt = len(training.at(0).removed)
        return (f"Step 0 is the seed: {len(training.at(0).pieces):,} pieces. "
                + (f"Round 1 removes {nxt:,} of them." if len(training) > 1
                   else "No round was needed."))
    removed = removed_at(training, k)
    before, after = training.at(k - 1), training.at(k)
    kinds = Counter(r.reason for r in removed)
    detail = "; ".join(f"{n:,} because {(REASONS if n == 1 else REASONS_MANY).get(reason, reason)}"
                       for reason, n in kinds.most_common())
    noun = "piece" if len(removed) == 1 else "pieces"
    text = (f"Round {k} removed {len(removed):,} {noun}" + (f": {detail}." if detail else ".")
            + f" The vocabulary went from {len(before.pieces):,} to {len(after.pieces):,} "
            f"pieces, the loss from {before.loss:,.1f} to {after.loss:,.1f}.")
    if len(after.pieces) > len(before.pieces) - len(removed):
        text += (f" {len(after.pieces) - (len(before.pieces) - len(removed)):,} characters "
                 "were put back (every character of the corpus stays in the vocabulary).")
    kept = len(getattr(after, "restored", ()))
    if kept:
        text += (f" {kept:,} {'character' if kept == 1 else 'characters'} the trainer "
                 f"dropped {'stays' if kept == 1 else 'stay'} at the lowest score (every "
                 "round keeps every character).")
    return text


def pieces_frame(training: Rounds, k: int) -> pd.DataFrame:
    """The pieces at step ``k``: id, piece, log-probability, length, the next round that
    removes it (NaN: none), whether it is in the final vocabulary (SentencePiece puts
    back every character of the corpus at the end), in the step's order.

    >>> from bpeviz.unigram.model import Removal, UnigramModel, UnigramStep, UnigramTraining
    >>> s0 = UnigramStep(0, UnigramModel(("a", "b", "ab"), (-1.0, -1.0, -2.0)), 5.0,
    ...                  (Removal("ab", 0.25, "pruned"),), (), ())
    >>> s1 = UnigramStep(1, UnigramModel(("a", "b"), (-1.0, -1.0)), 6.0, (), (), ())
    >>> pieces_frame(UnigramTraining("course", (s0, s1)), 0)["removed in round"].tolist()
    [nan, nan, 1.0]
    """
    gone: dict[str, int] = {}
    for j in range(len(training) - 1, k - 1, -1):
        for r in training.at(j).removed:
            gone[r.piece] = j + 1
    model = training.at(k).model
    final = set(training.final.pieces)  # characters SentencePiece put back are in it
    return pd.DataFrame({
        "id": [model.ids[p] for p in model.pieces],
        "piece": list(model.pieces),
        "log-prob": list(model.log_probs),
        "length": [len(p) for p in model.pieces],
        "removed in round": [float(gone[p]) if p in gone else float("nan")
                             for p in model.pieces],
        "in final": [p in final for p in model.pieces],
    })


@dataclass(frozen=True)
class WordLattice:
    """A word's lattice: ``nodes`` are (start, end, piece or None for unknown, score,
    on the best path); ``best`` the Viterbi split; ``nbest`` the n best with scores."""

    word: str
    nodes: tuple[tuple[int, int, str | None, float, bool], ...]
    best: tuple[str, ...]
    best_score: float
    nbest: tuple[tuple[tuple[str, ...], float], ...]


def word_lattice(model: PieceModel, word: str, n: int = 10) -> WordLattice:
    """The lattice of ``word`` (already normalized: with its ``▁``) under ``model``."""
    return lattice_of(model.lattice(word), word, model.unk, n)


def lattice_of(lattice: lat.Lattice, word: str, unk: str, n: int = 10) -> WordLattice:
    """:func:`word_lattice` of a lattice already built (an unknown piece named ``unk``)."""
    path, score = lat.viterbi(lattice)
    on_path = {(node.start, node.end) for node in path}

    def text(node: lat.Node) -> str:
        return node.piece if node.piece is not None else unk

    nodes = tuple((nd.start, nd.end, nd.piece, float(nd.score), (nd.start, nd.end) in on_path)
                  for nd in lattice.nodes())
    best = tuple(text(nd) for nd in path)
    found = tuple((tuple(text(nd) for nd in p), float(s)) for p, s in lat.nbest(lattice, n))
    return WordLattice(word, nodes, best, float(score), found)


def segmentation_cloud(model: PieceModel, text: str, samples: int = 100,
                       alpha: float = 0.1, seed: int = 0) -> list[tuple[tuple[str, ...], int]]:
    """Sample ``samples`` segmentations of ``text`` (subword regularization with
    ``alpha``, seeds ``seed``, ``seed + 1``, ...) and count each: most frequent first.

    >>> from bpeviz.unigram.model import Removal, UnigramModel, UnigramStep, UnigramTraining
    >>> m = UnigramModel(("▁", "a", "b", "▁a", "ab"), (-2.0, -2.0, -2.0, -1.5, -3.0))
    >>> cloud = segmentation_cloud(m, "ab", 50, alpha=0.0)
    >>> sum(n for _, n in cloud), len(cloud)
    (50, 3)
    """
    counts: Counter[tuple[str, ...]] = Counter()
    first: dict[tuple[str, ...], int] = {}
    for i in range(samples):
        split = tuple(t.text for t in model.encode(text, alpha=alpha, seed=seed + i))
        counts[split] += 1
        first.setdefault(split, i)
    return sorted(counts.items(), key=lambda kv: (-kv[1], first[kv[0]]))


def _quote(piece: str) -> str:
    return f"‘{display.label(piece)}’"


def rounds_sentence(training: Rounds) -> str:
    """How many rounds this training has, and why: the seed (its characters are never
    pruned), the share each round keeps, the target; when the size was chosen for the
    corpus (``options["plan"]``), what the trainer's own defaults would have given.

    >>> from bpeviz.unigram.course import train_course
    >>> t = train_course({"▁hug": 10, "▁pug": 5, "▁hugs": 5}, vocab_size=8, seed_size=20)
    >>> print(rounds_sentence(t))  # doctest: +ELLIPSIS
    11 pruning rounds: the seed has 20 pieces (6 single characters, never removed, and 14 ...
    """
    opts = training.options
    sizes = [len(s.pieces) for s in training.steps]
    seed = training.at(0).pieces
    chars = sum(len(p) == 1 for p in seed)
    course = training.variant == "course"
    prunings = len(training) - 1 - (0 if course else 1)
    target = int(opts.get("vocab_size", sizes[-1]))  # type: ignore[call-overload]
    noun = "round" if prunings == 1 else "rounds"
    text = (f"{prunings:,} pruning {noun}: the seed has {sizes[0]:,} pieces ({chars:,} single "
            f"characters, never removed, and {sizes[0] - chars:,} longer substrings")
    if course:
        fraction = float(opts.get("prune_fraction", 0.1))  # type: ignore[arg-type]
        text += (f"); each round removes {fraction:.0%} of the vocabulary's size among the "
                 f"longer pieces, those whose removal raises the loss least, until at most "
                 f"{target:,} pieces are left.")
    else:
        keep = float(opts.get("shrinking_factor", 0.75))  # type: ignore[arg-type]
        stop = int(target * 1.1)
        specials = len(training.final.model.specials)
        text += (f"); each round first re-estimates the probabilities (pieces nobody uses go) "
                 f"and then keeps {keep:.0%} of the pieces, the ones whose removal would cost "
                 f"most, until at most {stop:,} are left (1.1 × the vocabulary size of "
                 f"{target:,}, rounded down)")
        last = training.steps[-2] if len(training) > 1 else training.steps[-1]
        if len(last.pieces) - len(last.restored) > stop:  # the trainer's own model stopped
            # above it: a round removed nothing more (characters, pieces every word needs)
            text += (f", which this corpus cannot reach: the rounds stop when one removes "
                     f"nothing more, at {len(last.pieces):,} pieces, its {chars:,} "
                     "characters among them")
        names = ", ".join(training.final.model.specials)
        text += (f". The last step is the final vocabulary: {sizes[-1]:,} pieces "
                 f"({sizes[-1] + specials:,} tokens with {names})")
        if training.stop_reason == "few_pieces" and not training.size_is_chosen:
            text += (f", fewer than the {target:,} asked for: "
                     f"{UNIGRAM_STOP_REASONS['few_pieces']}.")
        elif training.stop_reason == "characters" and not training.size_is_chosen:
            text += (f", more than the {target:,} asked for: every character of the corpus "
                     "and every piece the last round kept.")
        elif last.restored and len(last.pieces) - len(last.restored) <= stop:
            text += (f": the {len(last.pieces) - len(last.restored):,} pieces the rounds "
                     f"left and the {len(last.restored):,} characters of the corpus the "
                     "trainer's own model had dropped (every character is kept).")
        else:
            text += ", every character of the corpus kept."
    found = opts.get("plan")
    auto = tuple(opts.get("auto", ()))  # type: ignore[arg-type]
    if found is not None and auto:
        why = []
        if "vocab_size" in auto:
            why.append(f"the target of {target:,} was chosen for this corpus so that the run "
                       f"has about {found.rounds:,} pruning rounds")
        if "shrinking_factor" in auto and found.keep != 0.75 and found.natural is not None:
            why.append(f"each round keeps {found.keep:.0%}, not SentencePiece's own 75%, "
                       f"which prunes this corpus in {found.natural:,} "
                       f"round{'' if found.natural == 1 else 's'} at most")
        if "seed_size" in auto and opts.get("seed_size") != 300:
            why.append(f"the seed holds {int(opts['seed_size']):,} pieces: the course's "
                       f"300 would be {'only ' if found.characters >= 300 else ''}"
                       f"characters here ({found.characters:,} of them), so it gets as many "
                       "substrings as characters")
        if why:
            text += " Why: " + "; ".join(why) + " (set your own in the sidebar)."
    return text


# -- explain: a round, and a word's cut (what the CLI's explain prints) -----------------
@dataclass(frozen=True)
class RoundExplanation:
    """What pruning round ``step`` did (``training.explain(k)``, as a merge training's
    ``explain(k)`` says why merge ``k`` was chosen): the vocabulary and the loss before
    and after, the pieces it removed (the pieces in use first, cheapest first, then the
    others in the trainer's order) and the round in words (:func:`round_sentence`)."""

    step: int
    last_step: int
    variant: str
    pieces_before: int
    pieces_after: int
    loss_before: float
    loss_after: float
    removed: tuple[Removal, ...]
    sentence: str

    @property
    def used(self) -> list[Removal]:
        """The removed pieces some best split used, cheapest first."""
        return used_removals(self.removed)

    def describe(self, max_pieces: int = 8) -> list[str]:
        """The explanation as sentences (``max_pieces``: removed pieces in use named)."""
        last = " (the final vocabulary)" if self.step == self.last_step else ""
        lines = [f"Round {self.step:,} of {self.last_step:,}{last}: "
                 f"{self.pieces_before:,} → {self.pieces_after:,} pieces.", self.sentence]
        used = self.used
        if used:
            lines.append(f"The {len(used):,} removed {'piece' if len(used) == 1 else 'pieces'}"
                         " in use, cheapest first:")
            lines += ["  " + removal_sentence(r, self.variant == "course")
                      for r in used[:max_pieces]]
            if len(used) > max_pieces:
                lines.append(f"  … and {len(used) - max_pieces:,} more")
        return lines

    def to_dict(self, max_pieces: int | None = None) -> dict[str, object]:
        """The explanation as JSON-ready data (``max_pieces``: at most so many removals)."""
        used = self.used
        rest = [r for r in self.removed if r not in used]
        shown = (used + rest)[:max_pieces] if max_pieces is not None else used + rest
        return {
            "step": self.step, "last_step": self.last_step, "variant": self.variant,
            "pieces_before": self.pieces_before, "pieces_after": self.pieces_after,
            "loss_before": self.loss_before, "loss_after": self.loss_after,
            "sentence": self.sentence, "removed_count": len(self.removed),
            "removed": [{"piece": r.piece, "reason": r.reason, "cost": r.cost, "uses": r.uses,
                         "nats": r.nats, "log_prob": r.log_prob,
                         "alternative": list(r.alternative) if r.alternative else None}
                        for r in shown],
        }


def explain_round(training: Rounds, step: int) -> RoundExplanation:
    """What round ``step`` (1 <= step <= the last step) did; ValueError otherwise.

    >>> from bpeviz.unigram.model import Removal, UnigramModel, UnigramStep, UnigramTraining
    >>> s0 = UnigramStep(0, UnigramModel(("a", "b", "ab"), (-1.0, -1.0, -2.0)), 5.0,
    ...                  (Removal("ab", 0.25, "pruned", 2.0, -2.0, ("a", "b"), 1.5),), (), ())
    >>> s1 = UnigramStep(1, UnigramModel(("a", "b"), (-1.0, -1.0)), 6.0, (), (), ())
    >>> why = explain_round(UnigramTraining("course", (s0, s1)), 1)
    >>> why.pieces_before, why.pieces_after, [r.piece for r in why.removed]
    (3, 2, ['ab'])
    >>> print(why.describe()[0])
    Round 1 of 1 (the final vocabulary): 3 → 2 pieces.
    """
    last = len(training.steps) - 1
    if isinstance(step, bool) or not isinstance(step, int | np.integer):
        raise ValueError(f"step must be a whole number, got {step!r}")
    if not last:
        raise ValueError("this training made no pruning round: there is no step to explain")
    if not 1 <= step <= last:
        raise ValueError(f"step must be between 1 and {last} (the pruning rounds), got "
                         f"{step}; step 0 is the seed, before any round")
    step = int(step)
    before, after = training.at(step - 1), training.at(step)
    return RoundExplanation(step, last, training.variant, len(before.pieces),
                            len(after.pieces), before.loss, after.loss,
                            removed_at(training, step), round_sentence(training, step))


def describe_lattice(found: WordLattice) -> list[str]:
    """How a word is cut (:meth:`UnigramStep.trace`), as sentences.

    >>> from bpeviz.unigram.model import Removal, UnigramModel, UnigramStep, UnigramTraining
    >>> m = UnigramModel(("▁", "a", "b", "▁a", "ab"), (-2.0, -2.0, -2.0, -1.5, -3.0))
    >>> print("\\n".join(describe_lattice(word_lattice(m, "▁ab", 2))))
    ▁ab is cut into ▁a + b (log-probability -3.500), the best of its 2 best splits:
      1. ▁a + b  (-3.500)
      2. ▁ + ab  (-5.000)
    """
    def cut(pieces: tuple[str, ...]) -> str:
        return " + ".join(display.label(p) for p in pieces)

    lines = [f"{display.label(found.word)} is cut into {cut(found.best)} (log-probability "
             f"{found.best_score:.3f}), the best of its {len(found.nbest)} best splits:"]
    lines += [f"  {i}. {cut(p)}  ({s:.3f})" for i, (p, s) in enumerate(found.nbest, 1)]
    return lines


def lattice_dict(found: WordLattice) -> dict[str, object]:
    """How a word is cut, as JSON-ready data."""
    return {"word": found.word, "best": list(found.best), "best_score": found.best_score,
            "nbest": [{"pieces": list(p), "score": s} for p, s in found.nbest]}
