"""Parity-aware BPE (``algorithm="parity"``) makes Hugging Face's merges, in Hugging Face's
order: ``tokenizers.trainers.ParityBpeTrainer`` on a ``Tokenizer(BPE())`` with the
ByteLevel pre-tokenizer, one training iterator per language, the dev texts as its dev
iterators. Every variant and mode of choosing the language is compared on real
multilingual text (the parallel story shipped in ``bpeviz/samples/parallel`` and the
other samples), and the per-step record is checked against the rule recomputed here from
the merges alone."""

from __future__ import annotations

import json
import time
from importlib import resources

import pytest
from tokenizers import Tokenizer, models, pre_tokenizers
from tokenizers.trainers import ParityBpeTrainer

import bpeviz
from bench.data import corpus_text
from bpeviz import formats
from bpeviz.algorithms.parity_train import ParityTraining
from bpeviz.text.display import gpt2_to_bytes

LANGUAGES = ("en", "de", "hi", "ar", "zh")
SAMPLES = resources.files("bpeviz.samples")
STORY = {lang: SAMPLES.joinpath(f"parallel/{lang}.txt").read_text("utf-8")
         for lang in LANGUAGES}
# the story's last two paragraphs are the dev set, the rest is trained on: a parallel dev
# set the training text does not contain, as the paper uses
TRAIN = {lang: "\n\n".join(text.split("\n\n")[:-2]) for lang, text in STORY.items()}
DEV = {lang: "\n\n".join(text.split("\n\n")[-2:]) for lang, text in STORY.items()}
# Hindi takes about 2.5 times the bytes of English for the same story, Chinese fewer
RATIO = {"en": 1.0, "de": 1.1, "hi": 2.5, "ar": 1.4, "zh": 0.9}
OTHERS = {
    "tour": SAMPLES.joinpath("multilingual_tour.txt").read_text("utf-8"),
    "seed003": SAMPLES.joinpath("seed003_sentences.txt").read_text("utf-8"),
    "en": STORY["en"],
}
OTHERS_DEV = {name: text[:600] for name, text in OTHERS.items()}
BYTE_LEVEL = pre_tokenizers.ByteLevel(add_prefix_space=False)


def hf_merges(train, n, dev=None, ratio=None, **settings):
    """Hugging Face's merges as byte pairs: each language's text is one sequence of its
    iterator, as bpeviz pre-tokenizes the whole text at once."""
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = BYTE_LEVEL
    trainer = ParityBpeTrainer(num_merges=n, show_progress=False, **settings)
    trainer.train_from_iterator(
        tokenizer, train_iterators=[iter([text]) for text in train.values()],
        dev_iterators=None if dev is None else [iter([dev[k]]) for k in train],
        ratio=None if ratio is None else [ratio[k] for k in train])
    merges = json.loads(tokenizer.to_str())["model"]["merges"]
    return [tuple(gpt2_to_bytes(s) for s in (m.split(" ") if isinstance(m, str) else m))
            for m in merges], tokenizer


def ours(train, n, dev=None, variant="base", global_merges=0, ratio=None, window_size=100,
         alpha=2.0, **more):
    training = bpeviz.train(train, algorithm="parity", merges=n, dev=dev, variant=variant,
                            global_merges=global_merges, ratio=ratio,
                            window_size=window_size, alpha=alpha, **more)
    return [(m.left, m.right) for m in training.merges], training


CASES = {
    "base, dev set": (TRAIN, 300, dict(dev=DEV)),
    "base, no dev set: the training totals": (TRAIN, 300, {}),
    "base, ratios": (TRAIN, 300, dict(ratio=RATIO)),
    "base, a dev set wins over ratios": (TRAIN, 300, dict(dev=DEV, ratio=RATIO)),
    "base, global merges first": (TRAIN, 300, dict(dev=DEV, global_merges=60)),
    "window, dev set": (TRAIN, 300, dict(dev=DEV, variant="window")),
    "window, small window": (TRAIN, 300, dict(dev=DEV, variant="window", window_size=20,
                                              alpha=1.5)),
    "window, no dev set": (TRAIN, 300, dict(variant="window", window_size=30)),
    "window, ratios": (TRAIN, 300, dict(ratio=RATIO, variant="window", window_size=25)),
    "window, global merges first": (TRAIN, 300, dict(dev=DEV, variant="window",
                                                     window_size=20, global_merges=40)),
    "base, other samples, dev set": (OTHERS, 300, dict(dev=OTHERS_DEV)),
    "window, other samples, ratios": (OTHERS, 300, dict(ratio={"tour": 1.0, "seed003": 0.5,
                                                               "en": 0.3},
                                                        variant="window", window_size=10)),
    # languages run out of pairs (reaching min_frequency): each is skipped from then on
    "base, languages run out": (TRAIN, 2000, dict(dev=DEV, min_frequency=2)),
    "base, ratios, languages run out": (TRAIN, 2500, dict(ratio=RATIO, min_frequency=2)),
}


