"""What a PickyBPE training is: its events, and the vocabulary and encoding at any step.

A step is an event, a merge (a token is made, or made again) or a removal (a token is
taken out of the vocabulary and split back into its parts). :class:`PickyTraining`
answers :class:`bpeviz.core.protocol.AnyTraining`; ``at(k)`` is a :class:`PickyStep`,
which encodes as ``pickybpe``'s ``PickyBPESegmenter`` does with the first ``k`` events: a
word that is a token of the vocabulary then is that token; any other word starts as its
characters (``[UNK]`` for one the vocabulary lacks), then the earliest event that applies
to it is applied (a merge of two of its neighbouring tokens, the removal of one of its
tokens), then the earliest one after that, and so on.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise
from typing import Any

import numpy as np
import pandas as pd

from bpeviz.algorithms.picky import PICKY, WORD_START
from bpeviz.core.encoded import Token
from bpeviz.core.protocol import steps_at_most
from bpeviz.core.snapshot import snapshot_view
from bpeviz.engine.merge_word import replace_pair

STOP_REASONS = {
    "merges": "made the requested number of merges",
    "vocab_size": "reached the requested vocabulary size",
    "no_pairs": "no pair with a count above 0 was left to merge",
}
_UNK = PICKY.special_tokens.index("[UNK]")
#: the most encodings :meth:`PickyTraining.text_history` makes (a word at each step that
#: may change it): beyond, the text is cut at the settled step only
TEXT_HISTORY_STEPS = 20_000


def _percent(x: float) -> str:
    """A share as a percentage, to one decimal unless whole ("3%", "96.5%")."""
    text = f"{100 * x:.1f}"
    return (text[:-2] if text.endswith(".0") else text) + "%"


def word_pairs(word: Sequence[int], freq: int) -> Counter[tuple[int, int]]:
    """A word's pairs times its count, a run ``x x x`` counting one ``(x, x)`` (the
    package's ``skipImmediateEquals``).

    >>> sorted(word_pairs([7, 7, 7, 8], 2).items())
    [((7, 7), 2), ((7, 8), 2)]
    """
    out: Counter[tuple[int, int]] = Counter()
    prev: tuple[int, int] | None = None
    for p in pairwise(word):
        if prev is not None and p == prev:
            prev = None
            continue
        prev = p
        out[p] += freq
    return out


@dataclass(frozen=True)
class PickyEvent:
    """One step: ``kind`` "merge" (``left`` + ``right`` became ``token``, a pair counted
    ``count`` times, ``replaced`` occurrences merged; ``changed`` 0 when the token was
    already in the vocabulary) or "removal" (``token`` removed after merge ``merge_step``
    made ``merged``: ``inside`` of its uses were in that token and ``count`` were left
    alone, so its Intersection over Self ``ios = inside / (inside + count)`` was above
    ``threshold``; its ``count`` occurrences became ``parts``)."""

    step: int
    kind: str
    token: str
    token_id: int
    left: str = ""
    right: str = ""
    left_id: int = -1
    right_id: int = -1
    count: int = 0
    replaced: int = 0
    changed: int = 1
    parts: tuple[str, ...] = ()
    part_ids: tuple[int, ...] = ()
    ios: float | None = None
    inside: int = 0
    threshold: float | None = None
    merge_step: int = 0
    merged: str = ""

    @property
    def why(self) -> str:
        """The event and its reason, in one or two sentences."""
        if self.kind == "merge":
            again = "" if self.changed else f" (“{self.token}” was already a token)"
            return (f"Merge {self.step}: “{self.left}” + “{self.right}” → “{self.token}”, the "
                    f"pair counted most ({self.count:,} times){again}.")
        total = self.inside + self.count
        parts = " ".join(f"“{p}”" for p in self.parts)
        return (f"“{self.token}” removed: after merge {self.merge_step} made “{self.merged}”, "
                f"“{self.token}” appears alone in {_percent(1 - self.ios)} of its "  # type: ignore[operator]
                f"{total:,} uses (IoS {self.inside:,} / {total:,} = {_percent(self.ios)} > "  # type: ignore[arg-type]
                f"threshold {_percent(self.threshold)}); where it still occurred it is now "  # type: ignore[arg-type]
                f"{parts}.")


@dataclass(frozen=True, eq=False)
class PickyTraining:
    """The events of a PickyBPE training and what is read from them at any step.

    ``vocab[i]`` is the token with id ``i``: the special tokens, the characters, then
    each token in the order it was first made (a token removed and made again keeps its
    id); ``vocab_sizes[k]`` and ``corpus_tokens[k]`` are the tokens present and the
    corpus's tokens after ``k`` steps; ``words``, ``counts``: the words trained on, each
    ``▁`` + its characters."""

    events: tuple[PickyEvent, ...]
    vocab: tuple[str, ...]
    n_base: int
    words: tuple[str, ...]
    counts: tuple[int, ...]
    vocab_sizes: tuple[int, ...]
    corpus_tokens: tuple[int, ...]
    stop_reason: str
    threshold: float
    settings: dict[str, Any] = field(default_factory=dict)

    algorithm = PICKY.name
    #: what a step number is called where it is shown
    step_unit = "step"

    @property
    def merges(self) -> tuple[PickyEvent, ...]:
        """Every step, merges and removals (``kind``), in order."""
        return self.events

    steps = merges

    def __len__(self) -> int:
        return len(self.events)

    @property
    def merge_count(self) -> int:
        return sum(e.kind == "merge" for e in self.events)

    @property
    def stop_message(self) -> str:
        n = len(self.events)
        merges = self.merge_count
        return (f"Stopped after {n} steps ({merges} merges, {n - merges} removals): "
                f"{STOP_REASONS[self.stop_reason]}.")

    def _check_step(self, step: Any) -> int:
        if isinstance(step, bool) or not isinstance(step, int | np.integer):
            raise ValueError(f"step must be a whole number, got {step!r}")
        if not 0 <= step <= len(self.events):
            raise ValueError(f"step must be between 0 and {len(self.events)}, got {step}")
        return int(step)

    def at(self, step: int | None = None) -> PickyStep:
        """The vocabulary after ``step`` events (default: all of them)."""
        return PickyStep(self, self._check_step(len(self.events) if step is None else step))

    def vocab_size_at(self, step: int) -> int:
        return self.vocab_sizes[self._check_step(step)]

    def token_counts(self) -> np.ndarray:
        """The corpus's tokens after each step, from step 0 (a copy)."""
        return np.array(self.corpus_tokens, dtype=np.int64)

    def explain(self, step: int) -> PickyEvent:
        """Event ``step`` (1-based), with its reason (:attr:`PickyEvent.why`)."""
        if self._check_step(step) == 0:
            raise ValueError("step 0 is the starting vocabulary: nothing happened yet")
        return self.events[step - 1]

    @cached_property
    def _word_log(self) -> tuple[list[list[int]], list[list[tuple[int, ...]]]]:
        """Each training word's splits as the events change them, found by replaying the
        events on the words once: for word ``i``, the steps its split changed at (0
        first) and its split from each of them."""
        ids = {s: i for i, s in enumerate(self.vocab)}
        words = [[ids.get(ch, _UNK) for ch in w] for w in self.words]
        where: dict[int, set[int]] = {}
        for i, w in enumerate(words):
            for t in w:
                where.setdefault(t, set()).add(i)
        steps: list[list[int]] = [[0] for _ in words]
        splits: list[list[tuple[int, ...]]] = [[tuple(w)] for w in words]
        for e in self.events:
            if e.kind == "merge":
                touched = where.get(e.left_id, set()) & where.get(e.right_id, set())
            else:
                touched = set(where.get(e.token_id, ()))
            if e.kind == "merge":
                gone, came = (e.left_id, e.right_id), (e.token_id,)
            else:
                gone, came = (e.token_id,), e.part_ids
            for i in touched:
                old = words[i]
                if e.kind == "merge":
                    new = replace_pair(old, e.left_id, e.right_id, e.token_id)
                    if len(new) == len(old):
                        continue
                else:
                    new = [x for t in old for x in (e.part_ids if t == e.token_id else (t,))]
                for t in gone:  # only the tokens the event took away can leave the word
                    if t not in new:
                        where[t].discard(i)
                for t in came:
                    where.setdefault(t, set()).add(i)
                words[i] = new
                steps[i].append(e.step)
                splits[i].append(tuple(new))
        return steps, splits

    def split_changes(self) -> tuple[list[list[int]], list[list[tuple[int, ...]]]]:
        """For each training word, the steps its split changed at (0 first) and its
        split (token ids) from each of them."""
        return self._word_log

    def splits_at(self, step: int) -> list[tuple[int, ...]]:
        """The ids of every training word (in :attr:`words`' order) after ``step`` events,
        read from one replay of the events (as fast as a look-up; the segmenter's
        :meth:`PickyStep.encode_word` cuts every word the same).

        >>> from bpeviz.algorithms.picky_train import train_picky
        >>> t = train_picky("hug hug hug hugs pug pug pun bun hugs hugs", merges=4,
        ...                 threshold=0.6)
        >>> [[t.vocab[i] for i in ids] for ids in t.splits_at(3)][:3]
        [['▁', 'hug'], ['▁', 'hug', 's'], ['▁', 'p', 'u', 'g']]
        """
        self._check_step(step)
        found_steps, found = self._word_log
        return [s[bisect_right(k, step) - 1] for k, s in zip(found_steps, found)]

    def word_history(self, index: int) -> tuple[list[int], list[int], list[int]]:
        """Every token training word ``index`` ever holds, as a merge training's split log
        gives them (:meth:`bpeviz.engine.splitlog.SplitLog.history`): (token ids, the step
        each appears at, the step it goes at), so that its split after step ``k`` is the
        tokens with ``made <= k < gone``, in order. A token that stays where it was (the
        same token at the same character) keeps its entry from one split to the next, so
        only what an event made appears at its step; a removal's parts appear there too.

        >>> from bpeviz.algorithms.picky_train import train_picky
        >>> t = train_picky("hug hug hug hugs pug pug pun bun hugs hugs", merges=4,
        ...                 threshold=0.6)
        >>> tokens, made, gone = t.word_history(0)
        >>> [(t.vocab[i], m) for i, m, g in zip(tokens, made, gone) if m <= 3 < g]
        [('▁', 0), ('hug', 2)]
        """
        self._check_step(0)
        found_steps, found = self._word_log
        vocab, end = self.vocab, len(self.events) + 1
        tokens: list[int] = []
        made: list[int] = []
        gone: list[int] = []
        starts: list[int] = []  # the character each entry starts at
        open_: dict[tuple[int, int], int] = {}  # (character, token) -> its entry
        for step, split in zip(found_steps[index], found[index]):
            now: dict[tuple[int, int], int] = {}
            at = 0
            for t in split:
                key = (at, t)
                entry = open_.pop(key, None)
                if entry is None:
                    entry = len(tokens)
                    tokens.append(t)
                    made.append(step)
                    gone.append(end)
                    starts.append(at)
                now[key] = entry
                at += 1 if t == _UNK else len(vocab[t])
            for entry in open_.values():  # gone at this step
                gone[entry] = step
            open_ = now
        # in the word's order: the tokens alive at one step never share a character
        order = sorted(range(len(tokens)), key=lambda e: (starts[e], made[e]))
        return [tokens[e] for e in order], [made[e] for e in order], [gone[e] for e in order]

    def text_history(self, text: str,
                     most_steps: int = TEXT_HISTORY_STEPS) -> dict[str, Any] | None:
        """The tokens of ``text`` at every step, in the form a browser steps through
        (:func:`bpeviz.present.text_history.text_history`'s): ``words``, ``[offset, form
        index]`` of each word of the text; ``forms``, each distinct word's pieces where
        they change, ``[step, ids, starts, ends, flags]`` (offsets in the word, flag 2:
        unknown). Only a step whose token (made or removed) is in a word can change its
        cut, so only those are tried; None when the text's words together need more than
        ``most_steps`` encodings (the page then cuts at the settled step).

        >>> from bpeviz.algorithms.picky_train import train_picky
        >>> t = train_picky("hug hug hug hugs pug pug pun bun hugs hugs", merges=4,
        ...                 threshold=0.6)
        >>> h = t.text_history("hugs hug")
        >>> h["words"], [v[0] for v in h["forms"][0]]
        ([[0, 0], [5, 1]], [0, 1, 2, 4])
        >>> [t.vocab[i] for i in h["forms"][1][-1][1]]
        ['▁hug']
        """
        spans = _word_spans(text)
        forms: list[str] = []
        index: dict[str, int] = {}
        words: list[list[int]] = []
        for start, end in spans:
            form = WORD_START + text[start:end]
            if form not in index:
                index[form] = len(forms)
                forms.append(form)
            words.append([start, index[form]])
        vocab = self.vocab
        tried = [[e.step for e in self.events if vocab[e.token_id] in form] for form in forms]
        if sum(len(steps) + 1 for steps in tried) > most_steps:
            return None
        at: dict[int, PickyStep] = {}
        versions = []
        for form, steps in zip(forms, tried):
            found: list[list[Any]] = []
            last: list[int] | None = None
            for k in (0, *steps):
                if k not in at:  # one step's tables for every word
                    at[k] = self.at(k)
                ids = at[k].encode_word(form)
                if ids == last:
                    continue
                last = ids
                starts, ends, pos = [], [], -1  # the ▁ covers no character of the text
                for i in ids:
                    size = 1 if i == _UNK else len(vocab[i])
                    starts.append(max(pos, 0))
                    ends.append(pos + size)
                    pos += size
                found.append([k, ids, starts, ends, [2 if i == _UNK else 0 for i in ids]])
            versions.append(found)
        return {"words": words, "forms": versions}

    def landmarks(self) -> list[tuple[int, str, str]]:
        """Where a run of merges starts and each removal, named, with its kind: the step
        bar ticks them and names the kind of its step, a removal in its own colour.

        >>> from bpeviz.algorithms.picky_train import train_picky
        >>> t = train_picky("hug hug hug hugs pug pug pun bun hugs hugs", merges=3,
        ...                 threshold=0.6)
        >>> t.landmarks()[1:3]
        [(3, 'removal of “ug”', 'removal'), (4, 'merge', 'merge')]
        """
        found: list[tuple[int, str, str]] = []
        for e in self.events:
            if e.kind == "removal":
                found.append((e.step, f"removal of “{e.token}”", "removal"))
            elif not found or found[-1][2] != "merge":
                found.append((e.step, "merge", "merge"))
        return found

    def removal_steps(self) -> list[int]:
        """The steps that removed a token (the vocabulary shrank)."""
        return [e.step for e in self.events if e.kind == "removal"]

    def steps_for_vocab_sizes(self, targets: Sequence[int] | np.ndarray) -> np.ndarray:
        """For each size, the latest step whose vocabulary is the largest of at most it."""
        return steps_at_most(np.array(self.vocab_sizes), targets, latest=True)


