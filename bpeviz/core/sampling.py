"""Random segmentations: BPE-dropout, Unigram subword sampling, and the segmentation cloud.

**BPE-dropout** (Provilkov et al., 2020; Hugging Face ``BPE(dropout=p)``), for BPE and
byte-level BPE: a word is merged as :func:`bpeviz.core.encoding.merge_word` does (the
leftmost occurrence of the lowest-ranked pair, again and again), except that at every
merge step each candidate (every adjacent pair with a merge, at every position) is left
out with probability ``p``; the best remaining one is merged, and the word stops when
every candidate was left out. ``p=0`` is plain encoding, ``p=1`` leaves the initial
symbols (characters, or bytes). Words are sampled one occurrence at a time: the encoder's
word cache is not used.

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_text("hug hug hug pug pug hugs"), merges=4, special_tokens=())
>>> [tok.text for tok in encode_dropout(t.at(), "hugs", 0.0)]
['hugs']
>>> [tok.text for tok in encode_dropout(t.at(), "hugs", 1.0)]
['h', 'u', 'g', 's']
>>> a, b = (encode_dropout(t.at(), "hugs hugs", 0.5, seed=3) for _ in range(2))
>>> a == b  # same seed, same tokens
True

**Unigram sampling**: :meth:`bpeviz.unigram.UnigramModel.encode` and
:meth:`bpeviz.unigram.spm.SentencePieceModel.encode` take ``alpha``, ``nbest_size`` and
``seed`` (SentencePiece's ``enable_sampling=True, alpha=, nbest_size=``).

**The segmentation cloud**: :func:`segmentation_cloud` draws ``n`` segmentations of a text
with any of them and counts each distinct one (a pandas DataFrame, most frequent first)::

    segmentation_cloud(dropout_sampler(t.at(), 0.1), "hugs", n=1000, seed=0)
    segmentation_cloud(unigram_sampler(model, alpha=0.1), "hugs", n=1000, seed=0)
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

import pandas as pd

from bpeviz.algorithms import get as get_algorithm

if TYPE_CHECKING:
    from bpeviz.core.encoded import Encoding, Token
    from bpeviz.core.training_data import AtStep

#: A sampler cuts a text into tokens, drawing with the given seed.
Sampler = Callable[[str, int], Sequence[Any]]


# -- BPE-dropout -------------------------------------------------------------------------
def dropout_merge(ids: list[int], starts: list[int], ends: list[int],
                  ranks: dict[tuple[int, int], tuple[int, int]], p: float,
                  rng: random.Random) -> tuple[list[int], list[int], list[int]]:
    """:func:`bpeviz.core.encoding.merge_word` with each candidate merge left out with
    probability ``p`` at every step (a fresh draw per candidate per step).

    >>> dropout_merge([1, 2, 3], [0, 1, 2], [1, 2, 3], {(1, 2): (1, 4), (4, 3): (2, 5)},
    ...               0.0, random.Random(0))
    ([5], [0], [3])
    """
    ids, starts, ends = list(ids), list(starts), list(ends)
    get = ranks.get
    draw = rng.random
    while len(ids) > 1:
        best = None
        at = 0
        for i in range(len(ids) - 1):
            found = get((ids[i], ids[i + 1]))
            if found is None:
                continue
            if p and draw() < p:  # this candidate is dropped at this step
                continue
            if best is None or found[0] < best[0]:
                best, at = found, i
        if best is None:
            break
        ids[at: at + 2] = [best[1]]
        ends[at] = ends[at + 1]
        del starts[at + 1], ends[at + 1]
    return ids, starts, ends


class DropoutEncoder:
    """Encodes with BPE-dropout at one snapshot; reuse it for many samples.

    It holds its own encoder (the Python path, never cached nor shared), so sampling
    never fills or reads the word cache that plain encoding uses.
    """

    def __init__(self, snapshot: AtStep, p: float) -> None:
        from bpeviz.core.coders import coder_of
        from bpeviz.core.encoding import _Encoder

        check_probability(p, "dropout")
        training = snapshot.training
        if not coder_of(get_algorithm(training.algorithm)).by_ranks:  # no merges to leave out
            raise ValueError(f"BPE-dropout applies to BPE and byte-level BPE, not "
                             f"{training.algorithm}; WordPiece has no merges to drop at "
                             "encoding time")
        self.p = float(p)
        self._encoder = _Encoder(training, snapshot.step, "python")
        self._rng = random.Random()
        enc, rng = self._encoder, self._rng
        enc._merge = lambda ids, starts, ends: dropout_merge(  # type: ignore[method-assign]
            ids, starts, ends, enc.ranks, self.p, rng)

    def encode(self, text: str, seed: int | None = None) -> Encoding:
        """One sample: every word occurrence drawn on its own."""
        from bpeviz.core.encoded import Encoding
        from bpeviz.core.encoding import _IDS, _flat_columns, split_words

        self._rng.seed(seed)
        enc = self._encoder
        words, offsets = split_words(text, enc.pretokenizer)
        entries = [enc._encode_word(word) for word in words]
        ids = list(chain.from_iterable(map(_IDS, entries)))
        return Encoding(enc, text, ids, lambda: _flat_columns(entries, offsets, len(ids)))

    __call__ = encode


def encode_dropout(snapshot: AtStep, text: str, p: float,
                   seed: int | None = None) -> Encoding:
    """``text`` cut with BPE-dropout of probability ``p`` (see the module docstring)."""
    return DropoutEncoder(snapshot, p).encode(text, seed)


def dropout_sampler(snapshot: AtStep, p: float) -> Sampler:
    """A sampler for :func:`segmentation_cloud`: BPE-dropout at ``snapshot``."""
    return DropoutEncoder(snapshot, p).encode


def unigram_sampler(model: Any, alpha: float = 0.1, nbest_size: int = -1) -> Sampler:
    """A sampler for :func:`segmentation_cloud`: Unigram subword sampling with a
    :class:`~bpeviz.unigram.UnigramModel`, a training step, or an opened ``.model``."""
    check_probability(alpha, "alpha", upper=None)

    def sample(text: str, seed: int) -> Sequence[Any]:
        return model.encode(text, alpha=alpha, nbest_size=nbest_size, seed=seed)  # type: ignore[no-any-return]

    return sample


def check_probability(value: float, name: str, upper: float | None = 1.0) -> float:
    """``value`` if it is a number in [0, upper], else a ValueError that says so."""
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value) \
            or value < 0 or (upper is not None and value > upper):
        bound = f"between 0 and {upper:g}" if upper is not None else "0 or more"
        raise ValueError(f"{name} must be a number {bound}, got {value!r}")
    return float(value)


# -- the segmentation cloud --------------------------------------------------------------
def segmentation_cloud(sampler: Sampler, text: str, n: int = 1000, seed: int = 0, *,
                       by_word: bool = False,
                       key: Callable[[Any], Any] | None = None) -> pd.DataFrame:
    """Draw ``n`` segmentations of ``text`` and count each distinct one.

    Columns: ``segmentation`` (a tuple of token texts), ``count`` (samples that gave
    it) and ``share`` (count / n), most frequent first (ties: first drawn first).
    ``by_word``: count each word's segmentation on its own (a word is a run of
    non-space characters; a token that covers only the space before a word, such as
    SentencePiece's ``▁``, belongs to that word); a ``word`` column comes first, words
    in order of first appearance, and ``share`` is per word.

    Sample ``i`` uses a seed drawn from ``random.Random(seed)``, so a cloud is
    reproducible. ``key`` (whole-text clouds): what a token is told apart by, its text
    by default (``lambda t: t.id`` gives tuples of ids, for drawing chips).

    >>> from bpeviz import Corpus, train
    >>> t = train(Corpus.from_text("hug hug hug pug pug hugs"), merges=4, special_tokens=())
    >>> cloud = segmentation_cloud(dropout_sampler(t.at(), 1.0), "hug", n=5)
    >>> cloud.to_dict("records")
    [{'segmentation': ('h', 'u', 'g'), 'count': 5, 'share': 1.0}]
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n (the number of samples) must be a positive integer, got {n!r}")
    seeds = random.Random(seed)
    if not by_word:
        counts: Counter[tuple[str, ...]] = Counter()
        of = key or (lambda t: t.text)
        for _ in range(n):
            counts[tuple(map(of, sampler(text, seeds.getrandbits(64))))] += 1
        rows = counts.most_common()  # stable: ties stay in first-drawn order
        return pd.DataFrame({"segmentation": [r[0] for r in rows],
                             "count": [r[1] for r in rows],
                             "share": [r[1] / n for r in rows]})
    import regex

    spans = [m.span() for m in regex.finditer(r"\S+", text)]
    per_word: list[Counter[tuple[str, ...]]] = [Counter() for _ in spans]
    for _ in range(n):
        groups = _by_word(text, spans, sampler(text, seeds.getrandbits(64)))
        for counter, group in zip(per_word, groups):
            counter[tuple(group)] += 1
    words: dict[str, Counter[tuple[str, ...]]] = {}
    for (s, e), counter in zip(spans, per_word):
        words.setdefault(text[s:e], Counter()).update(counter)
    out = []
    for word, counter in words.items():
        total = sum(counter.values())
        out.extend((word, seg, c, c / total) for seg, c in counter.most_common())
    return pd.DataFrame(out, columns=["word", "segmentation", "count", "share"])


def _by_word(text: str, spans: list[tuple[int, int]], tokens: Sequence[Token]) -> list[list[str]]:
    """Each word's token texts: a token goes to the word holding its first non-space
    character, or (only spaces, or nothing) to the next word."""
    from bisect import bisect_right

    starts = [s for s, _ in spans]
    groups: list[list[str]] = [[] for _ in spans]
    for tok in tokens:
        pos = tok.start
        while pos < tok.end and text[pos].isspace():
            pos += 1
        k = bisect_right(starts, pos) - 1
        if k < 0 or pos >= spans[k][1]:  # before a word (a space, or the start): the next
            k += 1
        if 0 <= k < len(spans):
            groups[k].append(tok.text)
    return groups
