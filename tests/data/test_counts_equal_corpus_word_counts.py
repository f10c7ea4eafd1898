"""``count_pretokens`` over several files, on a process pool or a Dask cluster, equals
``Corpus.from_text``'s word counts on each file's text, added up in reading order (words
in order of first appearance)."""

from __future__ import annotations

import pytest

from bpeviz.data.count import count_pretokens
from bpeviz.text.corpus import Corpus

LINES = ["The low lower lowest, newer wider!", "  café 日本 12345 don't\r", "x\ty\n"]


@pytest.fixture
def folder(tmp_path):
    for i in range(6):
        text = "\n".join(LINES[(i + k) % 3] * (i + 1) for k in range(40)) + "\n"
        (tmp_path / f"part{i}.txt").write_text(text, newline="")
    return tmp_path


def _corpus_counts(folder, pretokenizer):
    total: dict[str, int] = {}
    for path in sorted(folder.glob("*.txt")):
        corpus = Corpus.from_file(path, pretokenizer, fmt="text")
        for word, count in zip(corpus.words, corpus.counts):
            total[word] = total.get(word, 0) + count
    return list(total.items())


@pytest.mark.parametrize("pretokenizer", ["gpt2", "whitespace", "cl100k", "none"])
def test_a_pool_of_processes_counts_as_the_corpus_does(folder, pretokenizer, monkeypatch):
    import bpeviz.data.tasks as tasks

    monkeypatch.setattr(tasks, "MIN_TASK_BYTES", 512)  # several tasks, files cut in ranges
    monkeypatch.setattr(tasks, "TASK_BYTES", 700)
    counted = count_pretokens([str(folder)], pretokenizer, workers=2)
    assert list(counted.items()) == _corpus_counts(folder, pretokenizer)


def test_a_two_worker_dask_cluster_counts_as_one_process(folder, monkeypatch):
    import bpeviz.data.tasks as tasks

    pytest.importorskip("distributed")
    monkeypatch.setattr(tasks, "MIN_TASK_BYTES", 512)  # several tasks: a reduction tree
    monkeypatch.setattr(tasks, "TASK_BYTES", 700)
    alone = count_pretokens([str(folder)], "gpt2", workers=1)
    on_dask = count_pretokens([str(folder)], "gpt2", dask="local:2")
    assert list(on_dask.items()) == list(alone.items())


def test_no_workers_is_refused(folder):
    with pytest.raises(ValueError, match="--workers 0"):
        count_pretokens([str(folder)], workers=0)


def test_json_lines_cut_in_byte_ranges_count_each_record_once(tmp_path, monkeypatch):
    import json

    import bpeviz.data.tasks as tasks

    records = [f"record {i}: {LINES[i % 3]}" for i in range(300)]
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps({"text": r}) + "\n" for r in records))
    monkeypatch.setattr(tasks, "MIN_TASK_BYTES", 512)
    monkeypatch.setattr(tasks, "TASK_BYTES", 700)
    expected: dict[str, int] = {}
    for record in records:
        corpus = Corpus.from_text(record, "gpt2")
        for word, count in zip(corpus.words, corpus.counts):
            expected[word] = expected.get(word, 0) + count
    assert list(count_pretokens([str(path)], "gpt2", workers=2).items()) == \
        list(expected.items())


def test_the_package_counts_files_and_trains_on_the_counts(folder):
    import bpeviz

    counts = bpeviz.count_pretokens([str(folder)], "gpt2", workers=1)
    assert list(counts.items()) == _corpus_counts(folder, "gpt2")
    training = bpeviz.train(bpeviz.Corpus(tuple(counts), tuple(counts.values()), "gpt2"),
                            algorithm="bbpe", merges=20)
    assert len(training.merges) == 20 and training.corpus.pretokenizer == "gpt2"
    with pytest.raises(AttributeError):
        bpeviz.no_such_name  # noqa: B018
