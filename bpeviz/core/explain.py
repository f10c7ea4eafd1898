"""Why each step happened: the numbers behind a merge, and how a word gets its tokens.

- :func:`explain` (``training.explain(k)``): why merge ``k`` was chosen. The words behind
  its count, the pairs it beat, the pairs it tied with and the rule that decided, and for
  WordPiece the two unit counts of its score. Everything is read from the state after
  ``k - 1`` merges, the state the training chose from.
- :func:`trace` (``snapshot.trace(word)``): how encoding reaches a word's tokens at a
  step: each merge applied, in order (BPE, BBPE), or each longest match with the pieces
  tried (WordPiece).
- :func:`describe` and :func:`describe_trace`: the same as plain sentences (the CLI).

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_counts({"its": 1, "mots": 1, "hats": 2, "tsar": 1}),
...           merges=2, special_tokens=())
>>> why = t.explain(1)
>>> (why.merge.left, why.merge.right, why.merge.count)
('t', 's', 5)
>>> why.words[["word", "count", "occurrences", "contribution"]].values.tolist()
[['hats', 2, 1, 2], ['its', 1, 1, 1], ['mots', 1, 1, 1], ['tsar', 1, 1, 1]]
>>> [(s.step, s.left, s.right, s.symbols) for s in t.at(2).trace("hats").steps]
[(1, 't', 's', ('h', 'a', 'ts')), (2, 'h', 'a', ('ha', 'ts'))]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from bpeviz.algorithms import get as get_algorithm
from bpeviz.core.snapshot import Snapshot, exact_counts
from bpeviz.core.trace import (
    Trace,
)
from bpeviz.text.display import display
from bpeviz.text.symbols import Symbol

if TYPE_CHECKING:
    from bpeviz.core.training_data import Merge, TrainingData

#: how each tie rule decides between pairs of equal value, in words
TIE_RULES = {
    "first": "the pair seen first in the corpus wins (words in order of first appearance, "
             "read left to right), as in minbpe, tiktoken's trainer and the HF course",
    "ids": "the pair with the smallest (left id, right id) wins, as in Hugging Face's "
           "BpeTrainer",
}

_PAIR_COLUMNS = ["left", "right", "count", "score", "left_id", "right_id"]


@dataclass(frozen=True, eq=False)
class Explanation:
    """Why merge ``step`` was chosen, from the state after ``step - 1`` merges.

    - ``words``: one row per corpus word holding the pair (``word``, ``count``: the
      word's count in the corpus, ``occurrences``: adjacent positions holding the pair in
      one copy of the word, overlaps included, ``contribution`` = count x occurrences),
      biggest contribution first; ``contribution`` sums to ``merge.count``.
    - ``candidates``: the best pairs (``left``, ``right``, ``count``, ``score``,
      ``left_id``, ``right_id``), the merged pair first, then the others best first.
    - ``tie``: the other pairs whose value (``value``: "count", or "score" for WordPiece
      scoring) equals the winner's exactly, best first, with where each is first seen
      (``first_word``, ``first_index``: the word's corpus index, ``first_position``: its
      symbol position there). ``tie_rule`` ("first" or "ids") decided between them.
    - WordPiece: ``count_left`` and ``count_right``, the weighted counts of the two
      symbols, so that ``score == count / (count_left * count_right)``.
    - ``rank``: the merged pair's rank among all pairs (1 when the training chose it;
      a replayed or imported merge may have another, or None when the pair was absent).
    """

    training: TrainingData
    step: int
    merge: Merge
    words: pd.DataFrame
    candidates: pd.DataFrame
    tie: pd.DataFrame
    tie_rule: str
    value: str
    count_left: int | None
    count_right: int | None
    total_pairs: int
    rank: int | None
    first_word: str | None
    first_index: int | None
    first_position: int | None

    @property
    def algorithm(self) -> str:
        return self.training.algorithm

    @property
    def scoring(self) -> str:
        """"score" (WordPiece's formula) or "frequency" (BPE, BBPE, HF's WordPieceTrainer)."""
        return self.training.options.scoring

    @property
    def score(self) -> float:
        """The value the pair won with (its count, or its WordPiece score)."""
        return float(self.candidates["score"].iat[0])

    @property
    def formula_score(self) -> float | None:
        """The algorithm's score of the merged pair from its parts' counts, whatever the
        scoring; None when the algorithm ranks by count."""
        if self.count_left is None or self.count_right is None:
            return None
        return get_algorithm(self.algorithm).score_of(self.merge.count, self.count_left,
                                                      self.count_right)

    @property
    def replayed(self) -> bool:
        """True when the merges came from a file (an import), not from this training."""
        return self.training.stop_reason == "replayed"

    @property
    def runners_up(self) -> pd.DataFrame:
        """The candidates after the merged pair."""
        return self.candidates.iloc[1:]


def explain(training: TrainingData, step: int, *, before: Snapshot | None = None,
            top: int = 10) -> Explanation:
    """Why merge ``step`` (1 <= step <= len(merges)) was chosen; ``before`` may pass the
    snapshot at ``step - 1`` (a cached one), ``top`` how many candidates to keep (at least
    10, fewer only when fewer pairs exist)."""
    n = len(training.merges)
    if isinstance(step, bool) or not isinstance(step, int | np.integer):
        raise ValueError(f"step must be a whole number, got {step!r}")
    if not n:
        raise ValueError("this training made no merges: there is no step to explain")
    if not 1 <= step <= n:
        raise ValueError(f"step must be between 1 and {n} (the merges), got {step}; "
                         "step 0 is the start, before any merge")
    step = int(step)
    merge = training.merges[step - 1]
    if before is None or before.training is not training or before.step != step - 1:
        before = Snapshot(training, step - 1)  # step is checked above, as at() checks it


    a, b = merge.left_id, merge.right_id
    words = pair_words(before, a, b).rename(columns={"weighted": "contribution"})
    words = words.sort_values("contribution", ascending=False, kind="stable")
    pairs = before.pairs
    is_merged = ((pairs["left_id"] == a) & (pairs["right_id"] == b)).to_numpy()
    found = np.flatnonzero(is_merged)
    rank = int(found[0]) + 1 if len(found) else None
    count_left = count_right = None
    alg = get_algorithm(training.algorithm)
    value = alg.value_name(training.options.scoring)
    if alg.value_name() == "score":  # the parts' counts its score is computed from
        ids, word_of = before.token_ids
        counts = exact_counts(training)
        count_left = int(counts[word_of[ids == a]].sum())
        count_right = int(counts[word_of[ids == b]].sum())
    if rank is not None:
        winner = pairs.iloc[[rank - 1]]
    else:  # a replayed merge whose pair the corpus lacks at this step
        winner = pd.DataFrame({"left": [merge.left], "right": [merge.right], "count": [0],
                               "score": [0.0], "left_id": [a], "right_id": [b]})
    # the rows of the other pairs that are shown, taken by position: a copy of every
    # other pair (100,000 rows at 10 MB) was most of the time
    others = np.flatnonzero(~is_merged)
    if rank:  # (counts compared exactly: doubles round counts past 2**53 together)
        column = "count" if value == "count" else "score"
        tied = others[pairs[column].to_numpy()[others] == winner[column].iat[0]]
    else:
        tied = others[:0]
    table = pairs[_PAIR_COLUMNS]
    candidates = pd.concat([winner[_PAIR_COLUMNS],
                            table.iloc[others[:max(top, 10) - 1]]],
                           ignore_index=True)
    tie = table.iloc[tied].reset_index(drop=True)
    firsts = _first_seen(before, [(a, b), *zip(tie["left_id"].tolist(),
                                                tie["right_id"].tolist())])
    tie = tie.assign(first_index=[f[0] for f in firsts[1:]],
                     first_word=[training.corpus.words[f[0]] if f[0] >= 0 else None
                                 for f in firsts[1:]],
                     first_position=[f[1] for f in firsts[1:]])
    w, pos = firsts[0]
    return Explanation(
        training=training, step=step, merge=merge, words=words, candidates=candidates,
        tie=tie, tie_rule=training.options.tie_break, value=value,
        count_left=count_left, count_right=count_right, total_pairs=len(pairs), rank=rank,
        first_word=training.corpus.words[w] if w >= 0 else None,
        first_index=w if w >= 0 else None, first_position=pos if w >= 0 else None)


def _first_seen(snapshot: Snapshot, pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """For each pair, (word index, symbol position in the word) of its first occurrence,
    words in corpus order, left to right; (-1, -1) for a pair that does not occur.

    Vectorised: a late step of a big training ties thousands of pairs (count 2), and a
    loop per pair, or sorting every position's pair key, took most of "Why this merge?".
    """
    ids, word_of = snapshot.token_ids
    if len(ids) < 2 or not pairs:
        return [(-1, -1)] * len(pairs)
    width = int(ids.max()) + 1
    wanted = np.array([x * width + y if 0 <= x < width and 0 <= y < width else -2
                       for x, y in pairs], dtype=np.int64)
    valid = wanted[wanted >= 0]
    # positions whose left and right ids both occur in some wanted pair (a table look-up,
    # no sort), then the exact pair keys of those few
    left_ok = np.zeros(width, dtype=bool)
    right_ok = np.zeros(width, dtype=bool)
    left_ok[valid // width] = True
    right_ok[valid % width] = True
    near = np.flatnonzero((word_of[:-1] == word_of[1:]) & left_ok[ids[:-1]] & right_ok[ids[1:]])
    keys = ids[near].astype(np.int64) * width + ids[near + 1]
    inside = np.isin(keys, valid)
    hits, keys = near[inside], keys[inside]
    found_keys, first = np.unique(keys, return_index=True)  # (first: the earliest hit)
    out_word = np.full(len(wanted), -1, dtype=np.int64)
    out_pos = np.full(len(wanted), -1, dtype=np.int64)
    if len(found_keys):
        slot = np.minimum(np.searchsorted(found_keys, wanted), len(found_keys) - 1)
        found = found_keys[slot] == wanted
        at = hits[first[slot[found]]]
        words = word_of[at]
        out_word[found] = words
        out_pos[found] = at - np.searchsorted(word_of, words)
    return list(zip(out_word.tolist(), out_pos.tolist()))


# -- sentences --------------------------------------------------------------------------
def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n:,} times")


def _num(x: float) -> str:
    return f"{x:.4g}"


def word_list(words: pd.DataFrame, limit: int = 8) -> tuple[list[str], int]:
    """The words behind a count as short phrases (``“its” ×1``,
    ``“aaa” ×3 (the pair twice in it: 6)``) and how many more words there are.

    >>> word_list(pd.DataFrame({"word": ["its", "aaa"], "count": [1, 3],
    ...                         "occurrences": [1, 2], "contribution": [1, 6]}), 1)
    (['“its” ×1'], 1)
    """
    out = []
    for row in words.iloc[:limit].itertuples(index=False):
        text = f"“{row.word}” ×{int(row.count):,}"
        if row.occurrences > 1:
            text += (f" (the pair {_times(int(row.occurrences))} in it: "
                     f"{int(row.contribution):,})")
        out.append(text)
    return out, max(0, len(words) - limit)


def pair_text(left: Symbol, right: Symbol, byte_style: str = "gpt2") -> str:
    from bpeviz.text.display import label

    return f"{label(left, byte_style)} + {label(right, byte_style)}"


def describe(why: Explanation, byte_style: str = "gpt2", max_words: int = 8,
             max_pairs: int = 5) -> list[str]:
    """The explanation as sentences generated from its numbers (the CLI prints them)."""
    from bpeviz.text.display import label

    m = why.merge
    pair = pair_text(m.left, m.right, byte_style)
    lines = [f"Merge {why.step}: {pair} -> {label(m.token, byte_style)} "
             f"(new token id {m.token_id})."
             + (" The merges were read from a tokenizer file, in its order; the counts are "
                "this corpus's." if why.replayed else "")]
    if len(why.words):
        shown, more = word_list(why.words, max_words)
        tail = f", and {more:,} more word{'s' if more > 1 else ''}" if more else ""
        lines.append(f"{_after(why.step)}, {pair} occurs {_times(m.count)} in the corpus, "
                     f"in {len(why.words):,} word{'s' if len(why.words) > 1 else ''} "
                     f"(each word ×how often it appears): {', '.join(shown)}{tail}.")
    else:
        lines.append(f"{_after(why.step)}, {pair} does not occur in the corpus: this "
                     "merge was replayed from a tokenizer file, not chosen here.")
    alg = get_algorithm(why.algorithm)
    if why.count_left is not None and why.count_right is not None and m.count:
        formula = (f"{alg.score_in_words(label(m.left, byte_style), label(m.right, byte_style))}"
                   f" = {alg.score_in_numbers(m.count, why.count_left, why.count_right)} = "
                   f"{_num(why.formula_score or 0.0)}")
        if why.value == "score":
            lines.append(f"{alg.short} score = {formula}.")
        else:
            note = f", {alg.count_ranking_note}" if alg.count_ranking_note else ""
            lines.append(f"Scoring 'frequency': pairs are ranked by count only{note}; the "
                         f"{alg.short} score would be {formula}.")
    others = why.runners_up.iloc[:max_pairs]
    if len(others):
        lines.append(("Runner-up pairs: " if why.rank is not None else
                      "Trained on this corpus, the first of these would have been merged "
                      "instead: ")
                     + ", ".join(
            f"{pair_text(r.left, r.right, byte_style)} {_value(why, r)}"
            for r in others.itertuples(index=False)) + ".")
    elif why.rank is not None:
        lines.append("No other pair was left to compete with it.")
    if why.rank is not None and why.rank != 1:
        best = next(why.runners_up.iloc[:1].itertuples(index=False))
        lines.append(f"This merge was replayed, not chosen: it ranked {why.rank:,} of "
                     f"{why.total_pairs:,} pairs; the best was "
                     f"{pair_text(best.left, best.right, byte_style)} {_value(why, best)}.")
    elif len(why.tie):
        lines.append(tie_sentence(why, byte_style))
    elif why.rank == 1 and len(others):
        lines.append(f"No other pair had {why.value} {_best(why)}: "
                     f"{pair} won outright.")
    return lines


def _after(step: int) -> str:
    """When the counts were taken: before merge ``step``."""
    if step == 1:
        return "Before any merge"
    return f"After {step - 1:,} merge{'s' if step > 2 else ''}"


def _best(why: Explanation) -> str:
    """The winning value: a count exactly (with thousands separators), a score rounded."""
    if why.value == "count":
        return f"{int(why.candidates['count'].iat[0]):,}"
    return _num(why.score)


def _value(why: Explanation, row: Any) -> str:
    if why.value == "score":
        return f"score {_num(float(row.score))} (count {int(row.count):,})"
    return f"count {int(row.count):,}"


def tie_sentence(why: Explanation, byte_style: str = "gpt2", max_pairs: int = 5) -> str:
    """Which pairs tied with the merged one, and how the tie rule decided."""
    m = why.merge
    pair = pair_text(m.left, m.right, byte_style)
    tie = why.tie
    named = [pair_text(r.left, r.right, byte_style) for r in tie.iloc[:max_pairs].itertuples()]
    more = f" and {len(tie) - max_pairs:,} more" if len(tie) > max_pairs else ""
    head = (f"Tie: {len(tie):,} other pair{'s' if len(tie) > 1 else ''} also had "
            f"{why.value} {_best(why)} ({', '.join(named)}{more}). "
            f"Tie rule '{why.tie_rule}': {TIE_RULES[why.tie_rule]}. ")
    first = tie.iloc[0]
    if why.tie_rule == "first":
        return head + (f"{pair} is first seen in “{why.first_word}” (word "
                       f"{(why.first_index or 0) + 1:,}, symbol {(why.first_position or 0) + 1}), "
                       f"{pair_text(first.left, first.right, byte_style)} in "
                       f"“{first.first_word}” (word {int(first.first_index) + 1:,}, symbol "
                       f"{int(first.first_position) + 1}).")
    training = why.training
    tie_ids = training.tie_ids()
    if tie_ids is None:
        return head + (f"{pair} has ids ({m.left_id}, {m.right_id}), "
                       f"{pair_text(first.left, first.right, byte_style)} "
                       f"({int(first.left_id)}, {int(first.right_id)}).")

    def hf(i: int) -> int:  # Hugging Face numbers the initial symbols otherwise: its ids
        return int(tie_ids[int(i)])

    return head + (f"Hugging Face numbers the first {training.n_base:,} tokens in another "
                   f"order than these ids; in its ids {pair} is ({hf(m.left_id)}, "
                   f"{hf(m.right_id)}), {pair_text(first.left, first.right, byte_style)} "
                   f"({hf(first.left_id)}, {hf(first.right_id)}).")


def describe_trace(tr: Trace, byte_style: str = "gpt2") -> list[str]:
    """A trace as lines: the starting symbols, then one line per merge or match."""
    from bpeviz.text.display import label

    def split(symbols: tuple[Symbol, ...]) -> str:
        return " ".join(label(s, byte_style) if s is not None else "[UNK]" for s in symbols)

    if tr.pieces:  # the trace of a longest match: one line per place
        lines = [get_algorithm(tr.algorithm).trace_in_words(tr.word, tr.step)]
        for p in tr.pieces:
            misses = [t for t in p.tried if t != p.piece]
            missed = (f" (not in the vocabulary: {', '.join(misses)})" if misses else "")
            if p.piece is None:
                lines.append(f"  at character {p.start + 1}: nothing matches{missed}; "
                             "the whole word becomes [UNK].")
            else:
                made = f"made at merge {p.step}" if p.step else "in the alphabet"
                lines.append(f"  at character {p.start + 1}: {p.piece} ({made}){missed}.")
        return lines
    lines = [f"“{tr.word}” starts as {split(tr.initial)} and at step {tr.step} "
             f"{'takes these merges' if tr.steps else 'takes no merge'}, lowest merge "
             "number first:"]
    for s in tr.steps:
        lines.append(f"  merge {s.step} ({label(s.left, byte_style)} + "
                     f"{label(s.right, byte_style)}, count {s.count:,} when made): "
                     f"{split(s.symbols)}")
    return lines


def to_dict(why: Explanation, max_words: int | None = None) -> dict[str, Any]:
    """A JSON-ready dict (byte symbols in GPT-2 characters, as HF's files spell them)."""
    def sym(s: Symbol) -> str:
        return display(s, "gpt2")

    def pairs(frame: pd.DataFrame) -> list[dict[str, Any]]:
        return [{"left": sym(r.left), "right": sym(r.right), "count": int(r.count),
                 "score": float(r.score), "left_id": int(r.left_id),
                 "right_id": int(r.right_id),
                 **({"first_word": r.first_word, "first_index": int(r.first_index),
                     "first_position": int(r.first_position)}
                    if "first_word" in frame else {})}
                for r in frame.itertuples(index=False)]

    m = why.merge
    words = why.words if max_words is None else why.words.iloc[:max_words]
    return {
        "step": why.step, "algorithm": why.algorithm, "scoring": why.scoring,
        "merge": {"left": sym(m.left), "right": sym(m.right), "token": sym(m.token),
                  "count": m.count, "score": m.score, "left_id": m.left_id,
                  "right_id": m.right_id, "token_id": m.token_id},
        "words": [{"word": r.word, "count": int(r.count), "occurrences": int(r.occurrences),
                   "contribution": int(r.contribution)}
                  for r in words.itertuples(index=False)],
        "word_total": len(why.words),
        "candidates": pairs(why.candidates),
        "tie": pairs(why.tie), "tie_rule": why.tie_rule, "value": why.value,
        "count_left": why.count_left, "count_right": why.count_right,
        "rank": why.rank, "total_pairs": why.total_pairs,
        "first_seen": ({"word": why.first_word, "index": why.first_index,
                        "position": why.first_position} if why.first_word is not None
                       else None),
        "text": describe(why),
    }


def trace_dict(tr: Trace) -> dict[str, Any]:
    """A JSON-ready dict of a trace."""
    def syms(symbols: tuple[Symbol, ...]) -> list[str]:
        return [display(s, "gpt2") for s in symbols]

    return {
        "word": tr.word, "algorithm": tr.algorithm, "step": tr.step,
        "initial": syms(tr.initial), "ids": list(tr.ids), "unk": tr.unk,
        "steps": [{"step": s.step, "left": display(s.left, "gpt2"),
                   "right": display(s.right, "gpt2"), "token": display(s.token, "gpt2"),
                   "count": s.count, "position": s.position, "symbols": syms(s.symbols),
                   "ids": list(s.ids)} for s in tr.steps],
        "pieces": [{"start": p.start, "end": p.end, "piece": p.piece, "id": p.id,
                    "step": p.step, "tried": list(p.tried)} for p in tr.pieces],
        "text": describe_trace(tr),
    }


def pair_words(snapshot: Snapshot, left_id: int, right_id: int) -> pd.DataFrame:
    """The words holding the pair (left_id, right_id) at this step.

    Columns: word, count (of the word), occurrences (adjacent positions in one copy of the
    word; overlaps count), weighted (count x occurrences); the frame index is the word index.
    """
    ids, word_of = snapshot.token_ids
    corpus = snapshot.training.corpus
    if len(ids) < 2:
        hit = np.zeros(0, dtype=np.int64)
    else:
        mask = (ids[:-1] == left_id) & (ids[1:] == right_id) & (word_of[:-1] == word_of[1:])
        hit = word_of[:-1][mask]
    words, occurrences = np.unique(hit, return_counts=True)
    counts = (exact_counts(snapshot.training)[words] if len(words)
              else np.zeros(0, dtype=np.int64))
    return pd.DataFrame({
        "word": [corpus.words[w] for w in words.tolist()],
        "count": counts,
        "occurrences": occurrences.astype(np.int64),
        "weighted": counts * occurrences,
    }, index=pd.Index(words.tolist(), name="index"))
