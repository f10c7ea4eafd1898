"""SuperBPE and PickyBPE from the command line: trained with their own options, saved and
reopened, each step explained in their own sentences (a SuperBPE merge's stage, a
PickyBPE removal's numbers), and what no file format holds refused in one line."""

from __future__ import annotations

import json

import bpeviz
from bpeviz.samples import SAMPLES, sample_bytes
from tests.support import ROOT
from tests.support.cli import run_cli

SAMPLE = str(ROOT / "bpeviz" / "samples" / SAMPLES["tour"].filename)
TEXT = sample_bytes("tour").decode("utf-8")


def one_line_error(done) -> str:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_superbpe_trains_to_its_transition_and_says_each_merges_stage(tmp_path):
    out = tmp_path / "s.json"
    done = run_cli("train", SAMPLE, "--algorithm", "superbpe", "--merges", "300",
                   "--transition", "200", "--out", str(out))
    assert done.returncode == 0, done.stderr
    training = bpeviz.load(out)
    expected = bpeviz.train(TEXT, algorithm="superbpe", merges=300, transition=200)
    assert training.transition == 200
    assert [m.token for m in training.merges] == [m.token for m in expected.merges]
    for step, stage in ((150, 1), (250, 2)):
        said = json.loads(run_cli("explain", "--training", str(out), "--step", str(step),
                                  "--json").stdout)["why_step"]
        assert said == expected.why(step)
        assert f"stage {stage}" in said


def test_a_stage_option_of_superbpe_is_refused_for_bpe(tmp_path):
    line = one_line_error(run_cli("train", SAMPLE, "--algorithm", "bpe", "--transition", "5",
                                  "--out", str(tmp_path / "x.json")))
    assert "--transition is a SuperBPE option; use it with --algorithm superbpe" in line


def test_picky_trains_with_its_threshold_and_explains_a_removal(tmp_path):
    out = tmp_path / "p.json"
    done = run_cli("train", SAMPLE, "--algorithm", "picky", "--merges", "120",
                   "--threshold", "0.6", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "export --format hf" not in done.stderr, "no tokenizer format holds it"
    training = bpeviz.load(out)
    expected = bpeviz.train(TEXT, algorithm="picky", merges=120, threshold=0.6)
    assert [(e.kind, e.token) for e in training.events] == \
        [(e.kind, e.token) for e in expected.events]
    removal = next(e for e in expected.events if e.kind == "removal")
    found = json.loads(run_cli("explain", "--training", str(out), "--step",
                               str(removal.step), "--json").stdout)
    assert (found["kind"], found["token"], found["why"]) == ("removal", removal.token,
                                                              removal.why)
    assert "removed" in found["why"]


def test_picky_exports_its_training_and_its_packages_model_and_refuses_bpe_formats(
        tmp_path):
    out = tmp_path / "p.json"
    assert run_cli("train", SAMPLE, "--algorithm", "picky", "--merges", "40",
                   "--out", str(out)).returncode == 0
    line = one_line_error(run_cli("export", "--training", str(out), "--format", "hf",
                                  "--out", str(tmp_path / "hf.json")))
    assert "tokenizer.json does not hold PickyBPE; export picky as 'pickybpe'" in line
    model = tmp_path / "pickybpe.json"
    done = run_cli("export", "--training", str(out), "--format", "pickybpe",
                   "--step", "30", "--out", str(model))
    assert done.returncode == 0, done.stderr
    written = json.loads(model.read_text(encoding="utf-8"))
    assert len(written["merges"]) + len(written["splits"]) == 30
    again = tmp_path / "again.json"
    done = run_cli("export", "--training", str(out), "--format", "training",
                   "--out", str(again))
    assert done.returncode == 0, done.stderr
    assert [e.token for e in bpeviz.load(again).events] == \
        [e.token for e in bpeviz.load(out).events]


def test_a_garbled_picky_training_file_is_refused_in_one_line(tmp_path):
    out = tmp_path / "p.json"
    assert run_cli("train", SAMPLE, "--algorithm", "picky", "--merges", "20",
                   "--out", str(out)).returncode == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    data["events"][3][1] = "not what it made"
    out.write_text(json.dumps(data), encoding="utf-8")
    line = one_line_error(run_cli("explain", "--training", str(out)))
    assert "corrupt" in line
