"""Word counts whose sums pass 64 bits train exactly: both engines rank and count with
Python integers once a weighted sum can pass int64 (the compiled loop hands such corpora
to the Python one), checked against a recount written here; a training saved by one
engine loads under the other, and the command line trains such counts files."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, load, save, train
from bpeviz.algorithms import initial_symbols, join
from bpeviz.core.training import make_options
from bpeviz.engine.inputs import INT64_MAX, _weighted_counts
from tests.support.cli import run_cli
from tests.support.engines import ENGINES, run_engine
from tests.support.reference import apply_merge, pair_table


def exact_bpe(table: dict[str, int], merges: int) -> list[tuple[str, str, int]]:
    """Recount every step with Python ints; highest count, ties to the first occurrence."""
    splits = [initial_symbols(w, "bpe", None, "separate") for w in table]
    counts = list(table.values())
    out = []
    for _ in range(merges):
        pairs = pair_table(splits, counts)
        if not pairs:
            break
        top = max(pairs.values())
        left, right = next(p for p, c in pairs.items() if c == top)
        out.append((left, right, top))
        token = join(left, right, "bpe")
        splits = [apply_merge(s, left, right, token) for s in splits]
    return out


def merges_of(training):
    return [(m.left, m.right, m.count) for m in training.merges]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("table", [
    {"ab": 2**62, "abab": 2**62},                      # a+b: 3 * 2**62, past int64
    {"ab": 2**62, "abab": 2**62, "ba": 2**62},          # the CLI's KeyError case
    {"ab": 10**23, "ba": 1},                            # a count past 64 bits
    {"ab": 2**53, "cd": 2**53 + 1},                     # equal as doubles, not as ints
    {"cd": 2**62 - 1, "ab": 2**62},
    {"abc": (2**63 - 5) // 3, "ab": 2},                 # weighs exactly 2**63 - 1
    {"abc": (2**63 - 5) // 3, "ab": 3},                 # weighs 2**63 + 1
    {"ab": 2**62 - 1, "a": 1},                          # weighs 2**63 - 1
    {"ab": 2**62},                                      # weighs 2**63
])
def test_huge_counts_train_exactly_in_both_engines(engine, table):
    options = make_options("bpe", merges=4)
    got = run_engine(Corpus.from_counts(table), options, engine)
    assert merges_of(got) == exact_bpe(table, 4)
    assert got.initial_tokens == sum(len(w) * c for w, c in table.items())
    assert got.token_counts()[-1] == sum(
        len(split) * c for split, c in zip(got.at().splits.values(), table.values()))


def test_the_int64_boundary_decides_the_engine():
    fits, total = _weighted_counts([(2**63 - 5) // 3, 2], np.array([3, 2]))
    assert total == INT64_MAX and str(fits.dtype) == "int64"
    past, total = _weighted_counts([2**62], np.array([2]))
    assert total == INT64_MAX + 1 and past.dtype == object
    fits, total = _weighted_counts([2**62 - 1, 1], np.array([2, 1]))
    assert total == INT64_MAX and str(fits.dtype) == "int64"
    big, total = _weighted_counts([10**23], np.array([2]))
    assert big.dtype == object and total == 2 * 10**23


counts_past_64_bits = st.dictionaries(
    st.text(alphabet="abc", min_size=1, max_size=6),
    st.one_of(st.integers(1, 5), st.integers(2**52, 2**54), st.integers(2**60, 2**66)),
    min_size=1, max_size=6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts_past_64_bits, st.sampled_from(["bpe", "wordpiece"]),
       st.sampled_from(["first", "ids"]), st.integers(1, 8))
def test_engines_agree_on_huge_counts(table, algorithm, tie_break, n):
    options = make_options(algorithm, merges=n, tie_break=tie_break)
    corpus = Corpus.from_counts(table)
    compiled, python = (run_engine(corpus, options, e) for e in ENGINES)
    assert compiled.merges == python.merges
    assert compiled.vocab == python.vocab and compiled.stop_reason == python.stop_reason
    if algorithm == "bpe" and tie_break == "first":
        assert merges_of(python) == exact_bpe(table, n)


def test_a_training_saved_by_the_python_engine_loads_under_the_compiled_one(tmp_path,
                                                                            monkeypatch):
    table = {"ab": 2**62, "abab": 2**62, "ba": 2**62, "xy": 10**23}
    monkeypatch.setenv("BPEVIZ_ENGINE", "python")
    saved = train(Corpus.from_counts(table), "bpe", merges=4)
    save(saved, str(tmp_path / "t.json"))
    monkeypatch.setenv("BPEVIZ_ENGINE", "compiled")
    assert merges_of(load(tmp_path / "t.json")) == merges_of(saved) == exact_bpe(table, 4)


@pytest.mark.parametrize("rows, first", [
    ([("ab", 2**62), ("abab", 2**62), ("ba", 2**62)], ("a", "b", 3 * 2**62)),
    ([("ab", 10**23), ("ba", 7)], ("a", "b", 10**23)),
])
def test_the_cli_trains_counts_files_past_64_bits(tmp_path, rows, first):
    path = tmp_path / "counts.tsv"
    path.write_text("".join(f"{w}\t{c}\n" for w, c in rows), encoding="utf-8")
    out = tmp_path / "t.json"
    result = run_cli("train", str(path), "--merges", "3", "--out", str(out), "--quiet")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    merges = json.loads(out.read_text())["merges"]
    assert tuple(merges[0][:3]) == first
    assert merges_of(load(out))[0] == first
