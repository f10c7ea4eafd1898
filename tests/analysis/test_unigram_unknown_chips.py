"""Every view of a Unigram round marks unknown pieces by one rule (the model's own:
``UnigramModel.unknown``, which the encoder's ``Token.unk`` follows), and an unknown
chip's hover describes its own text, never another unknown's."""

from __future__ import annotations

import re

from bpeviz.present.compare_history import lockstep_data
from bpeviz.present.render import tokens_html
from bpeviz.unigram.cards import cloud_html, piece_chip, splits_html
from bpeviz.unigram.model import UnigramModel, UnigramStep, UnigramTraining

MODEL = UnigramModel(("▁", "h", "e", "c", "a", "t", "▁the", "▁cat"),
                     (-2.0, -3.0, -3.0, -3.0, -3.0, -3.0, -1.0, -1.0))
TEXT = "The cat 👍 the"


def chips(html: str) -> list[tuple[str, str, str]]:
    """(classes, title, text) of every chip."""
    return re.findall(r'<span class="(bv-chip[^"]*)"[^>]*title="([^"]*)">([^<]*)</span>', html)


def training() -> UnigramTraining:
    step = UnigramStep(0, MODEL, 0.0, (), ("▁The", "▁cat"), (1, 1))
    return UnigramTraining("sentencepiece", (step,), {"vocab_size": 11})


def test_a_piece_is_unknown_exactly_when_the_encoder_calls_its_token_unknown():
    for tok in MODEL.encode(TEXT):
        own = TEXT[tok.start:tok.end].strip()
        assert MODEL.unknown(tok.text) == tok.unk
        if tok.unk:
            assert all(MODEL.unknown(ch) for ch in own)


def test_word_splits_hatch_an_unknown_character_as_tokenize_does():
    split = MODEL.split("▁The")
    assert split == ("▁", "T", "h", "e")
    html = splits_html([(0, "▁The", 3, split, False)], MODEL)
    found = chips(html)
    hatched = [(title, text) for cls, title, text in found if "bv-unk" in cls]
    assert hatched == [("id 0 · &lt;unk&gt; · bytes 54 · unknown", "T")]
    # Tokenize draws the same character the same way: hatched, its own bytes
    drawn = chips(tokens_html("The", MODEL.encode("The")))
    assert [(t, x) for c, t, x in drawn if "bv-unk" in c] == hatched
    # a known piece is a normal chip
    assert all("bv-unk" not in cls for cls, _, text in found if text != "T")


def test_every_unknown_chip_titles_its_own_bytes():
    thumb, t = piece_chip(MODEL, "👍"), piece_chip(MODEL, "T")
    assert "bytes f0 9f 91 8d · unknown" in thumb and "bytes 54" not in thumb
    assert "bytes 54 · unknown" in t
    # the cloud's unknown token (the sampled split's <unk>) claims no one's bytes
    cloud = cloud_html([(("<unk>", "h", "e"), 1)], 1, ("<unk>", "h", "e"), MODEL)
    assert [(title, text) for cls, title, text in chips(cloud) if "bv-unk" in cls] == [
        ("id 0 · &lt;unk&gt; · bytes - · unknown", "&lt;unk&gt;")]


def test_compare_labels_of_a_round_name_no_unknown_texts_bytes():
    data = lockstep_data([("A", training())], TEXT, "step")
    config = data["configs"][0]
    flags = [f for v in config["history"]["forms"][0] for f in v[4]]
    assert any(f & 2 for f in flags)  # "T" and 👍 are unknown here
    assert config["labels"]["0"] == ["<unk>", ""]  # not the bytes of "T" (54) for 👍
    assert all(lab[1] == bytes(p, "utf-8").hex(" ")
               for p, lab in ((MODEL.pieces[int(i) - 3], lab)
                              for i, lab in config["labels"].items() if i != "0"))
