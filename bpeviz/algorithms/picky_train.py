"""PickyBPE's trainer: the events of ``pickybpe-bauwenst``'s ``PickyBPETrainer``, exactly.

The rules, read from that package (1.3.1) and kept here:

* words: the text cut at whitespace (``str.split``), each word ``▁`` + its characters;
  the vocabulary starts with ``[PAD] [UNK] [BOS] [EOS]`` (ids 0-3), then the characters,
  sorted (ids from 4). ``character_coverage`` (0.9999) drops the rarest characters, as
  many as fit in the share left out, to ``[UNK]``; pairs with ``[UNK]``, and pairs whose
  token would be longer than ``max_type_length`` (64) characters, are never counted;
* a pair's count is its count in the words, a run ``x x x`` counting one ``(x, x)``;
  the pair counted most is merged, left to right in each word. The package breaks ties
  by where the pairs sit in its heap, which follows the order Python's sets of its
  objects happen to iterate in (their memory addresses); bpeviz takes the pair whose
  left token, then right token, has the smaller id, and its tests pin the package to
  that rule;
* right after merge ``a b`` -> ``ab``, ``a``, then ``b``, is checked: with ``n(ab)`` the
  new token's count and ``n(a)`` what is left of ``a``'s, when
  ``n(ab) / (n(a) + n(ab)) > threshold`` (the Intersection over Self, strictly above)
  and ``a`` is not a single character or special token, ``a`` is removed: its
  occurrences are replaced by the present tokens it was first made of (recursively, a
  removed part by its own parts), and a removal event follows the merge;
* pair counts are then updated as the package updates them, including its one
  approximation: the pairs the merge formed are counted as they were before a removal
  that followed it, so a pair of the removed token and the new one keeps a count it no
  longer has (a "stale" pair). When such a pair comes out on top, the package fails (an
  assertion); bpeviz drops it and goes on. The same for a pair whose count outlived
  every occurrence (``▁bababa`` with at most 2 characters a token: after ``ba``, the
  run ``ba ba ba`` counts one pair where ``a b`` occurred twice, so ``a b`` keeps a
  count of 1); the package, merging it, divides by zero in its Intersection over Self;
* a merge that makes a token already known restores it (same id) if it was removed;
* training stops after ``merges`` merges (with the removals that follow the last one),
  or, as the package does, once its vocabulary counter reaches ``vocab_size`` (the
  counter also counts a merge that makes a token already present), or when no pair
  with a count above 0 is left.

One fix is assumed: the package's removal resets the token's count and its set of words
before reading them, so it splits nothing and leaves every count as it was; the tests
compare against the package with those two reads moved before the reset, which is what
its code and comments describe.

>>> t = train_picky("hug hug hug hugs pug pug pun bun hugs hugs", merges=4, threshold=0.6)
>>> [(e.kind, e.token) for e in t.merges][:5]
[('merge', 'ug'), ('merge', 'hug'), ('removal', 'ug'), ('merge', '▁hug'), ('removal', 'hug')]
>>> print(t.explain(3).why)  # doctest: +NORMALIZE_WHITESPACE
“ug” removed: after merge 2 made “hug”, “ug” appears alone in 25% of its 8 uses
(IoS 6 / 8 = 75% > threshold 60%); where it still occurred it is now “u” “g”.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from heapq import heappop, heappush
from itertools import pairwise
from typing import Any

from bpeviz.algorithms.picky import PICKY, WORD_START
from bpeviz.algorithms.picky_model import PickyEvent, PickyTraining, word_pairs
from bpeviz.engine.merge_word import replace_pair
from bpeviz.text.corpus import Corpus

Pair = tuple[int, int]


class _State:
    """The package's trainer state: tokens, words, pair counts and the vocabulary counter."""

    def __init__(self, words: dict[str, int], threshold: float, max_type_length: int,
                 coverage: float) -> None:
        self.threshold, self.max_len = threshold, max_type_length
        self.strs: list[str] = list(PICKY.special_tokens)
        self.special = [True] * len(self.strs)
        atoms: Counter[str] = Counter()
        for word, freq in words.items():
            for ch in word:
                atoms[ch] += freq
        kept = _covered(atoms, coverage)
        self.strs += sorted(kept)
        self.special += [False] * len(kept)
        n = len(self.strs)
        self.ids = {s: i for i, s in enumerate(self.strs)}
        self.freq = [0] * 4 + [kept[s] for s in self.strs[4:]]
        self.present = [True] * n
        self.parts: list[Pair | None] = [None] * n  # the pair a token was first made of
        self.n_base = n
        unk = self.ids["[UNK]"]
        self.words = [[self.ids.get(ch, unk) for ch in w] for w in words]
        self.wfreq = list(words.values())
        self.where: dict[int, set[int]] = {}
        for i, w in enumerate(self.words):
            for s in w:
                self.where.setdefault(s, set()).add(i)
        self.tokens = sum(len(w) * f for w, f in zip(self.words, self.wfreq))
        self.counter = n  # the package's vocabulary counter
        self.counts: dict[Pair, int] = {}
        self.heap: list[tuple[int, int, int]] = []
        for w, f in zip(self.words, self.wfreq):
            for p, c in word_pairs(w, f).items():
                if self.valid(p):
                    self.add(p, c)

    def valid(self, p: Pair) -> bool:
        a, b = p
        return (not self.special[a] and not self.special[b]
                and len(self.strs[a]) + len(self.strs[b]) <= self.max_len)

    def add(self, p: Pair, c: int) -> int:
        """Add ``c`` to a pair's count (creating it, even at 0, as the package does)."""
        now = self.counts[p] = self.counts.get(p, 0) + c
        heappush(self.heap, (-now, p[0], p[1]))
        return now

    def pop_best(self) -> tuple[Pair, int] | None:
        """The pair counted most (smaller ids first among equals), taken out of the table."""
        while self.heap:
            neg, a, b = heappop(self.heap)
            if self.counts.get((a, b)) == -neg:
                del self.counts[a, b]
                return (a, b), -neg
        return None

    def walk(self, t: int) -> list[int]:
        """The present tokens a removed token stands for (``Token.walk``)."""
        if self.present[t] or len(self.strs[t]) == 1 or self.special[t]:
            return [t]
        left, right = self.parts[t]  # type: ignore[misc]
        return self.walk(left) + self.walk(right)

    def merge(self, a: int, b: int) -> tuple[int, int, Counter[Pair]] | None:
        """Merge ``a b`` in every word: the token, how many were made, the pairs formed;
        None, changing nothing, when no word holds the pair any more (a stale count)."""
        hits = [i for i in self.where.get(a, set()) & self.where.get(b, set())
                if any(p == (a, b) for p in pairwise(self.words[i]))]
        if not hits:
            return None
        text = self.strs[a] + self.strs[b]
        t = self.ids.get(text)
        if t is None:
            t = self.ids[text] = len(self.strs)
            self.strs.append(text)
            self.special.append(False)
            self.freq.append(0)
            self.present.append(True)
            self.parts.append((a, b))
        else:
            self.present[t] = True  # restored, or merged once more
        made = 0
        formed: Counter[Pair] = Counter()
        for i in hits:
            word = self.words[i]
            new = replace_pair(word, a, b, t)
            f = self.wfreq[i]
            made += (len(word) - len(new)) * f
            self.words[i] = new
            self.where[a].discard(i)
            self.where[b].discard(i)
            for s in new:
                self.where.setdefault(s, set()).add(i)
            for p, c in word_pairs(new, f).items():
                if t in p:
                    formed[p] += c
        self.counter += 1
        self.tokens -= made
        self.freq[t] += made
        for s in {a, b}:
            self.freq[s] -= made * (2 if a == b else 1)
        return t, made, formed

    def update_after_merge(self, pair: Pair, t: int, formed: Counter[Pair]) -> None:
        """``_update_pairs_on_merge``: count the pairs formed, uncount the ones they ended."""
        for p, c in formed.items():
            if self.valid(p):
                self.add(p, c)
        for (x, y), c in formed.items():
            old = (pair[1] if x == t else x, pair[0] if y == t else y)
            if old in self.counts and self.add(old, -c) <= 0:
                del self.counts[old]

    def remove(self, s: int) -> list[int]:
        """Remove token ``s``: split it back where it occurs; the parts it becomes."""
        self.present[s] = False
        parts = self.walk(s)
        f, self.freq[s] = self.freq[s], 0
        for x in parts:
            self.freq[x] += f
        self.counter -= 1
        self.tokens += f * (len(parts) - 1)
        for p in pairwise(parts):
            if self.valid(p):
                self.add(p, f)
        ended: Counter[Pair] = Counter()
        for i in self.where.pop(s, set()):
            word = self.words[i]
            for p, c in word_pairs(word, self.wfreq[i]).items():
                if s in p:
                    ended[p] += c
            new: list[int] = []
            for x in word:
                new.extend(parts if x == s else (x,))
            self.words[i] = new
            for x in parts:
                self.where.setdefault(x, set()).add(i)
        first, last = parts[0], parts[-1]
        for (x, y), c in ended.items():
            p = (last if x == s else x, first if y == s else y)
            if self.valid(p):
                self.add(p, c)
            self.counts.pop((x, y), None)
        return parts


