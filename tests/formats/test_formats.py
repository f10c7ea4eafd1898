"""Exports and imports: parity with Hugging Face tokenizers and tiktoken on text the
training never saw, export -> import -> encode round trips, and clear errors for
malformed or unsupported files."""

from __future__ import annotations

import argparse
import base64
import functools
import inspect
import json
import textwrap
import unicodedata

import pytest
import tiktoken
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

from bpeviz import Corpus, formats, load, train
from bpeviz.formats import FORMATS, import_files, import_path, write_files
from bpeviz.formats.tiktoken_ranks import recover_merges
from bpeviz.text.display import bytes_to_gpt2, display

pytestmark = pytest.mark.usefixtures("engine")

#: Training text and a different text to encode: two standard-library modules.
TRAIN_TEXT = inspect.getsource(argparse)
UNSEEN = (inspect.getsource(textwrap)
          + "\nnaïve café, 中文 and 苹果派 😀 👨‍👩‍👧 e\u0301 x\u3000y \x1c z\u00a0w 'll I'm\n")
MERGES = 300

CONFIGS = {
    "bpe": dict(algorithm="bpe", pretokenizer="whitespace"),
    "bpe-glued": dict(algorithm="bpe", pretokenizer="whitespace", marker="</w>",
                      marker_style="glued"),
    "bpe-separate": dict(algorithm="bpe", pretokenizer="whitespace", marker="</w>"),
    "bpe-gpt2": dict(algorithm="bpe", pretokenizer="gpt2"),
    "bpe-lines": dict(algorithm="bpe", pretokenizer="none"),
    "bbpe": dict(algorithm="bbpe", pretokenizer="gpt2"),
    "bbpe-whitespace": dict(algorithm="bbpe", pretokenizer="whitespace"),
    "bbpe-lines": dict(algorithm="bbpe", pretokenizer="none"),
    "wordpiece": dict(algorithm="wordpiece", pretokenizer="whitespace"),
    "wordpiece-gpt2": dict(algorithm="wordpiece", pretokenizer="gpt2"),
}
#: Which formats can hold each configuration exactly (the others raise ValueError).
EXPORTABLE = {
    "bpe": {"hf", "gpt2", "training"},
    "bpe-glued": {"hf", "gpt2", "training"},
    "bpe-separate": {"gpt2", "training"},
    "bpe-gpt2": {"hf", "training"},       # tokens hold spaces: no merges.txt
    "bpe-lines": {"hf", "training"},
    "bbpe": {"hf", "tiktoken", "gpt2", "training"},
    "bbpe-whitespace": {"hf", "tiktoken", "gpt2", "training"},
    "bbpe-lines": {"hf", "tiktoken", "gpt2", "training"},
    "wordpiece": {"hf", "vocab", "training"},
    "wordpiece-gpt2": {"hf", "training"},  # tokens end in spaces: no vocab.txt lines
}
_TRAININGS: dict[str, object] = {}


def trained(name: str):
    if name not in _TRAININGS:
        config = dict(CONFIGS[name])
        corpus = Corpus.from_text(TRAIN_TEXT, config.pop("pretokenizer"))
        _TRAININGS[name] = train(corpus, config.pop("algorithm"), merges=MERGES, **config)
    return _TRAININGS[name]


# -- Hugging Face parity -------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(n for n in CONFIGS if "hf" in EXPORTABLE[n]))
def test_hf_export_encodes_like_snapshot_encode(name):
    training = trained(name)
    for step in (0, 37, MERGES):
        snap = training.at(step)
        ours = snap.encode(UNSEEN)
        hf = Tokenizer.from_str(formats.export(snap, "hf")["tokenizer.json"]).encode(UNSEEN)
        assert hf.ids == ours.ids, (name, step)
        assert hf.tokens == [t.text if t.unk else display(training.vocab[t.id]) for t in ours]
        assert hf.offsets == list(zip(ours.starts, ours.ends))
        assert any(t.unk for t in ours) == (training.algorithm != "bbpe")


def test_hf_export_loads_from_a_file_and_decodes_bytes_exactly(tmp_path):
    snap = trained("bbpe").at()
    (path,) = write_files(formats.export(snap, "hf"), tmp_path / "tokenizer.json")
    hf = Tokenizer.from_file(str(path))
    ids = hf.encode(UNSEEN).ids
    assert ids == snap.encode(UNSEEN).ids
    assert hf.decode(ids) == snap.decode(ids) == UNSEEN


