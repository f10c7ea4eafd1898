"""An algorithm registered from outside the package reaches every page through its record
alone: the sidebar offers it, and Explore, Tokenize, Compare and Vocabulary draw the
training the engine makes with its own score, and explain it with its own formula. Algorithms
whose pages do not exist yet (``offered=False``) are not offered, and a link naming one
is refused like any unknown value."""

from __future__ import annotations

import dataclasses

import pytest

from bpeviz import algorithms
from bpeviz.algorithms import Algorithm
from tests.support.app import PAGES, html_text, ok, open_page, stage
from tests.support.trainings import reference

# a score no built-in algorithm has (count squared over the parts' counts), over bytes,
# with its own words for its formula
TOY = Algorithm(name="toy_joins", label="Toy joins (bytes)", help="A test algorithm.",
                units="bytes", pretokenizer="whitespace", score=lambda n, a, b: n * n / (a + b),
                score_kind="custom", step="join", short_label="Toy joins",
                score_words="count² / (count of {left} + count of {right})",
                settings=("tie_break", "min_frequency"))


@pytest.fixture
def toy():
    algorithms.register(TOY)
    yield TOY
    algorithms.unregister(TOY.name)


@pytest.fixture
def hidden():
    """An algorithm registered with no pages yet (``offered=False``)."""
    record = dataclasses.replace(TOY, name="toy_hidden", label="Toy hidden", offered=False)
    algorithms.register(record)
    yield record
    algorithms.unregister(record.name)


def sidebar_algorithms(at) -> list[str]:
    return next(box.options for box in at.sidebar.selectbox if box.label == "Algorithm")


def test_the_sidebar_offers_the_offered_algorithms_only(hidden):
    at = open_page()
    offered = [algorithms.get(name).label for name in algorithms.offered()]
    assert sidebar_algorithms(at) == offered
    assert hidden.name not in algorithms.offered() and hidden.label not in offered


def test_a_link_naming_an_algorithm_not_offered_keeps_the_default(hidden):
    at = open_page()
    at.query_params["algo"] = hidden.name
    at.session_state["_url_loaded"] = False
    ok(at.run())
    assert at.session_state["algo"] == "bpe"
    assert not at.error, [e.value for e in at.error]


def test_a_registered_algorithm_is_offered_and_trains_on_every_page(toy):
    at = open_page()
    assert toy.label in sidebar_algorithms(at)
    next(box for box in at.sidebar.selectbox if box.label == "Algorithm").select(
        toy.name).run()
    ok(at)
    assert at.session_state["algo"] == toy.name
    expected = reference(toy.name)
    bpe = reference("bpe")
    first = [(m.left_id, m.right_id, m.token_id) for m in expected.merges[:10]]
    assert first != [(m.left_id, m.right_id, m.token_id) for m in bpe.merges[:10]], \
        "the toy's score picks other merges than BPE's count"
    for page in PAGES:
        ok(at.switch_page(page).run())
        assert not at.error, (page, [e.value for e in at.error])
        if page == "pages/1_Explore.py":
            card = stage(at, "card")
            assert [tuple(m[:3]) for m in card["merges"][:10]] == first
            # Why this merge? writes the record's own formula
            assert "count² / (count of" in html_text(at)
        if page == "pages/2_Tokenize.py":
            data = stage(at, "tokens")
            assert data["n"] == len(expected.merges)
