"""Every page runs under Streamlit's AppTest, with no exception: on the default sample,
for each algorithm, on every sample, and on corpora at the edges (no merges, one
character, one long word, emoji, right-to-left and CJK text, tabs and NUL)."""

from __future__ import annotations

import pytest

from bpeviz.samples import SAMPLES
from tests.support.app import ALGORITHMS, PAGES, html_text, ok, open_page, stage
from tests.support.trainings import reference


@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_on_the_default_sample(page):
    at = ok(open_page(page))
    assert not at.error, [e.value for e in at.error]
    assert at.title, "each page has a title"
    assert at.session_state["sample"] == "tour"


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_page_runs_for_each_algorithm(algorithm):
    at = open_page("app.py", algo=algorithm)
    for page in PAGES:
        ok(at.switch_page(page).run())
        assert not at.error, (page, [e.value for e in at.error])


@pytest.mark.parametrize("sample", list(SAMPLES))
def test_every_sample_trains_and_explores(sample):
    at = ok(open_page("pages/1_Explore.py", sample=sample,
                      **{k: v for k, v in SAMPLES[sample].settings.items()}))
    assert not at.error
    assert stage(at, "words")["words"], "the word splits are drawn"


def test_home_opens_on_a_trained_sample_with_its_first_merges():
    at = ok(open_page())
    first = reference().merges[0]
    body = html_text(at)
    assert f'data-id="{first.token_id}"' in body
    assert [m.value for m in at.metric][2] == "200"  # merges


@pytest.mark.parametrize("settings", [
    {"merges": 0},
    {"min_freq": 10_000},
    {"source": "paste", "paste": "a"},
    {"source": "paste", "paste": "a" * 3000},
    {"source": "paste", "paste": "x" * 10_000 + " y"},
    {"source": "paste", "paste": "👨‍👩‍👧‍👦 👍🏽 e\u0301 שלום مرحبا 自然语言处理 a\u200bb\u00ad"},
    {"source": "paste", "paste": "tab\tseparated\r\nCRLF lines\x00nul"},
], ids=["no-merges", "min-frequency", "one-char", "one-char-repeated", "long-word",
        "emoji-rtl-cjk-invisible", "tabs-crlf-nul"])
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_edge_corpora_run_every_page(settings, algorithm):
    at = open_page("app.py", algo=algorithm, **settings)
    for page in PAGES:
        ok(at.switch_page(page).run())
        assert not at.error or "Training failed" not in at.error[0].value
