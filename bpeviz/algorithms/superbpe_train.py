"""SuperBPE's trainer: stage 1 as byte-level BPE, stage 2 on the stage-2 pre-tokens.

The rules are in :mod:`bpeviz.algorithms.superbpe`. A :class:`SuperBPETraining` is an
ordinary merge :class:`~bpeviz.core.training.Training` (so ``at(k)``, ``encode``,
``explain`` and the app's merge views read it as any other) over the stage-2
pre-tokens, whose first ``transition`` merges are stage 1's, chosen on GPT-2's
pre-tokens (kept as :attr:`SuperBPETraining.stage1`) and replayed on the stage-2 words;
the records of those steps therefore count their pair in the stage-2 words, and
``explain(k)`` for ``k <= transition`` is stage 1's own (the counts it chose with).

>>> text = "of the cat, of the dog, and of the bird, and of the fish; of the sea."
>>> t = train_superbpe(text, merges=14, transition=8)
>>> t.transition, t.stage(8), t.stage(9)
(8, 1, 2)
>>> t.corpus.words  # one stage-2 word: no digits, no run of punctuation
('of the cat, of the dog, and of the bird, and of the fish; of the sea.',)
>>> [m.token.decode() for m in t.merges[8:]]
[' the ', ' of the ', ', and', ', and of the ', 'of the ', 'of the c']
>>> print(t.why(9))  # doctest: +NORMALIZE_WHITESPACE
Merge 9 (stage 2, after the transition at merge 8): “Ġthe” + “Ġ” → “ĠtheĠ”,
5 times in the stage-2 words; it crosses a space (a superword).
>>> [tok.text for tok in t.at().encode("of the sea")]
['of the ', 's', 'e', 'a']
>>> train_superbpe(text, merges=5, transition=9).corpus.pretokenizer  # plain BBPE
'gpt2'
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from bpeviz.algorithms import get as get_algorithm
from bpeviz.algorithms.superbpe import (
    STAGE2,
    SUPERBPE,
    crosses_space,
    superword_allowed,
    training_counts,
    training_words,
)
from bpeviz.core.explain import Explanation
from bpeviz.core.training import Training, TrainOptions, _MergeLoop, base_vocabulary
from bpeviz.core.training import train as train_merges
from bpeviz.text import pretokenize
from bpeviz.text.corpus import Corpus
from bpeviz.text.display import display
from bpeviz.text.symbols import Symbol

#: where the transition comes when none is given, as a share of the merges: the paper's
#: best-performing 8B model moves to stage 2 at 180k of its 200k vocabulary
DEFAULT_TRANSITION = 0.9
#: the corpora whose words still hold their text's spaces, so stage 2 can be cut from them
_TEXT_KEEPING = ("none", STAGE2, "counts")


@dataclass(frozen=True, eq=False)
class SuperBPETraining(Training):
    """A merge training whose steps after :attr:`transition` are stage 2's."""

    #: the last stage-1 step: steps ``1..transition`` are stage 1's, the rest stage 2's
    transition: int = 0
    #: stage 1 as trained: byte-level BPE on GPT-2's pre-tokens, ``transition`` merges
    #: (None when the training never passed the transition: it is then that training)
    stage1: Training | None = field(default=None, repr=False)
    #: for a stage-2 step, the tokens passed over just before it (they broke a
    #: superword limit: a colon before a space, or more than four words)
    passed_over: dict[int, tuple[Symbol, ...]] = field(default_factory=dict, repr=False)

    def stage(self, step: int) -> int:
        """1 or 2: the stage merge ``step`` (1-based) belongs to."""
        if not 1 <= step <= len(self.merges):
            raise ValueError(f"step must be between 1 and {len(self.merges)}, got {step}")
        return 1 if step <= self.transition else 2

    @property
    def stop_message(self) -> str:
        """How long it trained, and where its stages are (what the app and the CLI say);
        short when it made the merges asked for (the page's title line says how many)."""
        n, t = len(self.merges), self.transition
        stages = (f"stage 1, merges 1-{t:,}, inside words" if t else "no stage 1") + (
            f"; stage 2, merges {t + 1:,}-{n:,}, across spaces" if n > t else
            "; stage 2 not reached")
        if self.stop_reason == "merges":  # one line beside the title's merge count
            return (f"Stage 2, across spaces, from merge {t + 1:,}." if n > t else
                    "Stage 2 not reached: every merge is inside a word.")
        return f"{super().stop_message[:-1]} ({stages})."

    def landmarks(self) -> list[tuple[int, str]]:
        """Where each stage starts, and what its merges do (the step bar marks them)."""
        n, t = len(self.merges), self.transition
        return [(0, "stage 1: merges inside words")] * (t > 0) + [
            (t + 1, "stage 2: merges across spaces")] * (n > t)

    def stages(self) -> tuple[int, ...]:
        """The stage of every merge, step 1 first."""
        return tuple(1 if k <= self.transition else 2 for k in range(1, len(self.merges) + 1))

    def superword(self, step: int) -> bool:
        """Whether merge ``step``'s token crosses a space (a superword)."""
        token = self.merges[step - 1].token
        return isinstance(token, bytes) and crosses_space(token)

    def why(self, step: int) -> str:
        """Merge ``step``'s stage and what it joined, in one sentence."""
        m = self.merges[step - 1]
        pair = f"“{display(m.left)}” + “{display(m.right)}” → “{display(m.token)}”"
        if self.stage(step) == 1 and self.stage1 is None:  # extend(): an inherited merge
            return (f"Merge {step} (inherited, up to the transition at merge "
                    f"{self.transition}): {pair}, a merge of the tokenizer this training "
                    f"extends; {m.count:,} times in the stage-2 words.")
        if self.stage(step) == 1:
            return (f"Merge {step} (stage 1, up to the transition at merge {self.transition}): "
                    f"{pair}, the most frequent pair inside GPT-2's words "
                    f"({self.stage1.merges[step - 1].count:,} times); it cannot cross a space.")
        text = (f"Merge {step} (stage 2, after the transition at merge {self.transition}): "
                f"{pair}, {m.count:,} times in the stage-2 words; ")
        text += ("it crosses a space (a superword)." if self.superword(step)
                 else "it stays inside a word.")
        skipped = self.passed_over.get(step, ())
        if skipped:
            shown = ", ".join(f"“{display(s)}”" for s in skipped[:3])
            more = f" and {len(skipped) - 3} more" if len(skipped) > 3 else ""
            text += (f" Passed over before it: {shown}{more} (a colon before a space, or "
                     f"more than four words).")
        return text

    def step_notes(self) -> list[str]:
        """What is said beside the card at each step, step 0 first: the two stages, then
        each merge's stage and, in stage 2, whether its token crosses a space (a
        superword, its spaces drawn as the byte style draws them).

        >>> t = train_superbpe("of the cat, of the dog, and of the bird.", merges=10,
        ...                    transition=8)
        >>> for i in (0, 8, 9):
        ...     print(t.step_notes()[i])  # doctest: +NORMALIZE_WHITESPACE
        Stage 1, merges 1-8: byte-level BPE inside GPT-2's words, never across a space;
        stage 2, merges 9-10: across spaces, superwords of up to four words.
        Merge 8, stage 1: inside a word, never across a space.
        Merge 9, stage 2: “ĠofĠthe” crosses a space: a superword.
        """
        n, t = len(self.merges), self.transition
        first = (f"Stage 1, merges 1-{t:,}: byte-level BPE inside GPT-2's words, never across "
                 "a space" if t else "No stage 1")
        first += (f"; stage 2, merges {t + 1:,}-{n:,}: across spaces, superwords of up to "
                  "four words." if n > t else "; stage 2 was not reached.")
        notes = [first]
        for k in range(1, n + 1):
            if k <= t:
                notes.append(f"Merge {k:,}, stage 1: inside a word, never across a space.")
                continue
            token = f"“{display(self.merges[k - 1].token)}”"
            note = (f"Merge {k:,}, stage 2: {token} crosses a space: a superword."
                    if self.superword(k) else
                    f"Merge {k:,}, stage 2: {token} stays inside a word.")
            skipped = self.passed_over.get(k, ())
            if skipped:
                note += f" {len(skipped):,} passed over before it (a limit broken)."
            notes.append(note)
        return notes

    def explain(self, step: int) -> Explanation:
        """Why merge ``step`` was chosen: stage 1's own explanation for its steps (the
        GPT-2 words it counted), the stage-2 words' for the others."""
        if self.stage1 is not None and self.stage(step) == 1:
            return self.stage1.explain(step)
        why = super().explain(step)
        if self.stage(step) == 1:
            return why
        # the pairs stage 2 may never merge were no rivals: leave them out of the rivals,
        # the tie and the rank (why() names those passed over)
        def allowed(rows: pd.DataFrame) -> pd.DataFrame:
            keep = [superword_allowed(a + b) for a, b in zip(rows["left"], rows["right"])]
            return rows[keep].reset_index(drop=True) if len(rows) else rows
        return dataclasses.replace(why, candidates=allowed(why.candidates),
                                   tie=allowed(why.tie), rank=1 if why.rank else why.rank)


