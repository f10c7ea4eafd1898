"""Formats are a registry: each module names its files and recognises its content."""

from __future__ import annotations

import json

import pytest

from bpeviz import Corpus, algorithms, formats, train
from bpeviz.formats._common import NOT_JSON, SIDECAR

TEXT = "hug pug pun bun hugs hug hug"


def test_every_format_module_declares_its_name_files_export_and_recogniser():
    assert list(formats.FORMATS) == ["hf", "tiktoken", "vocab", "gpt2", "pickybpe", "training"]
    for module in formats.MODULES:
        assert formats.FORMATS[module.NAME] == module.ABOUT
        assert module.FILES and all(isinstance(n, str) for n in module.FILES)
        assert callable(module.export) and callable(module.recognise)


def test_every_algorithm_exports_only_to_registered_formats():
    for name in algorithms.names():
        assert set(algorithms.get(name).export_formats) <= set(formats.FORMATS), name


@pytest.mark.parametrize("algorithm", ["bpe", "bbpe", "wordpiece"])
def test_each_export_writes_its_declared_files_and_is_recognised_under_another_name(algorithm):
    alg = algorithms.get(algorithm)
    training = train(Corpus.from_text(TEXT, alg.pretokenizer), algorithm, merges=4)
    for module in formats.MODULES:
        if module.NAME not in alg.export_formats:
            with pytest.raises(ValueError, match=f"export {algorithm} as"):
                formats.export(training.at(), module.NAME)
            continue
        files = formats.export(training.at(), module.NAME)
        assert set(files) - {SIDECAR} <= set(module.FILES), (module.NAME, sorted(files))
        for name, text in files.items():
            if name == SIDECAR:
                continue
            try:
                data = json.loads(text)
            except ValueError:
                data = NOT_JSON
            # a renamed download ("tokenizer.json (1)", "tokenizer.tiktoken (1)", ...)
            assert module.recognise(f"{name} (1)", text, data) == name
        renamed = {f"{name} (1)": text for name, text in files.items()}
        opened = formats.import_files(renamed)
        assert ([t.text for t in opened.at().encode(TEXT)]
                == [t.text for t in training.at().encode(TEXT)]), module.NAME


def test_an_unknown_export_format_names_the_choices():
    training = train(Corpus.from_text(TEXT), "bpe", merges=1)
    with pytest.raises(ValueError,
                       match="choose one of hf, tiktoken, vocab, gpt2, pickybpe, training"):
        formats.export(training.at(), "sentencepiece")