@pytest.fixture(scope="module", params=list(CASES))
def case(request):
    train, n, settings = CASES[request.param]
    expected, tokenizer = hf_merges(train, n, **settings)
    got, training = ours(train, n, **settings)
    return request.param, expected, got, training, tokenizer, train


def test_the_merges_are_hugging_faces_in_the_same_order(case):
    name, expected, got, training, _, _ = case
    assert len(expected) > 250, name  # a real training, not a few merges
    assert got == expected, name
    if "run out" in name:  # stopped before the merges asked for, languages skipped
        assert len(got) < CASES[name][1] and training.stop_reason == "min_frequency"
        assert len(training.choices[-1].exhausted) >= 2


def test_the_result_is_a_byte_level_training_that_cuts_text_as_hugging_face_does(case):
    name, _, _, training, tokenizer, train = case
    assert isinstance(training, ParityTraining) and training.algorithm == "parity"
    assert len(training.choices) == len(training.merges)
    # Hugging Face's alphabet is the bytes its texts hold (it drops any other), so the
    # texts compared are the training's own; bpeviz's vocabulary has all 256 bytes
    for text in (t[-300:] for t in train.values()):
        pieces = [gpt2_to_bytes(t) for t in tokenizer.encode(text).tokens]
        assert [t.bytes for t in training.at().encode(text)] == pieces, name
    emoji = "\U0001f600"
    assert b"".join(t.bytes for t in training.at(5).encode(emoji)) == emoji.encode()
    assert training.stop_message


def dev_tokens(merges, dev):
    """Each language's dev tokens after each number of merges: Hugging Face's
    pre-tokenizer, then the merges applied in order, written here without bpeviz."""
    words = {lang: [[bytes((b,)) for b in gpt2_to_bytes(w)]
                    for w, _ in BYTE_LEVEL.pre_tokenize_str(text)] for lang, text in dev.items()}
    counts = [{lang: sum(map(len, ws)) for lang, ws in words.items()}]
    for a, b in merges:
        for ws in words.values():
            for k, w in enumerate(ws):
                out, i = [], 0
                while i < len(w):
                    if i + 1 < len(w) and w[i] == a and w[i + 1] == b:
                        out.append(a + b)
                        i += 2
                    else:
                        out.append(w[i])
                        i += 1
                ws[k] = out
        counts.append({lang: sum(map(len, ws)) for lang, ws in words.items()})
    return counts


def test_each_step_names_the_language_with_the_most_dev_tokens_and_its_numbers():
    merges, _ = hf_merges(TRAIN, 300, dev=DEV)
    _, training = ours(TRAIN, 300, dev=DEV)
    counts = dev_tokens(merges, DEV)
    for step, choice in enumerate(training.choices, 1):
        before = counts[step - 1]
        # the worst-compressed language: most tokens on the same text; the first on a tie
        worst = max(LANGUAGES, key=lambda lang: (before[lang], -LANGUAGES.index(lang)))
        assert (choice.language, choice.basis) == (worst, "dev"), step
        assert choice.tokens == tuple(before[lang] for lang in LANGUAGES), step
        assert choice.language in training.why(step)
    assert set(training.merges_per_language()) == set(LANGUAGES)


def test_global_merges_come_first_and_then_the_languages_take_turns():
    _, training = ours(TRAIN, 100, dev=DEV, global_merges=30)
    assert [c.language for c in training.choices[:30]] == [None] * 30
    assert all(c.basis == "global" for c in training.choices[:30])
    assert None not in {c.language for c in training.choices[30:]}
    assert "global merge" in training.why(1)


