"""An algorithm's score is its record's: a record registered with a formula no loop knows
trains, explains, ranks pairs, encodes and exports by that formula, with no other change.

The toy scores a pair by count² / (count(a) + count(b)); a naive trainer that recounts
everything at every step is the oracle.
"""

from __future__ import annotations

import itertools

import pytest
from tokenizers import Tokenizer

from bpeviz import Corpus, algorithms, formats, train
from bpeviz.algorithms import Algorithm
from bpeviz.core.explain import describe

TEXT = ("the cat sat on the mat and the hat sat on the cat; a rat ran at the tall hall "
        "where all the small balls fall") * 2


def squared_over_sum(pair: int, left: int, right: int) -> float:
    return pair * pair / (left + right)


TOY = Algorithm(name="sqbpe", label="Squared BPE (toy)", help="Pairs win by count² / (a + b).",
                score=squared_over_sum, score_kind="custom", special_tokens=("[UNK]",),
                short_label="Squared",
                score_words="count({pair})² / (count({left}) + count({right}))",
                score_numbers="{count}² / ({left_count} + {right_count})")


@pytest.fixture
def toy():
    algorithms.register(TOY)
    yield TOY
    algorithms.unregister(TOY.name)


def _naive(corpus: Corpus, merges: int) -> list[tuple[str, str]]:
    splits = [list(w) for w in corpus.words]
    counts = list(corpus.counts)
    chosen = []
    for _ in range(merges):
        pairs: dict[tuple[str, str], int] = {}
        units: dict[str, int] = {}
        for split, c in zip(splits, counts):
            for s in split:
                units[s] = units.get(s, 0) + c
            for p in itertools.pairwise(split):
                pairs[p] = pairs.get(p, 0) + c
        if not pairs:
            break
        scored = {p: squared_over_sum(c, units[p[0]], units[p[1]]) for p, c in pairs.items()}
        best = max(scored.values())
        pair = next(p for p, v in scored.items() if v == best)  # first occurrence wins ties
        chosen.append(pair)
        out = []
        for split in splits:
            new, i = [], 0
            while i < len(split):
                if i + 1 < len(split) and (split[i], split[i + 1]) == pair:
                    new.append(split[i] + split[i + 1])
                    i += 2
                else:
                    new.append(split[i])
                    i += 1
            out.append(new)
        splits = out
    return chosen


@pytest.mark.usefixtures("toy")
def test_training_follows_the_records_formula_on_either_engine(engine):
    corpus = Corpus.from_text(TEXT)
    training = train(corpus, "sqbpe", merges=25, tie_break="first")
    assert [(m.left, m.right) for m in training.merges] == _naive(corpus, 25)
    # the formula decides: plain counts choose other merges on this text
    plain = train(corpus, "bpe", merges=25, tie_break="first")
    assert [(m.left, m.right) for m in plain.merges] != [
        (m.left, m.right) for m in training.merges]


@pytest.mark.usefixtures("toy")
def test_each_merge_records_and_explains_its_own_score():
    training = train(Corpus.from_text(TEXT), "sqbpe", merges=15, tie_break="first")
    for k in range(1, 16):
        before = training.at(k - 1)
        pairs = before.pairs
        top = pairs.iloc[0]
        merge = training.merges[k - 1]
        assert (top["left"], top["right"]) == (merge.left, merge.right)
        assert merge.score == pytest.approx(top["score"])
        why = training.explain(k)
        assert int(why.words["contribution"].sum()) == merge.count
        assert why.value == "score" and why.score == pytest.approx(merge.score)
        assert why.formula_score == pytest.approx(merge.score)
        # the sentences write the record's formula with this merge's numbers
        text = " ".join(describe(why))
        assert (f"Squared score = count({merge.left} {merge.right})² / (count({merge.left}) + "
                f"count({merge.right})) = {merge.count:,}² / ({why.count_left:,} + "
                f"{why.count_right:,})") in text, text
    # the pair table's score column is the formula of each row's counts
    snap = training.at(5)
    ids, word_of = snap.token_ids
    counts = training.corpus.counts
    units: dict[int, int] = {}
    for i, w in zip(ids.tolist(), word_of.tolist()):
        units[i] = units.get(i, 0) + counts[w]
    for row in snap.pairs.head(30).itertuples():
        assert row.score == pytest.approx(
            squared_over_sum(row.count, units[row.left_id], units[row.right_id]))


@pytest.mark.usefixtures("toy")
def test_a_custom_score_encodes_and_exports_with_the_same_ids():
    training = train(Corpus.from_text(TEXT), "sqbpe", merges=30)
    snap = training.at()
    text = "the small cat ran to the tall hall"
    ids = [t.id for t in snap.encode(text)]
    assert snap.decode(ids).replace(" ", "") == text.replace(" ", "")
    hf = Tokenizer.from_str(formats.export(snap, "hf")["tokenizer.json"])
    assert hf.encode(text).ids == ids


def test_a_record_whose_score_and_kind_disagree_is_refused():
    with pytest.raises(ValueError, match="score_kind"):
        Algorithm(name="x", label="x", help="x", score=squared_over_sum)
    with pytest.raises(ValueError, match="score_kind"):
        Algorithm(name="x", label="x", help="x", score_kind="custom")
    with pytest.raises(ValueError, match="score_kind must be one of"):
        Algorithm(name="x", label="x", help="x", score=squared_over_sum, score_kind="pmi")
