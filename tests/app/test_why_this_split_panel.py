"""The "Why this split?" panel on Tokenize and Explore shows ``snapshot.trace(word)``
at the page's step: the merges that made the word's tokens in order, with their counts
(the candidates tried, for WordPiece), and the merge tree of each merged token. On
Explore it traces a word of the word splits, follows the step and keeps its word while
the page of words changes; closed, it traces nothing."""

from __future__ import annotations

import html
import re

import pytest

from bpeviz.text.display import label, visible
from tests.support.app import body_with, ok, open_page, stage
from tests.support.trainings import reference

ALGORITHMS = ["bpe", "bbpe", "wordpiece"]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_why_this_split_shows_the_trace_of_the_chosen_word(algorithm):
    training = reference(algorithm)
    text = "lowest tokenizers ŋŋ tokenizers"
    at = open_page("pages/2_Tokenize.py", algo=algorithm, text=text, text_edited=True,
                   step=150)
    box = ok(at).selectbox(key="split_word")
    words = ["lowest", "tokenizers", "ŋŋ"] if algorithm != "bbpe" else [
        "lowest", " tokenizers", " ŋŋ"]
    assert box.options == [w.replace(" ", "·") for w in words]  # spaces made visible
    for word in words[1:]:
        box.set_value(word).run()
        body = body_with(ok(at), "bv-trace")
        found = training.at(150).trace(word)
        rows = re.findall(r'<div class="bv-trace-row" data-(\w+)="(-?\d+)"(?: data-'
                          r'(?:count|id)="(-?\d+)")?', body)
        if algorithm == "wordpiece":
            assert [(int(s), int(i)) for _, s, i in rows] == [
                (p.start, p.id if p.piece is not None else -1) for p in found.pieces]
        else:
            assert [(int(m), int(c or 0)) for _, m, c in rows] == [(0, 0)] + [
                (s.step, s.count) for s in found.steps]
            assert len(found.steps) >= (4 if word.strip() == "tokenizers" else 0)
        ids = [int(i) for i in re.findall(r'data-id="(-?\d+)"',
                                          body.split("bv-trace-end")[1])]
        assert ids == list(found.ids) == training.at(150).encode(word).ids


def test_a_new_text_resets_the_word_to_trace():
    at = open_page("pages/2_Tokenize.py", text="lowest newer", text_edited=True, step=20)
    ok(at).selectbox(key="split_word").set_value("newer").run()
    assert "newer" in body_with(ok(at), "bv-trace")
    at.text_area(key="w_text").set_value("tall taller").run()
    assert ok(at).selectbox(key="split_word").value in ("tall", "taller")
    assert "“<bdi>tall" in html.unescape(body_with(at, "bv-trace"))


def test_why_this_split_draws_the_merge_tree_of_each_merged_token():
    training = reference("bpe")
    at = open_page("pages/2_Tokenize.py", text="tokenizers", text_edited=True, step=150)
    found = training.at(150).trace("tokenizers")
    trees = [b for b in (el.proto.body for el in ok(at).get("html"))
             if b.startswith('<div class="bv-tree">')]
    assert len(trees) == 1
    roots = re.findall(r'<div class="bv-tree"><ul><li><span class="bv-chip[^"]*" dir="auto" '
                       r'style="[^"]*" '
                       r'data-id="(\d+)"', trees[0])
    merged = [i for i in dict.fromkeys(found.ids) if i >= training.n_base]
    assert [int(i) for i in roots] == merged[:6] and merged


ROW = re.compile(r'<div class="bv-trace-row" data-(merge|start)="(-?\d+)"'
                 r'(?: data-(?:count|id)="(-?\d+)")?[^>]*>(.*?)</div>', re.S)


def fragment_text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def shown_trace(at) -> tuple[str, list[tuple[str, int, int, str]]]:
    body = body_with(ok(at), "bv-trace")
    return body, [(kind, int(a), int(b or 0), fragment_text(rest))
                  for kind, a, b, rest in ROW.findall(body)]


