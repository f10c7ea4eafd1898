"""The "Why this merge?" panel on Explore shows the numbers of training.explain(k)."""

from __future__ import annotations

import html
import re

import pytest

from bpeviz.present.html_tree import tree_html
from bpeviz.text.display import visible
from tests.support.app import body_with, ok, open_page, stage
from tests.support.trainings import reference

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
    views = {k: tree_html(v) for k, v in stage(ok(at), "panel")["views"].items()}
    assert "bv-why" not in views["0"] and "no merge yet" in views["0"]
    # the steps the bar reaches next are sent too, each its own merge's panel
    assert 'data-step="1"' in views["1"]


def test_words_in_the_panel_are_escaped():
    corpus = "<b>ab</b> <b>ab</b> <b>ab</b> $x$ **ab** ab"
    at = open_page("pages/1_Explore.py", source="paste", paste=corpus, step=1)
    _, body = panel(at)
    assert "<b>" not in body and "<script" not in body
    assert "“<bdi>&lt;b&gt;ab&lt;/b&gt;</bdi>” ×3" in body
    assert "“<b>ab</b>” ×3" in text_of(body)
