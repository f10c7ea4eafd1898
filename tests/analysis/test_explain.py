"""training.explain(k) and snapshot.trace(word) against a from-scratch recount.

The recount replays the engine's first k - 1 merges on plain lists (tests/support/reference.py,
no split log, no pair index), counts every pair again and ranks them with the tie rule
written out, then compares: the words behind the count, the candidates, the tie.
"""

from __future__ import annotations

import json
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, replay_on, save, train
from bpeviz.algorithms import initial_symbols, surface
from bpeviz.cli import main
from bpeviz.core.explain import describe, describe_trace, pair_text, to_dict
from bpeviz.samples import load_sample
from tests.support.reference import apply_merge, pair_table, priorities, tie_ids, unit_counts

TOUR = {pretok: load_sample("tour", pretok) for pretok in ("whitespace", "gpt2")}
TOUR_TEXT = " ".join(TOUR["whitespace"].words)


def splits_before(training, step: int) -> list[list]:
    """Every word's symbols after ``step - 1`` merges, by replaying them on plain lists."""
    o = training.options
    splits = [initial_symbols(w, o.algorithm, o.marker, o.marker_style)
              for w in training.corpus.words]
    for m in training.merges[: step - 1]:
        splits = [apply_merge(s, m.left, m.right, m.token) for s in splits]
    return splits


def ids_of(training) -> dict:
    ids: dict = {}
    for i, sym in enumerate(training.vocab):
        ids.setdefault(sym, i)
    return ids


def ranked(training, splits) -> list[tuple]:
    """Every pair, best first, by the training's value and tie rule."""
    o = training.options
    counts = list(training.corpus.counts)
    value = priorities(splits, counts, o.algorithm, o.scoring)
    order = list(value)  # first-occurrence order
    ids = tie_ids(training.vocab, training.algorithm)
    if o.tie_break == "first":
        key = {p: (-value[p], n) for n, p in enumerate(order)}
    else:
        key = {p: (-value[p], ids[p[0]], ids[p[1]]) for p in order}
    return sorted(order, key=key.__getitem__), value


def check_step(training, step: int) -> None:
    why = training.explain(step)
    m = why.merge
    assert why.step == step and m is training.merges[step - 1]
    splits = splits_before(training, step)
    counts = list(training.corpus.counts)
    pair = (m.left, m.right)
    # the words behind the count: every word holding the pair, overlaps included
    expected = []
    for word, split, count in zip(training.corpus.words, splits, counts):
        occ = sum(1 for x, y in pairwise(split) if (x, y) == pair)
        if occ:
            expected.append((word, count, occ, count * occ))
    got = list(why.words[["word", "count", "occurrences", "contribution"]]
               .itertuples(index=False, name=None))
    assert sorted(got) == sorted(expected)
    assert [r[3] for r in got] == sorted((r[3] for r in got), reverse=True)
    assert int(why.words["contribution"].sum()) == m.count == pair_table(splits, counts)[pair]
    # the candidates: the merged pair first, then the others best first
    order, value = ranked(training, splits)
    assert order[0] == pair and why.rank == 1
    top = list(zip(why.candidates["left"], why.candidates["right"]))
    assert top == order[: len(top)]
    assert len(top) == min(len(order), 10)
    table = pair_table(splits, counts)
    assert why.candidates["count"].tolist() == [table[p] for p in top]
    assert why.candidates["score"].tolist() == [value[p] for p in top]
    assert why.score == value[pair] == m.score
    # the tie: exactly the other pairs with the winner's value, and the rule that decided
    tied = {p for p in order[1:] if value[p] == value[pair]}
    assert set(zip(why.tie["left"], why.tie["right"])) == tied
    assert why.tie_rule == training.options.tie_break
    ids, ranks = ids_of(training), tie_ids(training.vocab, training.algorithm)
    for row in why.tie.itertuples():
        if why.tie_rule == "ids":
            assert (ranks[m.left], ranks[m.right]) < (ranks[row.left], ranks[row.right])
        else:
            assert (why.first_index, why.first_position) < (row.first_index, row.first_position)
            split = splits[row.first_index]
            at = row.first_position
            assert (split[at], split[at + 1]) == (row.left, row.right)
            assert training.corpus.words[row.first_index] == row.first_word
        assert (ids[row.left], ids[row.right]) == (row.left_id, row.right_id)
    if why.tie_rule == "first":
        split = splits[why.first_index]
        assert (split[why.first_position], split[why.first_position + 1]) == pair
        assert not any(pair in set(pairwise(s)) for s in splits[: why.first_index])
    # WordPiece: the unit counts of the score
    if training.algorithm == "wordpiece":
        units = unit_counts(splits, counts)
        assert (why.count_left, why.count_right) == (units[m.left], units[m.right])
        assert why.formula_score == m.count / (units[m.left] * units[m.right])
        if why.value == "score":
            assert why.formula_score == m.score
    else:
        assert why.count_left is None and why.count_right is None
    # the sentences are made from these numbers
    text = "\n".join(describe(why))
    times = {1: "once", 2: "twice"}.get(m.count, f"{m.count:,} times")
    n_words = len(expected)
    occurs = (f", {pair_text(m.left, m.right)} occurs {times} in the corpus, in "
              f"{n_words:,} word{'s' if n_words > 1 else ''} ")
    assert occurs in describe(why)[1], (occurs, describe(why)[1])
    if len(why.tie):
        assert "Tie:" in text and f"'{why.tie_rule}'" in text
    json.dumps(to_dict(why))