def _covered(atoms: Counter[str], coverage: float) -> Counter[str]:
    """The characters kept by ``character_coverage``: the rarest are dropped while the
    share they add up to stays within what is left out (``_filter_atoms``)."""
    if coverage >= 1:
        return atoms
    kept = atoms.copy()
    size = sum(atoms.values())
    budget = size - round(coverage * size)
    for ch, f in atoms.most_common()[::-1]:
        if budget - f < 0:
            break
        budget -= f
        kept.pop(ch)
    return kept


def picky_words(corpus: Corpus | str) -> dict[str, int]:
    """The package's words: ``▁`` + each whitespace-cut word, with its count (a
    :class:`Corpus`'s words cut at whitespace too; a metaspace word keeps its ``▁``)."""
    if isinstance(corpus, str):
        pairs: Iterable[tuple[str, int]] = Counter(corpus.split()).items()
    elif isinstance(corpus, Corpus):
        pairs = zip(corpus.words, corpus.counts)
    else:
        raise TypeError(f"train PickyBPE on a str or a Corpus, got {type(corpus).__name__}")
    words: dict[str, int] = {}
    for word, count in pairs:
        for part in word.split():  # a Corpus's words, cut at whitespace as the package cuts
            key = part if part.startswith(WORD_START) else WORD_START + part
            words[key] = words.get(key, 0) + count
    return words