def test_the_window_passes_over_a_language_that_had_more_than_its_share():
    _, training = ours(TRAIN, 300, dev=DEV, variant="window", window_size=20, alpha=1.5)
    passed = [c for c in training.choices if c.passed_over]
    assert passed
    for c in passed:
        for lang in c.passed_over:  # more than alpha / languages of the last 20 picks
            assert c.in_window[LANGUAGES.index(lang)] / 20 > 1.5 / len(LANGUAGES)
        assert c.in_window[LANGUAGES.index(c.language)] / 20 <= 1.5 / len(LANGUAGES)


def test_ratios_rank_languages_by_compression_over_ratio():
    _, training = ours(TRAIN, 200, ratio=RATIO)
    first = training.choices[0].tokens
    for c in training.choices:
        rates = [first[i] / c.tokens[i] / RATIO[lang] for i, lang in enumerate(LANGUAGES)]
        assert c.scores == pytest.approx(rates)
        assert c.language == LANGUAGES[rates.index(min(rates))]


def test_a_few_hundred_kilobytes_train_in_seconds_and_still_match():
    # several languages of different sizes, one of them mostly code: the pairs' counts run
    # into the thousands and many words are shared
    train = {"code": corpus_text(0.2), "tour": OTHERS["tour"] * 3, "hi": STORY["hi"] * 5}
    dev = {"code": train["code"][-3000:], "tour": OTHERS["tour"][:1500], "hi": STORY["hi"]}
    expected, _ = hf_merges(train, 300, dev=dev, variant="window", window_size=50)
    start = time.perf_counter()
    got, training = ours(train, 300, dev=dev, variant="window", window_size=50)
    seconds = time.perf_counter() - start
    assert got == expected
    assert len(training.merges_per_language()) >= 2
    # about a second here; the bound only catches a loop that went quadratic
    assert seconds < 30, seconds


def test_wrong_settings_are_refused_by_name():
    with pytest.raises(ValueError, match="variant"):
        bpeviz.train(TRAIN, algorithm="parity", merges=5, variant="sliding")
    with pytest.raises(ValueError, match="dev must name the same languages"):
        bpeviz.train(TRAIN, algorithm="parity", merges=5, dev={"en": DEV["en"]})
    with pytest.raises(ValueError, match="ratio"):
        bpeviz.train(TRAIN, algorithm="parity", merges=5, ratio=[1.0, 2.0])


def test_saving_keeps_the_languages_record_and_hf_export_holds_the_tokenizer(tmp_path):
    _, training = ours(TRAIN, 120, ratio=RATIO, variant="window", window_size=15)
    path = tmp_path / "parity.json"
    bpeviz.save(training, path)
    again = bpeviz.load(path)
    assert isinstance(again, ParityTraining)
    assert again.merges == training.merges and again.choices == training.choices
    text = DEV["hi"] + DEV["ar"]
    opened = formats.import_files(formats.export(training.at(80), "hf"))
    assert ([t.bytes for t in opened.at().encode(text)]
            == [t.bytes for t in training.at(80).encode(text)])


def test_the_window_ends_when_only_languages_out_of_pairs_are_left_to_pass_to():
    # Hugging Face's trainer never returns from this one (its window keeps choosing the
    # first language, out of pairs, once it has had its share); bpeviz takes the best
    # language passed over and trains on until every language is out of pairs
    _, training = ours(STORY, 3000, variant="window", window_size=50, min_frequency=2)
    assert training.stop_reason == "min_frequency" and len(training.merges) < 3000
    assert all(c.language not in c.exhausted for c in training.choices)
    assert len(training.choices[-1].exhausted) == len(LANGUAGES) - 1


def test_corpora_may_be_given_as_corpus_objects():
    corpora = {lang: bpeviz.Corpus.from_text(text, "gpt2") for lang, text in TRAIN.items()}
    dev = {lang: bpeviz.Corpus.from_text(text, "gpt2") for lang, text in DEV.items()}
    assert ours(corpora, 150, dev=dev)[0] == ours(TRAIN, 150, dev=DEV)[0]


@pytest.mark.parametrize("name", ["base, dev set", "window, global merges first",
                                  "base, ratios, languages run out"])
def test_the_compiled_and_the_python_merge_loops_both_make_hugging_faces_merges(engine, name):
    train, n, settings = CASES[name]
    expected, _ = hf_merges(train, n, **settings)
    got, training = ours(train, n, **settings)
    assert got == expected
    assert len(training.choices) == len(got)