SETTINGS = [
    ("bpe", {}), ("bpe", {"marker": "</w>"}), ("bpe", {"marker": "</w>", "marker_style": "glued"}),
    ("bbpe", {}), ("wordpiece", {"scoring": "score"}), ("wordpiece", {"scoring": "frequency"}),
]


@pytest.mark.parametrize("tie_break", ["first", "ids"])
@pytest.mark.parametrize(("algorithm", "extra"), SETTINGS)
def test_every_step_matches_a_recount_on_real_text(algorithm, extra, tie_break):
    corpus = TOUR["gpt2" if algorithm == "bbpe" else "whitespace"]
    words = dict(list(zip(corpus.words, corpus.counts))[:60])
    training = train(Corpus.from_counts(words), algorithm, merges=40, tie_break=tie_break,
                     **extra)
    for step in range(1, len(training.merges) + 1):
        check_step(training, step)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=st.integers(0, len(TOUR_TEXT) - 1), length=st.integers(1, 400),
       setting=st.sampled_from(SETTINGS), tie_break=st.sampled_from(["first", "ids"]),
       merges=st.integers(1, 25))
def test_explanations_match_a_recount_on_slices_of_real_text(start, length, setting,
                                                             tie_break, merges):
    algorithm, extra = setting
    text = TOUR_TEXT[start: start + length]
    corpus = Corpus.from_text(text, "gpt2" if algorithm == "bbpe" else "whitespace")
    if not corpus.words:
        return
    training = train(corpus, algorithm, merges=merges, tie_break=tie_break, **extra)
    for step in range(1, len(training.merges) + 1):
        check_step(training, step)


# -- constructed ties -------------------------------------------------------------------------
@pytest.mark.parametrize(("tie_break", "winner", "other"),
                         [("first", ("y", "z"), ("a", "b")), ("ids", ("a", "b"), ("y", "z"))])
def test_a_constructed_bpe_tie_is_decided_by_its_rule(tie_break, winner, other):
    # "yz" comes first in the corpus; "a" and "b" have the smaller ids
    training = train(Corpus.from_counts({"yz": 2, "ab": 2}), "bpe", merges=1,
                     tie_break=tie_break, special_tokens=())
    why = training.explain(1)
    assert (why.merge.left, why.merge.right) == winner
    assert list(zip(why.tie["left"], why.tie["right"])) == [other]
    assert why.tie["count"].tolist() == [2] and why.tie_rule == tie_break
    text = " ".join(describe(why))
    assert "Tie: 1 other pair also had count 2 (" + " + ".join(other) + ")" in text
    if tie_break == "first":
        assert "first seen in “yz” (word 1, symbol 1)" in text
        assert "in “ab” (word 2, symbol 1)" in text
    else:
        a, b, y, z = (training.vocab.index(s) for s in "abyz")
        assert f"has ids ({a}, {b})" in text and f"({y}, {z})" in text


