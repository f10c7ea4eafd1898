"""A SuperBPE step's tokenizer.json encodes exactly as bpeviz does, in Hugging Face's own
``tokenizers`` (the authors' kind of file: a Split with the stage-2 pattern before
ByteLevel); formats that cut text with GPT-2's pattern are refused; ``bpeviz.save`` keeps
the stages and ``bpeviz.load`` trains them again."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from tokenizers import Tokenizer

import bpeviz
from bpeviz import Corpus, formats
from bpeviz.algorithms.superbpe import AUTHORS_PATTERN
from bpeviz.algorithms.superbpe_train import extend

S = resources.files("bpeviz.samples")
TEXT = S.joinpath("parallel/en.txt").read_text("utf-8")
HELD_OUT = (S.joinpath("parallel/de.txt").read_text("utf-8") + "\n\n"
            + S.joinpath("multilingual_tour.txt").read_text("utf-8")
            + "Call 555-1234 now!!!  Then: ok...\n\n\n  done 12345678 \r\n")


@pytest.fixture(scope="module")
def training() -> bpeviz.Training:
    return bpeviz.train(TEXT, algorithm="superbpe", merges=240, transition=100)


@pytest.mark.parametrize("step", [0, 50, 100, 101, 170, 240])
def test_the_exported_tokenizer_json_encodes_every_id_as_bpeviz(training, step) -> None:
    text = formats.export(training.at(step), "hf")["tokenizer.json"]
    pre = json.loads(text)["pre_tokenizer"]
    assert pre["pretokenizers"][0]["pattern"]["Regex"] == AUTHORS_PATTERN
    hf = Tokenizer.from_str(text)
    assert hf.encode(HELD_OUT).ids == [t.id for t in training.at(step).encode(HELD_OUT)]
    assert hf.decode(hf.encode(HELD_OUT).ids) == HELD_OUT


def test_formats_that_cut_with_gpt2s_pattern_are_refused_saying_where_to_export(training):
    for fmt in ("tiktoken", "gpt2"):
        with pytest.raises(ValueError, match="export superbpe as 'hf'"):
            formats.export(training.at(), fmt)


def tokens(t: bpeviz.Training) -> list[bytes]:
    return [m.token for m in t.merges]


@pytest.mark.parametrize("make", [
    lambda: bpeviz.train(TEXT, algorithm="superbpe", merges=150, transition=60),
    lambda: bpeviz.train(TEXT, algorithm="superbpe", merges=150, transition=150),
    lambda: extend(bpeviz.train(Corpus.from_text(TEXT, "gpt2"), algorithm="bbpe",
                                merges=40), TEXT, merges=50),
], ids=["two stages", "stage 1 only", "extended"])
def test_a_saved_training_loads_with_its_stages(tmp_path, make) -> None:
    t = make()
    bpeviz.save(t, tmp_path / "t.json")
    u = bpeviz.load(tmp_path / "t.json")
    assert type(u) is type(t) and tokens(u) == tokens(t)
    assert u.transition == t.transition and u.stages() == t.stages()
    assert u.corpus == t.corpus and u.passed_over == t.passed_over
    assert [x.id for x in u.at().encode(HELD_OUT)] == [x.id for x in t.at().encode(HELD_OUT)]


def test_a_tampered_file_is_refused(training, tmp_path) -> None:
    bpeviz.save(training, tmp_path / "t.json")
    data = json.loads((tmp_path / "t.json").read_text())
    data["made"][120] = data["made"][121]
    (tmp_path / "t.json").write_text(json.dumps(data))
    with pytest.raises(ValueError, match="the file is corrupt"):
        bpeviz.load(tmp_path / "t.json")
