"""What ``bpeviz export`` writes for a SuperBPE training reopens: as byte-level BPE whose
pre-tokenizer is SuperBPE's stage 2, so text is cut as the training cut it, with the
training's ids and ``tokenizers``' ids for the same file; on the command line and in the
app's Tokenize page too."""

from __future__ import annotations

import json

import pytest
from tokenizers import Tokenizer

import bpeviz
from bpeviz import formats
from bpeviz.algorithms.superbpe import STAGE2
from bpeviz.samples import parallel_text
from bpeviz.text.pretoken_spans import pretoken_spans
from tests.support.app import ok, open_page
from tests.support.cli import run_cli

TEXT = parallel_text("en")
#: text the training never saw: another language, digits, runs of punctuation and
#: spaces, line breaks, a colon before a space (which stage 2 never merges across)
HELD_OUT = (parallel_text("de")[:600] + " Call 555-1234 now!!!  Then: ok...\n\n\n"
            "  the library by the river, and the children 12345678 \r\n")


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    folder = tmp_path_factory.mktemp("superbpe")
    (folder / "story.txt").write_text(TEXT, encoding="utf-8")
    done = run_cli("train", str(folder / "story.txt"), "--algorithm", "superbpe",
                   "--merges", "160", "--transition", "100", "--out", str(folder / "s.json"))
    assert done.returncode == 0, done.stderr
    done = run_cli("export", "--training", str(folder / "s.json"), "--format", "hf",
                   "--out", str(folder / "tokenizer.json"))
    assert done.returncode == 0, done.stderr
    return bpeviz.load(folder / "s.json"), folder / "tokenizer.json"


def test_it_opens_as_byte_level_bpe_cut_by_stage_2_with_the_trainings_ids(trained):
    training, path = trained
    opened = formats.import_path(path)
    assert opened.algorithm == "bbpe" and opened.corpus.pretokenizer == STAGE2
    assert [(m.left, m.right) for m in opened.merges] == [
        (m.left, m.right) for m in training.merges]
    ids = [t.id for t in training.at().encode(HELD_OUT)]
    assert [t.id for t in opened.at().encode(HELD_OUT)] == ids
    assert Tokenizer.from_file(str(path)).encode(HELD_OUT).ids == ids
    # a superword of stage 2 is one token of the opened file, as in the training
    superword = next(m.token for k, m in enumerate(training.merges, 1)
                     if training.superword(k))
    assert superword in [t.bytes for t in opened.at().encode(TEXT)]


def test_the_command_line_encodes_with_the_reopened_file(trained):
    training, path = trained
    done = run_cli("encode", "--training", str(path), HELD_OUT)
    assert done.returncode == 0, done.stderr
    ids = [json.loads(line)["id"] for line in done.stdout.splitlines()]
    assert ids == [t.id for t in training.at().encode(HELD_OUT)]


def test_tokenize_cuts_text_with_the_reopened_file_as_the_training_did(trained):
    training, path = trained
    at = open_page("pages/4_Vocabulary.py")
    box = next(u for u in at.main.get("file_uploader") if "tokenizer" in u.label)
    box.set_value([("tokenizer.json", path.read_bytes(), "application/json")]).run()
    assert not ok(at).error, [e.value for e in at.error]
    text = "the library by the river, and the children"
    at.switch_page("pages/2_Tokenize.py").run()
    at.session_state["tok_source"] = "imported"
    at.session_state["text"] = text
    at.run()
    assert not ok(at).error, [e.value for e in at.error]
    assert at.code[0].value.split() == [str(t.id) for t in training.at().encode(text)]
    # its pre-tokens are stage 2's: one frame for the words a superword may join
    at.session_state["pretokens"] = True
    at.run()
    frames = next(el.proto.body for el in ok(at).get("html") if "bv-pretokens" in el.proto.body)
    pieces = [p.text for p in pretoken_spans(text, STAGE2) if not p.is_gap]
    assert frames.count('class="bv-pretoken"') == len(pieces) < len(text.split())
