"""The guided lesson (bpeviz.analysis.lesson, bpeviz.present.render_lesson): its numbers are the
training's (explain(k), a recount of the splits, encode), its sentences name the actual
pairs, counts and words, and another corpus gives another text."""

from __future__ import annotations

import html
import re
from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, train
from bpeviz.algorithms import initial_symbols
from bpeviz.analysis.lesson import LESSON_SAMPLES, SMALL_SAMPLES, build_lesson, lesson_training
from bpeviz.present.render_lesson import lesson_step_html
from bpeviz.samples import SAMPLES
from bpeviz.text.display import label
from tests.support import ROOT

ALGORITHMS = ["bpe", "wordpiece", "bbpe"]


def lesson_for(algorithm: str, sample: str | None = None):
    sample = sample or LESSON_SAMPLES[algorithm]
    training = lesson_training(algorithm, sample)
    return training, build_lesson(training, SAMPLES[sample].try_text)


def step(lesson, key: str):
    return next(s for s in lesson.steps if s.key == key)


def recount(training, k: int) -> Counter:
    """Pair counts after k - 1 merges, counted afresh from the splits."""
    snap = training.at(k - 1)
    counts: Counter = Counter()
    for word, count in zip(training.corpus.words, training.corpus.counts):
        split = snap.splits[word]
        for a, b in pairwise(split):
            counts[(a, b)] += count
    return counts


def units(training, k: int) -> Counter:
    snap = training.at(k - 1)
    counts: Counter = Counter()
    for word, count in zip(training.corpus.words, training.corpus.counts):
        for s in snap.splits[word]:
            counts[s] += count
    return counts


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_the_lesson_has_seven_steps_in_order(algorithm):
    _, lesson = lesson_for(algorithm)
    assert [s.key for s in lesson.steps] == ["corpus", "split", "first-merge", "next-merge",
                                             "repeat", "encode", "research"]
    assert all(s.sentences for s in lesson.steps)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_merge_steps_show_the_numbers_of_explain(algorithm):
    training, lesson = lesson_for(algorithm)
    for key in ("first-merge", "next-merge"):
        s = step(lesson, key)
        k = s.merge_step
        why = training.explain(k)
        m = why.merge
        n = s.numbers
        assert (n["step"], n["count"], n["score"], n["tie"]) == (k, m.count, why.score,
                                                                  len(why.tie))
        assert n["words"] == list(why.words[["word", "count", "occurrences", "contribution"]]
                                  .itertuples(index=False, name=None))
        assert sum(w[3] for w in n["words"]) == m.count
        # against a recount, not only against explain
        assert recount(training, k)[(m.left, m.right)] == m.count
        counts = training.token_counts()
        assert (n["tokens_before"], n["tokens_after"]) == (counts[k - 1], counts[k])
        text = " ".join(s.text())
        pair = f"{label(m.left)} + {label(m.right)}"
        assert pair in text and f"{_times(m.count)} in the corpus" in text
        for word in why.words["word"].iloc[:8]:
            assert f"“{label(word)}” ×" in text
        assert f"new token {label(m.token)} (id {m.token_id}: its number in the vocabulary)" in text
        if algorithm == "wordpiece":
            u = units(training, k)
            assert (n["count_left"], n["count_right"]) == (u[m.left], u[m.right])
            assert f"{m.count} / ({u[m.left]} × {u[m.right]}) = {why.score:.4g}" in text
        if len(why.tie):
            assert "a tie" in text and "first seen in the corpus" in text
        # the words table: every changed word, before and after
        changed = [w for w in s.words if w.changed]
        assert {w.index for w in changed} == set(training.at(k).changed_words)
        for w in changed:
            assert tuple(x.symbol for x in w.before) == training.at(k - 1).splits[w.word]
            assert tuple(x.symbol for x in w.after) == training.at(k).splits[w.word]


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def test_wordpiece_says_why_a_rare_pair_beats_the_most_frequent_one():
    training, lesson = lesson_for("wordpiece")
    s = step(lesson, "first-merge")
    pairs = recount(training, 1)
    (a, b), top = pairs.most_common(1)[0]
    u = units(training, 1)
    m = training.merges[0]
    assert top > m.count, "on the HF course sample the winner is not the most frequent pair"
    text = " ".join(s.text())
    assert (f"The most frequent pair, {a} + {b} ({top} times), scores only {top} / "
            f"({u[a]} × {u[b]}) = {top / (u[a] * u[b]):.4g}") in text
    assert s.numbers["most_frequent"]["count"] == top


