"""A file that is not a usable SentencePiece model is refused with a ValueError that
names the file and says what is wrong: ``load_spm`` checks the model as the
``sentencepiece`` library itself would load it (a one-empty-piece model is refused, as
sentencepiece refuses it), and the tokenizer-file opener (CLI ``--training``, the app's
box) opens a Unigram ``.model`` and says what is wrong with any other, never "not UTF-8
text"."""

from __future__ import annotations

import pytest

from bpeviz.formats import import_files, import_path
from bpeviz.unigram.spm import load_spm

#: one piece with an empty string: parses, but sentencepiece refuses it
EMPTY_PIECE = b"\x0a\x00"
#: one normal piece "a", no <unk>
NO_UNK = b"\x0a\x08\x0a\x01a\x15\x00\x00\x80\xbf\x18\x01"
GARBAGE = b"\xff\xfe not a model \x00\x01"


@pytest.mark.parametrize("data, why", [
    (EMPTY_PIECE, "piece must not be empty"),
    (NO_UNK, "unk is not defined"),
    (GARBAGE, "not a SentencePiece model protobuf"),
    (b"", "is empty"),
])
def test_load_spm_refuses_a_bad_model_naming_the_file(tmp_path, data, why):
    path = tmp_path / "bad.model"
    path.write_bytes(data)
    with pytest.raises(ValueError, match=why) as err:
        load_spm(path)
    assert str(path) in str(err.value)
    assert "INTERNAL" not in str(err.value) and "src/" not in str(err.value)
    with pytest.raises(ValueError, match=why) as err:
        load_spm(data, name="upload.model")
    assert str(err.value).startswith("upload.model ")


@pytest.mark.parametrize("data", [EMPTY_PIECE, GARBAGE])
def test_opening_a_bad_model_as_a_tokenizer_says_what_it_is_not(tmp_path, data):
    path = tmp_path / "m.model"
    path.write_bytes(data)
    for opening in (lambda: import_path(path), lambda: import_files({"m.model": data})):
        with pytest.raises(ValueError) as err:
            opening()
        message = str(err.value)
        assert "m.model" in message and "not a usable SentencePiece model" in message
        assert "UTF-8" not in message


def test_a_real_unigram_model_opens_as_a_tokenizer_and_a_bpe_one_says_where_it_opens():
    import io

    import sentencepiece as spm

    models = {}
    for kind in ("unigram", "bpe"):
        out = io.BytesIO()
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(["hello world", "hello there"] * 5), model_writer=out,
            vocab_size=14, model_type=kind, minloglevel=3)
        models[kind] = out.getvalue()
    opened = import_files({"good.model": models["unigram"]})
    assert [t.id for t in opened.at(0).encode("hello world")] == \
        load_spm(models["unigram"]).encode_ids("hello world")
    with pytest.raises(ValueError) as err:
        import_files({"good.model": models["bpe"]})
    message = str(err.value)
    assert message.startswith("good.model is a SentencePiece bpe model")
    assert "load_spm" in message and "UTF-8" not in message
    assert load_spm(models["bpe"]).pieces  # (and it opens there)
