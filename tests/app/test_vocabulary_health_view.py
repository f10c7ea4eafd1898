"""Vocabulary's Health view shows the engine's own numbers: each kind's count and summary
line as ``health(step)`` gives them, the chosen kind's rows as the engine's table lists
them (ids and reasons), and the unused curve as ``unused_by_step`` counts it; for merges
(BPE, WordPiece) and for Unigram's pruning rounds."""

from __future__ import annotations

import pytest

from bpeviz.analysis.health import KINDS, health, unused_by_step
from tests.support.app import chart_spec, ok, open_page, plain, unigram_app
from tests.support.trainings import reference, sample_training


def shown_numbers(at) -> dict[str, int]:
    return {m.label: int(m.value.replace(",", "")) for m in at.metric}


def check_view(at, found, curve, step: int) -> None:
    # the counts and sentences are the engine's: the page adds none of its own
    assert not at.error
    assert list(shown_numbers(at).values()) == [len(found.table(k)) for k in KINDS]
    summary = plain(next(m.value for m in at.markdown if m.value.startswith("- ")))
    assert summary.splitlines() == [f"- {line}" for line in found.summary]
    # the curve: every step's unused count, and the current step marked
    spec = chart_spec(at, "chart_unused")
    trace = spec["data"][0]
    assert decoded(trace["y"]) == curve.tolist()
    assert decoded(trace["x"]) == curve.index.tolist()
    assert [shape["x0"] for shape in spec["layout"]["shapes"]] == [step]
    # each kind's table: the engine's rows, in its order, with its reasons
    for kind in KINDS:
        ok(at.segmented_control(key="w_health_kind").set_value(kind).run())
        expected = found.table(kind)
        tables = list(at.dataframe)  # the view's one table (none when the kind is empty)
        if expected.empty:
            assert not tables
            continue
        table = tables[0].value
        assert table["id"].tolist() == expected["id"].tolist()
        assert table["reason"].tolist() == expected["reason"].tolist()


def decoded(values) -> list[int]:
    """A Plotly array as the spec holds it: a list, or a typed array (numpy's)."""
    if isinstance(values, dict):
        import base64

        import numpy as np
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"]).tolist()
    return list(values)


@pytest.mark.parametrize("algorithm", ["bpe", "wordpiece"])
def test_the_health_view_shows_the_engines_numbers_for_merges(algorithm):
    training = reference(algorithm)
    at = open_page("pages/4_Vocabulary.py", algo=algorithm, step=200, vocab_view="health")
    found = health(training.at(200))
    assert len(found.unused)  # the default sample has absorbed tokens at step 200
    check_view(at, found, unused_by_step(training), 200)


def test_the_health_view_reads_unigrams_pruning_rounds():
    # round 0 (the seed) has pieces no best cut holds: the view counts them as health does
    training = sample_training()  # the sidebar's default: a size chosen for the corpus
    at = unigram_app("pages/4_Vocabulary.py", uround=0, vocab_view="health")
    found = health(training.at(0))
    assert len(found.unused)
    check_view(at, found, unused_by_step(training), 0)


def test_the_view_choice_goes_back_to_the_tokens():
    at = open_page("pages/4_Vocabulary.py", step=30, vocab_view="health")
    ok(at.segmented_control(key="w_vocab_view").set_value("tokens").run())
    assert not at.error and not at.metric  # the token table again, no health numbers
    assert "created at step" in at.dataframe[0].value.columns


def test_an_opened_file_shows_its_own_health_and_says_unused_needs_a_corpus():
    # a tokenizer file holds no corpus: its unreachable and near-duplicate tokens are
    # found, its unused ones cannot be counted, and the view says how to count them
    from bpeviz import Corpus, formats, train
    from bpeviz.formats import import_files

    trained = train(Corpus.from_text("the quick brown fox jumps over the lazy dog " * 5,
                                     "gpt2"), "bbpe", merges=40)
    files = formats.export(trained.at(), "gpt2")
    names, opened = ", ".join(files), import_files(files)
    # opening a file puts its own step bar at its last merge (bpeviz.ui.tokenizer_file)
    at = open_page("pages/4_Vocabulary.py", imported=(names, opened), vocab_view="health",
                   imp_step=len(opened.merges))
    ok(at.radio(key="w_tok_source").set_value("imported").run())
    assert not at.error
    found = health(opened.at(len(opened.merges)))
    assert list(shown_numbers(at).values()) == [len(found.table(k)) for k in KINDS]
    assert any("holds no corpus" in plain(m.value) for m in at.markdown)
    assert any("need a corpus" in i.value for i in at.info)  # the curve's place
    assert not at.get("plotly_chart")
