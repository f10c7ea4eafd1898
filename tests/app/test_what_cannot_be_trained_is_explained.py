"""What the live explorer cannot train is explained instead of tried: a vocabulary
size below the alphabet, more merges or distinct words than its limits, a corpus past the
character limit (the text stays in its box), counts its charts would round; each message
names the limit and the command line that has none."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.support import ROOT
from tests.support.app import ok, open_page, plain


def test_a_vocabulary_size_below_the_alphabet_is_explained():
    at = open_page("pages/1_Explore.py", size_by="vocab", vocab=10)
    ok(at)
    assert at.error and "ask for at least" in plain(at.error[0].value)


def test_too_many_merges_names_the_limit_and_the_cli():
    from bpeviz.core.limits import LIMITS

    at = open_page("pages/1_Explore.py", merges=LIMITS.merges + 1)
    ok(at)
    message = at.error[0].value
    assert f"{LIMITS.merges:,}" in message and "python -m bpeviz train" in message


def test_too_many_distinct_words_names_the_limit():
    from bpeviz.core.limits import LIMITS

    words = " ".join(f"w{i}" for i in range(LIMITS.unique_words + 1))
    at = open_page("pages/1_Explore.py", source="paste", paste=words)
    ok(at)
    message = at.error[0].value
    assert f"{LIMITS.unique_words:,}" in message and "python -m bpeviz train" in message


def test_a_corpus_past_the_character_limit_names_it_offers_the_cli_and_keeps_the_text(
        monkeypatch):
    import bpeviz.ui.training as cache
    from bpeviz.core.limits import LIMITS

    calls = []
    monkeypatch.setattr(cache, "train", lambda *a, **k: calls.append(k))
    text = "lower newest " * (LIMITS.text_chars // 13 + 10)
    at = open_page("pages/1_Explore.py", source="paste", paste=text)
    ok(at)
    message = at.error[0].value
    assert "Corpus too large" in message and f"{len(text):,} characters" in message
    assert f"{LIMITS.text_chars:,}" in message and "python -m bpeviz train" in message
    assert at.text_area(key="w_paste").value == text, "the text stays in its box"
    assert not calls, "nothing is trained past the limits"


def test_a_vocabulary_size_past_the_merge_limit_names_it_and_the_cli():
    from bpeviz.core.limits import LIMITS

    at = open_page("pages/1_Explore.py", size_by="vocab", vocab=LIMITS.merges + 1_000)
    ok(at)
    message = at.error[0].value
    assert "Too many merges" in message and f"{LIMITS.merges:,}" in message
    assert "python -m bpeviz train" in message


@pytest.mark.parametrize("count, refused", [(2**50, False), (10**23, True)])
def test_the_app_refuses_counts_its_charts_would_round(count, refused):

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state["source"] = "upload"
    at.session_state["upload"] = ("counts.tsv", f"ab\t{count}\nabc\t7\n".encode())
    at.run()
    assert not at.exception
    at.switch_page("pages/1_Explore.py").run()
    assert not at.exception, [e.value for e in at.exception]
    messages = [e.value for e in at.error]
    assert any("Counts too large for the live explorer" in m for m in messages) == refused
    assert not any("unexpectedly" in m for m in messages)
