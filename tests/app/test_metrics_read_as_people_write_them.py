"""Numbers as people read them: the Explore changes with thousands separators, Compare's
shares as percentages, its per-script table a wide table (a script a row), and one
definition of "word" for every algorithm, shown on hover."""

from __future__ import annotations

import html
import json
import re

from bpeviz import Corpus, train
from bpeviz.analysis.compare import WORD_DEFINITION, metrics
from bpeviz.unigram import train_unigram
from tests.support.app import ok, open_page, stage

HUGS = "hug the pug hugs a pun " * 30


def test_explore_numbers_are_sent_for_every_step_the_browser_draws():
    """The numbers beside the card are drawn by the browser at the bar's step (their
    writing, "+1" and "-2,000", is tested in Node: tests/numbers.test.mjs); the page
    sends the vocabulary's size and the corpus's tokens of every step."""
    at = ok(open_page("pages/1_Explore.py", source="paste", paste="ab " * 2000, step=1))
    sent = stage(at, "numbers")
    values = {m["label"]: m["values"] for m in sent["metrics"]}
    good = {m["label"]: m["good"] for m in sent["metrics"]}
    # 2,000 words "ab": "a" + "b" each at step 0, one "ab" each after the first merge
    assert values["Corpus tokens"][:2] == [4000, 2000], values["Corpus tokens"][:3]
    assert values["Vocabulary"][1] - values["Vocabulary"][0] == 1
    assert good == {"Vocabulary": "up", "Corpus tokens": "down"}  # fewer tokens: better
    assert len(values["Vocabulary"]) == len(values["Corpus tokens"]) == sent["n"] + 1
    assert sent["step"] == at.session_state["step"] == 1


def _frames(at):
    return [d.value for d in at.dataframe]


def test_compare_shares_are_percentages():
    at = ok(open_page("pages/3_Compare.py"))
    metrics_frame = _frames(at)[0].set_index("metric")
    for label in ("share of words cut into 2+ tokens", "share of tokens unknown ([UNK], <unk>)"):
        assert all(v.endswith("%") for v in metrics_frame.loc[label]), metrics_frame.loc[label]


def _script_table(at) -> str:
    return next(el.proto.body for el in at.get("html") if "bv-scripts" in el.proto.body)


def test_compare_by_script_is_a_wide_table_with_a_script_a_row():
    at = ok(open_page("pages/3_Compare.py"))
    table = _script_table(at)
    header, body = table.split("</thead>")
    assert header.index(">script<") < header.index(">words<") < header.index(">tokens/word<")
    assert ">A</th>" in header and ">B</th>" in header
    scripts = re.findall(r"<tr><td>([^<]*)</td>", body)
    assert scripts and len(scripts) == len(set(scripts))  # a script a row
    assert re.search(r"<td>[0-9.]+%</td>", body)  # shares as percentages


def test_compare_says_what_a_word_is_on_hover():
    at = ok(open_page("pages/3_Compare.py"))
    helps = [json.loads(d.proto.columns) for d in at.dataframe]
    assert WORD_DEFINITION in helps[0]["metric"]["help"]
    assert html.escape(WORD_DEFINITION) in _script_table(at)  # the tokens/word headers
    assert WORD_DEFINITION in at.selectbox(key="w_cmp_metric").help


def test_a_standalone_unigram_space_piece_counts_for_the_word_after_it():
    unigram = train_unigram(HUGS, 40)
    snap = unigram.at(len(unigram.steps) - 1)
    tokens = snap.encode("hello hug")
    assert tokens[0].text == "▁"  # a piece of its own, before "h"
    m = metrics("hello hug", tokens)
    assert m.word_tokens == len(tokens) and m.words == 2


def test_a_separate_end_of_word_marker_counts_for_the_word_it_ends():
    training = train(Corpus.from_text(HUGS), "bpe", merges=3, marker="</w>")
    tokens = training.at(3).encode("hug pun")
    assert tokens[-1].text == "</w>"
    assert metrics("hug pun", tokens).word_tokens == len(tokens)


def test_a_space_kept_apart_counts_for_the_word_after_it_and_a_final_newline_for_none():
    training = train(Corpus.from_text(HUGS, "gpt2"), "bbpe", merges=3)
    tokens = training.at(3).encode("a  b\n")
    assert [t.text for t in tokens] == ["a", " ", " ", "b", "\n"]
    m = metrics("a  b\n", tokens)
    assert (m.words, m.word_tokens, m.split_words) == (2, 4, 1)