class PickyStep:
    """The vocabulary after ``step`` events, and encoding with it."""

    def __init__(self, training: PickyTraining, step: int) -> None:
        self.training, self.step = training, step

    @cached_property
    def present(self) -> frozenset[int]:
        """The ids in the vocabulary now."""
        alive = set(range(self.training.n_base))
        for e in self.training.events[:self.step]:
            if e.kind == "merge":
                alive.add(e.token_id)
            else:
                alive.discard(e.token_id)
        return frozenset(alive)

    @cached_property
    def vocab(self) -> dict[str, int]:
        """The tokens in the vocabulary now, by id."""
        return {self.training.vocab[i]: i for i in sorted(self.present)}

    @cached_property
    def _ids(self) -> dict[str, int]:
        return {s: i for i, s in enumerate(self.training.vocab)}

    @cached_property
    def _maps(self) -> tuple[dict[tuple[int, int], list[int]], dict[int, list[int]]]:
        merges: dict[tuple[int, int], list[int]] = {}
        removals: dict[int, list[int]] = {}
        for i, e in enumerate(self.training.events[:self.step]):
            if e.kind == "merge":
                merges.setdefault((e.left_id, e.right_id), []).append(i)
            else:
                removals.setdefault(e.token_id, []).append(i)
        return merges, removals

    def encode_word(self, word: str, whole: bool = True) -> list[int]:
        """The ids of one word (``▁`` + its characters), as the segmenter cuts it: a
        word in the vocabulary is its own token; with ``whole=False`` it too is cut by
        replaying the events on its characters (what makes a token reachable)."""
        ids = self._ids
        found = ids.get(word) if whole else None
        if found is not None and found in self.present:
            return [found]
        merges, removals = self._maps
        events = self.training.events
        tokens = [ids.get(ch, _UNK) if len(ch) == 1 else _UNK for ch in word]
        last = -1
        while True:
            best_merge = best_split = None
            for p in set(pairwise(tokens)):
                at = merges.get(p)
                if at:
                    j = bisect_left(at, last)
                    if j < len(at) and (best_merge is None or at[j] < best_merge):
                        best_merge = at[j]
            for t in set(tokens):
                at = removals.get(t)
                if at:
                    j = bisect_left(at, last)
                    if j < len(at) and (best_split is None or at[j] < best_split):
                        best_split = at[j]
            if best_merge is None and best_split is None:
                return tokens
            if best_split is None or (best_merge is not None and best_merge < best_split):
                e = events[best_merge]  # type: ignore[index]
                new: list[int] = []
                i = 0
                while i < len(tokens):
                    if (i + 1 < len(tokens) and tokens[i] == e.left_id
                            and tokens[i + 1] == e.right_id):
                        new.append(e.token_id)
                        i += 2
                    else:
                        new.append(tokens[i])
                        i += 1
                last = best_merge  # type: ignore[assignment]
            else:
                e = events[best_split]
                new = []
                for t in tokens:
                    new.extend(e.part_ids if t == e.token_id else (t,))
                last = best_split
            tokens = new

    @cached_property
    def pairs(self) -> pd.DataFrame:
        """Every pair of neighbouring tokens in the training words at this step that the
        trainer may merge (no special token in it, its text at most ``max_type_length``
        characters), counted over the corpus: columns ``left_id``, ``right_id``,
        ``count`` and ``score`` (the count, what a pair wins with), best first: the most
        counted, then the smaller ids, the order the trainer takes them in.

        >>> from bpeviz.algorithms.picky_train import train_picky
        >>> t = train_picky("hug hug hug hugs pug pug pun bun", merges=2, threshold=0.9)
        >>> top = t.at(0).pairs.iloc[0]
        >>> (t.vocab[int(top.left_id)], t.vocab[int(top.right_id)], int(top["count"]))
        ('u', 'g', 6)
        """
        training = self.training
        specials = len(PICKY.special_tokens)
        longest = int(training.settings.get("max_type_length") or 64)
        counts: dict[tuple[int, int], int] = {}
        for split, freq in zip(training.splits_at(self.step), training.counts):
            prev = None
            for p in pairwise(split):  # word_pairs, inlined: one dict for the corpus
                if p == prev:  # the second of a run's overlapping pairs is not counted
                    prev = None
                    continue
                prev = p
                counts[p] = counts.get(p, 0) + freq
        vocab = training.vocab
        keys = [p for p in counts if p[0] >= specials and p[1] >= specials
                and len(vocab[p[0]]) + len(vocab[p[1]]) <= longest]
        keys.sort(key=lambda p: (-counts[p], p))
        left = np.array([p[0] for p in keys], dtype=np.int64)
        right = np.array([p[1] for p in keys], dtype=np.int64)
        count = np.array([counts[p] for p in keys], dtype=np.int64)
        return pd.DataFrame({"left_id": left, "right_id": right, "count": count,
                             "score": count.astype(float)})

    @property
    def next_merge(self) -> PickyEvent | None:
        """The merge made next, when the next step is a merge (None after the last step
        or before a removal)."""
        events = self.training.events
        nxt = events[self.step] if self.step < len(events) else None
        return nxt if nxt is not None and nxt.kind == "merge" else None

    def health(self, corpus: Any = None) -> Any:
        """What is wrong with this step's vocabulary (unreachable, unused and
        near-duplicate tokens), counted on ``corpus`` (a text or a Corpus; None: the
        training's own): :func:`bpeviz.analysis.health_picky.picky_health`."""
        return snapshot_view("health")(self, corpus)

    def tokenize(self, text: str) -> list[str]:
        """The tokens of ``text`` as strings."""
        return [t.text for t in self.encode(text)]

    def encode(self, text: str) -> list[Token]:
        """The tokens of ``text``: cut at whitespace, each word ``▁`` + the word."""
        vocab = self.training.vocab
        out: list[Token] = []
        for start, end in _word_spans(text):
            pos = start - 1  # the ▁ covers no character of the text
            for i in self.encode_word(WORD_START + text[start:end]):
                size = 1 if i == _UNK else len(vocab[i])
                a, b = max(pos, start), pos + size
                out.append(Token(text=vocab[i], id=i, start=a, end=b,
                                 bytes=text[a:b].encode("utf-8", "surrogatepass"),
                                 unk=i == _UNK))
                pos = b
        return out

    @cached_property
    def splits(self) -> dict[str, tuple[str, ...]]:
        """How each training word is cut now."""
        vocab = self.training.vocab
        return {w: tuple(vocab[i] for i in self.encode_word(w)) for w in self.training.words}


def _word_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text.split()``'s words are."""
    spans: list[tuple[int, int]] = []
    start = None
    for i, ch in enumerate(text):
        if ch.isspace():
            if start is not None:
                spans.append((start, i))
                start = None
        elif start is None:
            start = i
    if start is not None:
        spans.append((start, len(text)))
    return spans