def test_hf_export_holds_the_merges_and_vocabulary_of_the_step():
    training = trained("bpe")
    data = json.loads(formats.export(training.at(37), "hf")["tokenizer.json"])
    assert len(data["model"]["merges"]) == 37
    assert len(data["model"]["vocab"]) == training.vocab_size_at(37)
    assert data["model"]["unk_token"] == "[UNK]" and data["added_tokens"] == []


def test_separate_marker_cannot_be_exported_to_hf():
    with pytest.raises(ValueError, match="no Hugging Face equivalent"):
        formats.export(trained("bpe-separate").at(), "hf")


# -- tiktoken parity -----------------------------------------------------------------------
def tiktoken_encoding(files):
    config = json.loads(files["tiktoken.json"])
    ranks = {base64.b64decode(token): int(rank) for token, rank in
             (line.split() for line in files["tokenizer.tiktoken"].splitlines())}
    return tiktoken.Encoding(config["name"], pat_str=config["pat_str"], mergeable_ranks=ranks,
                             special_tokens=config["special_tokens"],
                             explicit_n_vocab=config["explicit_n_vocab"])


@pytest.mark.parametrize("name", ["bbpe", "bbpe-whitespace", "bbpe-lines"])
def test_tiktoken_with_our_ranks_gives_the_same_ids(name):
    training = trained(name)
    for step in (0, 5, 120, MERGES):
        snap = training.at(step)
        enc = tiktoken_encoding(formats.export(snap, "tiktoken"))
        ids = enc.encode_ordinary(UNSEEN)
        assert ids == snap.encode(UNSEEN).ids, (name, step)
        if name == "bbpe":
            assert enc.decode(ids) == UNSEEN


def test_tiktoken_is_byte_level_only():
    for name in ("bpe", "wordpiece"):
        with pytest.raises(ValueError, match="byte-level BPE only"):
            formats.export(trained(name).at(), "tiktoken")


# -- export -> import -> encode ------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_every_export_imports_back_to_identical_tokens(name):
    training = trained(name)
    step = 150
    snap = training.at(step)
    expected = snap.encode(UNSEEN)
    for fmt in FORMATS:
        if fmt not in EXPORTABLE[name]:
            with pytest.raises(ValueError):
                formats.export(snap, fmt)
            continue
        back = import_files(formats.export(snap, fmt))
        if fmt == "training":  # the whole training, every step
            assert len(back.merges) == MERGES
            back_snap = back.at(step)
        else:
            back_snap = back.at()
            assert len(back.merges) == (0 if training.algorithm == "wordpiece" else step)
            assert list(back_snap.vocab) == list(snap.vocab)  # same tokens, same ids
        assert back_snap.encode(UNSEEN) == expected, (name, fmt)


def test_export_rejects_unknown_formats():
    with pytest.raises(ValueError, match="unknown export format 'sentencepiece'"):
        formats.export(trained("bpe").at(), "sentencepiece")


def test_imported_steps_are_the_merges_in_rank_order():
    training = trained("bpe")
    back = import_files(formats.export(training.at(40), "hf"))
    assert [(m.left, m.right) for m in back.merges] == [
        (m.left, m.right) for m in training.merges[:40]]
    for k in (0, 13, 40):
        assert back.at(k).encode(UNSEEN) == training.at(k).encode(UNSEEN)
    assert back.at(0).splits == {}  # no corpus, but every step can be opened


def test_tiktoken_import_recovers_the_merges():
    training = trained("bbpe")
    back = import_files(formats.export(training.at(), "tiktoken"))
    assert [(m.left, m.right) for m in back.merges] == [
        (m.left, m.right) for m in training.merges]
    assert recover_merges({b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"abc": 4}) == [
        (b"a", b"b"), (b"ab", b"c")]


def test_write_files_and_import_path(tmp_path):
    snap = trained("bbpe").at(100)
    written = write_files(formats.export(snap, "gpt2"), tmp_path / "gpt2")
    assert sorted(p.name for p in written) == ["bpeviz.json", "merges.txt", "vocab.json"]
    assert import_path(tmp_path / "gpt2").at().encode(UNSEEN) == snap.encode(UNSEEN)
    (single,) = write_files(formats.export(snap, "training"), tmp_path / "mine.json")
    assert load(single).at(100).encode(UNSEEN) == snap.encode(UNSEEN)
    assert import_path(single).at(100).encode(UNSEEN) == snap.encode(UNSEEN)
    write_files(formats.export(snap, "tiktoken"), tmp_path)  # an existing folder
    assert import_path(tmp_path / "tokenizer.tiktoken").at().encode(UNSEEN) == snap.encode(
        UNSEEN)


