"""bpeviz.analysis.compare: differences, metrics and equal-vocabulary steps, each checked against a
direct computation written here from the definitions (bpeviz.analysis.compare's docstring)."""

from __future__ import annotations

import argparse
import inspect
import json
from itertools import pairwise

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, formats, train
from bpeviz.analysis.compare import (
    SCRIPTS,
    compare,
    metrics,
    metrics_by_script,
    script_of,
    step_for_vocab_size,
    vocabulary_size,
    word_spans,
)
from bpeviz.analysis.curves import metric_curve, sample_steps
from bpeviz.core.encoding import known_ids
from bpeviz.formats import import_files
from tests.support import ROOT

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
TRAIN = (inspect.getsource(argparse)[:30000]
         + " naïve café 中文 苹果派 苹果 喜欢 Москва привет नमस्ते مرحبا 😀 e\u0301 " * 5)
CONFIGS = {
    "bpe": ("bpe", "whitespace", {}),
    "bpe-marker": ("bpe", "whitespace", {"marker": "</w>"}),
    "bpe-lines": ("bpe", "none", {}),
    "bbpe": ("bbpe", "gpt2", {}),
    "bbpe-whitespace": ("bbpe", "whitespace", {}),
    "bbpe-lines": ("bbpe", "none", {}),
    "wordpiece": ("wordpiece", "whitespace", {}),
    "wordpiece-frequency": ("wordpiece", "whitespace", {"scoring": "frequency"}),
    "wordpiece-gpt2": ("wordpiece", "gpt2", {}),
}
_TRAININGS: dict[str, object] = {}


def trained(name):
    if name not in _TRAININGS:
        algorithm, pretokenizer, options = CONFIGS[name]
        _TRAININGS[name] = train(Corpus.from_text(TRAIN, pretokenizer), algorithm,
                                 merges=200, **options)
    return _TRAININGS[name]


# -- the direct computation -----------------------------------------------------------------
def byte_at(text, c):
    return len(text[:c].encode("utf-8", "surrogatepass"))


def direct_spans(text, tokens):
    """Each token's byte span, whitespace at its ends left out: walk the bytes."""
    starts = {byte_at(text, c): c for c in range(len(text) + 1)}
    out, cursor = [], 0
    for tok in tokens:
        bs = max(cursor, byte_at(text, tok.start))
        be = bs + len(tok.bytes)
        cursor = be
        while bs in starts and starts[bs] < len(text) and text[starts[bs]].isspace() \
                and byte_at(text, starts[bs] + 1) <= be:
            bs = byte_at(text, starts[bs] + 1)
        while be > bs:
            c = next((c for c, b in ((c, byte_at(text, c)) for c in range(len(text)))
                      if byte_at(text, c + 1) == be), None)
            if c is None or not text[c].isspace() or byte_at(text, c) < bs:
                break
            be = byte_at(text, c)
        out.append((bs, be) if bs < be else None)
    return out


def direct_comparison(text, snapshots):
    cuts = []
    for snap in snapshots:
        tokens = list(snap.encode(text))
        cuts.append((tokens, direct_spans(text, tokens)))
    bounds = [{b for span in spans if span for b in span} for _, spans in cuts]
    differing = sorted(set.union(*bounds) - set.intersection(*bounds))
    out = []
    for tokens, spans in cuts:
        differs = [span is not None and any(span[0] <= d <= span[1] for d in differing)
                   for span in spans]
        runs, i = [], 0
        while i < len(tokens):
            if differs[i]:
                j = i
                while j + 1 < len(tokens) and differs[j + 1]:
                    j += 1
                runs.append((tokens[i].start, max(t.end for t in tokens[i : j + 1])))
                i = j + 1
            else:
                i += 1
        out.append((spans, differs, runs))
    return differing, out


def direct_words(text):
    spans, c = [], 0
    while c < len(text):
        if text[c].isspace():
            c += 1
            continue
        d = c
        while d < len(text) and not text[d].isspace():
            d += 1
        spans.append((c, d))
        c = d
    return spans


