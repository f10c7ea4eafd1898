"""An algorithm's score is its record's: a record registered with a formula no loop knows
trains, explains, ranks pairs, encodes and exports by that formula, with no other change.

The toy scores a pair by count² / (count(a) + count(b)); a naive trainer that recounts
everything at every step is the oracle.
"""

from __future__ import annotations

import dataclasses
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


#: the toy, with its own words for what it does: the lesson and the explanations say them
WORDY = dataclasses.replace(
    TOY, name="wordy", short_label="Wordy", unit_word="glyph",
    split_words="Wordy breaks each word into glyphs",
    encode_words="Wordy replays its merges, oldest first.",
    trace_words="{word} at step {step}: Wordy's merges over its {units}.",
    unknown_words="Wordy never saw it.",
    score_why="its glyphs are common.")


@pytest.fixture
def wordy():
    algorithms.register(WORDY)
    yield WORDY
    algorithms.unregister(WORDY.name)


@pytest.mark.usefixtures("wordy")
def test_the_lesson_and_the_explanations_speak_in_the_records_words():
    from bpeviz.analysis.lesson import build_lesson
    from bpeviz.core.explain import describe_trace
    from bpeviz.present.glossary import token_notes
    from bpeviz.present.render_explain import trace_html

    training = train(Corpus.from_text(TEXT), "wordy", merges=25, tie_break="first")
    lesson = build_lesson(training, "catty")
    said = {s.key: " ".join(s.text()) for s in lesson.steps}
    assert said["split"].startswith("Wordy breaks each word into glyphs: ")
    assert "glyphs long" in said["split"] and "symbols long" not in said["split"]
    assert ("Wordy counts every pair of neighbouring symbols too, but it merges the pair "
            "with the best score, count(pair)² / (count(first) + count(second))"
            ) in said["first-merge"]
    m = training.merges[0]
    why = training.explain(1)
    assert (f"so the score is {m.count:,}² / ({why.count_left:,} + {why.count_right:,})"
            ) in said["first-merge"]
    assert "Wordy replays its merges, oldest first." in said["encode"]
    assert "“catty” starts as 5 glyphs" in said["encode"]
    snap = training.at()
    assert "<bdi>catty</bdi> at step 25: Wordy's merges over its characters." in trace_html(
        snap.trace("catty"), training)
    # a trace of merges applied is told by its merges; the record's words head a trace of
    # pieces matched
    assert describe_trace(snap.trace("catty"))[0].startswith("“catty” starts as")
    text = "the cat£"
    unknown = [n for n in token_notes(training, text, snap.encode(text)) if n.key == "unk"]
    assert unknown and unknown[0].text.endswith("Wordy never saw it.")


@pytest.mark.usefixtures("wordy")
def test_a_lesson_says_why_the_most_frequent_pair_lost_in_the_records_words():
    from bpeviz.analysis.lesson import build_lesson

    training = train(Corpus.from_text(TEXT), "wordy", merges=25, tie_break="first")
    merges = [s for s in build_lesson(training).steps if s.key.endswith("merge")]
    lost = [s for s in merges if "most_frequent" in s.numbers
            and s.numbers["most_frequent"]["count"] > s.numbers["count"]
            and s.numbers["most_frequent"]["score"] < s.numbers["score"]]
    assert lost  # on this text the first merge is rarer than the most frequent pair
    for step in lost:
        assert any(line.endswith(": its glyphs are common.") for line in step.text())
    for step in merges:
        if step not in lost:
            assert not any("its glyphs are common" in line for line in step.text())