# -- tokenizers made by other tools --------------------------------------------------------
def hf_trained(model, pre_tokenizer, trainer, decoder=None):
    tok = Tokenizer(model)
    tok.pre_tokenizer = pre_tokenizer
    if decoder is not None:
        tok.decoder = decoder
    tok.train_from_iterator([TRAIN_TEXT], trainer)
    return tok


def assert_same_as_hf(tok, text=None):
    """HF's WhitespaceSplit keeps U+001C..U+001F inside words (str.split cuts there)."""
    text = UNSEEN.replace("\x1c", "") if text is None else text
    training = import_files({"tokenizer.json": tok.to_str()})
    ours = training.at().encode(text)
    hf = tok.encode(text)
    assert hf.ids == ours.ids
    assert hf.offsets == list(zip(ours.starts, ours.ends))
    return training


def test_import_a_tokenizer_trained_by_hf_bpe():
    tok = hf_trained(models.BPE(unk_token="[UNK]"), pre_tokenizers.WhitespaceSplit(),
                     trainers.BpeTrainer(vocab_size=500, special_tokens=["[UNK]"],
                                         show_progress=False))
    training = assert_same_as_hf(tok)
    assert training.vocab[0] == "[UNK]" and len(training.merges) > 300


def test_import_a_tokenizer_trained_by_hf_with_end_of_word_suffix():
    tok = hf_trained(models.BPE(unk_token="[UNK]", end_of_word_suffix="</w>"),
                     pre_tokenizers.WhitespaceSplit(),
                     trainers.BpeTrainer(vocab_size=500, special_tokens=["[UNK]"],
                                         end_of_word_suffix="</w>", show_progress=False))
    training = assert_same_as_hf(tok)
    assert (training.options.marker, training.options.marker_style) == ("</w>", "glued")


def test_import_a_byte_level_tokenizer_trained_by_hf():
    tok = hf_trained(models.BPE(), pre_tokenizers.ByteLevel(add_prefix_space=False),
                     trainers.BpeTrainer(vocab_size=700, special_tokens=["<|endoftext|>"],
                                         initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                         show_progress=False),
                     decoders.ByteLevel())
    training = assert_same_as_hf(tok, UNSEEN)
    assert training.algorithm == "bbpe" and training.vocab[0] == b"<|endoftext|>"
    assert training.at().decode(tok.encode(UNSEEN).ids) == UNSEEN


def test_import_a_wordpiece_tokenizer_trained_by_hf():
    tok = hf_trained(models.WordPiece(unk_token="[UNK]"), pre_tokenizers.WhitespaceSplit(),
                     trainers.WordPieceTrainer(vocab_size=500,
                                               special_tokens=["[PAD]", "[UNK]", "[CLS]"],
                                               show_progress=False))
    training = assert_same_as_hf(tok)
    assert training.algorithm == "wordpiece" and len(training.merges) == 0


def test_import_gpt2_layout_keeps_ids_with_endoftext_last():
    """GPT-2's files list <|endoftext|> after all merged tokens; ids must not shift."""
    snap = trained("bbpe").at()
    files = formats.export(snap, "gpt2")
    del files["bpeviz.json"]  # as downloaded: no bpeviz settings, the GPT-2 pattern assumed
    vocab = json.loads(files["vocab.json"])
    vocab["<|endoftext|>"] = len(vocab)
    files["vocab.json"] = json.dumps(vocab)
    training = import_files(files)
    assert training.vocab[-1] == b"<|endoftext|>" and len(training.vocab) == len(vocab)
    assert training.at().encode(UNSEEN) == snap.encode(UNSEEN)
    assert training.at(0).decode([len(vocab) - 1]) == "<|endoftext|>"
    # the same layout in a HF tokenizer.json, as the hub's gpt2 ships it
    hf = json.loads(formats.export(snap, "hf")["tokenizer.json"])
    hf["model"]["vocab"] = vocab
    hf["added_tokens"] = [{"id": len(vocab) - 1, "content": "<|endoftext|>", "single_word": False,
                           "lstrip": False, "rstrip": False, "normalized": True,
                           "special": True}]
    hf["pre_tokenizer"] = {"type": "ByteLevel", "add_prefix_space": False,
                           "trim_offsets": True, "use_regex": True}
    text = json.dumps(hf)
    from_hf = import_files({"tokenizer.json": text})
    assert from_hf.vocab == training.vocab
    assert from_hf.at().encode(UNSEEN).ids == Tokenizer.from_str(text).encode(UNSEEN).ids
    # and it survives the training format (base and extra tokens are stored)
    again = import_files(formats.export(from_hf.at(), "training"))
    assert again.vocab == from_hf.vocab and again.at().encode(UNSEEN) == snap.encode(UNSEEN)