def direct_script(word):
    counts = {}
    for ch in word:
        if not regex.fullmatch(r"\p{L}|\p{M}", ch):
            continue
        name = next((s for s in SCRIPTS if regex.fullmatch(rf"\p{{Script={s}}}", ch)), None)
        if name is None:
            if regex.fullmatch(r"\p{Script=Common}|\p{Script=Inherited}", ch):
                continue
            name = "Other"
        counts[name] = counts.get(name, 0) + 1
    if not counts:
        return "Common"
    best = max(counts.values())
    return next(s for s in counts if counts[s] == best)  # first seen among the most


def direct_metrics(text, tokens, words=None):
    """(tokens, characters, bytes, words, word tokens, split words, unk) over ``words``."""
    spans = direct_spans(text, tokens)
    all_words = direct_words(text)
    words = all_words if words is None else words
    # a token with no character of a word (whitespace only, or none) counts for the word
    # it ends, else the word after it (a whole-character token; a trailing one: none)
    home = {}
    for i, (token, span) in enumerate(zip(tokens, spans)):
        if span is None and not token.partial:
            at = byte_at(text, token.end)
            ends = [w for w in all_words if byte_at(text, w[1]) == at]
            after = [w for w in all_words if byte_at(text, w[0]) >= at]
            if ends or after:
                home[i] = (ends or after)[0]
    per_word = []
    touching = set()
    for s, e in words:
        lo, hi = byte_at(text, s), byte_at(text, e)
        hits = [i for i, span in enumerate(spans) if span and span[0] < hi and span[1] > lo]
        hits += [i for i, w in home.items() if w == (s, e)]
        per_word.append(len(hits))
        touching.update(hits)
    return {"words": len(words), "word_tokens": sum(per_word),
            "split_words": sum(n > 1 for n in per_word), "touching": touching}


texts = st.lists(st.sampled_from([*"ab cé苹果 \n\tпр😀\u0301,.7", "naïve ", "the "]),
                 max_size=25).map("".join)

STEPS = st.one_of(st.sampled_from([0, 60, 200]), st.integers(0, 200))


# -- differences ----------------------------------------------------------------------------
@SETTINGS
@given(text=texts, names=st.lists(st.sampled_from(sorted(CONFIGS)), min_size=1, max_size=3),
       data=st.data())
def test_differences_equal_a_direct_comparison_of_boundaries(text, names, data):
    snaps = [trained(n).at(data.draw(STEPS)) for n in names]
    result = compare([(n, s) for n, s in zip(names, snaps)], text)
    differing, cuts = direct_comparison(text, snaps)
    assert list(result.differing) == differing and result.n_differing == len(differing)
    for cut, (spans, differs, runs) in zip(result.cuts, cuts):
        assert list(cut.spans) == spans
        assert list(cut.differs) == differs
        assert list(cut.diff_spans) == runs
        assert cut.own_differing == len(cut.boundaries & set(differing))


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_spans_leave_out_whitespace_at_both_ends(name):
    text = "the cat , naïve the  苹果派\n\nx 😀 "
    tokens = list(trained(name).at(200).encode(text))
    result = compare([(name, trained(name).at(200))], text)
    assert list(result.cuts[0].spans) == direct_spans(text, tokens)
    if name == "bpe-lines":  # merged tokens that end in a space ("the ")
        assert any(t.text.endswith(" ") for t in tokens)


def test_a_space_glued_to_a_token_is_not_a_difference():
    text = "the cat sat"
    result = compare([("ws", trained("bbpe-whitespace").at(200)),
                      ("gpt2", trained("bbpe").at(200))], text)
    gpt2_tokens = [t.text for t in result.cuts[1].tokens]
    assert " cat" in gpt2_tokens or " c" in gpt2_tokens  # GPT-2 glues the space on
    same = [t.text.strip() for t in result.cuts[0].tokens] == \
        [t.text.strip() for t in result.cuts[1].tokens]
    assert (result.n_differing == 0) == same


