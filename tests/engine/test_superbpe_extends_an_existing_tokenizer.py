"""Stage 2 on top of an existing byte-level tokenizer (the authors'
``extend_existing_tokenizer``): from a training, a ``tokenizer.json`` or GPT-2's files,
it equals SuperBPE trained with that tokenizer's merges as stage 1."""

from __future__ import annotations

from importlib import resources

import pytest

import bpeviz
from bpeviz import Corpus, formats
from bpeviz.algorithms.superbpe_train import extend

TEXT = resources.files("bpeviz.samples").joinpath("parallel/en.txt").read_text("utf-8")


@pytest.fixture(scope="module")
def base() -> bpeviz.Training:
    return bpeviz.train(Corpus.from_text(TEXT, "gpt2"), algorithm="bbpe", merges=80)


def tokens(t: bpeviz.Training) -> list[bytes]:
    return [m.token for m in t.merges]


def test_extending_a_training_equals_superbpe_with_its_merges_as_stage_one(base) -> None:
    whole = bpeviz.train(TEXT, algorithm="superbpe", merges=200, transition=80)
    extended = extend(base, TEXT, merges=120)
    assert tokens(extended) == tokens(whole)
    assert extended.transition == 80 and extended.stages() == whole.stages()
    assert extended.stage1 is None and "stage 2" in extended.why(81)
    assert "(inherited, up to the transition at merge 80)" in extended.why(80)


@pytest.mark.parametrize("fmt, opened", [("hf", "tokenizer.json"), ("gpt2", "")])
def test_extending_an_exported_file_equals_extending_the_training(
        base, tmp_path, fmt: str, opened: str) -> None:
    formats.write_files(formats.export(base.at(), fmt), tmp_path)
    opened_file = formats.import_path(tmp_path / opened)  # GPT-2's: the folder
    from_file = extend(opened_file, TEXT, merges=60)
    assert tokens(from_file) == tokens(extend(base, TEXT, merges=60))
    held_out = "The library by the river opens at eight o'clock, and the town reads."
    assert ([x.bytes for x in from_file.at().encode(held_out)]
            == [x.bytes for x in extend(base, TEXT, merges=60).at().encode(held_out)])


def test_inherit_keeps_only_the_first_merges(base) -> None:
    t = extend(base, TEXT, merges=30, inherit=50)
    assert tokens(t)[:50] == tokens(base)[:50] and t.transition == 50 and len(t.merges) == 80
    assert tokens(t) == tokens(bpeviz.train(TEXT, algorithm="superbpe", merges=80, transition=50))


def test_a_character_level_tokenizer_is_refused() -> None:
    chars = bpeviz.train(Corpus.from_text(TEXT), algorithm="bpe", merges=5)
    with pytest.raises(ValueError, match="extends a byte-level tokenizer"):
        extend(chars, TEXT, merges=5)


def test_inherited_merges_out_of_order_are_refused(base) -> None:
    from bpeviz.algorithms.superbpe_train import stage2

    words = Corpus.from_text(TEXT, "superbpe")
    with pytest.raises(ValueError, match=r"inherited merge 1 .* made by an earlier merge"):
        stage2(words, [(b" the", b" ")], 10)