class _Stage2Loop(_MergeLoop):
    """The merge loop over the stage-2 words: stage 1's merges replayed, then merges
    chosen as BPE chooses them, a pair whose token breaks a superword limit passed over."""

    def superbpe(self, inherited: Sequence[tuple[Symbol, Symbol]], total: int,
                 progress: Callable[[int, int], None] | None) -> dict[int, tuple[Symbol, ...]]:
        self._start()
        self.replay_merges(inherited, name="inherited merge")
        passed: dict[int, list[Symbol]] = {}
        step = len(inherited)
        self.stop_reason = "merges"
        while step < total:
            p = self._pop_best()
            if p is None:
                self.stop_reason = self.state.stop_reason()
                break
            token = self.alg.join(self.vocab[p[0]], self.vocab[p[1]])
            if not superword_allowed(token):  # type: ignore[arg-type]
                passed.setdefault(step + 1, []).append(token)
                continue  # out of the queue; it comes back only to be passed over again
            step += 1
            self._merge(p, step)
            if progress is not None and step % 100 == 0:
                progress(step, total)
        if progress is not None:
            progress(step, total)
        return {k: tuple(v) for k, v in passed.items() if k <= step}


def _pieces(source: Any) -> list[tuple[str, int]]:
    """The text to train on as (piece, count): a str is one piece; a corpus's words are
    pieces when they kept their spaces (lines, stage-2 words, a table of counts). Lines
    train exactly as the text does; stage-2 words are cut again by GPT-2's pattern for
    stage 1, so a GPT-2 word that spans two of them (" 12345", "x!!") counts as its parts."""
    if isinstance(source, str):
        return [(source, 1)]
    if isinstance(source, Corpus):
        if source.pretokenizer not in _TEXT_KEEPING:
            raise ValueError(
                f"SuperBPE needs the text with its spaces, and this corpus was cut by the "
                f"{source.pretokenizer!r} pre-tokenizer, which drops or splits at them: give "
                f"the text itself (bpeviz.train(text, algorithm='superbpe', ...)) or a "
                f"corpus of lines (Corpus.from_text(text, 'none'))")
        return list(zip(source.words, source.counts))
    raise TypeError(f"SuperBPE trains on a str or a Corpus, got {type(source).__name__}")