def test_a_cut_inside_a_character_differs_from_a_whole_character():
    text = "苹"
    bbpe = trained("bbpe").at(0)  # three bytes, three tokens
    bpe = trained("bpe").at(0)
    result = compare([("bytes", bbpe), ("chars", bpe)], text)
    assert [t.partial for t in result.cuts[0].tokens] == [True, True, True]
    assert result.differing == (1, 2)  # the two cuts inside the character's three bytes
    assert result.cuts[1].diff_spans == ((0, 1),) and result.cuts[0].diff_spans == ((0, 1),)


def test_identical_configurations_have_no_differences():
    snap = trained("wordpiece").at(150)
    result = compare([("a", snap), ("b", snap)], TRAIN[:3000])
    assert result.n_differing == 0 and not any(any(c.differs) for c in result.cuts)


def test_compare_takes_one_to_three_configurations():
    snap = trained("bpe").at(3)
    with pytest.raises(ValueError, match="1 to 3"):
        compare([("x", snap)] * 4, "text")


# -- metrics --------------------------------------------------------------------------------
@SETTINGS
@given(text=st.one_of(texts, st.text(max_size=30).filter(lambda t: not regex.search(
    r"\p{Cs}", t))))
def test_words_are_the_words_of_str_split(text):
    assert [text[s:e] for s, e in word_spans(text)] == text.split()


@SETTINGS
@given(text=texts, name=st.sampled_from(sorted(CONFIGS)), step=STEPS)
def test_metrics_equal_a_direct_computation(text, name, step):
    snap = trained(name).at(step)
    tokens = list(snap.encode(text))
    got = metrics(text, snap.encode(text))
    direct = direct_metrics(text, tokens)
    assert got.tokens == len(tokens) and got.characters == len(text)
    assert got.bytes == len(text.encode("utf-8", "surrogatepass"))
    assert (got.words, got.word_tokens, got.split_words) == (
        direct["words"], direct["word_tokens"], direct["split_words"])
    assert got.unk == sum(t.unk for t in tokens)
    if tokens:
        assert got.chars_per_token == len(text) / len(tokens)
        assert got.unk_rate == sum(t.unk for t in tokens) / len(tokens)
    if direct["words"]:
        assert got.fertility == direct["word_tokens"] / direct["words"]
        assert got.split_share == direct["split_words"] / direct["words"]
    # per script: the same over the words of each script
    by_script = metrics_by_script(text, snap.encode(text))
    words = direct_words(text)
    scripts = [direct_script(text[s:e]) for s, e in words]
    assert sorted(by_script) == sorted(set(scripts))
    for script, m in by_script.items():
        mine = [w for w, s in zip(words, scripts) if s == script]
        d = direct_metrics(text, tokens, mine)
        assert (m.words, m.word_tokens, m.split_words) == (
            d["words"], d["word_tokens"], d["split_words"]), script
        assert m.tokens == len(d["touching"])
        assert m.unk == sum(tokens[i].unk for i in d["touching"])
        assert m.characters == sum(e - s for s, e in mine)
    assert sum(m.words for m in by_script.values()) == got.words


@pytest.mark.parametrize(("word", "script"), [
    ("naïve", "Latin"), ("苹果派", "Han"), ("Москва", "Cyrillic"), ("नमस्ते", "Devanagari"),
    ("مرحبا", "Arabic"), ("42", "Common"), ("😀", "Common"), ("café!", "Latin"),
    ("e\u0301", "Latin"), ("αβγ", "Greek"), ("한국어", "Hangul"), ("ᚠᚢᚦ", "Other"),
])
def test_script_of_a_word(word, script):
    assert script_of(word) == script == direct_script(word)


def test_fertility_counts_tokens_per_whitespace_word():
    snap = trained("bpe").at(0)  # step 0: one token per character
    m = metrics("ab cde", snap.encode("ab cde"))
    assert (m.tokens, m.words, m.word_tokens, m.split_words) == (5, 2, 5, 2)
    assert m.fertility == 2.5 and m.split_share == 1.0 and m.chars_per_token == 6 / 5


