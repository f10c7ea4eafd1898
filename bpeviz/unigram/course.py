"""The Hugging Face course's Unigram trainer (chapter 6, section 7), exactly.

- Seed: every character (in order of first appearance) and the most frequent
  substrings of length >= 2 (a stable sort by frequency), up to ``seed_size`` (300)
  tokens in all.
- Model: ``-log(freq / total)`` of those initial frequencies, renormalized over the
  tokens left after every round.
- Loss: the sum over words of ``count x`` the score of the word's best segmentation,
  found left to right, where a segmentation only replaces the best one at its end when
  strictly better (so the first found wins ties). The course's Viterbi starts from a
  score of 1, not 0, so every word occurrence adds 1 to its loss; kept here, so that the
  course's printed numbers come out (``413.10377642940875`` for its corpus).
- A round removes the ``prune_fraction`` (0.1) x the vocabulary size of multi-character
  tokens whose removal raises the loss least (a stable sort: ties in vocabulary order),
  until at most ``vocab_size`` tokens are left. Single characters are never removed.

Two guards the course does not need on its example: a round removes at least one
token, and training stops when only single characters are left.

>>> words = {"▁hug": 10, "▁pug": 5, "▁pun": 12, "▁bun": 4, "▁hugs": 5}
>>> t = train_course(words, vocab_size=12, seed_size=20)
>>> len(t.final.pieces) <= 12, t.at(0).loss > t.final.loss - 1e9
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from bpeviz.unigram.model import (
    Removal,
    UnigramModel,
    UnigramStep,
    UnigramTraining,
    encode_word,
)


def compute_loss(model: Mapping[str, float], word_freqs: Mapping[str, int]) -> float:
    loss = 0.0
    for word, freq in word_freqs.items():
        _, word_loss = encode_word(word, model)
        loss += freq * word_loss  # type: ignore[operator]
    return loss


def _model(token_freqs: Mapping[str, int]) -> dict[str, float]:
    total = sum(token_freqs.values())
    return {token: -math.log(freq / total) for token, freq in token_freqs.items()}


def seed_frequencies(word_freqs: Mapping[str, int], seed_size: int = 300) -> dict[str, int]:
    """Characters first, then the most frequent longer substrings, up to ``seed_size``."""
    char_freqs: dict[str, int] = {}
    sub_freqs: dict[str, int] = {}
    for word, freq in word_freqs.items():
        for i in range(len(word)):
            char_freqs[word[i]] = char_freqs.get(word[i], 0) + freq
            for j in range(i + 2, len(word) + 1):
                sub_freqs[word[i:j]] = sub_freqs.get(word[i:j], 0) + freq
    ranked = sorted(sub_freqs.items(), key=lambda x: x[1], reverse=True)
    token_freqs = list(char_freqs.items()) + ranked[: max(0, seed_size - len(char_freqs))]
    return dict(token_freqs)


def train_course(word_freqs: Mapping[str, int] | Iterable[tuple[str, int]], vocab_size: int, *,
                 seed_size: int = 300, prune_fraction: float = 0.1) -> UnigramTraining:
    """Train as the course does; step k is the vocabulary after k rounds."""
    if not isinstance(word_freqs, Mapping):
        table: dict[str, int] = {}
        for word, count in word_freqs:
            table[word] = table.get(word, 0) + count
        word_freqs = table
    word_freqs = dict(word_freqs)
    token_freqs = seed_frequencies(word_freqs, seed_size)
    model = _model(token_freqs)
    words, counts = tuple(word_freqs), tuple(word_freqs.values())
    states: list[tuple[dict[str, float], float]] = []
    removals: list[tuple[Removal, ...]] = []
    while True:
        loss = compute_loss(model, word_freqs)
        states.append((model, loss))
        if len(model) <= vocab_size:
            break
        scores = {}
        for token in model:
            if len(token) == 1:
                continue
            without = dict(model)
            del without[token]
            scores[token] = compute_loss(without, word_freqs) - loss
        if not scores:
            break
        ranked = sorted(scores.items(), key=lambda x: x[1])
        count = min(len(ranked), max(1, int(len(model) * prune_fraction)))
        uses: dict[str, int] = {}  # how often the best splits use each token
        for word, freq in word_freqs.items():
            for token in encode_word(word, model)[0]:
                uses[token] = uses.get(token, 0) + freq
        removed = []
        for token, cost in ranked[:count]:
            without = {t: s for t, s in model.items() if t != token}
            removed.append(Removal(token, cost, "pruned", uses=float(uses.get(token, 0)),
                                   log_prob=-model[token],
                                   alternative=tuple(encode_word(token, without)[0]),
                                   nats=cost))
        for token, _ in ranked[:count]:
            del token_freqs[token]
        removals.append(tuple(removed))
        model = _model(token_freqs)
    removals.append(())
    steps = tuple(
        UnigramStep(k, UnigramModel(tuple(m), tuple(-s for s in m.values()), ("<unk>",),
                                    course=True), loss, removals[k], words, counts)
        for k, (m, loss) in enumerate(states))
    return UnigramTraining("course", steps, {"vocab_size": vocab_size, "seed_size": seed_size,
                                             "prune_fraction": prune_fraction},
                           source=word_freqs)