def test_import_a_bert_style_vocab_txt():
    vocab = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nun\n##aff\n##able\naff\n##a\nhug\n##s\n"
    training = import_files({"vocab.txt": vocab})
    assert training.algorithm == "wordpiece" and len(training.merges) == 0
    tokens = training.at().encode("unaffable hugs dog")
    assert [t.text for t in tokens] == ["un", "##aff", "##able", "hug", "##s", "[UNK]"]
    assert [t.id for t in tokens] == [5, 6, 7, 10, 11, 1]


def test_gpt2_files_without_settings_open_as_whitespace_bpe():
    files = {"vocab.json": json.dumps({"[UNK]": 0, "a": 1, "b": 2, "ab": 3}),
             "merges.txt": "#version: 0.2\na b\n"}
    training = import_files(files)
    assert training.algorithm == "bpe" and training.corpus.pretokenizer == "whitespace"
    assert [t.text for t in training.at().encode("abc ba")] == ["ab", "[UNK]", "b", "a"]


# -- malformed and unsupported files -------------------------------------------------------
def hf_json(**changes):
    data = {"version": "1.0", "added_tokens": [], "normalizer": None,
            "pre_tokenizer": {"type": "WhitespaceSplit"}, "post_processor": None,
            "decoder": None,
            "model": {"type": "BPE", "unk_token": "[UNK]",
                      "vocab": {"[UNK]": 0, "a": 1, "b": 2, "ab": 3},
                      "merges": [["a", "b"]]}}
    for key, value in changes.items():
        if key.startswith("model_"):
            data["model"][key[6:]] = value
        else:
            data[key] = value
    return {"tokenizer.json": json.dumps(data)}


def ranks_file(lines):
    return {"tokenizer.tiktoken": "".join(line + "\n" for line in lines)}


ALL_BYTES = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]