def assert_trace_shown(at, training, step: int, word: str) -> None:
    """The rows on screen are ``training.at(step).trace(word)``, in order, with numbers."""
    found = training.at(step).trace(word)
    body, rows = shown_trace(at)
    assert f"at step {step:,}" in fragment_text(body)
    if training.algorithm == "wordpiece":
        assert [(s, i) for _, s, i, _ in rows] == [
            (p.start, p.id if p.piece is not None else -1) for p in found.pieces]
        for (_, _, _, text), p in zip(rows, found.pieces):
            misses = [t for t in p.tried if t != p.piece]
            if misses:  # the candidates tried, longest first
                assert f"tried, not in the vocabulary: {', '.join(misses[:12])}" in text
            if p.piece is not None:
                assert label(p.piece) in text
                assert (f"made at merge {p.step:,}" if p.step else "starting alphabet") in text
    else:
        assert [(m, c) for _, m, c, _ in rows] == [(0, 0)] + [
            (s.step, s.count) for s in found.steps]
        for (_, _, _, text), s in zip(rows[1:], found.steps):
            assert f"merge {s.step:,} (" in text and f"count {s.count:,} when it was made" in text
            # the word's symbols after this merge, as chips in order
            assert text.split("):", 1)[1].split() == [label(x) for x in s.symbols]
    end = body.split("bv-trace-end")[1]
    assert [int(i) for i in re.findall(r'data-id="(-?\d+)"', end)] == list(found.ids)


def most_merged(training, step: int, words: list[str]) -> str:
    """The word of ``words`` whose trace at ``step`` is longest (the most to check)."""
    snap = training.at(step)
    return max(words, key=lambda w: len(snap.trace(w).steps) + len(snap.trace(w).pieces))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_why_this_split_traces_a_word_of_the_page_and_follows_the_step(algorithm):
    training = reference(algorithm)
    at = open_page("pages/1_Explore.py", explore_split_open=True, algo=algorithm, step=60)
    box = ok(at).selectbox(key="w_explore_split_word")
    page_words = [training.corpus.words[w[0]] for w in stage(at, "words")["words"]]
    assert box.options == [visible(w) for w in page_words]  # (as shown: spaces visible)
    word = most_merged(training, 60, page_words)
    box.set_value(word).run()
    assert_trace_shown(at, training, 60, word)
    # the trees of its merged tokens
    trees = body_with(at, "bv-trees")
    made = [i for i in dict.fromkeys(training.at(60).trace(word).ids) if i >= training.n_base]
    roots = re.findall(r'<div class="bv-tree"><ul><li><span class="bv-chip[^"]*" '
                       r'dir="auto" style="[^"]*" data-id="(\d+)"', trees)
    assert [int(i) for i in roots] == made[:6] and made
    # a new step: the same word, traced at that step
    for step in (150, 5):
        box_key = next(b.key for b in at.number_input if b.key.startswith("stage_box_"))
        at.number_input(key=box_key).set_value(step).run()
        assert ok(at).selectbox(key="w_explore_split_word").value == word
        assert_trace_shown(at, training, step, word)


def test_the_picked_word_stays_when_the_page_of_words_no_longer_lists_it():
    training = reference("bpe")
    at = open_page("pages/1_Explore.py", explore_split_open=True, step=30)
    box = ok(at).selectbox(key="w_explore_split_word")
    listed = [training.corpus.words[w[0]] for w in stage(at, "words")["words"]]
    word = next(w for w in reversed(listed) if "e" not in w)
    box.set_value(word).run()
    at.text_input(key="word_search").set_value("zzzz-not-a-word").run()
    assert "No word matches." in [i.value for i in ok(at).info]  # (no box drawn)
    at.text_input(key="word_search").set_value("e").run()
    listed = [training.corpus.words[w[0]] for w in stage(at, "words")["words"]]
    assert word not in listed
    box = ok(at).selectbox(key="w_explore_split_word")
    assert box.value == word and box.options == [word, *listed]  # (BPE words as they are)
    assert_trace_shown(at, training, 30, word)


def test_a_closed_why_this_split_traces_nothing():
    at = open_page("pages/1_Explore.py", step=30)
    assert not [b for b in (el.proto.body for el in ok(at).get("html")) if "bv-trace" in b]
    assert not [s for s in at.selectbox if s.key == "w_explore_split_word"]
    at.session_state["explore_split_open"] = True
    at.run()
    assert "bv-trace" in body_with(ok(at), "bv-trace")
