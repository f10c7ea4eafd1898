"""Settings that teach: a vocabulary size (and, for a small corpus, a keep share) that
give a training enough pruning rounds to step through, computed from the corpus.

Unigram's rounds depend on the corpus more than on the target: every round keeps a share
of the vocabulary (SentencePiece: 75%; the course removes 10%), single characters are
never pruned, and SentencePiece's first re-estimation already drops every seed piece
that nobody uses. On a few hundred words with many scripts (the app's tour sample: 363
distinct characters among 771 seed pieces) the SentencePiece trainer at its own 75%
makes 2 or 3 rounds whatever the target, and the course's seed of 300 pieces holds only
characters. :func:`plan` finds, from trial trainings on the corpus itself:

- ``"sentencepiece"``: the largest keep share among SentencePiece's 0.75, then 0.9 and
  0.95, that first gives at least :data:`MIN_ROUNDS` rounds, and the target size
  reached after :data:`TARGET_ROUNDS` rounds (fewer when the corpus runs out of
  longer pieces first);
- ``"course"``: a seed of every character plus as many substrings (at least the
  course's 300 pieces), and the target reached after :data:`TARGET_ROUNDS` rounds.

The course's rounds follow from the sizes alone (no trial needed). For SentencePiece, a
corpus of more than :data:`TRIAL_WORDS` distinct words is not trained on trial: its own
keep share, and a target of the seed times ``0.75 ** TARGET_ROUNDS``.

>>> words = {"▁hug": 10, "▁pug": 5, "▁pun": 12, "▁bun": 4, "▁hugs": 5}
>>> p = plan(words, "course")
>>> p.options["seed_size"], p.rounds >= 1, p.vocab_size < p.seed
(300, True, True)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

#: a default run aims at this many pruning rounds ...
TARGET_ROUNDS = 8
#: ... and a keep share is taken when it gives at least this many
MIN_ROUNDS = 6
#: keep shares tried for SentencePiece's trainer, its own first
KEEP_SHARES = (0.75, 0.9, 0.95)
#: the course's seed size (its code's ``300``)
COURSE_SEED = 300
#: corpora with more distinct words are planned without trial trainings
TRIAL_WORDS = 5_000


@dataclass(frozen=True)
class Plan:
    """A default that teaches: train ``variant`` to ``vocab_size`` with ``options``
    (``shrinking_factor`` or ``seed_size``); the trial gave ``rounds`` rounds from a seed
    of ``seed`` pieces, ``characters`` of them single characters. ``natural`` is how
    many rounds the trainer's own defaults would have made on this corpus (at the
    smallest size they reach), ``None`` when not tried."""

    variant: str
    vocab_size: int
    options: dict[str, float | int] = field(default_factory=dict)
    seed: int = 0
    characters: int = 0
    keep: float = 0.75
    rounds: int = 0
    natural: int | None = None
    tried: bool = True


def _sizes(training) -> list[int]:
    """The trainer's own model size after each round (the characters every round keeps
    for the learner, ``restored``, left out: the trainer stops on its own size)."""
    return [len(s.pieces) - len(s.restored) for s in training.steps]


def _productive(sizes: list[int]) -> int:
    """Rounds (not counting SentencePiece's final cut) that shrank the vocabulary."""
    return sum(1 for a, b in itertools.pairwise(sizes) if b < a)


def _course_seed(table: Mapping[str, int]) -> int:
    chars = {ch for word in table for ch in word}
    return max(COURSE_SEED, 2 * len(chars))


def _course_sizes(table: Mapping[str, int], seed_size: int, characters: int,
                  prune_fraction: float = 0.1) -> list[int]:
    """The course trainer's vocabulary size after every round down to the characters
    alone (its rounds remove ``max(1, int(size x prune_fraction))`` longer tokens, as
    long as there are some: no training needed)."""
    from bpeviz.unigram.course import seed_frequencies

    sizes = [len(seed_frequencies(table, seed_size))]
    while sizes[-1] > characters:
        longer = sizes[-1] - characters
        sizes.append(sizes[-1] - min(longer, max(1, int(sizes[-1] * prune_fraction))))
    return sizes


def plan(table: Mapping[str, int], variant: str = "sentencepiece") -> Plan:
    """The vocabulary size (and options) that give ``table`` (words with counts, ``▁`` in
    front) about :data:`TARGET_ROUNDS` pruning rounds with ``variant``."""
    from bpeviz.unigram.model import SPM_SPECIALS
    from bpeviz.unigram.spm_input import words_input
    from bpeviz.unigram.trainer import seed_pieces, train_sentencepiece

    table = dict(table)
    characters = len({ch for word in table for ch in word})
    trial = len(table) <= TRIAL_WORDS
    if variant == "course":
        seed_size = _course_seed(table)
        sizes = _course_sizes(table, seed_size, characters)
        natural = len(_course_sizes(table, COURSE_SEED, characters)) - 1
        rounds = min(TARGET_ROUNDS, len(sizes) - 1)
        return Plan(variant, max(sizes[rounds], 1), {"seed_size": seed_size}, sizes[0],
                    characters, 0.9, rounds, natural)
    data = words_input(table)
    floor = len(SPM_SPECIALS) + 1
    if not trial:
        seed = len(seed_pieces(data))
        vocab = max(floor, characters + len(SPM_SPECIALS),
                    int(seed * 0.75 ** TARGET_ROUNDS / 1.1))
        return Plan(variant, vocab, {"shrinking_factor": 0.75}, seed, characters, 0.75,
                    TARGET_ROUNDS, tried=False)
    natural = None
    best: tuple[int, float, list[int]] | None = None
    for keep in KEEP_SHARES:
        # the smallest target: the trainer runs until a round removes nothing
        sizes = _sizes(train_sentencepiece(data, floor, shrinking_factor=keep))
        pruning = sizes[:-1]  # the last step is the final cut, not a pruning
        done = _productive(pruning)
        if natural is None:
            natural = done
        if best is None or done > best[0]:
            best = (done, keep, pruning)
        if done >= MIN_ROUNDS:
            break
    assert best is not None
    done, keep, pruning = best
    rounds = max(1, min(TARGET_ROUNDS, done))
    # the trainer stops after the pruning that reaches int(1.1 x vocab_size)
    vocab = max(floor, math.ceil(pruning[rounds] / 1.1))
    while int(vocab * 1.1) < pruning[rounds]:
        vocab += 1
    seed = pruning[0]
    return Plan(variant, vocab, {"shrinking_factor": keep}, seed, characters, keep,
                rounds, natural)


__all__ = ["KEEP_SHARES", "MIN_ROUNDS", "TARGET_ROUNDS", "Plan", "plan"]
