"""Every notation on screen is explained where it is shown: the glossary lists the
notations of the tokens a page draws, and each chip's hover title carries the notes of its
marks (on Tokenize, in the word splits, the trace and the "Why this merge?" panel, on the
home and Vocabulary pages)."""

from __future__ import annotations

import html
import re

import pytest

from bpeviz.present.glossary import CHIP_NOTES, chip_note
from bpeviz.text.display import label
from tests.support.app import body_with, ok, open_page, stage
from tests.support.trainings import reference

ALGORITHMS = ["bpe", "bbpe", "wordpiece"]


def attrs(tag: str) -> dict[str, str]:
    return {k: html.unescape(v) for k, v in re.findall(r'data-([\w-]+)="([^"]*)"', tag)}


def panel(at) -> tuple[dict[str, str], str]:
    body = body_with(ok(at), "bv-why")
    head = re.search(r'<div class="bv-why"[^>]*>', body).group()
    return attrs(head), body


def text_of(body: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", body.split("</style>")[-1]))


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


def fragment_text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def titles(body: str) -> dict[int, str]:
    return {int(i): html.unescape(t).replace("\u2060", "") for i, t in  # (attr_text)
            re.findall(r'data-id="(-?\d+)" title="([^"]*)"', body)}


@pytest.mark.parametrize(("algorithm", "key", "settings"), [
    ("wordpiece", "wordpiece-prefix", {}),
    ("bbpe", "byte-space", {}),
    ("bpe", "marker-end", {"marker": "</w>"}),
])
def test_chips_of_the_trace_and_panel_say_what_their_marks_mean(algorithm, key, settings):
    training = reference(algorithm, **settings)
    at = open_page("pages/1_Explore.py", explore_split_open=True, algo=algorithm, step=120,
                   **settings)
    wanted = CHIP_NOTES[key].format(marker=training.options.marker)
    listed = [training.corpus.words[w[0]] for w in stage(at, "words")["words"]]
    word = next(w for w in listed if any(wanted in chip_note(training, training.vocab[i])
                                         for i in training.at(120).trace(w).ids))
    ok(at).selectbox(key="w_explore_split_word").set_value(word).run()
    noted = 0
    for marker in ("bv-trace", "bv-why", "bv-trees"):
        for i, title in titles(body_with(ok(at), marker)).items():
            note = chip_note(training, training.vocab[i])
            assert title.startswith(f"id {i} · {label(training.vocab[i])} · bytes ")
            assert title.endswith(f" · {note}") if note else " · " not in title.split(
                " · bytes ")[1]
            noted += wanted in title
    assert noted, f"no chip on the page carries the {key} note"


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_the_stage_sends_each_tokens_note_for_the_chip_titles(algorithm):
    training = reference(algorithm)
    at = open_page("pages/1_Explore.py", explore_split_open=True, algo=algorithm, step=40)
    for role in ("card", "words"):
        data = stage(at, role)
        labels = data["labels"]
        items = labels.items() if isinstance(labels, dict) else enumerate(labels)
        notes = [(int(i), data["notes"][lab[2]] if len(lab) > 2 else "") for i, lab in items]
        assert notes == [(i, chip_note(training, training.vocab[i])) for i, _ in notes]
        assert any(n for _, n in notes) == (role == "card" or algorithm != "bpe")


def test_tokenize_chips_say_what_their_marks_mean():
    training = reference("wordpiece")
    text = "tokenizers ŋŋ"
    at = open_page("pages/2_Tokenize.py", algo="wordpiece", text=text, text_edited=True,
                   step=150)
    # the chips are drawn in the browser from the stage's data: each label carries the
    # index of its note (the title's last part; tests/browser/ checks the drawing)
    data = stage(ok(at), "tokens")
    tokens = list(training.at(150).encode(text))
    assert {int(i) for i in data["labels"]} >= {t.id for t in tokens}
    assert any(t.text.startswith("##") for t in tokens) and any(t.unk for t in tokens)
    shown = {t.id: (data["notes"][data["labels"][str(t.id)][2]]
                    if len(data["labels"][str(t.id)]) > 2 else "") for t in tokens}
    for t in tokens:
        assert shown[t.id] == chip_note(training, t.text)
    assert CHIP_NOTES["wordpiece-prefix"] in shown[next(t.id for t in tokens
                                                        if t.text.startswith("##"))]
    assert CHIP_NOTES["unk"] in shown[next(t.id for t in tokens if t.unk)]


@pytest.mark.parametrize(("page", "marker"), [("app.py", "bv-words"), ("app.py", "Merge"),
                                              ("pages/4_Vocabulary.py", "bv-tree")])
def test_home_and_vocabulary_chips_carry_their_notes(page, marker):
    training = reference("wordpiece")
    at = open_page(page, algo="wordpiece", step=150)
    bodies = [b for b in (el.proto.body for el in ok(at).get("html"))
              if 'class="bv-chip' in b and (marker in b or marker == "Merge")]
    shown = {i: t for b in bodies for i, t in titles(b).items()}
    assert shown
    for i, title in shown.items():
        note = chip_note(training, training.vocab[i])
        assert title.endswith(f" · {note}") if note else title.count(" · ") == 2
    assert any(CHIP_NOTES["wordpiece-prefix"] in t for t in shown.values()) or page != "app.py"


@pytest.mark.parametrize(("algorithm", "sample", "step", "key"), [
    ("bbpe", "tour", 3, "byte-gpt2"), ("wordpiece", "hug", 2, "wordpiece-prefix")])
def test_the_why_panel_explains_the_marks_on_its_chips(algorithm, sample, step, key):
    from bpeviz.present.glossary import notes

    training = reference(algorithm, sample=sample)
    at = open_page("pages/1_Explore.py", algo=algorithm, sample=sample, step=step)
    panel = body_with(ok(at), 'class="bv-why"')
    legend = panel[panel.index('class="bv-legend"'):]  # under the panel, in its view
    why = training.explain(step)
    rivals = why.runners_up.iloc[:5]
    expected = notes(training, [why.merge.left, why.merge.right, why.merge.token,
                                *rivals["left"], *rivals["right"]])
    assert re.findall(r'data-note="([\w-]+)"', legend) == [n.key for n in expected]
    assert key in [n.key for n in expected]
    assert all(n.text in fragment_text(legend) for n in expected)
