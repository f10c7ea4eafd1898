"""A deliberately naive trainer (recount everything at every step), as the seeds do it.

It is the oracle the property tests compare the incremental engine against.
"""

from __future__ import annotations

import itertools

from bpeviz.algorithms import initial_symbols, join


def apply_merge(split: list, left, right, token) -> list:
    """Leftmost-first, non-overlapping: ['a','a','a'] with (a, a) -> ['aa', 'a']."""
    out, i = [], 0
    while i < len(split):
        if i + 1 < len(split) and split[i] == left and split[i + 1] == right:
            out.append(token)
            i += 2
        else:
            out.append(split[i])
            i += 1
    return out


def pair_table(splits: list[list], counts: list[int]) -> dict:
    """pair -> count, in first-occurrence order (words in order, left to right)."""
    table: dict = {}
    for split, count in zip(splits, counts):
        for pair in itertools.pairwise(split):
            table[pair] = table.get(pair, 0) + count
    return table


def unit_counts(splits: list[list], counts: list[int]) -> dict:
    units: dict = {}
    for split, count in zip(splits, counts):
        for sym in split:
            units[sym] = units.get(sym, 0) + count
    return units


def priorities(splits, counts, algorithm: str, scoring: str) -> dict:
    table = pair_table(splits, counts)
    if algorithm == "wordpiece" and scoring == "score":
        units = unit_counts(splits, counts)
        return {p: c / (units[p[0]] * units[p[1]]) for p, c in table.items()}
    return {p: float(c) for p, c in table.items()}


def best_pair(splits, counts, algorithm, scoring, tie_break, ids: dict):
    prio = priorities(splits, counts, algorithm, scoring)
    if not prio:
        return None
    top = max(prio.values())
    tied = [p for p, v in prio.items() if v == top]  # dict order = first occurrence
    if tie_break == "first":
        return tied[0]
    return min(tied, key=lambda p: (ids[p[0]], ids[p[1]]))


def naive_train(corpus, algorithm, merges, tie_break="first", scoring="score", marker=None,
                marker_style="separate", base=None):
    """Return (list of (left, right), list of splits after each step)."""
    splits = [initial_symbols(w, algorithm, marker, marker_style) for w in corpus.words]
    counts = list(corpus.counts)
    ids = tie_ids(base, algorithm) if base is not None else {}
    chosen, history = [], [[list(s) for s in splits]]
    for _ in range(merges):
        pair = best_pair(splits, counts, algorithm, scoring, tie_break, ids)
        if pair is None:
            break
        token = join(pair[0], pair[1], algorithm)
        ids.setdefault(token, len(ids))
        splits = [apply_merge(s, pair[0], pair[1], token) for s in splits]
        chosen.append(pair)
        history.append(splits)
    return chosen, history


def random_ranks(rng, min_symbols: int, max_ranks: int) -> tuple[int, dict]:
    """A random merge table for the per-word merge tests: ``(n_symbols, {pair: (rank, id)})``.

    Symbols are ``0..n_symbols-1``; merge ``rank`` makes the id ``n_symbols + rank - 1``,
    and only the first merge of a repeated pair counts.
    """
    n_symbols = rng.randint(min_symbols, 5)
    ranks: dict = {}
    next_id = n_symbols
    for rank in range(1, rng.randint(1, max_ranks)):
        pair = (rng.randrange(next_id), rng.randrange(next_id))
        ranks.setdefault(pair, (rank, next_id))
        next_id += 1
    return n_symbols, ranks


def tie_ids(vocab, algorithm: str) -> dict:
    """Each token's id as the ``ids`` tie rule compares it (Hugging Face's): its index in
    ``vocab``, except that a byte-level alphabet is numbered in the order of its GPT-2
    characters sorted, as Hugging Face's ByteLevel alphabet is (special tokens before it
    and merged tokens after it keep their ids)."""
    ids: dict = {}
    for i, sym in enumerate(vocab):
        ids.setdefault(sym, i)
    if algorithm == "bbpe":
        from bpeviz.text.display import bytes_to_gpt2

        alphabet = [s for s in ids if isinstance(s, bytes) and len(s) == 1]
        places = sorted(ids[s] for s in alphabet)
        for place, sym in zip(places, sorted(alphabet, key=bytes_to_gpt2)):
            ids[sym] = place
    return ids
