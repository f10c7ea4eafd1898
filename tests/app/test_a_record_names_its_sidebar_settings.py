"""The sidebar draws the training settings an algorithm's record names (``settings``,
beside its ``sizes``), so a changed or new record gets its sidebar without a change to
the UI: its own settings enabled, those of the algorithms its trainer also trains greyed
out, no others; and the options it trains with are exactly those it names."""

from __future__ import annotations

import dataclasses

import pytest

from bpeviz import algorithms
from bpeviz.ui import settings
from tests.support.app import open_page


@pytest.fixture
def record():
    """Replace a registered record for one test (``record("bbpe", settings=(...))``)."""
    replaced = {}

    def replace(name: str, **fields):
        replaced.setdefault(name, algorithms.get(name))
        return algorithms.register(dataclasses.replace(algorithms.get(name), **fields))

    yield replace
    for original in replaced.values():
        algorithms.register(original)


def widget(at, key: str):
    """The widget with ``key`` in the sidebar, or None when it is not drawn."""
    found = [el for el in at.sidebar if getattr(el, "key", None) == key]
    return found[0] if found else None


def test_a_record_that_takes_only_a_minimum_frequency_gets_only_that_setting(record):
    record("bbpe", settings=("min_frequency",))
    at = open_page(algo="bbpe")
    assert not widget(at, "w_min_freq").disabled
    for greyed in ("w_tie", "w_marker", "w_scoring"):  # what BPE and WordPiece take
        assert widget(at, greyed).disabled, greyed
    assert widget(at, "w_uvariant") is None and widget(at, "w_ukeep") is None
    assert not widget(at, "w_merges").disabled  # its sizes: merges or a vocabulary size
    options = settings.train_options("bbpe", merges=3, tie="ids", min_freq=2, scoring="frequency")
    assert options == {"algorithm": "bbpe", "merges": 3, "min_frequency": 2}


def test_a_record_gains_a_setting_by_naming_it(record):
    record("bbpe", settings=("scoring", "tie_break", "min_frequency"))
    at = open_page(algo="bbpe")
    assert not widget(at, "w_scoring").disabled and widget(at, "w_marker").disabled
    assert settings.train_options("bbpe", merges=3, scoring="frequency")["scoring"] == \
        "frequency"


def test_a_record_with_its_own_trainer_gets_only_its_own_settings(record):
    at = open_page(algo="unigram", uvariant="sentencepiece")
    assert widget(at, "w_ukeep") is not None and widget(at, "w_uvariant") is not None
    for merge_setting in ("w_merges", "w_size_by", "w_tie", "w_marker", "w_scoring",
                          "w_min_freq"):
        assert widget(at, merge_setting) is None, merge_setting
    assert widget(at, "w_uvocab") is not None  # its only size, which may be left empty
    record("unigram", settings=("variant", "seed_size"))  # no keep share any more
    at = open_page(algo="unigram", uvariant="sentencepiece")
    assert widget(at, "w_ukeep") is None and widget(at, "w_uvariant") is not None
