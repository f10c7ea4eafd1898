"""The values the pages make once per corpus or training (so that a rerun at real size
does not make them again) equal
the plain computations they replace, and the compiled splits' untracked tuples equal the
NumPy splits."""

from __future__ import annotations

import gc
from itertools import accumulate

import numpy as np
import pandas as pd
import plotly.io
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, train
from bpeviz.algorithms import initial_symbols
from bpeviz.analysis import views
from bpeviz.core.limits import _weighted_symbols
from bpeviz.core.training import make_options
from bpeviz.present import figures
from bpeviz.samples import load_sample
from bpeviz.text.display import label

WORDS = st.dictionaries(st.text(alphabet="abcé€ \U0001f600", min_size=1, max_size=6),
                        st.integers(1, 9), min_size=1, max_size=12)


@pytest.mark.parametrize("algorithm,settings_", [
    ("bpe", {}), ("bpe", {"marker": "</w>"}),
    ("bpe", {"marker": "</w>", "marker_style": "glued"}), ("bbpe", {}), ("wordpiece", {})])
def test_the_weighted_symbols_kept_per_corpus_equal_a_fresh_count(algorithm, settings_):
    corpus = load_sample("tour", "gpt2" if algorithm == "bbpe" else "whitespace")
    options = make_options(algorithm, merges=50, **settings_)
    plain = sum(c * len(initial_symbols(w, algorithm, options.marker, options.marker_style))
                for w, c in zip(corpus.words, corpus.counts))
    assert _weighted_symbols(corpus, options) == plain
    assert _weighted_symbols(corpus, options) == plain  # the kept value
    assert train(corpus, options).initial_tokens == plain


def test_the_kept_weighted_symbols_tell_bytes_markers_and_characters_apart():
    corpus = Corpus.from_counts({"é€": 2, "ab": 3})
    chars = _weighted_symbols(corpus, make_options("bpe", merges=1))
    marked = _weighted_symbols(corpus, make_options("bpe", merges=1, marker="</w>"))
    raw = _weighted_symbols(corpus, make_options("bbpe", merges=1))
    assert (chars, marked, raw) == (10, 15, 16)


@settings(max_examples=40, deadline=None)
@given(WORDS, st.integers(0, 12))
def test_kept_token_counts_created_steps_and_labels_equal_the_plain_loops(words, merges):
    t = train(Corpus.from_counts(words), "bpe", merges=merges, special_tokens=("<s>",))
    plain = t.initial_tokens - np.array([0, *accumulate(m.replaced for m in t.merges)])
    counts = t.token_counts()
    assert counts.tolist() == plain.tolist()
    counts[:] = -1  # a copy: the kept counts do not change
    assert t.token_counts().tolist() == plain.tolist()

    made = np.zeros(len(t.vocab), dtype=np.int64)
    seen = set()
    for m in t.merges:
        if m.token_id >= t.n_base and m.token_id not in seen:
            seen.add(m.token_id)
            made[m.token_id] = m.step
    got = views.created_at(t)
    assert got.tolist() == made.tolist()
    got[:] = -1
    assert views.created_at(t).tolist() == made.tolist()

    for style in ("gpt2", "hex"):
        assert views.token_label_list(t, style) == [label(s, style) for s in t.vocab]
    for m in t.merges:  # the trees read the kept first merges
        node = views.merge_tree(t, m.token_id)
        first = next(x for x in t.merges if x.token_id == m.token_id)
        assert (node.step, node.left.id, node.right.id) == (first.step, first.left_id,
                                                            first.right_id)


@pytest.mark.parametrize("algorithm", ["bpe", "wordpiece"])
def test_the_kept_strength_chart_equals_the_chart_made_from_the_merges(algorithm):
    t = train(load_sample("tour", "whitespace"), algorithm, merges=200)
    for step in (None, 0, 7, 200):
        for style in ("gpt2", "hex"):
            kept = figures.training_strength_figure(t, style, step, presentation=True)
            plain = figures.merge_strength_figure(views.merges_frame(t, style), algorithm,
                                                  step, True)
            assert plotly.io.to_json(kept) == plotly.io.to_json(plain)


