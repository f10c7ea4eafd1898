"""Tokenize shows BPE-dropout's segmentation cloud for BPE and byte-level BPE (as
``python -m bpeviz encode --dropout`` samples), with a seed and a dropout slider."""

from __future__ import annotations

import pytest

from bpeviz.core.sampling import dropout_sampler, segmentation_cloud
from tests.support.app import body_with, ok, open_page
from tests.support.trainings import reference

HOSTILE = "<b>x</b>&amp;"


def _cloud(at) -> str:
    return body_with(at, "bv-dcloud")


@pytest.mark.parametrize("algorithm", ["bpe", "bbpe"])
def test_tokenize_draws_the_dropout_cloud_of_the_longest_word(algorithm):
    at = ok(open_page("pages/2_Tokenize.py", algo=algorithm, text="lowest newer tokenizer",
                      step=200))
    assert any("BPE-dropout" in h.value for h in at.subheader)
    assert at.selectbox(key="dcloud_of").value == "tokenizer"
    html = _cloud(at)
    # the engine's cloud with the page's settings (200 samples, p 0.1, seed 0)
    snap = reference(algorithm).at(200)
    cloud = segmentation_cloud(dropout_sampler(snap, 0.1), "tokenizer", 200, 0,
                               key=lambda t: t.id)
    first = int(cloud["count"].iat[0])
    assert f"{first:,} of 200 samples" in html
    assert html.count("<tr>") - 1 == min(len(cloud), 12)


def test_dropout_zero_gives_one_cut_the_plain_one_and_one_gives_characters():
    at = ok(open_page("pages/2_Tokenize.py", algo="bpe", text="tokenizer", step=200))
    at.slider(key="dcloud_p").set_value(0.0).run()
    html = _cloud(ok(at))
    assert "200 of 200 samples (100%)" in html and "★ no dropout" in html
    at.slider(key="dcloud_p").set_value(1.0).run()
    html = _cloud(ok(at))
    assert "200 of 200 samples (100%)" in html and html.count("bv-chip") == len("tokenizer")


def test_the_same_seed_draws_the_same_cloud_and_another_seed_another():
    at = ok(open_page("pages/2_Tokenize.py", algo="bpe", text="tokenizer", step=200))
    at.slider(key="dcloud_p").set_value(0.5).run()
    first = _cloud(ok(at))
    at.run()
    assert _cloud(ok(at)) == first
    at.number_input(key="dcloud_seed").set_value(7).run()
    assert _cloud(ok(at)) != first


def test_wordpiece_has_no_dropout_cloud():
    at = ok(open_page("pages/2_Tokenize.py", algo="wordpiece"))
    assert not [h for h in at.subheader if "BPE-dropout" in h.value]


def test_the_cloud_escapes_what_the_user_typed():
    at = ok(open_page("pages/2_Tokenize.py", algo="bpe", text=HOSTILE, step=50))
    html = _cloud(at)
    assert "<b>x" not in html and "&lt;" in html
