"""Tokenizers opened by name: OpenAI encodings through tiktoken, Hub
tokenizers through tokenizers; the fetching is replaced by small tokenizers the tests
build, so the network is never reached."""

from __future__ import annotations

import base64
import inspect
import re

import pytest
import tiktoken
import tiktoken_ext.openai_public as openai_public
from tokenizers import Tokenizer

from bpeviz import Corpus, formats, train
from bpeviz.formats import by_name, tiktoken_ranks
from tests.support.app import ok, open_page

TEXT = ("Hello World! I'm here, they'll see 1234567 tokens.\n\n  Don't PANIC: "
        "naïve café 苹果派 2024-11-23 x=42;\r\n" * 4)
SOURCE = inspect.getsource(openai_public)


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """No test reaches the network (a test that wants a tokenizer replaces the fetcher),
    and open_by_name, which keeps what it opened, starts empty: a fake one from another
    test must not be found."""
    def refuse(name):
        raise OSError("network disabled in tests")
    monkeypatch.setattr(by_name, "fetch_tiktoken", refuse)
    monkeypatch.setattr(by_name, "fetch_hub", refuse)
    by_name.open_by_name.cache_clear()
    yield
    by_name.open_by_name.cache_clear()


def published_pattern(encoding: str) -> str:
    """The pattern as tiktoken publishes it (read from its source, not from bpeviz)."""
    body = SOURCE[SOURCE.index(f"def {encoding}():"):]
    body = body[: body.index("\ndef ", 1)]
    if encoding == "cl100k_base":
        return re.search(r'"pat_str": r"""(.*?)"""', body).group(1)
    if encoding == "o200k_base":
        return "|".join(re.findall(r'r"""(.*?)"""', body))
    return openai_public.r50k_pat_str


def made_up_encoding(encoding: str, pretokenizer: str) -> tiktoken.Encoding:
    trained = train(Corpus.from_text(TEXT * 3, pretokenizer), "bbpe", merges=120)
    files = formats.export(trained.at(), "tiktoken")
    ranks = tiktoken_ranks.parse_ranks(files[tiktoken_ranks.RANKS])
    return tiktoken.Encoding(encoding, pat_str=published_pattern(encoding),
                             mergeable_ranks=ranks,
                             special_tokens={"<|endoftext|>": len(ranks)})


@pytest.mark.parametrize("encoding, pretokenizer", [
    ("cl100k_base", "cl100k"), ("o200k_base", "o200k"), ("r50k_base", "gpt2")])
def test_an_openai_encoding_by_name_encodes_as_tiktoken(monkeypatch, encoding, pretokenizer):
    enc = made_up_encoding(encoding, pretokenizer)
    monkeypatch.setattr(by_name, "fetch_tiktoken", lambda name: enc)
    training, notes = by_name.open_by_name(encoding)
    assert not notes and training.corpus.pretokenizer == pretokenizer
    snap = training.at()
    other = "Some NEW text: 98765 ain't it, 'S and 'LL?\n\n\tend  " + TEXT[:80]
    for text in (TEXT, other):
        assert [t.id for t in snap.encode(text)] == enc.encode(text)
    assert by_name.open_by_name(encoding)[0] is training, "cached"


def test_a_hub_tokenizer_by_id_encodes_as_hugging_face(monkeypatch):
    trained = train(Corpus.from_text(TEXT * 3), "bpe", merges=60, tie_break="ids")
    hf = Tokenizer.from_str(formats.export(trained.at(), "hf")["tokenizer.json"])
    asked = []
    monkeypatch.setattr(by_name, "fetch_hub", lambda repo: asked.append(repo) or hf)
    training, notes = by_name.open_by_name("someone/tiny-bpe")
    assert notes == []
    assert asked == ["someone/tiny-bpe"]
    text = "Hello World! they'll see tokens here"
    assert [t.id for t in training.at().encode(text)] == hf.encode(text).ids


@pytest.mark.parametrize("name, upload", [("cl100k_base", "rank file"),
                                          ("someone/model", "tokenizer.json")])
def test_offline_says_what_to_upload_instead(name, upload):
    with pytest.raises(ValueError) as err:
        by_name.open_by_name(name)
    message = str(err.value)
    assert "could not download" in message and upload in message and "\n" not in message


def test_the_box_opens_a_tokenizer_by_name_and_offline_says_why(monkeypatch):
    at = ok(open_page("pages/4_Vocabulary.py"))
    at.text_input(key="w_by_name").set_value("someone/model").run()
    at.button(key="by_name_open").click().run()
    ok(at)
    assert any("upload its tokenizer.json" in e.value.replace("\\", "") for e in at.error)
    assert "imported" not in at.session_state
    enc = made_up_encoding("cl100k_base", "cl100k")
    monkeypatch.setattr(by_name, "fetch_tiktoken", lambda name: enc)
    at.text_input(key="w_by_name").set_value("cl100k_base").run()
    at.button(key="by_name_open").click().run()
    ok(at)
    names, training = at.session_state["imported"]
    assert names == "cl100k_base" and len(training.vocab) == enc.n_vocab
    assert any("Opened cl100k_base" in s.value.replace("\\", "") for s in at.success)


@pytest.mark.parametrize("encoding, pretokenizer", [
    ("cl100k_base", "cl100k"), ("o200k_base", "o200k")])
def test_an_openai_rank_file_under_its_published_name_gets_its_pattern(encoding, pretokenizer):
    from bpeviz.formats import import_files

    enc = made_up_encoding(encoding, pretokenizer)
    ranks = "\n".join(f"{base64.b64encode(t).decode()} {r}"
                      for t, r in enc._mergeable_ranks.items())
    training = import_files({f"{encoding}.tiktoken": ranks})
    assert training.corpus.pretokenizer == pretokenizer
    assert [t.id for t in training.at().encode(TEXT)] == enc.encode(TEXT)
