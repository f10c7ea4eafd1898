"""An opened tokenizer explored on the sidebar's corpus: its merges replayed
on the user's text, on Explore and Vocabulary, a merge that never happens there shown
with count 0."""

from __future__ import annotations

from bpeviz import Corpus, formats, replay_on, train
from bpeviz.core.recount import pretokenizer_of
from bpeviz.formats import import_files
from bpeviz.present.stage_data import NEVER
from bpeviz.samples import load_sample, sample_bytes
from tests.support.app import ok, open_page, stage

OTHER = "the quick brown fox jumps over the lazy dog; zebras zigzag quietly " * 5


def opened_file():
    """A byte-level tokenizer trained on another text, written and opened as GPT-2 files."""
    trained = train(Corpus.from_text(OTHER, "gpt2"), "bbpe", merges=60)
    files = formats.export(trained.at(), "gpt2")
    return ", ".join(files), import_files(files)


def test_explore_replays_the_opened_tokenizer_on_the_corpus_with_zero_counts_shown():
    names, opened = opened_file()
    at = ok(open_page("pages/1_Explore.py", imported=(names, opened), replay=True))
    corpus = Corpus.from_bytes(sample_bytes("tour"), pretokenizer_of(opened), "auto")
    expected = replay_on(opened, corpus)
    assert any(m.count == 0 for m in expected.merges) and any(m.count for m in expected.merges)
    card = stage(at, "card")
    assert [m[:3] for m in card["merges"]] == [[m.left_id, m.right_id, m.token_id]
                                               for m in opened.merges]
    assert [m[3] for m in card["merges"]] == [
        f"count {m.count:,}" if m.count else NEVER for m in expected.merges]
    never = sum(m.count == 0 for m in expected.merges)
    assert any(f"{never:,} of {len(opened.merges):,} merges never happen" in i.value
               for i in at.info)
    assert at.toggle(key="w_replay").value is True


def test_the_toggle_appears_only_with_an_opened_file_and_off_explores_the_training():
    at = ok(open_page("pages/1_Explore.py", merges=40))
    assert not [t for t in at.toggle if t.key == "w_replay"]
    names, opened = opened_file()
    at = ok(open_page("pages/1_Explore.py", merges=40, imported=(names, opened)))
    assert at.toggle(key="w_replay").value is False
    trained = train(load_sample("tour", "whitespace"), "bpe", merges=40)
    assert len(stage(at, "card")["merges"]) == len(trained.merges)
    at.toggle(key="w_replay").set_value(True).run()
    ok(at)
    assert len(stage(at, "card")["merges"]) == len(opened.merges)


def test_vocabulary_shows_the_replayed_tokenizers_tokens():
    names, opened = opened_file()
    at = ok(open_page("pages/4_Vocabulary.py", imported=(names, opened), replay=True))
    assert any("replayed on" in i.value for i in at.info)
    table = at.dataframe[0].value
    step = at.session_state["step"]
    assert 0 < step <= len(opened.merges) and len(table) == len(opened.at(step).vocab)
    assert set(table["id"]) == set(range(len(opened.at(step).vocab)))
