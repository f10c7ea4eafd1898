"""Counts past 64 bits stay exact outside training too: the pair table, "Why this
merge?" (``Training.explain``, ``python -m bpeviz explain``), the words table and token
frequencies use Python integers when a sum of counts can pass int64."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys

import pytest

from bpeviz import Corpus, train
from bpeviz.analysis.views import token_frequencies, words_frame
from bpeviz.core.explain import describe, pair_words, to_dict
from tests.support import ROOT

pytestmark = pytest.mark.usefixtures("engine")

#: (a, a) is counted 3 * 2**62 times, past int64; (a, b) 2**62 times
SUMS_PAST = {"aaaa": 2**62, "ab": 2**62, "ba": 5}
#: one word count is itself past int64
COUNT_PAST = {"aaaa": 2**63 + 7, "ab": 2**64, "ba": 5}


def exact_pairs(table, split=None):
    out: dict[tuple[str, str], int] = {}
    for word, count in table.items():
        symbols = list(split[word]) if split else list(word)
        for pair in itertools.pairwise(symbols):
            out[pair] = out.get(pair, 0) + count
    return out


@pytest.mark.parametrize("table", [SUMS_PAST, COUNT_PAST])
def test_the_pair_table_ranks_and_counts_exactly(table):
    training = train(Corpus.from_counts(table), "bpe", merges=2)
    for step in (0, 1):
        snap = training.at(step)
        pairs = snap.pairs
        got = {(r.left, r.right): int(r.count) for r in pairs.itertuples()}
        assert got == exact_pairs(table, {w: s for w, s in snap.splits.items()})
        counts = [int(c) for c in pairs["count"]]
        assert counts == sorted(counts, reverse=True)
        top = training.merges[step]
        assert (pairs["left"].iat[0], pairs["right"].iat[0], counts[0]) == (
            top.left, top.right, top.count)


@pytest.mark.parametrize("table", [SUMS_PAST, COUNT_PAST])
def test_explain_counts_words_and_rivals_exactly(table):
    training = train(Corpus.from_counts(table), "bpe", merges=2)
    why = training.explain(1)
    assert why.rank == 1 and (why.merge.left, why.merge.right) == ("a", "a")
    assert [int(c) for c in why.words["contribution"]] == [3 * table["aaaa"]]
    assert [int(c) for c in why.words["count"]] == [table["aaaa"]]
    assert int(why.candidates["count"].iat[0]) == 3 * table["aaaa"]
    text = "\n".join(describe(why))
    assert f"{3 * table['aaaa']:,}" in text and not re.search(r"-\d", text)
    assert f"No other pair had count {3 * table['aaaa']:,}" in text
    data = json.loads(json.dumps(to_dict(why)))
    assert data["candidates"][0]["count"] == 3 * table["aaaa"]


def test_the_word_tables_and_token_frequencies_are_exact():
    training = train(Corpus.from_counts(COUNT_PAST), "bpe", merges=1)
    snap = training.at(1)
    assert [int(c) for c in words_frame(snap)["count"]] == list(COUNT_PAST.values())
    rows = pair_words(training.at(0), training.merges[0].left_id, training.merges[0].right_id)
    assert [int(c) for c in rows["weighted"]] == [3 * COUNT_PAST["aaaa"]]
    freq = token_frequencies(snap)
    aa = training.vocab.index("aa")
    assert int(freq[aa]) == 2 * COUNT_PAST["aaaa"]
    assert int(freq[training.vocab.index("b")]) == COUNT_PAST["ab"] + 5


@pytest.mark.parametrize("table", [SUMS_PAST, COUNT_PAST])
def test_the_cli_explains_counts_past_64_bits(tmp_path, table):
    path = tmp_path / "counts.tsv"
    path.write_text("".join(f"{w}\t{c}\n" for w, c in table.items()), encoding="utf-8")
    out = tmp_path / "t.json"
    run = [sys.executable, "-m", "bpeviz"]
    made = subprocess.run([*run, "train", str(path), "--merges", "2", "--out", str(out),
                           "--quiet"], capture_output=True, text=True, cwd=ROOT)
    assert made.returncode == 0, made.stderr
    for extra in ([], ["--json"]):
        result = subprocess.run([*run, "explain", "--training", str(out), "--step", "1",
                                 *extra], capture_output=True, text=True, cwd=ROOT)
        assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
        if extra:
            assert json.loads(result.stdout)["candidates"][0]["count"] == 3 * table["aaaa"]
        else:
            assert f"{3 * table['aaaa']:,}" in result.stdout


def test_counts_equal_as_doubles_are_not_a_tie():
    training = train(Corpus.from_counts({"cd": 2**53, "ab": 2**53 + 1}), "bpe", merges=1)
    why = training.explain(1)
    assert (why.merge.left, why.merge.right) == ("a", "b")
    assert why.tie.empty
    assert f"No other pair had count {2**53 + 1:,}: a + b won outright." in describe(why)