@pytest.mark.usefixtures("compiled")
@settings(max_examples=40, deadline=None)
@given(WORDS, st.integers(0, 12), st.sampled_from(["bpe", "bbpe"]))
def test_compiled_splits_are_untracked_and_equal_the_numpy_splits(words, merges, algorithm):
    from bpeviz import engine as engines

    t = train(Corpus.from_counts(words), algorithm, merges=merges, special_tokens=())
    for step in range(len(t.merges) + 1):
        fast = t.at(step).splits
        saved, engines._compiled = engines._compiled, None
        try:
            plain = t.at(step).splits
        finally:
            engines._compiled = saved
        assert fast == plain and list(fast) == list(plain)
        assert not any(gc.is_tracked(v) for v in fast.values())
        assert not gc.is_tracked(fast)


def test_a_paste_of_only_whitespace_is_no_corpus():
    text = " \t\n\u00a0\u2003\u3000"
    assert text.isspace() and not text.strip()  # the box's test, as it was


def _first_seen_plain(snapshot, pairs):
    """The loop ``explain._first_seen`` replaced: every position's pair key, sorted."""
    ids, word_of = snapshot.token_ids
    if len(ids) < 2 or not pairs:
        return [(-1, -1)] * len(pairs)
    same = word_of[:-1] == word_of[1:]
    width = int(ids.max()) + 1
    keys = np.where(same, ids[:-1].astype(np.int64) * width + ids[1:], -1)
    wanted = np.array([x * width + y if x < width and y < width else -2 for x, y in pairs],
                      dtype=np.int64)
    hits = np.flatnonzero(np.isin(keys, wanted))
    found_keys, first = np.unique(keys[hits], return_index=True)
    where = dict(zip(found_keys.tolist(), hits[first].tolist()))
    starts = np.searchsorted(word_of, np.arange(int(word_of[-1]) + 2))
    out = []
    for key in wanted.tolist():
        at = where.get(key)
        if at is None:
            out.append((-1, -1))
        else:
            w = int(word_of[at])
            out.append((w, int(at - starts[w])))
    return out


@pytest.mark.usefixtures("engine")
@settings(max_examples=60, deadline=None)
@given(WORDS, st.integers(0, 12), st.data())
def test_first_occurrences_of_pairs_equal_the_plain_search(words, merges, data):
    from bpeviz.core.explain import _first_seen

    t = train(Corpus.from_counts(words), "bpe", merges=merges, special_tokens=())
    snap = t.at(data.draw(st.integers(0, len(t.merges))))
    n = len(t.vocab)
    listed = list(zip(snap.pairs["left_id"].tolist(), snap.pairs["right_id"].tolist()))
    pairs = data.draw(st.lists(st.one_of(
        st.sampled_from(listed) if listed else st.nothing(),
        st.tuples(st.integers(0, n + 2), st.integers(0, n + 2))), max_size=12))
    assert _first_seen(snap, pairs) == _first_seen_plain(snap, pairs)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=1, max_size=60), st.integers(1, 12))
def test_the_strength_bars_are_the_strongest_merge_of_each_run(counts, max_bars):
    """Past ``max_bars`` merges a bar is the strongest merge (the earliest of equals) of a
    run of consecutive merges, the runs covering every merge once, in order."""
    n = len(counts)
    merges = pd.DataFrame({"step": range(1, n + 1), "count": counts,
                           "left": ["l"] * n, "right": ["r"] * n,
                           "token": [f"t{i}" for i in range(1, n + 1)]})
    bars = figures.strongest_merges(merges, "count", max_bars=max_bars)
    run = -(-n // max_bars)
    assert len(bars) <= max_bars
    expected = []
    for first in range(1, n + 1, run):
        last = min(first + run - 1, n)
        window = counts[first - 1:last]
        best = first + window.index(max(window))
        expected.append((best, max(window), first, last))
    assert list(zip(bars["step"], bars["count"], bars["first"], bars["last"])) == expected
    hover = figures.merge_strength_hover(bars)
    assert all(h.startswith(f"l + r → t{s}") for h, s in zip(hover, bars["step"]))
    assert all(("the strongest of merges" in h) == (run > 1) for h in hover)
