"""Offline slides carry where they were made: the step and the theme the Explore page
showed (the file opens there; the keys still reach every step), and the corpus's name in
their title, from the app and from ``python -m bpeviz train`` then ``slides`` (which
titled them with the training file's name, "Trained on t500.json")."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from bpeviz import Corpus, save, train
from bpeviz.present.slides import slides_html
from tests.support import ROOT


def _data(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="bv-data">(.*?)</script>', page,
                      re.S)
    assert found
    return json.loads(found.group(1))


def _training():
    return train(Corpus.from_text("low lower lowest newer wider " * 3), merges=8)


def test_slides_open_at_the_step_they_were_made_at():
    data = _data(slides_html(_training(), text="lower", step=5))
    assert data["bv-controls"]["step"] == 5
    assert data["bv-controls"]["n"] == 8, "every step stays in reach"
    assert {data[part]["step"] for part in ("bv-card", "bv-words", "bv-tokens")} == {5}


@pytest.mark.parametrize("asked,opened", [(-3, 0), (99, 8), (0, 0)])
def test_a_step_outside_the_merges_opens_at_the_nearest_end(asked, opened):
    assert _data(slides_html(_training(), step=asked))["bv-controls"]["step"] == opened


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_slides_open_in_the_theme_they_were_made_in(theme):
    page = slides_html(_training(), theme=theme)
    assert f'<html lang="en" data-theme="{theme}">' in page
    assert f"html[data-theme={theme}] body" in page


@pytest.mark.parametrize("theme", [None, "", "sepia", '"><script>'])
def test_without_a_known_theme_slides_follow_the_system(theme):
    page = slides_html(_training(), theme=theme)
    assert '<html lang="en">' in page and "data-theme=\"" not in page.split("<head>")[0]


def test_the_command_line_titles_slides_with_the_corpus_name(tmp_path):
    from bpeviz.core.serialize import saved_corpus_name

    corpus = tmp_path / "shop_talk.txt"
    corpus.write_text("low lower lowest newer wider\nlow low\n", encoding="utf-8")
    saved, out = tmp_path / "t500.json", tmp_path / "talk.html"
    for args in (["train", str(corpus), "--out", str(saved), "--merges", "5", "--quiet"],
                 ["slides", "--training", str(saved), "--out", str(out)]):
        done = subprocess.run([sys.executable, "-m", "bpeviz", *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    assert saved_corpus_name(saved) == "shop_talk.txt"
    page = out.read_text(encoding="utf-8")
    assert "Trained on shop_talk.txt:" in page
    assert "t500.json" not in page


def test_a_training_file_without_a_corpus_name_is_named_as_the_corpus_in_that_file(tmp_path):
    from bpeviz.core.serialize import saved_corpus_name

    saved, out = tmp_path / "t500.json", tmp_path / "talk.html"
    save(_training(), str(saved))  # saved from Python: no corpus name in the file
    assert saved_corpus_name(saved) is None
    done = subprocess.run([sys.executable, "-m", "bpeviz", "slides", "--training", str(saved),
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Trained on the corpus in t500.json:" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("content", ["not json", "[1, 2]", '{"corpus": {"name": 3}}',
                                     '{"corpus": {"name": "  "}}'])
def test_a_file_that_names_no_corpus_gives_no_name(tmp_path, content):
    from bpeviz.core.serialize import saved_corpus_name

    path = tmp_path / "t.json"
    path.write_text(content, encoding="utf-8")
    assert saved_corpus_name(path) is None
    assert saved_corpus_name(tmp_path / "missing.json") is None
