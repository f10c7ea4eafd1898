"""The unused tokens of a vocabulary of merges, and why each is unused (for
:mod:`bpeviz.analysis.health`).

A merged token that encoding the corpus never produces at a step is either

- *absorbed*: it was used when its merge made it, then every one of those uses was
  merged into longer tokens. Its sentence names it, how often it was used at the step
  that made it, the step by which its last use was gone, and the tokens that took its
  uses (each with its step and how many uses it took, the most uses first), e.g.
  "`ow` was used 11 times at step 1; by step 3 every use had become `low` (step 2, 7×)
  or `Low` (step 3, 4×)";
- *never used*: no word of the corpus ever held it (its merge never applies there), or
  the training's merges leave it in words that encoding cuts otherwise.

The uses are read from the merge forest of the training the corpus was counted with
(:class:`~bpeviz.engine.splitlog.SplitLog`): the nodes of the token, their words'
counts, and the step each node was merged into a longer token at.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from bpeviz.algorithms import get as get_algorithm
from bpeviz.analysis.health_reach import q, shown

#: how many absorbing tokens a sentence names before "and N more"
NAMED = 5


def uses_sentence(name: str, used: int, made_at: int, went: Sequence[tuple[int, int, str]]) -> str:
    """The sentence of an absorbed token: ``went`` holds ``(uses, step, absorbing token)``
    for every token that took some of its uses (any order).

    >>> print(uses_sentence("`ow`", 11, 1, [(4, 3, "`Low`"), (7, 2, "`low`")]))
    ... # doctest: +NORMALIZE_WHITESPACE
    `ow` was used 11 times at step 1; by step 3 every use had become `low` (step 2, 7×)
    or `Low` (step 3, 4×)
    """
    went = sorted(went, key=lambda x: (-x[0], x[1], x[2]))
    names = [f"{t} (step {u}, {w:,}×)" for w, u, t in went[:NAMED]]
    if len(went) > NAMED:
        listed = ", ".join(names) + f" and {len(went) - NAMED:,} more"
    elif len(names) > 1:
        listed = ", ".join(names[:-1]) + " or " + names[-1]
    else:
        listed = names[0] if names else "longer tokens"
    times = "1 time" if used == 1 else f"{used:,} times"
    why = (f"{name} was used {times} at step {made_at}; by step {max(u for _, u, _ in went)} "
           f"every use had become {listed}")
    total = sum(w for w, _, _ in went)
    if total != used:  # another merge made it again after its first step
        why += f" ({total:,} uses in all: later merges made it again)"
    return why


def unused_frame(training: Any, k: int, merged: list[int], freq: np.ndarray, counted: Any,
                 token: Callable[[int], str],
                 frame: Callable[..., pd.DataFrame]) -> pd.DataFrame:
    """The ``unused`` table of step ``k``: every id of ``merged`` that ``freq`` (how often
    encoding ``counted``'s words produces each id) never holds, with its kind, the step
    that made it and the sentence saying why."""
    unused = [i for i in merged if not freq[i]]
    made: dict[int, Any] = {}
    for m in training.merges[:k]:
        made.setdefault(m.token_id, m)
    live: dict[int, int] = {}
    at_made: dict[int, int] = {}
    absorbed: dict[int, list[tuple[int, int, int]]] = {}
    log = counted.log
    if log is not None and unused:
        nodes = log._log
        counts = np.asarray(counted.counts, dtype=object)
        sel = np.flatnonzero(np.isin(nodes.token, unused) & (nodes.step <= k))
        tok, until, word = nodes.token[sel], nodes.until[sel], nodes.word[sel]
        table = pd.DataFrame({"tok": tok, "step": nodes.step[sel], "until": until,
                              "weight": counts[word]})
        live = table[table["until"] > k].groupby("tok")["weight"].sum().to_dict()
        made_at = np.zeros(len(training.vocab), dtype=np.int64)  # each token's first step
        made_at[list(made)] = [m.step for m in made.values()]
        first = made_at[table["tok"].to_numpy()]
        held = table[(table["step"].to_numpy() <= first) & (first < table["until"].to_numpy())]
        at_made = held.groupby("tok")["weight"].sum().to_dict()
        gone = table[table["until"] <= k]
        for (t, u), w in gone.groupby(["tok", "until"])["weight"].sum().items():
            absorbed.setdefault(int(t), []).append((int(w), int(u), log.merges[u - 1].token_id))
    rows, kinds, steps = [], [], []
    alg = get_algorithm(training.algorithm)
    for i in unused:
        m = made.get(i)
        step = m.step if m is not None else 0
        if i in absorbed and i not in live:
            why = uses_sentence(q(token(i)), int(at_made.get(i, 0)), step,
                                [(w, u, q(token(t))) for w, u, t in absorbed[i]])
            kind = "absorbed"
        elif i in live:
            why = (f"the training's merges leave it in words {live[i]:,} times, but encoding "
                   f"cuts those words otherwise")
            kind = "never used"
        else:
            why = f"never produced on {counted.label}"
            if m is not None:
                why += (f": merge {q(shown(alg, m.left))} + {q(shown(alg, m.right))} "
                        f"(step {m.step}) never applies there")
            kind = "never used"
        rows.append((i, token(i), why))
        kinds.append(kind)
        steps.append(step)
    return frame(rows, kind=kinds, made_at=steps)


__all__ = ["NAMED", "unused_frame", "uses_sentence"]
