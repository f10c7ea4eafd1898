"""Each SuperBPE step knows its stage; stage 2 keeps the authors' two superword limits;
what SuperBPE cannot take or write is refused in words that say why."""

from __future__ import annotations

import pytest

import bpeviz
from bpeviz import Corpus
from bpeviz.algorithms.superbpe import MAX_WORDS, STAGE2_REGEX, crosses_space, training_words

TEXT = "the cat sat: on the mat. the cat sat: on the mat. " * 20


@pytest.fixture(scope="module")
def training() -> bpeviz.Training:
    return bpeviz.train(TEXT, algorithm="superbpe", merges=60, transition=10)


def test_the_transition_and_each_steps_stage_are_on_the_record(training) -> None:
    assert training.transition == 10
    assert training.stages() == tuple(1 if k <= 10 else 2 for k in range(1, 20))
    assert [training.stage(k) for k in (1, 10, 11)] == [1, 1, 2]
    assert training.corpus.pretokenizer == "superbpe"
    assert training.stage1.corpus.pretokenizer == "gpt2"
    assert not any(training.superword(k) for k in range(1, 11))
    assert training.superword(11)  # " cat sat": two words in one token


def test_why_says_the_stage_and_whether_the_merge_crosses_a_space(training) -> None:
    assert training.why(3).startswith("Merge 3 (stage 1, up to the transition at merge 10)")
    assert "cannot cross a space" in training.why(3)
    assert "stage 2" in training.why(11) and "crosses a space (a superword)" in training.why(11)


def test_stage_one_is_explained_by_the_counts_it_chose_with(training) -> None:
    for k in (1, 5, 10):
        assert training.explain(k).merge.count == training.stage1.merges[k - 1].count
    assert training.explain(12).merge == training.merges[11]


def test_pairs_stage_two_may_not_merge_are_no_rivals_in_its_explanations(training) -> None:
    step = min(training.passed_over)  # " cat sat:" + " on" had the same count, seen first
    why = training.explain(step)
    assert why.rank == 1
    rivals = [a + b for a, b in zip(why.candidates["left"], why.candidates["right"])]
    tied = [a + b for a, b in zip(why.tie["left"], why.tie["right"])]
    assert rivals[0] == training.merges[step - 1].token
    assert b" cat sat: on" not in rivals + tied and b" the " in rivals


def test_no_stage_two_token_has_a_colon_before_a_space_or_more_than_four_words(training):
    tokens = [m.token for m in training.merges[10:]]
    assert tokens and all(b": " not in t and len(t.split()) <= MAX_WORDS for t in tokens)
    passed = [t for ts in training.passed_over.values() for t in ts]
    assert b" cat sat: on" in passed  # the most frequent pair then, passed over
    assert "Passed over before it" in training.why(min(training.passed_over))
    assert training.stop_reason == "no_pairs"  # only forbidden pairs were left


def test_crossing_a_space_means_a_space_after_another_byte() -> None:
    assert [crosses_space(t) for t in (b" the", b"the ", b", and", b"   ")] == [
        False, True, True, False]


def test_stage_two_pre_tokens_split_digits_in_threes_and_punctuation_runs_only() -> None:
    text = "Call 5551234 now!!! Then, ok... a  \nb"
    assert STAGE2_REGEX.findall(text) == [
        "Call ", "555", "123", "4", " now", "!!!", " Then, ok", "...", " a", "  ", "\nb"]
    assert "".join(STAGE2_REGEX.findall(text)) == text
    assert training_words(text)[-2:] == ["\n", "b"]  # training reads one line at a time


def test_a_corpus_cut_at_spaces_is_refused_with_what_to_give_instead() -> None:
    with pytest.raises(ValueError, match=r"needs the text with its spaces.*'whitespace'"):
        bpeviz.train(Corpus.from_text(TEXT), algorithm="superbpe", merges=5, transition=2)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="transition must be a whole number"):
        bpeviz.train(TEXT, algorithm="superbpe", merges=5, transition=-1)
    with pytest.raises(ValueError, match="tie_break"):
        bpeviz.train(TEXT, algorithm="superbpe", merges=5, transition=2, tie_break="last")


def test_progress_counts_both_stages_towards_all_the_merges() -> None:
    seen: list[tuple[int, int]] = []
    text = "to be or not to be, that is the question. " * 30
    bpeviz.train(text, algorithm="superbpe", merges=250, transition=120,
                 progress=lambda done, total: seen.append((done, total)))
    assert {total for _, total in seen} == {250} and seen[-1][0] == len(
        bpeviz.train(text, algorithm="superbpe", merges=250, transition=120).merges)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_four_words_is_the_longest_superword() -> None:
    t = bpeviz.train("one two three four five six " * 40, algorithm="superbpe", merges=60,
                     transition=20)
    longest = max(len(m.token.split()) for m in t.merges)
    assert longest == MAX_WORDS == 4
    passed = [s for ss in t.passed_over.values() for s in ss]
    assert passed and all(len(s.split()) == 5 for s in passed)
