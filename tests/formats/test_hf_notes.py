"""tokenizer.json files with parts bpeviz does not model (a normalizer, a Metaspace or
BERT pre-tokenizer, byte fallback) open with a note of what is not applied, and the ids
stay Hugging Face's where that part does not matter."""

from __future__ import annotations

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

from bpeviz import formats
from bpeviz.formats import by_name, import_files
from bpeviz.formats.hf import import_notes
from tests.support.app import ok, open_page

TEXT = ("the quick brown fox jumps over the lazy dog and the dogs run quickly home "
        "while foxes watch the brown hens " * 20)


def bert_like() -> Tokenizer:
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator([TEXT, "Hello, World! Ça va?"],
                            trainers.WordPieceTrainer(vocab_size=120, special_tokens=["[UNK]"]))
    return tok


def metaspace_bpe(**options) -> Tokenizer:
    tok = Tokenizer(models.BPE(unk_token="<unk>", **options))
    tok.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme="never")
    tok.decoder = decoders.Metaspace(prepend_scheme="never")
    tok.train_from_iterator([TEXT], trainers.BpeTrainer(vocab_size=150,
                                                        special_tokens=["<unk>"]))
    return tok


def hf_ids(tok: Tokenizer, text: str) -> list[int]:
    return tok.encode(text, add_special_tokens=False).ids


def test_a_bert_tokenizer_opens_with_notes_and_hf_ids_on_plain_lower_case_words():
    tok = bert_like()
    text = tok.to_str()
    training = import_files({"tokenizer.json": text})
    notes = import_notes(text)
    assert len(notes) == 2
    assert "normalizer 'BertNormalizer' is not applied" in notes[0]
    assert "BertPreTokenizer" in notes[1] and "not applied" in notes[1]
    assert training.vocab_size_at(0) == tok.get_vocab_size()
    for plain in ("the quick brown fox", "dogs run home while hens watch", "foxy browns"):
        assert [t.id for t in training.at().encode(plain)] == hf_ids(tok, plain), plain
    # where the unmodelled part matters, the ids differ (the note is not idle)
    shouted = "The Quick, Brown Fox!"
    assert [t.id for t in training.at().encode(shouted)] != hf_ids(tok, shouted)


def test_a_metaspace_bpe_opens_with_a_note_and_hf_ids_on_text_without_spaces():
    tok = metaspace_bpe()
    text = tok.to_str()
    training = import_files({"tokenizer.json": text})
    [note] = import_notes(text)
    assert "Metaspace" in note and "'▁'" in note and "not applied" in note
    assert dict(zip(training.vocab, range(len(training.vocab)))) == tok.get_vocab()
    for plain in ("thequickbrownfox", "dogs", "▁the▁lazy▁dog"):
        assert [t.id for t in training.at().encode(plain)] == hf_ids(tok, plain), plain


def test_byte_fallback_is_noted():
    text = metaspace_bpe(byte_fallback=True).to_str()
    import_files({"tokenizer.json": text})
    assert any("byte_fallback is not applied" in n for n in import_notes(text))


def test_a_file_bpeviz_models_fully_has_no_notes():
    from bpeviz import Corpus, train

    trained = train(Corpus.from_text(TEXT), "bpe", merges=20)
    text = formats.export(trained.at(), "hf")["tokenizer.json"]
    assert import_notes(text) == []


def test_the_app_shows_what_is_not_applied(monkeypatch):
    tok = bert_like()
    monkeypatch.setattr(by_name, "fetch_hub", lambda repo: tok)
    by_name.open_by_name.cache_clear()
    try:
        at = ok(open_page("pages/4_Vocabulary.py"))
        at.text_input(key="w_by_name").set_value("someone/bert-like").run()
        at.button(key="by_name_open").click().run()
        ok(at)
    finally:
        by_name.open_by_name.cache_clear()
    said = [w.value.replace("\\", "") for w in at.warning]
    assert any("BertNormalizer" in w and "BertPreTokenizer" in w and "not applied" in w
               for w in said), said