@pytest.mark.parametrize("tie_break", ["first", "ids"])
def test_a_constructed_wordpiece_tie_compares_scores_not_counts(tie_break):
    # (x, ##y): 1 / (1 x 1) = 1; (a, ##b): 2 / (2 x 2) = 0.5; (c, ##d): 3 / (3 x 3) = 1/3;
    # (q, ##r) 1 / (1 x 1) = 1 ties with (x, ##y) although the counts differ from (a, ##b)
    training = train(Corpus.from_counts({"ab": 2, "xy": 1, "cd": 3, "qr": 1}), "wordpiece",
                     merges=1, tie_break=tie_break)
    why = training.explain(1)
    pair = (why.merge.left, why.merge.right)
    assert pair == (("x", "##y") if tie_break == "first" else ("q", "##r"))
    assert why.score == 1.0 and (why.count_left, why.count_right) == (1, 1)
    other = ("q", "##r") if tie_break == "first" else ("x", "##y")
    assert list(zip(why.tie["left"], why.tie["right"])) == [other]
    text = " ".join(describe(why))
    assert "= 1 / (1 × 1) = 1." in text
    assert "Tie: 1 other pair also had score 1" in text
    runner = list(zip(why.candidates["left"], why.candidates["right"]))
    assert runner[:3] == [pair, other, ("a", "##b")]
    assert why.candidates["score"].tolist()[:3] == [1.0, 1.0, 0.5]


def test_frequency_scoring_says_hf_ranks_by_count_and_shows_the_score_it_would_have():
    training = train(Corpus.from_counts({"ab": 2, "xy": 1, "cd": 3}), "wordpiece", merges=1,
                     scoring="frequency")
    why = training.explain(1)
    assert (why.merge.left, why.merge.right, why.merge.count) == ("c", "##d", 3)
    assert why.value == "count" and why.score == 3.0
    text = " ".join(describe(why))
    assert "WordPieceTrainer" in text and "3 / (3 × 3) = 0.3333" in text


def test_overlapping_occurrences_count_as_the_engine_counts_them():
    training = train(Corpus.from_counts({"aaaa": 2, "ba": 1}), "bpe", merges=1,
                     special_tokens=())
    why = training.explain(1)
    assert (why.merge.left, why.merge.right, why.merge.count) == ("a", "a", 6)
    assert why.words[["word", "occurrences", "contribution"]].values.tolist() == [
        ["aaaa", 3, 6]]
    assert "(the pair 3 times in it: 6)" in " ".join(describe(why))


@pytest.mark.parametrize("bad", [0, -1, 6, 2.5, True, "1"])
def test_steps_out_of_range_are_a_clear_error(bad):
    training = train(Corpus.from_text("low low lower newer newest"), "bpe", merges=5)
    with pytest.raises(ValueError, match="step must be"):
        training.explain(bad)


def test_a_training_without_merges_has_nothing_to_explain():
    training = train(Corpus.from_text("a b c"), "bpe", merges=3)
    assert not training.merges
    with pytest.raises(ValueError, match="made no merges"):
        training.explain(1)


# -- traces ---------------------------------------------------------------------------------
def check_trace(snapshot, word: str) -> None:
    found = snapshot.trace(word)
    encoded = snapshot.encode(word)
    assert list(found.ids) == encoded.ids
    training = snapshot.training
    if found.algorithm == "wordpiece":
        vocab = set(snapshot.vocab)
        for piece in found.pieces:
            misses = [t for t in piece.tried if t != piece.piece]
            assert not vocab.intersection(misses)
            assert [len(t) for t in piece.tried] == sorted((len(t) for t in piece.tried),
                                                           reverse=True)
            if piece.piece is not None:
                assert piece.piece in vocab and piece.tried[-1] == piece.piece
                assert training.vocab[piece.id] == piece.piece
        if not found.unk:
            assert surface(found.tokens, "wordpiece") == word
            assert [training.vocab[i] for i in found.ids] == list(found.tokens)
        return
    steps = [s.step for s in found.steps]
    assert steps == sorted(steps) and all(s <= snapshot.step for s in steps)
    symbols = list(found.initial)
    for s in found.steps:  # each record is one merge applied to the symbols before it
        assert (symbols[s.position], symbols[s.position + 1]) == (s.left, s.right)
        symbols[s.position: s.position + 2] = [s.token]
        assert tuple(symbols) == s.symbols
        assert training.merges[s.step - 1].count == s.count
    # the symbols spell the word; the tokens are encode's (the unknown token where a
    # character is missing from the vocabulary)
    final = found.steps[-1].symbols if found.steps else found.initial
    assert surface(final, found.algorithm, training.options.marker) == word
    assert list(found.tokens) == [t.text if t.unk else training.vocab[t.id] for t in encoded]


