"""What Compare sends the browser (bpeviz.present.compare_history) holds every position: each
configuration's cut at its step for a position is the engine's encoding at that step,
the positions' steps are the engine's ``step_for_vocab_size``, and the marks the browser
reads at every position (stepper/src/compare_rule.mjs, run in Node, on the ``diffs`` sent
where the cuts change) are the engine's ``compare()`` there: differing boundaries,
differing tokens, marked spans."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpeviz import formats, train
from bpeviz.analysis import compare as cmp
from bpeviz.formats import import_files
from bpeviz.present.compare_history import compare_at, lockstep_data, positions, run_at, runs
from bpeviz.samples import load_sample
from bpeviz.ui import train_options
from tests.support import ROOT
from tests.support.trainings import unigram_reference

STEPPER = ROOT / "bpeviz" / "ui" / "stepper" / "src"  # the stage script's modules
# partial bytes (CJK, emoji with a modifier), whitespace Python and JavaScript disagree on
# (\x1c \x85 are Python whitespace, \ufeff is JavaScript's), a leading space, tabs
TEXT = (" The tokenizer learns tokens: lowest newer\t自然语言 👍🏽 naïve\x1cx\x85y "
        "\ufeffz\u3000w  café\n")


def trained(algorithm: str, merges: int = 120):
    pretok = "gpt2" if algorithm == "bbpe" else "whitespace"
    return train(load_sample("tour", pretok), **train_options(algorithm, merges=merges))


@pytest.fixture(scope="module")
def trainings():
    return {"bpe": trained("bpe"), "bbpe": trained("bbpe", 150),
            "wordpiece": trained("wordpiece", 90), "unigram": unigram_reference(400)}


@given(st.lists(st.integers(-3, 40), max_size=40))
def test_runs_read_back_as_the_values(values):
    found = runs(values)
    assert [run_at(found, i) for i in range(len(values))] == values


def test_runs_of_a_merging_training_are_few():
    sizes = cmp.vocab_sizes(trained("bbpe", 300))
    assert len(runs(sizes)) <= 3  # 300 merges, each adding a token: one run


@pytest.mark.parametrize("name", ["bpe", "bbpe", "wordpiece", "unigram", "opened"])
def test_steps_for_every_vocabulary_size_are_step_for_vocab_size(trainings, name):
    training = (import_files(formats.export(trainings["bbpe"].at(150), "tiktoken"))
                if name == "opened"
                else trainings[name])
    lo, hi = cmp.vocab_range(training)
    found = cmp.steps_for_vocab_sizes(training, lo - 5, hi + 5).tolist()
    assert found == [cmp.step_for_vocab_size(training, v).step for v in range(lo - 5, hi + 6)]
    assert cmp.vocab_sizes(training).tolist() == \
        [cmp.vocabulary_size(training, k) for k in range(cmp.last_step(training) + 1)]


def engine(configurations, mode: str, position: int, text: str) -> cmp.Comparison:
    """The engine's comparison at a position of the control, from scratch."""
    found = []
    for label, training in configurations:
        step = (min(position, cmp.last_step(training)) if mode == "step"
                else cmp.step_for_vocab_size(training, position).step)
        found.append((label, cmp.at(training, step)))
    return cmp.compare(found, text)


def same(a: cmp.Comparison, b: cmp.Comparison) -> None:
    assert a.differing == b.differing
    for x, y in zip(a.cuts, b.cuts, strict=True):
        assert (x.step, x.vocab_size) == (y.step, y.vocab_size)
        assert [(t.id, t.start, t.end, bool(t.partial), bool(getattr(t, "unk", False)))
                for t in x.tokens] == \
            [(t.id, t.start, t.end, bool(t.partial), bool(getattr(t, "unk", False)))
             for t in y.tokens]
        assert (x.differs, x.diff_spans, x.own_differing) == \
            (y.differs, y.diff_spans, y.own_differing)


CASES = [("step", ("bpe", "bbpe", "wordpiece")), ("vocab", ("bpe", "bbpe", "wordpiece")),
         ("vocab", ("bpe", "unigram")), ("vocab", ("bbpe", "unigram", "wordpiece"))]


@pytest.mark.parametrize(("mode", "names"), CASES)
def test_the_data_sent_gives_the_engines_comparison_at_every_position(trainings, mode, names):
    configurations = [(f"{letter}: {n}", trainings[n]) for letter, n in zip("ABC", names)]
    data = lockstep_data(configurations, TEXT, mode)
    lo, hi, _ = positions([t for _, t in configurations], mode)
    assert (data["lo"], data["n"]) == (lo, hi)
    seen = 0
    for position in range(lo, hi + 1):
        expected = engine(configurations, mode, position, TEXT)
        same(compare_at(data, position), expected)
        seen += expected.n_differing
    assert seen  # the configurations do cut the text differently somewhere


