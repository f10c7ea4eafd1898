"""The live explorer at real size (tens of thousands of merges, megabytes of text): the
limits, the compact stage payload, the searchable merges table."""

from __future__ import annotations

import json
import tomllib

import pytest

from bpeviz import Corpus, formats, train
from bpeviz.analysis.views import merges_frame, merges_matching, token_labels
from bpeviz.core.limits import LIMITS
from bpeviz.formats import import_files
from bpeviz.present.stage_data import expand_stage_merges, stage_merges
from bpeviz.samples import load_sample
from tests.support import ROOT
from tests.support.app import ok, open_page


def test_the_limits_are_at_real_size():
    assert LIMITS.merges >= 50_000 and LIMITS.text_chars >= 10_000_000
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["maxUploadSize"] * 1_000_000 >= LIMITS.upload_bytes
    assert LIMITS.upload_bytes >= LIMITS.text_chars  # an upload of the largest text fits


def limit_errors(at) -> list[str]:
    return [e.value for e in at.error if "Too many merges" in e.value]


def test_fifty_thousand_merges_are_accepted_and_one_more_is_refused_naming_the_cli():
    at = ok(open_page("pages/1_Explore.py", merges=50_000))
    assert not limit_errors(at) and not at.error
    at = ok(open_page("pages/1_Explore.py", merges=50_001))
    [message] = limit_errors(at)
    assert "50,001 asked" in message and "the limit is 50,000" in message
    assert "python -m bpeviz train" in message


def test_a_vocabulary_size_at_the_merge_limit_is_accepted_and_past_it_refused():
    from bpeviz.core.training import base_vocabulary, make_options

    base = len(base_vocabulary(load_sample("tour", "whitespace"), make_options("bpe", merges=0)))
    at = ok(open_page("pages/1_Explore.py", size_by="vocab", vocab=base + 50_000))
    assert not limit_errors(at)
    at = ok(open_page("pages/1_Explore.py", size_by="vocab", vocab=base + 50_001))
    [message] = limit_errors(at)
    assert "the limit is 50,000" in message and "python -m bpeviz train" in message


def rows(training, style):
    """The card's data in row form, straight from the training: merges, and labels
    ``[label, hex]`` with the index of the chip's note appended when it has one."""
    from bpeviz.present.glossary import ChipNotes

    labels = token_labels(training, None, style)
    chip_note = ChipNotes(training, style)
    notes: dict[str, int] = {}
    out = []
    for i in range(len(training.vocab)):
        note = chip_note(training.vocab[i])
        out.append(list(labels[i]) + ([notes.setdefault(note, len(notes))] if note else []))
    return [[m.left_id, m.right_id, m.token_id] for m in training.merges], out, list(notes)


@pytest.mark.parametrize("algorithm", ["bpe", "bbpe", "wordpiece"])
@pytest.mark.parametrize("style", ["gpt2", "hex"])
def test_the_compact_card_data_rebuilds_every_merge_and_label(algorithm, style):
    pretok = "gpt2" if algorithm == "bbpe" else "whitespace"
    training = train(load_sample("tour", pretok), algorithm, merges=300,
                     **({"marker": "</w>", "marker_style": "glued"} if algorithm == "bpe"
                        else {}))
    data = expand_stage_merges(stage_merges(training, style))
    merges, labels, notes = rows(training, style)
    assert [m[:3] for m in data["merges"]] == merges
    assert data["labels"] == labels and data["notes"] == notes


def test_the_compact_card_data_keeps_an_opened_files_extra_tokens():
    training = train(load_sample("tour", "gpt2"), "bbpe", merges=100)
    files = formats.export(training.at(), "gpt2")
    opened = import_files(files)
    assert len(opened.vocab) >= len(training.vocab)
    data = expand_stage_merges(stage_merges(opened, "gpt2"))
    merges, labels, _ = rows(opened, "gpt2")
    assert [m[:3] for m in data["merges"]] == merges and data["labels"] == labels


def test_the_compact_card_data_is_much_smaller_than_rows():
    text = " ".join(f"w{i} x{i * 7}" for i in range(3_000))
    training = train(Corpus.from_text(text, "gpt2"), "bbpe", merges=2_000)
    compact = len(json.dumps(stage_merges(training, "gpt2")))
    merges, labels, _ = rows(training, "gpt2")
    full = len(json.dumps({"merges": [[*m, f"count {x.count:,}"] for m, x in
                                      zip(merges, training.merges)], "labels": labels}))
    assert compact < 0.6 * full, (compact, full)


def test_merges_are_searched_by_token_and_parts():
    training = train(load_sample("tour", "whitespace"), "bpe", merges=200)
    frame = merges_frame(training)
    found = merges_matching(frame, "TO")
    expected = [any("to" in str(v).lower() for v in (r.token, r.left, r.right))
                for r in frame.itertuples()]
    assert found.tolist() == expected and any(expected) and not all(expected)


def test_the_merges_table_is_sent_only_open_and_filters_by_the_search_box():
    at = ok(open_page("pages/1_Explore.py", merges=200))
    assert not [df for df in at.dataframe if "token" in df.value.columns], "closed: not sent"
    at = ok(open_page("pages/1_Explore.py", merges=200, explore_merges_open=True))
    table = next(df for df in at.dataframe if "token" in df.value.columns)
    assert len(table.value) == 200
    at.text_input(key="merge_search").set_value("er").run()
    ok(at)
    table = next(df for df in at.dataframe if "token" in df.value.columns)
    assert len(table.value) > 0
    assert all("er" in " ".join(map(str, (r.token, r.left, r.right))).lower()
               for r in table.value.itertuples())
    assert any("merges hold" in c.value for c in at.caption)


def test_big_corpora_have_their_own_small_training_cache():
    """Past BIG_SYMBOLS distinct-word symbols a corpus's trainings go to a cache of
    BIG_ENTRIES: the (BIG_ENTRIES + 1)th training drops the first, and its memory goes."""
    import gc
    import weakref

    from bpeviz.ui import training as cache

    big = Corpus.from_counts({f"word{i:07d}x": 1 + i % 3 for i in range(30_000)})
    assert sum(map(len, big.words)) > cache.BIG_SYMBOLS and cache.is_big(big)
    assert not cache.is_big(load_sample("tour", "whitespace"))
    cache._big_training_job.clear()
    first = weakref.ref(cache.get_training(big, {"algorithm": "bpe", "merges": 1}))
    for merges in range(2, cache.BIG_ENTRIES + 2):
        cache.get_training(big, {"algorithm": "bpe", "merges": merges})
    cache.release_memory()
    gc.collect()
    assert first() is None, "the oldest big training was dropped"
    cache._big_training_job.clear()
