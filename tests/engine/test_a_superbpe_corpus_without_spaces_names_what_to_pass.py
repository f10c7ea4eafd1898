"""``bpeviz.train`` refuses a corpus whose words lost the text's spaces for SuperBPE (its
stage 2 merges across them, and a table of words cannot say where they were) in one line
that names what to pass instead; and what it names trains exactly as the text does."""

from __future__ import annotations

import pytest

import bpeviz
from bpeviz import Corpus
from bpeviz.samples import parallel_text

TEXT = parallel_text("en")


def tokens(training) -> list[bytes]:
    return [m.token for m in training.merges]


@pytest.mark.parametrize("pretokenizer", ["whitespace", "gpt2", "metaspace"])
def test_a_corpus_cut_at_spaces_is_refused_in_one_line_naming_the_text_and_lines(
        pretokenizer):
    with pytest.raises(ValueError) as refused:
        bpeviz.train(Corpus.from_text(TEXT, pretokenizer), algorithm="superbpe", merges=20)
    said = str(refused.value)
    assert "\n" not in said and f"{pretokenizer!r} pre-tokenizer" in said
    assert "bpeviz.train(text, algorithm='superbpe', ...)" in said
    assert "Corpus.from_text(text, 'none')" in said


def test_what_the_message_names_trains_as_the_text_does(tmp_path):
    expected = tokens(bpeviz.train(TEXT, algorithm="superbpe", merges=150, transition=100))
    lines = Corpus.from_text(TEXT, "none")
    assert tokens(bpeviz.train(lines, algorithm="superbpe", merges=150,
                               transition=100)) == expected
    (tmp_path / "story.txt").write_text(TEXT, encoding="utf-8")
    from_file = Corpus.from_file(tmp_path / "story.txt", "none")
    assert tokens(bpeviz.train(from_file, algorithm="superbpe", merges=150,
                               transition=100)) == expected
