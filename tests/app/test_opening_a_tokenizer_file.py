"""A tokenizer file opened on the Vocabulary page: one at a time (a second replaces the
first, and says so where the user is looking), a file that cannot be opened is named
and the open tokenizer kept, and Tokenize encodes with the opened one."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from bpeviz import formats
from tests.support.app import ok, open_page, plain
from tests.support.trainings import reference


def test_an_opened_tokenizer_is_used_on_the_tokenize_page():
    from bpeviz.formats import import_files

    training = reference("bbpe", merges=50)
    files = formats.export(training.at(50), "hf")
    opened = import_files(files)
    at = open_page("pages/2_Tokenize.py", imported=("tokenizer.json", opened),
                   tok_source="imported", imp_step=50, text="hello world")
    ok(at)
    ids = at.code[0].value.split()
    assert ids == [str(t.id) for t in opened.at(50).encode("hello world")]


def import_box(at: AppTest):
    return next(u for u in at.main.get("file_uploader") if "tokenizer" in u.label)


def test_opening_a_second_tokenizer_replaces_the_first_with_messages_about_it():
    training = reference("bpe", merges=30)
    hf = formats.export(training.at(30), "hf")
    second = reference("bpe", merges=20)
    saved = formats.export(second.at(20), "training")
    assert set(hf) == {"tokenizer.json"} and set(saved) == {"training.json"}
    at = open_page("pages/4_Vocabulary.py")
    in_box: list[tuple[str, bytes, str]] = []

    def add(name: str, content: str) -> None:
        # the browser's box adds files to those it holds (until the app empties it)
        box = import_box(at)
        if getattr(add, "box_id", None) != box.proto.id:
            in_box.clear()
            add.box_id = box.proto.id
        in_box.append((name, content.encode(), "application/json"))
        box.set_value(list(in_box)).run()
        ok(at)

    add("tokenizer.json", hf["tokenizer.json"])
    assert [plain(s.value) for s in at.success] == [
        f"Opened tokenizer.json: {len(training.vocab):,} tokens, 30 merges (bpe)."]
    # said where the user is looking too, not only at the foot of the page
    assert any("Opened tokenizer.json" in plain(t.value) for t in at.toast)
    add("training.json", saved["training.json"])
    assert not at.error, [e.value for e in at.error]
    assert [plain(s.value) for s in at.success] == [
        f"Opened training.json: {len(second.vocab):,} tokens, 20 merges (bpe)."]
    assert any("Opened training.json" in plain(t.value) for t in at.toast)
    names, opened = at.session_state["imported"]
    assert names == "training.json" and len(opened.merges) == 20


def test_a_file_that_cannot_be_opened_is_named_and_the_open_tokenizer_kept():
    training = reference("bpe", merges=30)
    at = open_page("pages/4_Vocabulary.py")
    import_box(at).set_value(("tokenizer.json", formats.export(training.at(30), "hf")[
        "tokenizer.json"].encode(), "application/json")).run()
    import_box(ok(at)).set_value(("notes.txt", b"hello", "text/plain")).run()
    errors = [plain(e.value) for e in ok(at).error]
    assert len(errors) == 1
    assert errors[0].startswith("notes.txt cannot be opened as a tokenizer file")
    assert "tokenizer.json is still open" in errors[0]
    assert plain(at.success[0].value).startswith("Opened tokenizer.json")
    # emptying the box drops the message about its files
    import_box(at).set_value(None).run()
    assert not ok(at).error