@pytest.mark.parametrize(("algorithm", "extra"), SETTINGS)
def test_the_trace_of_every_corpus_word_ends_in_its_encoding(algorithm, extra):
    corpus = TOUR["gpt2" if algorithm == "bbpe" else "whitespace"]
    training = train(corpus, algorithm, merges=150, **extra)
    for step in (0, 1, 40, 150):
        snap = training.at(step)
        for word in corpus.words[:120]:
            check_trace(snap, word)


@settings(max_examples=40, deadline=None)
@given(word=st.text(st.characters(codec="utf-8", exclude_categories=["Zs", "Cc", "Zl", "Zp"]),
                    min_size=1, max_size=12),
       setting=st.sampled_from(SETTINGS), step=st.integers(0, 120))
def test_the_trace_of_any_word_ends_in_its_encoding(word, setting, step):
    algorithm, extra = setting
    training = _trained(algorithm, tuple(sorted(extra.items())))
    snap = training.at(min(step, len(training.merges)))
    from bpeviz.core.encoding import split_words

    if split_words(word, snap.training.corpus.pretokenizer
                   if snap.training.corpus.pretokenizer != "counts" else "whitespace")[0] != [word]:
        with pytest.raises(ValueError, match="one word at a time"):
            snap.trace(word)
        return
    check_trace(snap, word)


_TRAINED: dict = {}


def _trained(algorithm, extra):
    key = (algorithm, extra)
    if key not in _TRAINED:
        corpus = TOUR["gpt2" if algorithm == "bbpe" else "whitespace"]
        _TRAINED[key] = train(corpus, algorithm, merges=120, **dict(extra))
    return _TRAINED[key]


def test_a_wordpiece_trace_shows_the_pieces_tried_and_unk():
    training = train(Corpus.from_counts({"hug": 3, "pug": 1}), "wordpiece", merges=2)
    found = training.at(2).trace("hugs")
    assert [(p.piece, p.tried) for p in found.pieces] == [
        ("hu", ("hugs", "hug", "hu")), ("##g", ("##gs", "##g")), (None, ("##s",))]
    assert found.unk and list(found.ids) == [training.vocab.index("[UNK]")]
    lines = describe_trace(found)
    assert "nothing matches" in lines[-1] and "[UNK]" in lines[-1]
    assert found.pieces[0].step == 1  # hu was made by merge 1


def test_trace_wants_one_word():
    snap = train(Corpus.from_text("low low lower"), "bpe", merges=2).at(2)
    for bad in ("", "low low", None):
        with pytest.raises(ValueError):
            snap.trace(bad)


# -- the command line ---------------------------------------------------------------------
@pytest.fixture
def saved(tmp_path):
    training = train(Corpus.from_text("low low low lowly lower newer newer happy dog happy"),
                     "bpe", merges=5, marker="</w>")
    path = tmp_path / "t.json"
    save(training, str(path))
    return training, path