# -- equal vocabulary size ------------------------------------------------------------------
def direct_step(training, target):
    sizes = [len(known_ids(training, k)) for k in range(len(training.merges) + 1)]
    below = [k for k, size in enumerate(sizes) if size <= target]
    return (below[-1] if below else 0), sizes


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_equal_vocabulary_step_is_the_last_step_at_or_below_the_size(name):
    training = trained(name)
    sizes = [vocabulary_size(training, k) for k in range(len(training.merges) + 1)]
    for target in {sizes[0] - 1, sizes[0], sizes[37], sizes[37] + 1, sizes[-1], sizes[-1] + 5}:
        found = step_for_vocab_size(training, target)
        step, direct = direct_step(training, target)
        assert found.step == step and found.vocab_size == direct[step]
        assert found.exact == (direct[step] == target)
        assert bool(found.note) != found.exact


def test_equal_vocabulary_counts_tokens_listed_after_the_merges():
    training = trained("bbpe")
    files = formats.export(training.at(50), "gpt2")
    vocab = json.loads(files["vocab.json"])
    vocab["<|endoftext|>"] = len(vocab)
    files["vocab.json"] = json.dumps(vocab)
    opened = import_files(files)
    assert vocabulary_size(opened, 0) == 257 and vocabulary_size(opened, 50) == 307
    assert step_for_vocab_size(opened, 300).step == step_for_vocab_size(training, 299).step
    note = step_for_vocab_size(opened, 100).note
    assert "already has 257 tokens" in note


# -- opened files as configurations ---------------------------------------------------------
@pytest.mark.parametrize(("name", "fmt"), [
    ("bpe", "hf"), ("bpe", "gpt2"), ("bpe-marker", "gpt2"), ("bbpe", "hf"), ("bbpe", "gpt2"),
    ("bbpe", "tiktoken"), ("bbpe", "training"), ("wordpiece", "vocab"), ("wordpiece", "hf"),
    ("wordpiece", "training"), ("bpe-lines", "hf"),
])
def test_opened_files_compare_as_the_training_they_came_from(name, fmt):
    snap = trained(name).at(120)
    opened = import_files(formats.export(snap, fmt))
    opened_snap = opened.at(120) if fmt == "training" else opened.at()
    text = TRAIN[-2000:] + " zebra quux 😀"
    result = compare([("trained", snap), (f"opened {fmt}", opened_snap)], text)
    assert result.n_differing == 0
    assert result.cuts[0].tokens.ids == result.cuts[1].tokens.ids
    assert metrics(text, result.cuts[0].tokens) == metrics(text, result.cuts[1].tokens)


# -- curves ---------------------------------------------------------------------------------
def test_sampled_steps_cover_both_ends_evenly():
    assert sample_steps(0) == [0]
    steps = sample_steps(2000)
    assert len(steps) == 50 and steps[0] == 0 and steps[-1] == 2000
    gaps = {b - a for a, b in pairwise(steps)}
    assert max(gaps) - min(gaps) <= 1


@pytest.mark.parametrize("name", ["bpe", "bbpe", "wordpiece"])
def test_metric_curves_equal_the_metrics_at_each_step(name):
    training = trained(name)
    text = TRAIN[5000:6500] + " 苹果派 Москва"
    steps = [0, 7, 100, 200]
    rows = metric_curve(training, text, steps)
    assert [r["step"] for r in rows] == steps
    for row in rows:
        m = metrics(text, training.at(row["step"]).encode(text))
        assert row == {"step": row["step"], "vocab_size": vocabulary_size(training, row["step"]),
                       **m.row()}
    by_script = metric_curve(training, text, [100], by_script=True)
    expected = metrics_by_script(text, training.at(100).encode(text))
    assert {r["script"]: r["tokens"] for r in by_script} == \
        {s: m.tokens for s, m in expected.items()}


@SETTINGS
@given(text=texts, name=st.sampled_from(["bbpe", "bbpe-whitespace", "bbpe-lines", "bpe",
                                         "bpe-marker", "bpe-lines"]),
       steps=st.lists(STEPS, min_size=2, max_size=4, unique=True).map(sorted))
