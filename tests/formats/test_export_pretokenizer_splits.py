"""Every exported pre-tokenizer cuts text as bpeviz does in the library that reads the
export: Hugging Face ``tokenizers`` (its Oniguruma regex engine reads some patterns
differently from the ``regex`` module) and tiktoken (its pattern engine is Rust's
fancy-regex), on digit runs, contractions, whitespace runs and mixed scripts."""

from __future__ import annotations

import json

import pytest
import tiktoken
from tokenizers import Tokenizer

from bpeviz import Corpus, formats, train
from bpeviz.text.display import gpt2_to_bytes
from bpeviz.text.pretokenize import PRETOKENIZERS, words

TEXTS = [
    # digit runs: cl100k and o200k cut them in threes
    "20241999", "x 1234567 y 12", "1234567890123 4", "٣٤٥٦٧8", "½²³ 1½", "a1b22c333d4444",
    # contractions, in both cases
    "I'M don't WE'LL you're 'S it's they've I'd", "'s'S'll",
    # whitespace runs
    "a  b   c", "a \n\n b", "\t\t x", "  \n", "x   ", "a\r\nb\r\n\r\n", "  x\n  y  ",
    "x\u3000y\xa0z \x1c w\x85v", "a\u2028b\u2029c\x0bd\x0ce",
    # mixed scripts, punctuation, case changes
    "naïve café 中文 Привет мир e\u0301 عربى HelloWorld ABCdef",
    "hello!!! ...  ,x <b>x</b> don't-stop 2024-01-31",
    # scripts written without spaces, CJK ideographs (also beyond the BMP), symbols that
    # BERT calls punctuation ($ + ^ `) and some it does not (fullwidth ＜＞, ©)
    "我们喜欢自然语言处理。日本語のテキスト、カタカナ！ 𠀀𠀁 豈 ภาษาไทย",
    "a$b+c^d`e|f~g ＜x＞ © ¿qué? «oui» 1,000.5",
]


def _export(algorithm: str, name: str, fmt: str) -> dict[str, str]:
    training = train(Corpus.from_text("hello world 123", name), algorithm, merges=1)
    return formats.export(training.at(0), fmt)


@pytest.mark.parametrize("algorithm", ["bpe", "bbpe", "wordpiece"])
@pytest.mark.parametrize("name", sorted(PRETOKENIZERS))
def test_hf_export_pre_tokenizer_cuts_words_as_bpeviz_does(algorithm, name):
    try:
        files = _export(algorithm, name, "hf")
    except ValueError:
        pytest.skip(f"{algorithm} with {name} has no Hugging Face export")
    pre = Tokenizer.from_str(files["tokenizer.json"]).pre_tokenizer
    for text in TEXTS:
        pieces = [piece for piece, _ in pre.pre_tokenize_str(text)]
        if algorithm == "bbpe":
            pieces = [gpt2_to_bytes(piece).decode("utf-8") for piece in pieces]
        assert pieces == words(text, name), (name, text)


def _tiktoken_pieces(pattern: str, text: str) -> list[str]:
    """The pieces tiktoken cuts ``text`` into with ``pattern``: with every substring of
    the text's bytes in the ranks, each piece is encoded as a single token."""
    raw = text.encode("utf-8")
    ranks = {bytes([i]): i for i in range(256)}
    for n in range(2, len(raw) + 1):
        for i in range(len(raw) - n + 1):
            ranks.setdefault(raw[i:i + n], len(ranks))
    enc = tiktoken.Encoding("probe", pat_str=pattern, mergeable_ranks=ranks, special_tokens={})
    return [enc.decode_single_token_bytes(t).decode("utf-8") for t in enc.encode_ordinary(text)]


@pytest.mark.parametrize("name", sorted(PRETOKENIZERS))
def test_tiktoken_export_pattern_cuts_words_as_bpeviz_does(name):
    try:
        files = _export("bbpe", name, "tiktoken")
    except ValueError:
        assert name == "metaspace"  # tiktoken cannot put ▁ before words
        return
    pattern = json.loads(files["tiktoken.json"])["pat_str"]
    for text in TEXTS:
        expected = words(text, name)
        assert _tiktoken_pieces(pattern, text) == expected, (name, text)


def test_the_probe_sees_tiktoken_cut_digits_in_threes():
    from bpeviz.text.pretokenize import CL100K_PATTERN

    assert _tiktoken_pieces(CL100K_PATTERN, "20241999") == ["202", "419", "99"]


def test_cl100k_hf_export_imports_back_as_cl100k_and_the_tiktoken_spelling_gets_a_note():
    from bpeviz.formats import import_files
    from bpeviz.formats.hf import import_notes
    from bpeviz.text.pretokenize import CL100K_PATTERN

    text = _export("bpe", "cl100k", "hf")["tokenizer.json"]
    assert CL100K_PATTERN not in text.replace("\\\\", "\\")
    assert import_files({"tokenizer.json": text}).corpus.pretokenizer == "cl100k"
    assert import_notes(text) == []
    data = json.loads(text)
    data["pre_tokenizer"]["pattern"]["Regex"] = CL100K_PATTERN
    old = json.dumps(data)
    assert import_files({"tokenizer.json": old}).corpus.pretokenizer == "cl100k"
    assert any("digit run of any length" in note for note in import_notes(old))
