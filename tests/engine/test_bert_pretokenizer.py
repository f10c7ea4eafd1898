"""The "bert" pre-tokenizer cuts text as BERT's BasicTokenizer does (Hugging Face's
BertNormalizer setting CJK ideographs apart, then BertPreTokenizer), and its exports
encode as bpeviz does."""

from __future__ import annotations

import json

import pytest
import tiktoken
from tokenizers import Tokenizer, normalizers
from tokenizers.pre_tokenizers import BertPreTokenizer

from bpeviz import Corpus, formats, train
from bpeviz.formats import import_files
from bpeviz.text.pretokenize import PRETOKENIZERS, words

TEXTS = [
    "Hello, world!! a$b x\u3000y \x1cz don't 2024-01-31 ¿qué? ＜＞ «oui» ©",
    "我们喜欢自然语言处理。今天天气很好！",
    "日本語のテキスト、カタカナとひらがな。",
    "mixed中文and English（括号）with 𠀀𠀁 and 豈 ideographs",
    "ภาษาไทย ไม่มีช่องว่าง ພາສາລາວ ភាសាខ្មែរ",
    "tabs\tand\nnew\r\nlines  ",
]


def _bert_pieces(text: str) -> list[str]:
    """BERT's own cut: its normalizer only puts spaces around CJK ideographs here."""
    norm = normalizers.BertNormalizer(clean_text=False, handle_chinese_chars=True,
                                      strip_accents=False, lowercase=False)
    return [piece for piece, _ in BertPreTokenizer().pre_tokenize_str(norm.normalize_str(text))]


def test_bert_is_a_pretokenizer_choice():
    assert "bert" in PRETOKENIZERS


@pytest.mark.parametrize("text", TEXTS)
def test_bert_pretokenizer_cuts_as_hugging_face_bert(text):
    assert words(text, "bert") == _bert_pieces(text)


def test_bert_pretokenizer_sets_each_cjk_ideograph_apart():
    assert words("我们喜欢 NLP!", "bert") == ["我", "们", "喜", "欢", "NLP", "!"]


@pytest.mark.parametrize("algorithm", ["bpe", "bbpe", "wordpiece"])
def test_bert_hf_export_encodes_as_bpeviz_and_opens_as_bert(algorithm):
    corpus = Corpus.from_text(" ".join(TEXTS) * 3, "bert")
    snap = train(corpus, algorithm, merges=40).at(40)
    files = formats.export(snap, "hf")
    spec = json.loads(files["tokenizer.json"])
    assert "BertPreTokenizer" in json.dumps(spec["pre_tokenizer"])
    tok = Tokenizer.from_str(files["tokenizer.json"])
    for text in [*TEXTS, "新的文字, unseen text!"]:
        assert tok.encode(text).ids == [t.id for t in snap.encode(text)], text
    assert import_files(files).corpus.pretokenizer == "bert"


def test_bert_tiktoken_export_encodes_as_bpeviz():
    corpus = Corpus.from_text(" ".join(TEXTS) * 3, "bert")
    snap = train(corpus, "bbpe", merges=40).at(40)
    files = formats.export(snap, "tiktoken")
    config = json.loads(files["tiktoken.json"])
    ranks = {}
    import base64
    for line in files["tokenizer.tiktoken"].splitlines():
        token, rank = line.split()
        ranks[base64.b64decode(token)] = int(rank)
    enc = tiktoken.Encoding("probe", pat_str=config["pat_str"], mergeable_ranks=ranks,
                            special_tokens={})
    for text in [*TEXTS, "新的文字, unseen text!"]:
        assert enc.encode_ordinary(text) == [t.id for t in snap.encode(text)], text