def test_curves_read_from_one_replay_equal_encoding_at_each_step(text, name, steps):
    from bpeviz.analysis.curves import _replayed_spans

    training = trained(name)
    if text.strip():
        assert _replayed_spans(training, text, steps) is not None  # the replay path is taken
    rows = metric_curve(training, text, steps)
    scripts = metric_curve(training, text, steps, by_script=True)
    for row in rows:
        tokens = training.at(row["step"]).encode(text)
        assert {k: v for k, v in row.items() if k not in ("step", "vocab_size")} == \
            metrics(text, tokens).row()
        expected = metrics_by_script(text, tokens)
        assert {r["script"]: (r["tokens"], r["fertility"], r["split_share"])
                for r in scripts if r["step"] == row["step"]} == \
            {s: (m.tokens, m.fertility, m.split_share) for s, m in expected.items()}


long_words = st.lists(st.sampled_from(["ab", "cé", "苹果", "x" * 101, "##", "de"]), min_size=1,
                      max_size=4).map("".join)


@SETTINGS
@given(words=st.lists(st.one_of(texts, long_words), max_size=4).map(" ".join),
       name=st.sampled_from(["wordpiece", "wordpiece-frequency", "wordpiece-gpt2"]),
       steps=st.lists(STEPS, min_size=1, max_size=5))
def test_wordpiece_curves_recut_only_changed_words_and_equal_encoding(words, name, steps):
    from bpeviz.analysis.curves import _wordpiece_spans

    training = trained(name)
    if words.strip():
        assert _wordpiece_spans(training, words) is not None
    rows = metric_curve(training, words, steps)  # steps in any order, repeated
    assert [r["step"] for r in rows] == steps
    for row in rows:
        tokens = training.at(row["step"]).encode(words)
        assert {k: v for k, v in row.items() if k not in ("step", "vocab_size")} == \
            metrics(words, tokens).row()


def test_wordpiece_curves_past_the_substring_budget_cut_every_word_at_every_step(
        monkeypatch):
    import bpeviz.analysis.curves

    training = trained("wordpiece")
    text = TRAIN[2000:4000]
    steps = [0, 30, 120, 200]
    indexed = metric_curve(training, text, steps)
    monkeypatch.setattr(bpeviz.analysis.curves, "_SUBSTRING_BUDGET", 10)
    assert metric_curve(training, text, steps) == indexed
    for row in indexed:
        assert row["tokens"] == len(training.at(row["step"]).encode(text))


def test_wordpiece_curves_of_an_opened_vocabulary():
    training = trained("wordpiece")
    opened = import_files(formats.export(training.at(150), "hf"))
    text = TRAIN[-3000:]
    rows = metric_curve(opened, text)
    assert [r["step"] for r in rows] == [0]
    assert rows[0]["tokens"] == len(opened.at().encode(text)) == len(training.at(150).encode(text))


@pytest.mark.parametrize(("name", "text"), [
    ("bpe-marker", "a</w>b low</w> lower"),   # the marker written in the text
    ("bpe", "[UNK] low ☃"),                    # the unknown token's text written in the text
    ("bbpe", "x\u3000y low"),                  # non-ASCII whitespace
])
def test_curves_fall_back_to_encoding_where_the_replay_does_not_model_the_text(name, text):
    from bpeviz.analysis.curves import _replayed_spans

    training = trained(name)
    steps = [0, 50, 200]
    assert _replayed_spans(training, text, steps) is None
    rows = metric_curve(training, text, steps)
    assert [r["tokens"] for r in rows] == [len(training.at(s).encode(text)) for s in steps]


def test_compare_replay_and_their_rendering_do_not_import_streamlit():
    import subprocess
    import sys

    code = ("import sys, bpeviz.analysis.compare, bpeviz.present.compare_history,"
            " bpeviz.analysis.curves, bpeviz.core.recount,"
            " bpeviz.present.render_compare;"
            "sys.exit('streamlit' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0
