"""A PickyBPE step exports as its package's own model file (``pickybpe.json``): the file
``pickybpe``'s trainer writes for the same text and threshold, token for token, and one
its ``PickyBPESegmenter.from_pretrained`` opens and cuts text with as bpeviz does, at the
last step and at one in the middle (a removal included)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import bpeviz
from bpeviz import formats
from tests.engine.test_picky_bpe_matches_its_package import SAMPLES, _reference

vocabularisation = pytest.importorskip("pickybpe.vocabularisation")
segmentation = pytest.importorskip("pickybpe.segmentation")
WORD_START = "\u2581"
HELD_OUT = ((SAMPLES / "parallel/de.txt").read_text(encoding="utf-8")
            + (SAMPLES / "parallel/en.txt").read_text(encoding="utf-8")[:2000])


@pytest.fixture(scope="module", params=[0.6, 0.9])
def trained(request, tmp_path_factory):
    """The package's trainer and bpeviz's on the English story, and the package's file."""
    monkeypatch = pytest.MonkeyPatch()
    path = SAMPLES / "parallel/en.txt"
    ref = _reference(path, 400, request.param, monkeypatch)
    dumped = tmp_path_factory.mktemp("picky") / "package.json"
    vocabularisation.PickyBPETrainer._dump(ref, ref.state, dumped)
    merges = sum(e[0] == vocabularisation.EventType.MERGE for e in ref.state.events)
    ours = bpeviz.train(path.read_text(encoding="utf-8"), algorithm="picky", merges=merges,
                        threshold=request.param)
    return ref, json.loads(dumped.read_text(encoding="utf-8")), ours


def test_the_export_is_the_file_the_package_writes(trained):
    _, theirs, ours = trained
    mine = json.loads(formats.export(ours.at(), "pickybpe")["pickybpe.json"])
    assert any(mine["splits"]), "the file holds removals"
    for part in ("id2int", "int2id", "tokens", "merges", "splits"):
        assert mine[part] == theirs[part], part


@pytest.mark.parametrize("where", ["last", "middle"])
def test_the_packages_segmenter_opens_it_and_cuts_text_as_bpeviz(trained, tmp_path, where):
    _, _, ours = trained
    first_removal = next(e.step for e in ours.merges if e.kind == "removal")
    step = len(ours.merges) if where == "last" else first_removal + 5
    snap = ours.at(step)
    path = tmp_path / "pickybpe.json"
    formats.write_files(formats.export(snap, "pickybpe"), path)
    segmenter = segmentation.PickyBPESegmenter.from_pretrained(Path(path))
    # (a segmenter opened from a file has no [UNK]: a character it lacks is a KeyError)
    known = set(ours.vocab[:ours.n_base])
    words = [w for w in HELD_OUT.split() if set(w) <= known]
    assert len(words) > 300
    for word in words:
        theirs = [t.str for t in segmenter._encode_word_by_events(WORD_START + word)]
        assert theirs == [ours.vocab[i] for i in snap.encode_word(WORD_START + word)], word
    # the ids the segmenter gives a token are its place among the tokens present
    present = sorted(snap.present)
    assert {int(k): v for k, v in json.loads(path.read_text("utf-8"))["id2int"].items()} == {
        i: n for n, i in enumerate(present)}


def test_other_algorithms_and_other_formats_say_where_to_export():
    picky = bpeviz.train("low lower lowest", algorithm="picky", merges=3)
    with pytest.raises(ValueError, match="export picky as 'pickybpe'"):
        formats.export(picky.at(), "hf")
    bpe = bpeviz.train(bpeviz.Corpus.from_text("low lower lowest"), "bpe", merges=3)
    with pytest.raises(ValueError, match="export bpe as 'hf' or 'gpt2'"):
        formats.export(bpe.at(), "pickybpe")


def test_opening_one_says_bpeviz_writes_but_does_not_open_them(trained):
    _, theirs, _ = trained
    with pytest.raises(ValueError, match="is a PickyBPE model file"):
        formats.import_files({"tokenizer (3).json": json.dumps(theirs)})
