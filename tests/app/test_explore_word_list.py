"""Explore's word splits can be searched, sorted and filtered to the words the step
changed."""

from __future__ import annotations

from bpeviz.samples import load_sample
from tests.support.app import ok, open_page, stage
from tests.support.trainings import reference


def test_word_search_sort_and_changed_filter():
    at = open_page("pages/1_Explore.py", step=10)
    at.text_input(key="word_search").input("token").run()
    rows = [w[1] for w in stage(ok(at), "words")["words"]]
    assert rows and all("token" in w.lower() for w in rows)
    at.text_input(key="word_search").input("").run()
    at.checkbox(key="word_changed").check().run()
    words = stage(ok(at), "words")["words"]
    assert len(words) == len(reference().at(10).changed_words)
    assert all(10 in made for *_, made, _ in words), "each has a token made at step 10"
    at.checkbox(key="word_changed").uncheck().run()
    at.selectbox(key="word_sort").set_value("most frequent").run()
    first = stage(ok(at), "words")["words"][0][1]
    corpus = load_sample("tour")
    assert first == max(zip(corpus.words, corpus.counts), key=lambda wc: wc[1])[0]
