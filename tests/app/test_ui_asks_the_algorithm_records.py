"""The UI asks the algorithm records, so a new algorithm needs no change there: labels,
the "auto" pre-tokenizer, which options apply, the lessons; and the display module is
the one place symbols are shown."""

from __future__ import annotations

import pytest

from bpeviz import algorithms
from bpeviz.algorithms import Algorithm
from bpeviz.core import coders
from bpeviz.text import display
from bpeviz.ui import labels, settings

TOY = Algorithm(name="toy_scored", label="Toy (scored, bytes)", help="A test algorithm.",
                units="bytes", pretokenizer="none", score=lambda n, a, b: n / (a + b),
                score_kind="custom", settings=("scoring", "tie_break", "min_frequency"),
                lesson_sample="low", lesson_order=0, short_label="Toy")


@pytest.fixture
def toy():
    algorithms.register(TOY)
    yield TOY
    algorithms.unregister(TOY.name)


def test_labels_and_auto_come_from_the_records(toy):
    assert labels.algorithm_labels()[toy.name] == "Toy (scored, bytes)"
    assert labels.algorithm_labels()["wordpiece"] == algorithms.get("wordpiece").label
    assert labels.pretokenizer_for("auto", toy.name) == "none"
    assert labels.pretokenizer_label(toy.name)("auto") == "auto: one word per line"


def test_options_follow_what_the_record_takes(toy):
    scored = settings.train_options(toy.name, merges=3, marker="</w>", scoring="frequency")
    assert scored["scoring"] == "frequency" and "marker" not in scored
    plain = settings.train_options("bpe", merges=3, marker="</w>", scoring="frequency")
    assert plain["marker"] == "</w>" and "scoring" not in plain


def test_a_new_lesson_is_listed_in_its_order(toy):
    assert list(algorithms.lessons()) == [toy.name, "bpe", "wordpiece", "bbpe"]
    assert toy.short == "Toy" and algorithms.get("bbpe").short == "Byte-level BPE"


def test_old_paths_show_with_the_display_module():
    assert display.display is display.display and display.bytes_to_gpt2 is display.bytes_to_gpt2
    assert display.label is display.label and display.visible is display.visible
    assert coders.readable is display.readable  # the encoders show bytes as the views do
    assert display.label(" \t\n") == "·→↵" and display.readable(b"\xe6") == "<0xE6>"