def test_bpe_counts_the_corpus_and_its_symbols():
    training, lesson = lesson_for("bpe")
    corpus = training.corpus
    first = step(lesson, "corpus")
    assert first.numbers["counts"] == dict(zip(corpus.words, corpus.counts))
    assert f"holds {corpus.total} words, {len(corpus.words)} of them different" in \
        first.text()[0]
    split = step(lesson, "split")
    symbols = {s for w in corpus.words for s in initial_symbols(w, "bpe", "</w>")}
    total = sum(c * len(initial_symbols(w, "bpe", "</w>"))
                for w, c in zip(corpus.words, corpus.counts))
    assert (split.numbers["alphabet"], split.numbers["tokens"]) == (len(symbols), total)
    assert f"The corpus is now {total} symbols long" in " ".join(split.text())
    assert "</w>" in split.text()[0]


def test_byte_level_explains_bytes_spaces_and_partial_characters():
    training, lesson = lesson_for("bbpe")
    split = " ".join(step(lesson, "split").text())
    assert "256 possible bytes" in split and "byte 32 (0x20 in hexadecimal), drawn Ġ" in split
    s = step(lesson, "next-merge")
    m = training.merges[s.merge_step - 1]
    with pytest.raises(UnicodeDecodeError):
        m.token.decode("utf-8")
    why = training.explain(s.merge_step)
    word = why.first_word
    # the characters whose bytes the new token takes, found by searching the word's bytes
    data = word.encode()
    at = data.find(m.token)
    spans, offset = [], 0
    for ch in word:
        size = len(ch.encode())
        if offset < at + len(m.token) and offset + size > at:
            spans.append(ch)
        offset += size
    text = " ".join(s.text())
    assert len(spans) >= 2 or not m.token.decode("utf-8", "ignore")
    for ch in spans:
        assert f"part of “{ch}”" in text
    assert "Ġ is the space in front of a word" in " ".join(step(lesson, "first-merge").text())


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_the_last_step_tokenizes_a_new_word_as_encode_does(algorithm):
    training, lesson = lesson_for(algorithm)
    s = step(lesson, "encode")
    word = s.numbers["word"]
    assert word not in training.corpus.words
    assert word in SAMPLES[LESSON_SAMPLES[algorithm]].try_text
    ids = [t.id for t in training.at(len(training.merges)).encode(word)]
    assert list(s.trace.ids) == ids
    text = " ".join(s.text())
    assert f"“{label(word)}” was never in the corpus" in text
    if algorithm == "wordpiece":
        assert "becomes [UNK]" in text  # "mug": m was never in the corpus
    else:
        assert f"ends as {len(ids)} token" in text
        for k in dict.fromkeys(s.numbers["merges"]):
            assert f"merge {k} (" in text or "more merge" in text
    if algorithm == "bbpe":
        tokens = training.at(len(training.merges)).encode(word)
        assert any(t.partial for t in tokens)
        for t in tokens:
            assert (f"part of “{word[t.start:t.end]}”" if t.partial else f"“{t.text}”") in text


@pytest.mark.parametrize("sample", SMALL_SAMPLES)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_small_sample_makes_a_lesson(algorithm, sample):
    training, lesson = lesson_for(algorithm, sample)
    assert len(lesson.steps) == 7 if len(training.merges) >= 2 else len(lesson.steps) >= 5
    for n in range(1, len(lesson.steps) + 1):
        lesson_step_html(lesson, n)


def test_another_corpus_gives_another_text():
    a = build_lesson(train(Corpus.from_counts({"low": 5, "lower": 2, "newest": 6,
                                               "widest": 3}), merges=5, marker="</w>"))
    b = build_lesson(train(Corpus.from_counts({"hat": 4, "that": 3, "chat": 2}), merges=5,
                           marker="</w>"))
    for sa, sb in zip(a.steps[:-1], b.steps[:-1]):  # the research step has its own text
        assert sa.key == sb.key and sa.text() != sb.text()
    assert "“that” ×3" in " ".join(b.steps[0].text())
    first = " ".join(b.steps[2].text())
    m = b.training.merges[0]
    assert f"{m.left} + {m.right} occurs {m.count} times" in first


