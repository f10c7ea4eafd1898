"""A training saved by ``python -m bpeviz train`` and named on the command line
(``streamlit run app.py -- --training FILE``, or ``BPEVIZ_TRAINING``) opens in every
session: Explore steps through its merges on its own corpus (not the sidebar's), Tokenize
cuts with it, and closing it or turning "its own corpus" off goes back to the sidebar's
training. A file that cannot be opened is named in a message, and the app goes on."""

from __future__ import annotations

import pytest

import bpeviz
from bpeviz.ui.opened_path import ENV
from tests.support.app import ok, open_page, plain, stage

TEXT = ("the river runs past the old library; the librarian opens the heavy door. "
        "readers read the newspapers and the river shines. ") * 20


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "river.json"
    training = bpeviz.train(bpeviz.Corpus.from_text(TEXT, "gpt2"), algorithm="bbpe",
                            merges=60)
    bpeviz.save(training, path, corpus_name="river.txt")
    return path, training


def test_explore_steps_through_the_saved_training_on_its_own_corpus(saved, monkeypatch):
    path, training = saved
    monkeypatch.setenv(ENV, str(path))
    at = open_page("pages/1_Explore.py")
    assert not at.error, [e.value for e in at.error]
    card = stage(at, "card")
    assert [tuple(m[:3]) for m in card["merges"]] == [
        (m.left_id, m.right_id, m.token_id) for m in training.merges]
    assert len(stage(at, "words")["words"]) == len(training.corpus.words)  # its own words
    said = plain(" ".join(i.value for i in at.info))
    assert "river.json (trained on river.txt) (opened training) on its own corpus" in said
    assert f"{len(training.corpus.words):,} distinct words, {len(training.merges)} merges" in said
    # Tokenize cuts with it
    at.switch_page("pages/2_Tokenize.py").run()
    assert ok(at).session_state["tok_source"] == "imported"
    # its own corpus off: the sidebar's training again
    at.switch_page("pages/1_Explore.py").run()
    at.toggle(key="w_own_corpus").set_value(False).run()
    assert len(stage(ok(at), "card")["merges"]) == 200  # the sample's default training


def test_a_file_that_cannot_be_opened_is_named_and_the_sample_stays(tmp_path, monkeypatch):
    bad = tmp_path / "broken.json"
    bad.write_text("{not json", encoding="utf-8")
    monkeypatch.setenv(ENV, str(bad))
    at = open_page("pages/1_Explore.py")
    messages = [plain(e.value) for e in at.error]
    assert any("broken.json" in m and "cannot be opened" in m for m in messages), messages
    assert len(stage(at, "card")["merges"]) == 200
    monkeypatch.setenv(ENV, str(tmp_path / "missing.json"))
    at = open_page("pages/1_Explore.py")
    assert any("missing.json" in plain(e.value) and "cannot be read" in plain(e.value)
               for e in at.error)


def test_a_training_opened_on_the_vocabulary_page_explores_its_own_corpus(saved):
    """The same from the tokenizer box: a training.json holds its corpus, so Explore
    offers to step through it there (off: the merges replayed on the sidebar's corpus)."""
    from bpeviz.formats import import_files

    path, training = saved
    opened = import_files({path.name: path.read_bytes()})
    at = open_page("pages/1_Explore.py", imported=(path.name, opened))
    assert ok(at).toggle(key="w_own_corpus").value is False
    assert len(stage(at, "card")["merges"]) == 200
    at.toggle(key="w_own_corpus").set_value(True).run()
    card = stage(ok(at), "card")
    assert [tuple(m[:3]) for m in card["merges"]] == [
        (m.left_id, m.right_id, m.token_id) for m in training.merges]
    assert len(stage(at, "words")["words"]) == len(training.corpus.words)


def test_a_large_corpus_lists_its_most_frequent_words_first(tmp_path, monkeypatch):
    """Past 10,000 distinct words the order of first appearance says little: the list
    comes changed first, then most frequent (the search still looks through all)."""
    counts = {f"w{i:05d}x": (i * 7919) % 1000 + 1 for i in range(12_000)}
    training = bpeviz.train(bpeviz.Corpus.from_counts(counts), algorithm="bpe", merges=5)
    path = tmp_path / "large.json"
    bpeviz.save(training, path)
    monkeypatch.setenv(ENV, str(path))
    at = open_page("pages/1_Explore.py", step=0)  # step 0: no word changed
    assert ok(at).selectbox(key="word_sort").value == "changed first, then most frequent"
    shown = stage(at, "words")["words"]
    assert [w[2] for w in shown] == sorted(counts.values(), reverse=True)[:len(shown)]
    at.text_input(key="word_search").input("w11999").run()
    assert [w[1] for w in stage(ok(at), "words")["words"]] == ["w11999x"]