BAD_FILES = {
    "not JSON": ({"tokenizer.json": "{'model': "}, "tokenizer.json is not valid JSON"),
    "JSON list": ({"tokenizer.json": "[1, 2]"}, "neither a Hugging Face"),
    "no model": ({"tokenizer.json": "{}"}, "neither a Hugging Face"),
    "Unigram": (hf_json(model_type="Unigram"), "model type 'Unigram' is not supported"),
    "no vocab": (hf_json(model_vocab=None), 'no "vocab" object'),
    "id not a number": (hf_json(model_vocab={"[UNK]": 0, "a": "1"}), "must be a whole number"),
    "huge id": (hf_json(model_vocab={"[UNK]": 0, "a": 10**30}), "out of range"),
    "negative id": (hf_json(model_vocab={"[UNK]": 0, "a": -1}), "out of range"),
    "float id": (hf_json(model_vocab={"[UNK]": 0, "a": 1.5}), "must be a whole number"),
    "duplicate id": (hf_json(model_vocab={"[UNK]": 0, "a": 1, "b": 1, "ab": 3}),
                     "gives id 1 to both"),
    "merge of unknown token": (hf_json(model_merges=[["a", "c"]]),
                               r"uses 'c', which is not in the vocabulary"),
    "merge makes unknown token": (hf_json(model_vocab={"[UNK]": 0, "a": 1, "b": 2}),
                                  "makes 'ab', which is not in the vocabulary"),
    "merge not a pair": (hf_json(model_merges=[["a", "b", "c"]]), "merge 1 should be two"),
    "no merges": (hf_json(model_merges=None), 'no "merges" list'),
    # (a normalizer, Metaspace and byte_fallback open with a note: test_hf_notes.py)
    "pre-tokenizer": (hf_json(pre_tokenizer={"type": "Digits"}),
                      "pre-tokenizer 'Digits' is not supported"),
    "odd split": (hf_json(pre_tokenizer={"type": "Split", "pattern": {"Regex": "x"},
                                         "behavior": "Removed", "invert": False}),
                  "Split pre-tokenizer on 'x'"),
    "prefix space": (hf_json(pre_tokenizer={"type": "ByteLevel", "add_prefix_space": True}),
                     "add_prefix_space=true is not supported"),
    "byte-level without bytes": (hf_json(pre_tokenizer={"type": "ByteLevel",
                                                        "add_prefix_space": False}),
                                 "lacks 254 of the 256 bytes"),
    "ignore merges": (hf_json(model_ignore_merges=True), "ignore_merges=True"),
    "odd unk": (hf_json(model_unk_token="<oov>"), "unk_token '<oov>' is not supported"),
    "unk not in vocab": (hf_json(model_unk_token="<unk>"), "not in the vocabulary"),
    "wordpiece prefix": (hf_json(model_type="WordPiece", model_continuing_subword_prefix="@@"),
                         "continuing_subword_prefix='@@'"),
    "bad added token": (hf_json(added_tokens=[{"id": 0}]), 'string "content"'),
    "deep JSON": ({"tokenizer.json": "[" * 100000 + "]" * 100000}, "tokenizer.json"),
    "training corrupt": ({"training.json": json.dumps({"format": "bpeviz.core.training",
                                                       "version": 1})},
                         "missing or garbles a field"),
    "ranks bad base64": (ranks_file(["!!!! 0"]), "line 1: '!!!!' is not base64"),
    "ranks bad rank": (ranks_file(["YQ== x"]), "line 1: the rank 'x'"),
    "ranks huge rank": (ranks_file(["YQ== 99999999999999999999"]), "line 1: the rank"),
    "ranks one column": (ranks_file(["YQ=="]), "expected '<base64 token> <rank>'"),
    "ranks duplicate": (ranks_file(["YQ== 0", "YQ== 1"]), "appears twice"),
    "ranks missing bytes": (ranks_file(["YQ== 0"]), "lacks 255 of the 256 bytes"),
    "ranks unmergeable": (ranks_file([*ALL_BYTES, f"{base64.b64encode(b'abc').decode()} 256"]),
                          "cannot be made by merging two tokens"),
    "ranks too long": (ranks_file([f"{base64.b64encode(b'a' * 20000).decode()} 0"]),
                       "too long to recover the merges"),
    "ranks odd pattern": ({**ranks_file(ALL_BYTES),
                           "tiktoken.json": json.dumps({"pat_str": r"\w+"})},
                          "pattern '\\\\\\\\w\\+' is not supported"),
    "merges.txt line": ({"vocab.json": "{}", "merges.txt": "#version: 0.2\na b c\n"},
                        "merges.txt, line 2: expected two tokens"),
    "merges.txt alone": ({"merges.txt": "a b\n"}, "needs its vocab.json"),
    "vocab.json alone": ({"vocab.json": "{}"}, "needs its merges.txt"),
    "vocab.json not object": ({"vocab.json": "[]", "merges.txt": ""}, "should be a JSON object"),
    "vocab.txt empty line": ({"vocab.txt": "a\n\nb\n"}, "line 2 is empty"),
    "vocab.txt duplicate": ({"vocab.txt": "a\nb\na\n"}, "line 3: 'a' is already on line 1"),
    "vocab.txt empty": ({"vocab.txt": ""}, "holds no tokens"),
    "bad settings": ({"vocab.txt": "a\n", "bpeviz.json": '{"format": "bpeviz.tokenizer", '
                      '"pretokenizer": "sentencepiece"}'}, "unknown pre-tokenizer"),
    "not UTF-8": ({"tokenizer.json": b"{\"model\": \"caf\xe9\"}"}, "not UTF-8"),
    "nothing": ({}, "no files given"),
    "unknown names": ({"a.bin": "hello", "b.bin": "x"}, "cannot tell the format"),
    "plain text": ({"notes.txt": "hello world"}, "neither JSON"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_files_raise_a_clear_value_error(case):
    files, message = BAD_FILES[case]
    with pytest.raises(ValueError, match=message):
        import_files(files)


def test_oversized_files_are_refused(tmp_path, monkeypatch):
    import bpeviz.formats as formats

    monkeypatch.setattr(formats, "MAX_FILE_BYTES", 10)
    path = tmp_path / "tokenizer.json"
    path.write_text('{"model": {"type": "BPE"}}')
    with pytest.raises(ValueError, match="bpeviz opens files up to 10 bytes"):
        import_path(path)


def test_exports_name_what_cannot_be_written():
    with pytest.raises(ValueError, match=r"merges.txt cannot write"):
        formats.export(trained("bpe-gpt2").at(), "gpt2")
    with pytest.raises(ValueError, match=r"cannot be a line of vocab.txt"):
        formats.export(trained("wordpiece-gpt2").at(), "vocab")
    with pytest.raises(ValueError, match="WordPiece encodes by longest match"):
        formats.export(trained("wordpiece").at(), "gpt2")
    with pytest.raises(ValueError, match=r"vocab.txt holds a WordPiece vocabulary"):
        formats.export(trained("bbpe").at(), "vocab")


def test_byte_level_exports_spell_bytes_like_gpt2():
    snap = trained("bbpe").at()
    vocab = json.loads(formats.export(snap, "gpt2")["vocab.json"])
    assert vocab["Ġ"] == ord(" ") and vocab[bytes_to_gpt2(b"\n")] == ord("\n")
    assert formats.export(snap, "gpt2")["merges.txt"].startswith("#version: 0.2\n")


# -- parity on arbitrary text (Hypothesis) -------------------------------------------------------
ANY_TEXT = st.lists(
    # no surrogates: HF's encode refuses them (TypeError);
    # test_tiktoken_exports_encode_like_bpeviz.py checks them against tiktoken
    st.one_of(st.characters(exclude_categories=("Cs",)), st.sampled_from(
        ["the ", " return", "\n    ", "self.", "'s", "😀", "\U0001F468\u200d\U0001F469",
         "e\u0301", "中文", "\t", "  "])),
    max_size=40,
).map("".join)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=ANY_TEXT)
def test_hf_and_tiktoken_agree_with_us_on_any_text(text):
    """Whitespace splitting is exact in every library; GPT-2's pattern is exact in
    tiktoken (HF's regex engine has older Unicode tables, so it is checked on real text).
    tiktoken's own tables are older than the ``regex`` module's too: a code point that is
    unassigned in Python's Unicode database (U+3D000 is one) may be a letter for one
    and not the other, so those become U+FFFD for the tiktoken check."""
    for name in ("bpe", "bbpe-whitespace", "wordpiece"):
        snap = trained(name).at()
        hf = _hf_tokenizer(name).encode(text)
        ours = snap.encode(text)
        assert hf.ids == ours.ids and hf.offsets == list(zip(ours.starts, ours.ends))
    known = "".join("\ufffd" if unicodedata.category(ch) == "Cn" else ch for ch in text)
    assert _tiktoken_encoding().encode_ordinary(known) == trained("bbpe").at().encode(known).ids


@functools.cache
def _hf_tokenizer(name):
    return Tokenizer.from_str(formats.export(trained(name).at(), "hf")["tokenizer.json"])


@functools.cache
def _tiktoken_encoding():
    return tiktoken_encoding(formats.export(trained("bbpe").at(), "tiktoken"))


def test_a_merge_that_remakes_an_existing_token_exports_and_imports():
    """"abc" is made twice, by (a, bc) and by (ab, c): the second merge keeps its id."""
    from bpeviz import replay
    from bpeviz.core.training import make_options

    corpus = Corpus.from_counts({"abc": 3, "abd": 2, "xabcab": 1})
    training = replay(corpus, make_options("bpe", merges=4),
                      [("b", "c"), ("a", "b"), ("a", "bc"), ("ab", "c")])
    assert [m.token_id for m in training.merges][-2:] == [8, 8]
    snap = training.at()
    text = "abc abd abcab cab ababc"
    expected = snap.encode(text)
    assert Tokenizer.from_str(formats.export(snap, "hf")["tokenizer.json"]).encode(text).ids == (
        expected.ids)
    for fmt in ("hf", "gpt2", "training"):
        back = import_files(formats.export(snap, fmt))
        assert back.vocab == training.vocab and len(back.merges) == 4
        assert back.at().encode(text) == expected


def test_hf_legacy_merge_strings_and_a_one_step_sequence_are_read():
    files = hf_json(model_merges=["a b"],
                    pre_tokenizer={"type": "Sequence",
                                   "pretokenizers": [{"type": "WhitespaceSplit"}]})
    training = import_files(files)
    assert [(m.left, m.right) for m in training.merges] == [("a", "b")]
    assert [t.text for t in training.at().encode("ab ba")] == ["ab", "b", "a"]
