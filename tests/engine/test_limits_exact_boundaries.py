"""Every limit in :mod:`bpeviz.core.limits` at its exact boundary: a value at the limit is
accepted, one past it is refused (with the limit's own message)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bpeviz import Corpus
from bpeviz.core.limits import LIMITS, Limits, check, check_sizes
from bpeviz.core.training import base_vocabulary, make_options
from tests.support import ROOT

#: each check_sizes limit: (keyword, the limit, the start of its message)
SIZED = [
    ("text_chars", LIMITS.text_chars, "Corpus too large for the live explorer"),
    ("unique_words", LIMITS.unique_words, "Too many distinct words"),
    ("merges", LIMITS.merges, "Too many merges"),
    ("weighted_symbols", LIMITS.weighted_symbols, "Counts too large"),
]


def test_the_limits_tested_here_are_all_the_limits():
    assert {f for f in Limits.__dataclass_fields__} == {
        "text_chars", "upload_bytes", "unique_words", "merges", "replay_merges",
        "heatmap_symbols", "compare", "input_chars", "weighted_symbols"}
    assert LIMITS.text_chars == 10_000_000 and LIMITS.weighted_symbols == 2**53


@pytest.mark.parametrize("name, limit, message", SIZED)
def test_a_size_at_its_limit_passes_and_one_more_is_refused(name, limit, message):
    assert check_sizes(**{name: limit}) == []
    problems = check_sizes(**{name: limit + 1})
    assert len(problems) == 1 and problems[0].startswith(message)
    assert f"{limit + 1:,}" in problems[0] and f"{limit:,}" in problems[0]


def test_merges_asked_as_a_vocabulary_size_at_the_limit_and_one_past():
    corpus = Corpus.from_text("low lower newest widest")
    base = len(base_vocabulary(corpus, make_options("bpe", merges=1)))
    assert check(corpus, make_options("bpe", merges=LIMITS.merges)) == []
    assert check(corpus, make_options("bpe", vocab_size=base + LIMITS.merges)) == []
    for options in (make_options("bpe", merges=LIMITS.merges + 1),
                    make_options("bpe", vocab_size=base + LIMITS.merges + 1)):
        (problem,) = check(corpus, options)
        assert problem.startswith("Too many merges")


def test_weighted_symbols_of_a_corpus_at_2_53_and_one_past():
    at = Corpus.from_counts({"ab": 2**52})            # 2 x 2**52 = 2**53 symbols
    past = Corpus.from_counts({"ab": 2**52, "c": 1})  # one more
    assert check(at, make_options("bpe", merges=1)) == []
    (problem,) = check(past, make_options("bpe", merges=1))
    assert problem.startswith("Counts too large") and f"{2**53 + 1:,}" in problem
    # a separate end-of-word symbol counts once per word copy
    marked = Corpus.from_counts({"a": 2**52})
    assert check(marked, make_options("bpe", merges=1, marker="</w>")) == []
    (problem,) = check(Corpus.from_counts({"a": 2**52, "b": 1}),
                       make_options("bpe", merges=1, marker="</w>"))
    assert problem.startswith("Counts too large")


def test_the_unique_words_of_a_corpus_at_the_limit_and_one_past():
    words = {f"w{i}": 1 for i in range(LIMITS.unique_words)}
    assert check(Corpus.from_counts(words), make_options("bpe", merges=1)) == []
    words["one more"] = 1
    (problem,) = check(Corpus.from_counts(words), make_options("bpe", merges=1))
    assert problem.startswith("Too many distinct words")


def test_a_replayed_tokenizer_at_the_merge_limit_and_one_past(monkeypatch):
    from bpeviz.ui import opened

    class Replayed(Exception):
        pass

    def replay_reached(*args, **kwargs):
        raise Replayed

    monkeypatch.setattr(opened, "get_corpus", replay_reached)
    monkeypatch.setattr(opened, "pretokenizer_of", lambda training: "whitespace")
    ctx = SimpleNamespace(data=b"low lower", corpus_name="c")
    with pytest.raises(Replayed):  # past the limit check: the replay starts
        opened.replayed(SimpleNamespace(merges=range(LIMITS.replay_merges)), ctx)
    with pytest.raises(ValueError, match=f"replays up to {LIMITS.replay_merges:,}"):
        opened.replayed(SimpleNamespace(merges=range(LIMITS.replay_merges + 1)), ctx)


@pytest.mark.parametrize("name, limit", [("top_n", LIMITS.heatmap_symbols),
                                         ("cmp_n", LIMITS.compare)])
def test_link_and_widget_values_at_the_limit_and_one_past(name, limit):
    from bpeviz.ui.state import SETTINGS

    setting = SETTINGS[name]
    assert setting.parse(str(limit)) == limit and setting.accepts(limit)
    with pytest.raises(ValueError):
        setting.parse(str(limit + 1))
    assert not setting.accepts(limit + 1)


def test_the_tokenize_text_box_holds_the_input_limit():
    """The browser enforces max_chars (a longer paste is cut at it): the box carries it."""

    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page("pages/2_Tokenize.py").run()
    assert not at.exception
    (box,) = [t for t in at.text_area if t.label == "Text"]
    assert box.proto.max_chars == LIMITS.input_chars
