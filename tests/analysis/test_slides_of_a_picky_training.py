"""Offline slides of a PickyBPE training: its steps are merges and removals, drawn by its
record's step views (the red removal card, "Why this step?" with its IoS), which the file
carries for the steps around the one it opens at (at most ``VIEW_STEPS``); the bar ticks
the removals, the words and the text follow every step as in the app. The browser's side
is tests/browser/test_picky_slides_play_offline.py."""

from __future__ import annotations

import subprocess
import sys

import pytest

import bpeviz
from bpeviz.present import slides
from bpeviz.present.slides import slides_html, view_window
from bpeviz.present.text_history import tokens_at
from bpeviz.samples import load_sample
from tests.support import ROOT
from tests.support.slides import data_of

HOSTILE = '<img src=x onerror=alert(1)></script>'


@pytest.fixture(scope="module")
def training():
    return bpeviz.train(load_sample("tour", "whitespace"), algorithm="picky", merges=120,
                        threshold=0.9)


def texts(tree) -> str:
    """The text of an html_tree (what the browser shows)."""
    if isinstance(tree, str):
        return tree
    if isinstance(tree, list) and tree and isinstance(tree[0], str) and len(tree) >= 2 \
            and isinstance(tree[1], dict):
        return "" if tree[0] == "style" else "".join(texts(t) for t in tree[2:])
    return "".join(texts(t) for t in tree)


def test_every_step_has_its_card_and_why_and_a_removal_reads_as_one(training):
    data = data_of(slides_html(training, text="hugs lowest", step=0))
    n = len(training.events)
    card, why = data["bv-card"], data["bv-why"]
    assert card["role"] == why["role"] == "panel"
    assert sorted(map(int, card["views"])) == sorted(map(int, why["views"])) == list(range(n + 1))
    removal = next(e for e in training.events if e.kind == "removal")
    assert removal.token in texts(card["views"][str(removal.step)])
    assert "IoS" in texts(why["views"][str(removal.step)])
    merge = training.events[0]
    assert f"{merge.count:,}" in texts(card["views"]["1"])
    marks = data["bv-controls"]["landmarks"]
    assert [m[0] for m in marks if len(m) > 2 and m[2] == "removal"] == [
        e.step for e in training.events if e.kind == "removal"]


def test_the_words_and_the_text_follow_every_step(training):
    text = "The tokenizer learns tokens: lowest newer"
    data = data_of(slides_html(training, text=text, words=5))
    history = {k: data["bv-tokens"][k] for k in ("words", "forms")}
    for k in range(len(training.events) + 1):
        want = [(t.id, t.start, t.end, 2 if t.unk else 0)
                for t in training.at(k).encode(text)]
        assert tokens_at(history, k) == want, k
    top = sorted(range(len(training.words)), key=lambda i: -training.counts[i])[:5]
    assert [w[0] for w in data["bv-words"]["words"]] == top


def test_a_long_training_carries_the_views_of_the_steps_around_the_one_it_opens_at(
        training, monkeypatch):
    monkeypatch.setattr(slides, "VIEW_STEPS", 30)
    n = len(training.events)
    data = data_of(slides_html(training, step=60))
    held = sorted(map(int, data["bv-card"]["views"]))
    assert held == list(range(45, 75)) and view_window(60, n, 30) == (45, 74)
    assert "holds steps 45 to 74" in data["bv-card"]["waiting"]
    assert data["bv-controls"]["n"] == n, "the bar still reaches every step"


def test_user_text_in_the_slides_is_data(tmp_path):
    training = bpeviz.train(f"{HOSTILE} hug hug hugs {HOSTILE}", algorithm="picky",
                            merges=10, threshold=0.6)
    page = slides_html(training, text=HOSTILE, words=5)
    assert "<img" not in page and page.count("</script>") == 3


def test_the_command_line_writes_a_picky_trainings_slides(tmp_path):
    saved, out = tmp_path / "picky.json", tmp_path / "s.html"
    corpus = tmp_path / "c.txt"
    corpus.write_text("hug hug hug hugs pug pug pun bun hugs hugs lower lowest\n" * 3)
    done = subprocess.run([sys.executable, "-m", "bpeviz", "train", str(corpus),
                           "--algorithm", "picky", "--merges", "15", "--out", str(saved)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([sys.executable, "-m", "bpeviz", "slides", "--training", str(saved),
                           "--out", str(out), "--text", "hugs"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert " steps)" in done.stderr
    data = data_of(out.read_text("utf-8"))
    assert data["bv-card"]["role"] == "panel" and "bv-why" in data