def _check(merges: Any, vocab_size: Any, threshold: Any, max_type_length: Any) -> None:
    if (merges is None) == (vocab_size is None):
        raise ValueError("say how long to train PickyBPE: merges=N or vocab_size=V (one)")
    for name, value in (("merges", merges), ("vocab_size", vocab_size),
                        ("max_type_length", max_type_length)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 0):
            raise ValueError(f"{name} must be a whole number >= 0, got {value!r}")
    if (isinstance(threshold, bool) or not isinstance(threshold, int | float)
            or threshold != threshold):
        raise ValueError(f"threshold must be a number (an IoS above it removes a token), "
                         f"got {threshold!r}")


def train_picky(
    corpus: Corpus | str,
    *,
    merges: int | None = None,
    vocab_size: int | None = None,
    threshold: float = 0.9,
    max_type_length: int = 64,
    character_coverage: float = 0.9999,
    progress: Callable[[int, int], None] | None = None,
) -> PickyTraining:
    """Train PickyBPE on ``corpus`` (a text, cut at whitespace, or a :class:`Corpus`'s
    words): the events of ``pickybpe``'s ``PickyBPETrainer(vocab_size, threshold,
    max_type_length, character_coverage)``; see the module's docstring for the rules."""
    _check(merges, vocab_size, threshold, max_type_length)
    words = picky_words(corpus)
    if not words:
        raise ValueError("the corpus has no words: give some text to train on")
    st = _State(words, float(threshold), max_type_length, character_coverage)
    events: list[PickyEvent] = []
    vocab = [st.n_base]  # tokens present after each step
    tokens = [st.tokens]
    n_merges, stop = 0, "merges"
    total = merges if merges is not None else max(vocab_size - st.counter, 0)  # type: ignore[operator]

    def record(event: PickyEvent) -> None:
        events.append(event)
        vocab.append(vocab[-1] + (1 if event.kind == "merge" else -1) * event.changed)
        tokens.append(st.tokens)

    while True:
        if merges is not None and n_merges >= merges:
            break
        if vocab_size is not None and n_merges and st.counter >= vocab_size:
            stop = "vocab_size"
            break
        best = st.pop_best()
        if best is None or best[1] <= 0:
            stop = "no_pairs"
            break
        (a, b), count = best
        was = st.ids.get(st.strs[a] + st.strs[b])
        known = was is not None and st.present[was]
        merged = st.merge(a, b)
        # a stale pair, which no word holds: one of a removed token (a removal takes it out
        # of every word), or a count that outlived its occurrences (see the docstring)
        if merged is None:
            continue
        t, made, formed = merged
        n_merges += 1
        merge_step = len(events) + 1
        record(PickyEvent(step=merge_step, kind="merge", token=st.strs[t], token_id=t,
                          left=st.strs[a], right=st.strs[b], left_id=a, right_id=b,
                          count=count, replaced=made, changed=0 if known else 1))
        for s in dict.fromkeys((a, b)):
            kept, inside = st.freq[s], st.freq[t]
            ios = inside / (kept + inside)
            if ios > st.threshold and len(st.strs[s]) > 1 and not st.special[s]:
                parts = st.remove(s)
                record(PickyEvent(
                    step=len(events) + 1, kind="removal", token=st.strs[s], token_id=s,
                    count=kept, replaced=kept * (len(parts) - 1), parts=tuple(
                        st.strs[x] for x in parts), part_ids=tuple(parts), ios=ios,
                    inside=inside, threshold=st.threshold, merge_step=merge_step,
                    merged=st.strs[t]))
        st.update_after_merge((a, b), t, formed)
        if progress is not None and n_merges % 100 == 0:
            progress(n_merges, total)
    if progress is not None:
        progress(n_merges, total)
    return PickyTraining(events=tuple(events), vocab=tuple(st.strs), n_base=st.n_base,
                         words=tuple(words), counts=tuple(words.values()),
                         vocab_sizes=tuple(vocab), corpus_tokens=tuple(tokens),
                         stop_reason=stop, threshold=float(threshold),
                         settings={"merges": merges, "vocab_size": vocab_size,
                                   "threshold": threshold, "max_type_length": max_type_length,
                                   "character_coverage": character_coverage})
