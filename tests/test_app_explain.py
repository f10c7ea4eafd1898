"""The "Why this merge?" panel on Explore shows the numbers of training.explain(k)."""

from __future__ import annotations

import html
import re

import pytest

from bpeviz.text.display import visible
from tests.test_app import body_with, ok, open_page, reference

ALGORITHMS = ["bpe", "bbpe", "wordpiece"]


def attrs(tag: str) -> dict[str, str]:
    return {k: html.unescape(v) for k, v in re.findall(r'data-([\w-]+)="([^"]*)"', tag)}


def spans(body: str, cls: str) -> list[dict[str, str]]:
    return [attrs(tag) for tag in re.findall(rf'<span class="{cls}"[^>]*>', body)]


def panel(at) -> tuple[dict[str, str], str]:
    body = body_with(ok(at), "bv-why")
    head = re.search(r'<div class="bv-why"[^>]*>', body).group()
    return attrs(head), body


def text_of(body: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", body.split("</style>")[-1]))


def first_tied_step(training) -> int:
    return next(k for k in range(1, len(training.merges) + 1) if len(training.explain(k).tie))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_the_panel_shows_the_numbers_of_explain(algorithm):
    training = reference(algorithm)
    for step in (1, 37, first_tied_step(training)):
        why = training.explain(step)
        at = open_page("pages/1_Explore.py", algo=algorithm, step=step)
        head, body = panel(at)
        m = why.merge
        assert int(head["step"]) == step
        assert int(head["count"]) == m.count == int(head["word-sum"])
        assert float(head["score"]) == why.score
        assert int(head["words"]) == len(why.words)
        assert int(head["tie"]) == len(why.tie) and head["tie-rule"] == why.tie_rule
        words = why.words.iloc[:8]
        assert [(int(s["count"]), int(s["occurrences"]), int(s["contribution"]))
                for s in spans(body, "bv-why-word")] == list(
            words[["count", "occurrences", "contribution"]].itertuples(index=False, name=None))
        rivals = why.runners_up.iloc[:5]
        assert [(int(s["left-id"]), int(s["right-id"]), int(s["count"]), float(s["score"]))
                for s in spans(body, "bv-why-rival")] == list(
            rivals[["left_id", "right_id", "count", "score"]].itertuples(index=False, name=None))
        text = text_of(body)
        for word in map(visible, words["word"]):  # (spaces shown as ·)
            assert f"“{word}” ×" in text or (len(word) > 32 and f"“{word[:31]}…” ×" in text)
        if algorithm == "wordpiece":
            assert (int(head["count-left"]), int(head["count-right"])) == (
                why.count_left, why.count_right)
            assert f"= {m.count:,} / ({why.count_left:,} × {why.count_right:,}) = " in text
        else:
            assert head["count-left"] == head["count-right"] == ""
        if len(why.tie):
            assert "A tie:" in text and "first seen in the corpus" in text
            assert f"“{visible(why.first_word)[:31]}" in text
        else:
            assert "won outright" in text


def test_a_tie_under_the_ids_rule_names_the_ids():
    training = reference("bpe", tie="ids")
    step = first_tied_step(training)
    why = training.explain(step)
    at = open_page("pages/1_Explore.py", step=step, tie="ids")
    head, body = panel(at)
    assert head["tie-rule"] == "ids" and int(head["tie"]) == len(why.tie)
    text = text_of(body)
    assert "smallest ids" in text and "BpeTrainer" in text
    assert f"({why.merge.left_id:,}, {why.merge.right_id:,})" in text


def test_step_zero_says_there_is_no_merge_yet():
    at = open_page("pages/1_Explore.py", step=0)
    assert not [b for b in (el.proto.body for el in at.get("html")) if "bv-why" in b]
    assert any("no merge yet" in c.value for c in ok(at).caption)


def test_words_in_the_panel_are_escaped():
    corpus = "<b>ab</b> <b>ab</b> <b>ab</b> $x$ **ab** ab"
    at = open_page("pages/1_Explore.py", source="paste", paste=corpus, step=1)
    _, body = panel(at)
    assert "<b>" not in body and "<script" not in body
    assert "“<bdi>&lt;b&gt;ab&lt;/b&gt;</bdi>” ×3" in body
    assert "“<b>ab</b>” ×3" in text_of(body)


# -- the glossary -------------------------------------------------------------------------
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_tokenize_explains_the_notations_of_its_tokens(algorithm):
    from bpeviz.present.glossary import token_notes

    training = reference(algorithm)
    text = "lowest newer 自然语言处理 👍🏽 ŋŋ <b>x</b>"
    at = open_page("pages/2_Tokenize.py", algo=algorithm, text=text, text_edited=True,
                   step=40)
    legend = body_with(ok(at), "bv-legend")
    keys = re.findall(r'data-note="([\w-]+)"', legend)
    expected = token_notes(training, text, list(training.at(40).encode(text)))
    assert keys == [n.key for n in expected]
    assert ("unk" in keys) == (algorithm != "bbpe") and ("partial" in keys) == (
        algorithm == "bbpe")
    shown = text_of(legend)
    assert all(n.text in shown for n in expected)
    assert "<b>" not in legend


@pytest.mark.parametrize(("algorithm", "key"), [("wordpiece", "wordpiece-prefix"),
                                                ("bbpe", "byte-gpt2")])
def test_explore_explains_the_notations_in_the_word_splits(algorithm, key):
    at = open_page("pages/1_Explore.py", algo=algorithm, step=20)
    # the last legend: the one under the word splits (the first explains the Why panel)
    legend = [b for b in (el.proto.body for el in ok(at).get("html")) if "bv-legend" in b][-1]
    assert f'data-note="{key}"' in legend


def test_frequency_scoring_says_hf_ranks_by_count_and_writes_the_score_out():
    training = reference("wordpiece", scoring="frequency")
    why = training.explain(5)
    at = open_page("pages/1_Explore.py", algo="wordpiece", scoring="frequency", step=5)
    head, body = panel(at)
    text = text_of(body)
    assert head["value"] == "count" and int(head["count"]) == why.merge.count
    assert "ranked by count only" in text and "WordPieceTrainer" in text
    assert (f"= {why.merge.count:,} / ({why.count_left:,} × {why.count_right:,}) = "
            f"{why.formula_score:.4g}") in text


# -- why this split -----------------------------------------------------------------------
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
