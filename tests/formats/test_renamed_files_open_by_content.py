"""Tokenizer files a browser renamed on download (``vocab (1).json``) or that lost
their names open by their content; a malformed one says how each file was read, and
content no format knows is still refused."""

from __future__ import annotations

import pytest

from bpeviz import Corpus, formats, train


def browser_name(name: str, n: int) -> str:
    """What a browser calls the n-th download of ``name``: ``vocab (1).json``."""
    stem, dot, ext = name.partition(".")
    return f"{stem} ({n}).{ext}" if dot else f"{name} ({n})"


@pytest.mark.parametrize("algorithm, fmt", [
    ("bbpe", "gpt2"), ("bpe", "gpt2"), ("bbpe", "hf"), ("bpe", "hf"), ("wordpiece", "hf"),
    ("wordpiece", "vocab"), ("bbpe", "tiktoken"), ("bpe", "training"),
])
@pytest.mark.parametrize("rename", ["browser", "nameless"])
def test_renamed_tokenizer_files_open_by_content(algorithm, fmt, rename):
    from bpeviz.formats import import_files

    pretok = "gpt2" if algorithm == "bbpe" else "whitespace"
    text = "low lower lowest newer newest wider widest"
    snap = train(Corpus.from_text(text, pretok), algorithm, merges=12).at()
    files = formats.export(snap, fmt)
    if rename == "browser":
        given = {browser_name(name, 2): content for name, content in files.items()}
    else:
        given = {f"download-{i}": content for i, content in enumerate(files.values())}
    opened = import_files(given).at()
    sample = "lowest widest newer lower"
    assert opened.encode(sample).ids == snap.encode(sample).ids
    assert opened.vocab == snap.vocab


def test_a_renamed_file_that_is_malformed_says_how_it_was_read():
    from bpeviz.formats import import_files

    with pytest.raises(ValueError, match=r"merges.txt, line 2: .*\(read vocab \(1\).json as "
                                         r"vocab.json, merges \(1\).txt as merges.txt\)"):
        import_files({"vocab (1).json": '{"a": 0, "b": 1, "ab": 2}',
                      "merges (1).txt": "#version: 0.2\na b c\n"})


def test_content_no_format_knows_is_still_refused():
    from bpeviz.formats import import_files

    with pytest.raises(ValueError, match="cannot tell the format"):
        import_files({"notes (1).txt": "some words here\nand more words", "x.md": "# title"})