def _cut(pieces: Iterable[tuple[str, int]], pretokenizer: str) -> Corpus:
    """The corpus of ``pieces`` cut by ``pretokenizer`` (stage 2: line by line, as its
    training reads text), words in first-appearance order."""
    cut = training_words if pretokenizer == STAGE2 else (
        lambda piece: pretokenize.words(piece, pretokenizer))
    count_in = training_counts if pretokenizer == STAGE2 else (
        lambda piece: pretokenize.counts(piece, pretokenizer))
    table: Counter[str] = Counter()
    for piece, count in pieces:
        if count == 1:
            table.update(count_in(piece))  # counted in C
        else:
            for word in cut(piece):
                table[word] += count
    return Corpus(tuple(table), tuple(table.values()), pretokenizer)


def _check(merges: Any, transition: Any, min_frequency: Any, tie_break: Any) -> None:
    for name, value in (("merges", merges), ("transition", transition),
                        ("min_frequency", min_frequency)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a whole number >= 0, got {value!r}")
    if tie_break not in ("first", "ids"):
        raise ValueError(f"tie_break must be 'first' or 'ids', got {tie_break!r}")


def _as_superbpe(training: Training, **extra: Any) -> SuperBPETraining:
    """``training``'s data as a SuperBPE training (its options naming SuperBPE)."""
    data = {f.name: getattr(training, f.name) for f in dataclasses.fields(Training)}
    data["options"] = dataclasses.replace(training.options, algorithm=SUPERBPE.name)
    return SuperBPETraining(**data, **extra)


def train_superbpe(
    corpus: str | Corpus,
    *,
    merges: int,
    transition: int | None = None,
    tie_break: str = "first",
    min_frequency: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> SuperBPETraining:
    """Train SuperBPE on ``corpus`` (a text, or a :class:`Corpus` that kept its spaces):
    ``transition`` merges of byte-level BPE on GPT-2's pre-tokens, then stage 2 on the
    stage-2 pre-tokens up to ``merges`` in all. With ``transition >= merges`` it is
    byte-level BPE, cut by GPT-2's pattern at every step. Without a ``transition``, it
    comes after 90% of the merges (:data:`DEFAULT_TRANSITION`).

    >>> train_superbpe("to be or not to be", merges=10).transition
    9
    """
    if transition is None and isinstance(merges, int):
        transition = int(merges * DEFAULT_TRANSITION)
    _check(merges, transition, min_frequency, tie_break)
    pieces = _pieces(corpus)
    if transition >= merges:  # byte-level BPE throughout: no stage-2 words
        return train_corpora(_cut(pieces, "gpt2"), lambda: _cut(pieces, STAGE2),
                             merges=merges, transition=transition, tie_break=tie_break,
                             min_frequency=min_frequency, progress=progress)
    # the stage-2 words are counted on another core while stage 1 counts and trains (the
    # compiled counter lets go of the GIL); thrown away if stage 1 stops early
    with ThreadPoolExecutor(max_workers=1) as pool:
        second = pool.submit(_cut, pieces, STAGE2)
        return train_corpora(_cut(pieces, "gpt2"), second.result, merges=merges,
                             transition=transition, tie_break=tie_break,
                             min_frequency=min_frequency, progress=progress)


def train_corpora(first: Corpus, second: Callable[[], Corpus], *, merges: int,
                  transition: int, tie_break: str = "first", min_frequency: int = 0,
                  progress: Callable[[int, int], None] | None = None) -> SuperBPETraining:
    """:func:`train_superbpe` from the two stages' word tables: GPT-2's pre-tokens
    ``first``, and ``second()``, the stage-2 words, made only when stage 2 runs."""
    stage1 = train_merges(first, TrainOptions(
        "bbpe", merges=min(merges, transition), tie_break=tie_break,
        min_frequency=min_frequency),
        progress=None if progress is None else lambda done, _: progress(done, merges))
    if transition >= merges or stage1.stopped_early:
        return _as_superbpe(stage1, transition=len(stage1.merges))
    inherited = [(m.left, m.right) for m in stage1.merges]
    return stage2(second(), inherited, merges, tie_break, min_frequency, progress,
                  stage1=stage1)


def extend(
    tokenizer: Training,
    corpus: str | Corpus,
    *,
    merges: int,
    inherit: int | None = None,
    tie_break: str = "first",
    min_frequency: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> SuperBPETraining:
    """Stage 2 on top of an existing byte-level BPE tokenizer (the authors'
    ``extend_existing_tokenizer``): its merges (the first ``inherit`` of them, or all)
    are replayed on ``corpus``'s stage-2 pre-tokens, then ``merges`` more are learned.

    ``tokenizer`` is a byte-level merge training: trained, loaded with ``bpeviz.load``, or
    a tokenizer file opened with :func:`bpeviz.formats.import_path` (a ``tokenizer.json``,
    or a folder with GPT-2's ``vocab.json`` and ``merges.txt``). Ids are bpeviz's (bytes
    0-255, then each merge's token), not the file's. The result's
    :attr:`SuperBPETraining.transition` is the number of inherited merges; it has no
    stage-1 training of its own, so ``explain(k)`` for an inherited step counts the pair
    in the stage-2 words.

    >>> base = train_superbpe("of the cat, of the dog. of the sea", merges=6, transition=6)
    >>> t = extend(base, "of the cat, of the dog. of the sea", merges=2)
    >>> t.transition, [m.token for m in t.merges[6:]]
    (6, [b' of the', b' of the '])
    """
    if not isinstance(tokenizer, Training):
        raise TypeError(f"SuperBPE extends a merge tokenizer, got {type(tokenizer).__name__}")
    if get_algorithm(tokenizer.algorithm).units != "bytes":
        raise ValueError(f"SuperBPE extends a byte-level tokenizer, and this one is "
                         f"{get_algorithm(tokenizer.algorithm).label} (over characters)")
    _check(merges, 0 if inherit is None else inherit, min_frequency, tie_break)
    kept = tokenizer.merges if inherit is None else tokenizer.merges[:inherit]
    inherited = [(m.left, m.right) for m in kept]
    return stage2(_cut(_pieces(corpus), STAGE2), inherited, len(inherited) + merges,
                  tie_break, min_frequency, progress, stage1=None)


def stage2(words: Corpus, inherited: Sequence[tuple[Symbol, Symbol]], merges: int,
           tie_break: str = "first", min_frequency: int = 0,
           progress: Callable[[int, int], None] | None = None,
           stage1: Training | None = None) -> SuperBPETraining:
    """Stage 2 on the stage-2 ``words``: the ``inherited`` merges replayed, then merges
    learned up to ``merges`` in all; ``stage1`` is the training the inherited ones came
    from, if any."""
    if not words.words:
        raise ValueError("the corpus has no words: give some text to train on")
    options = TrainOptions(SUPERBPE.name, merges=merges, tie_break=tie_break,
                           min_frequency=min_frequency)
    loop = _Stage2Loop(words, options, base_vocabulary(words, options))
    passed = loop.superbpe(inherited, merges, progress)
    result = loop.result()
    return _as_superbpe(result, transition=len(inherited), stage1=stage1, passed_over=passed)
