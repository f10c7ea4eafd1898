"""``python -m bpeviz train --algorithm parity --language LANG=FILE ...``: parity-aware BPE
from the command line. The engine's equality to Hugging Face's trainer is tested in
tests/engine/test_parity_aware_bpe_matches_tokenizers.py; here, that the command trains
what ``bpeviz.train`` trains with the same texts, says how each language fared, and that
the other commands open what it saves. Run in-process (``main``): a subprocess per case
would take most of a minute."""

from __future__ import annotations

import json

import pytest
from tokenizers import Tokenizer

import bpeviz
from bpeviz.cli import main
from tests.support import ROOT

PARALLEL = ROOT / "bpeviz" / "samples" / "parallel"
EN, HI, DE = (str(PARALLEL / f"{lang}.txt") for lang in ("en", "hi", "de"))
MERGES = 120


def _text(path: str) -> str:
    return open(path, encoding="utf-8").read()


def _pairs(training) -> list:
    return [(m.left, m.right) for m in training.merges]


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """One training from the command line (with dev sets), shared by the tests that only
    read it: training is the slow part."""
    out = tmp_path_factory.mktemp("parity") / "t.json"
    code = main(["train", "--algorithm", "parity", "--language", f"en={EN}",
                 "--language", f"hi={HI}", "--dev", f"en={EN}", "--dev", f"hi={HI}",
                 "--merges", str(MERGES), "--out", str(out)])
    assert code == 0
    return out


def test_training_from_the_command_line_equals_bpeviz_train_with_the_same_texts(saved):
    expected = bpeviz.train({"en": _text(EN), "hi": _text(HI)}, algorithm="parity",
                            merges=MERGES, dev={"en": _text(EN), "hi": _text(HI)})
    opened = bpeviz.load(saved)
    assert _pairs(opened) == _pairs(expected)
    assert opened.languages == ("en", "hi")
    assert [c.language for c in opened.choices] == [c.language for c in expected.choices]


def test_the_settings_reach_the_trainer(tmp_path, capsys):
    # the window variant, global merges and ratios change which merges are made: each
    # option must arrive as the keyword of the same name
    out = tmp_path / "w.json"
    assert main(["train", "--algorithm", "parity", "--language", f"en={EN}",
                 "--language", f"de={DE}", "--variant", "window", "--window-size", "10",
                 "--alpha", "1.5", "--global-merges", "5", "--ratio", "en=1.0",
                 "--ratio", "de=1.2", "--merges", "60", "--out", str(out)]) == 0
    expected = bpeviz.train({"en": _text(EN), "de": _text(DE)}, algorithm="parity",
                            merges=60, variant="window", window_size=10, alpha=1.5,
                            global_merges=5, ratio={"en": 1.0, "de": 1.2})
    assert _pairs(bpeviz.load(out)) == _pairs(expected)
    assert "global merges: 5 " in capsys.readouterr().err


def test_one_file_without_languages_trains_as_one_language(tmp_path):
    # as the engine does with one text: a single language, named "text"
    out = tmp_path / "one.json"
    assert main(["train", EN, "--algorithm", "parity", "--merges", "30",
                 "--out", str(out)]) == 0
    expected = bpeviz.train(_text(EN), algorithm="parity", merges=30)
    assert _pairs(bpeviz.load(out)) == _pairs(expected)


def test_the_summary_has_a_line_per_language_with_its_merges(tmp_path, capsys):
    out = tmp_path / "t.json"
    assert main(["train", "--algorithm", "parity", "--language", f"en={EN}",
                 "--language", f"hi={HI}", "--merges", "80", "--out", str(out)]) == 0
    err = capsys.readouterr().err.splitlines()
    training = bpeviz.load(out)
    assert err[0].startswith(training.stop_message)
    got = training.merges_per_language()
    assert sum(got.values()) == 80
    for lang in ("en", "hi"):
        # its merges, then how its (training) text compresses at the end
        line = next(x for x in err if x.startswith(f"{lang}: "))
        assert line.startswith(f"{lang}: {got.get(lang, 0)} merge")
        assert "training text" in line and "bytes a token" in line


def test_explain_names_the_language_that_got_the_merge(saved, capsys):
    training = bpeviz.load(saved)
    for step in (1, MERGES // 2, MERGES):
        assert main(["explain", "--training", str(saved), "--step", str(step)]) == 0
        lines = capsys.readouterr().out.splitlines()
        # beside the usual explanation, the language's: training.why(K)
        assert len(lines) > 1 and lines[-1] == training.why(step)
        assert f"went to {training.choices[step - 1].language}" in lines[-1]
    assert main(["explain", "--training", str(saved), "--step", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["language"] == training.choices[2].language
    assert data["why_language"] == training.why(3)


def test_encode_and_export_open_the_saved_training(saved, tmp_path, capsys):
    training = bpeviz.load(saved)
    text = "The cat sat. बिल्ली बैठी।"
    assert main(["encode", "--training", str(saved), text]) == 0
    ids = [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()]
    assert ids == [t.id for t in training.at().encode(text)]
    assert main(["export", "--training", str(saved), "--format", "hf",
                 "--out", str(tmp_path / "tokenizer.json")]) == 0
    hf = Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    assert hf.encode(text).ids == ids
    assert main(["export", "--training", str(saved), "--format", "tiktoken",
                 "--out", str(tmp_path / "tk")]) == 0
    assert list((tmp_path / "tk").glob("*.tiktoken"))
    # the 'training' format is the parity file itself, which reopens with its languages
    assert main(["export", "--training", str(saved), "--format", "training",
                 "--out", str(tmp_path / "again.json")]) == 0
    assert bpeviz.load(tmp_path / "again.json").languages == ("en", "hi")


def test_gpt2_export_says_why_it_cannot(saved, tmp_path, capsys):
    # vocab.json + merges.txt would reopen through the merge loop, which refuses parity
    capsys.readouterr()
    assert main(["export", "--training", str(saved), "--format", "gpt2",
                 "--out", str(tmp_path / "g")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'hf' or 'tiktoken'" in err
    assert not (tmp_path / "g").exists()


@pytest.mark.parametrize(("options", "message"), [
    (["--language", "en=/no/such/file.txt", "--language", f"hi={HI}"],
     "--language en=/no/such/file.txt: cannot read it"),
    (["--language", "en", "--language", f"hi={HI}"], "--language en: give LANG=FILE"),
    (["--language", f"en={EN}", "--language", f"hi={HI}", "--dev", f"fr={EN}"],
     "--dev fr: no --language fr"),
    (["--language", f"en={EN}", "--language", f"hi={HI}", "--dev", f"en={EN}"],
     "--dev is needed for every language or none: missing hi"),
    (["--language", f"en={EN}", "--language", f"hi={HI}", "--ratio", "en=1",
      "--ratio", "hi=lots"], "--ratio hi=lots: the ratio must be a number"),
    (["--language", f"en={EN}", "--algorithm", "bpe"],
     "--language: BPE trains on one text (INPUT), not one per language"),
    ([EN, "--language", f"en={EN}"], "not both"),
    ([EN, "--variant", "course"], "--variant course: Parity BPE takes base or window"),
])
def test_bad_input_is_one_line_and_status_2(options, message, tmp_path, capsys):
    out = tmp_path / "t.json"
    argv = ["train", "--algorithm", "parity", *options, "--merges", "5", "--out", str(out)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err, err
    assert not out.exists()