JS_DRIVER = """
import { readFileSync } from "node:fs";
const { runAt, cutAt, marksAt, cutMarks, buildCompare } = await import(process.argv[2]);
const data = JSON.parse(readFileSync(0, "utf8"));
const f = { data };
buildCompare(f);
const out = [];
const positions = [];
for (let p = data.lo; p <= data.n; p++) positions.push(p);
// forward, then back, then jumping: the marks are decoded from the entry read last
const jumps = positions.map((_, i) => positions[(i * 7919) % positions.length]);
for (const p of [...positions, ...positions.slice().reverse(), ...jumps]) {
  const marks = marksAt(f, p - data.lo);
  const cuts = data.configs.map((config, k) => {
    const step = runAt(config.steps, p - data.lo);
    return { step, ...cutMarks(marks, k, cutAt(config.history, step)) };
  });
  out.push([p, marks.n, cuts.map((c) => [c.step, c.differs, c.diffSpans, c.own])]);
}
process.stdout.write(JSON.stringify(out));
"""


def run_js(data: dict, tmp_path: Path, node: str = "node") -> list:
    """The marks the browser reads (the stage's script) at every position, in Node."""
    from bpeviz.present.stage_script import bundle  # the script as the browser gets it

    module = tmp_path / "stepper.mjs"
    module.write_text(bundle(STEPPER), encoding="utf-8")  # it exports them
    driver = tmp_path / "driver.mjs"
    driver.write_text(JS_DRIVER, encoding="utf-8")
    done = subprocess.run([node, str(driver), module.as_uri()], input=json.dumps(data),
                          capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize(("mode", "names"), CASES)
def test_the_browsers_difference_rule_is_the_engines_at_every_position(trainings, tmp_path,
                                                                       mode, names, node):
    configurations = [(f"{letter}: {n}", trainings[n]) for letter, n in zip("ABC", names)]
    data = lockstep_data(configurations, TEXT, mode)
    found = run_js(data, tmp_path, node)
    assert len(found) == 3 * (data["n"] - data["lo"] + 1)
    marks = 0
    for position, n_differing, cuts in found:
        expected = compare_at(data, position)  # = the engine's (the test above)
        assert n_differing == expected.n_differing, position
        for (step, differs, spans, own), cut in zip(cuts, expected.cuts, strict=True):
            assert step == cut.step
            assert differs == list(cut.differs), (position, cut.label)
            assert spans == [list(s) for s in cut.diff_spans], (position, cut.label)
            assert own == cut.own_differing
            marks += len(spans)
    assert marks


def test_the_browsers_rule_on_random_texts(trainings, tmp_path, node):
    """Texts mixing whitespace, partial bytes and words (a seeded random mix)."""
    import random

    pieces = ["low", "est", " ", "  ", "\t", "\n", "自然", "👍🏽", "é", "\x85", "\ufeff", "new",
              "er", "\u3000", "x", "!"]
    rng = random.Random(7)
    configurations = [("A", trainings["bbpe"]), ("B", trainings["bpe"]),
                      ("C", trainings["unigram"])]
    for _ in range(4):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 40)))
        data = lockstep_data(configurations, text, "vocab")
        for position, n_differing, cuts in run_js(data, tmp_path, node)[::7]:
            expected = engine(configurations, "vocab", position, text)
            assert n_differing == expected.n_differing, (text, position)
            assert [c[2] for c in cuts] == [[list(s) for s in c.diff_spans]
                                            for c in expected.cuts], (text, position)


@pytest.mark.parametrize(("mode", "names"), CASES)
def test_kept_runs_and_labels_equal_the_plain_computation(trainings, mode, names):
    """lockstep_data keeps each training's step and size runs and each text's labels; a
    second call (kept values) and every kept value equal what is made from scratch."""
    from bpeviz.present.compare_history import _labels, cut_history, size_runs, step_runs

    configurations = [(f"{letter}: {n}", trainings[n]) for letter, n in zip("ABC", names)]
    first = lockstep_data(configurations, TEXT, mode)
    again = lockstep_data(configurations, TEXT, mode)
    assert json.dumps(again) == json.dumps(first)
    lo, hi, steps = positions([t for _, t in configurations], mode)
    for (_, training), config, at in zip(configurations, again["configs"], steps):
        assert config["steps"] == step_runs(training, mode, lo, hi) == runs(at)
        assert config["sizes"] == size_runs(training) == runs(cmp.vocab_sizes(training))
        history, samples = cut_history(training, TEXT)
        assert [config["labels"], config["nbytes"]] == list(
            _labels(training, history, samples, "gpt2"))
    # another text or byte style: labels made for it, not the kept ones
    other = lockstep_data(configurations, "lowest 👍", mode, "hex")
    for (_, training), config in zip(configurations, other["configs"]):
        history, samples = cut_history(training, "lowest 👍")
        assert config["labels"] == _labels(training, history, samples, "hex")[0]