def test_no_merge_and_one_merge():
    none = build_lesson(train(Corpus.from_counts({"a": 3, "b": 1}), merges=5))
    assert [s.key for s in none.steps][:3] == ["corpus", "split", "no-merge"]
    one = build_lesson(train(Corpus.from_counts({"ab": 3}), merges=5))
    assert "next-merge" not in [s.key for s in one.steps]
    assert "first-merge" in [s.key for s in one.steps]


words = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Zs", "Cc", "Zl", "Zp")),
                min_size=1, max_size=6)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(words, st.integers(1, 9), min_size=1, max_size=6),
       st.sampled_from(ALGORITHMS), st.integers(0, 6), st.text(max_size=20))
def test_any_corpus_makes_a_lesson_with_explains_numbers(counts, algorithm, merges, example):
    training = train(Corpus.from_counts(counts), algorithm, merges=merges)
    lesson = build_lesson(training, example)
    for s in lesson.steps:
        if s.explanation is not None:
            why = training.explain(s.merge_step)
            assert s.numbers["count"] == why.merge.count == sum(w[3] for w in s.numbers["words"])
        body = lesson_step_html(lesson, lesson.steps.index(s) + 1)
        # only the renderer's own tags
        assert set(re.findall(r"<(\w+)", body)) <= {"style", "div", "p", "span", "table",
                                                    "thead", "tbody", "tr", "th", "td", "bdi",
                                                    "h4"}


def test_words_are_escaped_in_the_html():
    hostile = {"<b>x</b>": 3, "<script>": 2, "a&b": 2}
    lesson = build_lesson(train(Corpus.from_counts(hostile), merges=3))
    for n in range(1, len(lesson.steps) + 1):
        body = lesson_step_html(lesson, n)
        assert "<b>" not in body and "<script" not in body
    body = lesson_step_html(lesson, 1)
    assert "“<bdi>&lt;b&gt;x&lt;/b&gt;</bdi>” ×3" in body
    assert "“<b>x</b>” ×3" in html.unescape(re.sub(r"<[^>]+>", "", body.split("</style>")[-1]))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_the_html_carries_the_numbers(algorithm):
    training, lesson = lesson_for(algorithm)
    n = [s.key for s in lesson.steps].index("first-merge") + 1
    body = lesson_step_html(lesson, n)
    why = training.explain(1)
    head = re.search(r'<div class="bv-lesson"[^>]*>', body).group()
    data = dict(re.findall(r'data-([\w-]+)="([^"]*)"', head))
    assert int(data["lesson-step"]) == n and data["key"] == "first-merge"
    assert int(data["count"]) == why.merge.count and float(data["score"]) == why.score
    assert int(data["tie"]) == len(why.tie)


def test_the_lesson_modules_do_not_import_streamlit():
    import subprocess
    import sys

    code = ("import sys, bpeviz.analysis.lesson, bpeviz.present.render_lesson; "
            "print('streamlit' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


def test_a_tie_under_the_ids_rule_names_the_ids():
    training = train(Corpus.from_counts({"low": 5, "lower": 2, "newest": 6, "widest": 3}),
                     merges=3, marker="</w>", tie_break="ids")
    lesson = build_lesson(training)
    s = step(lesson, "first-merge")
    why = training.explain(1)
    assert len(why.tie) and s.numbers["tie_rule"] == "ids"
    text = " ".join(s.text())
    assert "“smallest ids” decides" in text
    assert f"has the smallest ids ({why.merge.left_id}, {why.merge.right_id})" in text


def test_the_words_table_puts_the_changed_words_first():
    counts = {chr(0x4E00 + i): 1 for i in range(30)} | {"ab": 9, "cab": 2}  # no other pair
    training = train(Corpus.from_counts(counts), merges=1)
    s = step(build_lesson(training, max_words=5), "first-merge")
    changed = set(training.at(1).changed_words)
    assert [w.index for w in s.words if w.changed] == sorted(changed) == [30, 31]
    assert [w.changed for w in s.words] == sorted((w.changed for w in s.words), reverse=True)
    assert len(s.words) == 5