def test_cli_explains_a_step_in_sentences_and_json(saved, capsys):
    training, path = saved
    assert main(["explain", "--training", str(path), "--step", "4"]) == 0
    out = capsys.readouterr().out
    assert out.strip().splitlines() == describe(training.explain(4))
    assert "y + </w> occurs 3 times" in out and "“happy” ×2, “lowly” ×1" in out
    assert main(["explain", "--training", str(path), "--step", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == json.loads(json.dumps(to_dict(training.explain(4)), ensure_ascii=False))
    assert sum(w["contribution"] for w in data["words"]) == data["merge"]["count"] == 3


def test_cli_traces_a_word(saved, capsys):
    training, path = saved
    assert main(["explain", "--training", str(path), "--step", "5", "--word", "lowly"]) == 0
    out = capsys.readouterr().out
    assert out.strip().splitlines() == describe_trace(training.at(5).trace("lowly"))
    assert out.strip().splitlines()[-1].endswith("low l y</w>")


@pytest.mark.parametrize("args", [["--step", "0"], ["--step", "9"], ["--word", "a b"]])
def test_cli_bad_steps_and_words_are_one_line_errors(saved, capsys, args):
    _, path = saved
    assert main(["explain", "--training", str(path), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1


def test_a_trace_merges_the_leftmost_occurrence_first():
    training = train(Corpus.from_counts({"aaa": 3, "ab": 1}), "bpe", merges=1,
                     special_tokens=())
    found = training.at(1).trace("aaaaa")
    assert [(s.position, s.symbols) for s in found.steps] == [
        (0, ("aa", "a", "a", "a")), (1, ("aa", "aa", "a"))]
    check_trace(training.at(1), "aaaaa")


def test_the_explain_modules_do_not_import_streamlit():
    import subprocess
    import sys

    code = ("import sys, bpeviz.core.explain, bpeviz.present.render_explain,"
            " bpeviz.present.glossary;"
            "sys.exit('streamlit' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_replayed_merges_say_so_even_when_the_pair_is_not_the_best_or_absent():
    from bpeviz import replay
    from bpeviz.core.training import make_options
    from bpeviz.present.render_explain import why_merge_html

    training = replay(Corpus.from_counts({"low": 5, "lower": 2, "xy": 1}),
                      make_options("bpe", merges=3), [("x", "y"), ("l", "o"), ("w", "l")])
    first, _, absent = (training.explain(k) for k in (1, 2, 3))
    assert first.rank == 5 and first.total_pairs == 5 and first.merge.count == 1
    assert "ranked 5 of 5 pairs; the best was l + o count 7" in " ".join(describe(first))
    assert absent.rank is None and not len(absent.words) and not len(absent.tie)
    text = " ".join(describe(absent))
    assert "does not occur" in text and "won outright" not in text
    page = why_merge_html(absent)
    assert "does not occur" in page and "won outright" not in page
    assert "read from a tokenizer file" in page and "read from a tokenizer file" in text


def test_a_replayed_wordpiece_merge_the_corpus_lacks_has_no_score_and_names_the_real_best():
    from bpeviz.core.explain import pair_text
    from bpeviz.present.render_explain import why_merge_html
    from bpeviz.present.stage_data import stage_merges

    source = train(Corpus.from_text("low lower lowest newer wider " * 5 + "zzz qqq qqq"),
                   "wordpiece", merges=30)
    training = replay_on(source, "low lower newest")
    absent = next(m for m in training.merges if m.count == 0)
    why = training.explain(absent.step)
    assert why.rank is None
    best = training.at(absent.step - 1).pairs.iloc[0]
    text, page = " ".join(describe(why)), why_merge_html(why)
    for said in (text, page):  # no 0 / (0 x 0) formula for a pair the corpus lacks
        assert "0 / (0 × 0)" not in said and "would have been merged" in said
    assert "WordPiece score =" not in text and 'class="bv-why-score"' not in page
    assert f"instead: {pair_text(best.left, best.right)} score" in text
    card = stage_merges(training)["mergeCols"]["text"]
    assert card[absent.step - 1].startswith("count 0")
    assert all(card[m.step - 1].startswith("score") for m in training.merges if m.count)


def test_a_byte_level_tie_is_decided_by_hugging_faces_byte_order():
    # " a" and "aa" each occur twice: ids by byte value would pick (" ", "a") (32 < 97);
    # Hugging Face's byte-level ids put the space's "Ġ" after every letter: (a, a) wins
    training = train(Corpus.from_counts({" a": 2, "aa": 2}), "bbpe", merges=1,
                     tie_break="ids")
    why = training.explain(1)
    assert (why.merge.left, why.merge.right) == (b"a", b"a")
    assert list(zip(why.tie["left"], why.tie["right"])) == [(b" ", b"a")]
    text = " ".join(describe(why))
    order = training.vocab[:256]
    hf = sorted(range(256), key=lambda i: pair_text(order[i], b"", "gpt2"))
    a, space = hf.index(ord("a")), hf.index(ord(" "))
    assert f"in its ids a + a is ({a}, {a})" in text.replace("“", "").replace("”", "")
    assert f"({space}, {a})" in text and space > a
