"""A tokenizer.json that decodes without the spaces between words (character BPE with no
end-of-word marker and a pre-tokenizer that drops whitespace) is named as such, exactly
when Hugging Face's decoder loses the spaces; the command line and the Vocabulary page
warn and say which marker makes it reversible."""

from __future__ import annotations

import pytest
from tokenizers import Tokenizer

from bpeviz import Corpus, formats, save, train
from bpeviz.cli import main
from bpeviz.formats.hf import lossy_decoding
from tests.support.app import ok, open_page, plain

TEXT = "Tokenizers cut text into words, and words into tokens"


@pytest.mark.parametrize("algorithm, pretokenizer, options", [
    ("bpe", "whitespace", {}),
    ("bpe", "bert", {}),
    ("bpe", "whitespace", {"marker": "</w>", "marker_style": "glued"}),
    ("bpe", "whitespace", {"marker": "_", "marker_style": "glued"}),
    ("bpe", "gpt2", {}),
    ("bpe", "none", {}),
    ("bpe", "metaspace", {}),
    ("bbpe", "whitespace", {}),
    ("bbpe", "gpt2", {}),
    ("wordpiece", "whitespace", {}),
])
def test_lossy_decoding_is_named_exactly_when_hugging_face_decodes_without_spaces(
        algorithm, pretokenizer, options):
    training = train(Corpus.from_text(TEXT * 3, pretokenizer), algorithm, merges=20, **options)
    tok = Tokenizer.from_str(formats.export(training.at(20), "hf")["tokenizer.json"])
    decoded = tok.decode(tok.encode("cut text").ids)
    assert (lossy_decoding(training) is not None) == (decoded == "cuttext"), decoded


def test_the_lossy_note_names_the_marker_that_makes_it_reversible():
    note = lossy_decoding(train(Corpus.from_text(TEXT), "bpe", merges=5))
    assert note and "</w>" in note and "glued" in note and "Tokenizerscuttext" in note


def test_cli_export_hf_warns_that_it_decodes_without_spaces(tmp_path, capsys):
    path = tmp_path / "training.json"
    save(train(Corpus.from_text(TEXT), "bpe", merges=5), str(path))
    assert main(["export", "--training", str(path), "--format", "hf",
                 "--out", str(tmp_path / "t.json")]) == 0
    assert "warning: This tokenizer.json decodes without the spaces" in capsys.readouterr().err


def test_vocabulary_warns_for_character_bpe_without_a_marker():
    at = ok(open_page("pages/4_Vocabulary.py", algo="bpe", marker="none"))
    warnings = [plain(w.value) for w in at.warning]
    assert any("decodes without the spaces" in w and "</w>" in w for w in warnings), warnings
    assert any("Decodes without the spaces" in c.value for c in at.caption)


@pytest.mark.parametrize("state", [{"algo": "bpe", "marker": "</w>", "marker_style": "glued"},
                                   {"algo": "bbpe"}, {"algo": "wordpiece"}])
def test_vocabulary_has_no_spacing_warning_for_a_reversible_tokenizer(state):
    at = ok(open_page("pages/4_Vocabulary.py", **state))
    assert not [w.value for w in at.warning if "decodes without" in w.value]
