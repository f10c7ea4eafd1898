"""Random segmentations: BPE-dropout, Unigram subword sampling on opened ``.model`` files,
and the segmentation cloud.

Exact sampled ids cannot be compared with other libraries (their random numbers are
theirs), so distributions are: the exact probability of every segmentation of a short
word is computed here by enumeration (independently of bpeviz's code), and the
empirical frequencies of bpeviz's samples, and of the reference library's, are tested
against it with a chi-square test (p-value above 1e-4: a correct sampler fails it about
once in 10,000 runs; a wrong distribution with these sample sizes fails it always).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chi2

from bpeviz import Corpus, train
from bpeviz.algorithms import initial_symbols
from bpeviz.core.encoding import encoder
from bpeviz.core.sampling import (
    dropout_sampler,
    encode_dropout,
    segmentation_cloud,
    unigram_sampler,
)
from bpeviz.text.pretokenize import words

TEXT = ("the hugging pug hugs the hugger and the pugs hug back while the huggers "
        "jump over lazy dogs; naïve café 日本語 ") * 4
ALPHA = 0.5


def chi_square_ok(observed: Counter, expected: dict, n: int) -> float:
    """The p-value of ``observed`` (n draws) against the probabilities ``expected``;
    categories expected fewer than 5 times are pooled. Asserts nothing outside them."""
    assert set(observed) <= {k for k, p in expected.items() if p > 0}, \
        set(observed) - set(expected)
    stat, dof, rest_o, rest_e = 0.0, -1, 0, 0.0
    for key, p in expected.items():
        e = n * p
        if e < 5:
            rest_o += observed.get(key, 0)
            rest_e += e
            continue
        stat += (observed.get(key, 0) - e) ** 2 / e
        dof += 1
    if rest_e > 0:
        stat += (rest_o - rest_e) ** 2 / max(rest_e, 1e-9)
        dof += 1
    return float(chi2.sf(stat, max(dof, 1)))


# -- BPE-dropout ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def bpe_trainings():
    corpus = Corpus.from_text(TEXT)
    return {"bpe": train(corpus, "bpe", merges=60),
            "bpe-marker": train(corpus, "bpe", merges=60, marker="</w>"),
            "bbpe": train(Corpus.from_text(TEXT, "gpt2"), "bbpe", merges=80),
            "bpe-metaspace": train(Corpus.from_text(TEXT, "metaspace"), "bpe", merges=60),
            "bbpe-metaspace": train(Corpus.from_text(TEXT, "metaspace"), "bbpe", merges=60)}


@pytest.mark.usefixtures("engine")
@settings(max_examples=30, deadline=None)
@given(st.text(alphabet="thugpersaoiéü日本語 \n", max_size=30), st.integers(0, 2**32))
def test_dropout_zero_is_plain_encoding(bpe_trainings, text, seed):
    for t in bpe_trainings.values():
        for step in (0, 17, len(t.merges)):
            snap = t.at(step)
            assert list(encode_dropout(snap, text, 0.0, seed)) == list(snap.encode(text))


@settings(max_examples=20, deadline=None)
@given(st.text(alphabet="thugpersé日 \n", max_size=25))
def test_dropout_one_gives_the_initial_symbols(bpe_trainings, text):
    for name, t in bpe_trainings.items():
        snap = t.at()
        enc = encoder(t, 0)
        got = [tok.id for tok in encode_dropout(snap, text, 1.0, seed=1)]
        assert got == [tok.id for tok in t.at(0).encode(text)]
        if name.startswith("bbpe"):
            assert [tok.bytes for tok in encode_dropout(snap, text, 1.0)] == [
                bytes((b,)) for w in t.at(0).encode(text) for b in w.bytes]
        else:
            expected = [enc.ids.get(s, enc.unk_id) for w in words(text, t.corpus.pretokenizer)
                        for s in initial_symbols(w, "bpe", t.options.marker,
                                                 t.options.marker_style)]
            assert got == expected


def test_dropout_is_reproducible_and_bypasses_the_cache(bpe_trainings):
    t = bpe_trainings["bpe"]
    snap = t.at()
    text = "hugging huggers " * 30
    before = dict(encoder(t, len(t.merges)).cache)
    a = encode_dropout(snap, text, 0.3, seed=7)
    assert list(a) == list(encode_dropout(snap, text, 0.3, seed=7))
    assert list(snap.encode(text, dropout=0.3, seed=7)) == list(a)
    assert encoder(t, len(t.merges)).cache == before  # nothing read or written there
    # every occurrence of a word is drawn on its own
    words = Counter(tuple(tok.text for tok in a if 16 * i <= tok.start < 16 * i + 8)
                    for i in range(30))
    assert len(words) > 1
    assert len({tuple(encode_dropout(snap, text, 0.3, seed=s).ids) for s in range(5)}) > 1
    # offsets still point into the text
    assert all(text[tok.start:tok.end] == tok.text for tok in a)


def test_dropout_bad_input(bpe_trainings):
    snap = bpe_trainings["bpe"].at()
    for p in (-0.1, 1.5, float("nan"), "0.1", True):
        with pytest.raises(ValueError, match="dropout must be a number between 0 and 1"):
            encode_dropout(snap, "hug", p)
    wp = train(Corpus.from_text(TEXT), "wordpiece", merges=5).at()
    with pytest.raises(ValueError, match="BPE-dropout applies to BPE and byte-level BPE"):
        wp.encode("hug", dropout=0.1)


def exact_dropout(symbols: tuple, ranks: dict, p: float) -> dict:
    """Every outcome of Provilkov's BPE-dropout on one word, with its probability.

    At each step the candidates (pairs with a merge, at every position) are taken best
    first (lowest rank, then leftmost); the i-th is merged when the i - 1 before it are
    dropped and it is not: p**(i-1) * (1-p); all dropped (p**m) ends the word."""
    out: dict = {}

    def walk(seq: tuple, prob: float) -> None:
        cands = sorted((ranks[(seq[i], seq[i + 1])], i) for i in range(len(seq) - 1)
                       if (seq[i], seq[i + 1]) in ranks)
        for k, (_, i) in enumerate(cands):
            walk((*seq[:i], seq[i] + seq[i + 1], *seq[i + 2:]), prob * p**k * (1 - p))
        out[seq] = out.get(seq, 0.0) + prob * p ** len(cands)

    walk(symbols, 1.0)
    return out


@pytest.mark.parametrize("word", ["hugs", "huggers", "pugs"])
def test_dropout_frequencies_match_the_exact_distribution_and_hf(bpe_trainings, word):
    tokenizers = pytest.importorskip("tokenizers")
    t = bpe_trainings["bpe"]
    p, n = 0.3, 3000
    ranks = {(m.left, m.right): m.step for m in t.merges}
    expected = exact_dropout(tuple(word), ranks, p)
    assert math.isclose(sum(expected.values()), 1.0)
    cloud = segmentation_cloud(dropout_sampler(t.at(), p), word, n=n, seed=11)
    ours = Counter(dict(zip(cloud.segmentation, cloud["count"])))
    assert chi_square_ok(ours, expected, n) > 1e-4
    # Hugging Face's BPE(dropout=p) draws from the same distribution
    vocab = {tok: i for i, tok in enumerate(t.vocab)}
    hf = tokenizers.Tokenizer(tokenizers.models.BPE(
        vocab, [(m.left, m.right) for m in t.merges], dropout=p, unk_token="[UNK]"))
    theirs = Counter(tuple(hf.encode(word).tokens) for _ in range(n))
    assert chi_square_ok(theirs, expected, n) > 1e-4


@pytest.mark.parametrize("word", ["hugs", " café", " naïve"])
def test_byte_level_dropout_frequencies_match_the_exact_distribution(bpe_trainings, word):
    from bpeviz.text.display import readable

    t = bpe_trainings["bbpe"]
    p, n = 0.5, 3000
    ranks = {(m.left, m.right): m.step for m in t.merges}
    exact = exact_dropout(tuple(bytes((b,)) for b in word.encode()), ranks, p)
    expected = {tuple(readable(x) for x in seg): q for seg, q in exact.items()}
    assert sum(q > 0.04 for q in expected.values()) >= 2
    cloud = segmentation_cloud(dropout_sampler(t.at(), p), word, n=n, seed=8)
    ours = Counter(dict(zip(cloud.segmentation, cloud["count"])))
    assert chi_square_ok(ours, expected, n) > 1e-4


# -- Unigram sampling on opened .model files ---------------------------------------------
@pytest.fixture(scope="module")
def spm_files(tmp_path_factory):
    spm = pytest.importorskip("sentencepiece")
    from bench.data import corpus_path

    tmp = tmp_path_factory.mktemp("sampling")
    out = {}
    for kind in ("unigram", "bpe"):
        prefix = str(tmp / kind)
        spm.SentencePieceTrainer.train(
            input=str(corpus_path(0.1)), model_prefix=prefix, vocab_size=600,
            model_type=kind, normalization_rule_name="identity", character_coverage=1.0,
            minloglevel=2)
        out[kind] = prefix + ".model"
    return out


def exact_unigram(model, normalized: str, alpha: float, nbest: int = -1) -> dict:
    """Every segmentation of ``normalized`` into the model's normal pieces (brute force),
    with probability exp(alpha * score) / sum, among the ``nbest`` best when given.
    ``model``: an opened ``.model`` or a mapping of piece -> score."""
    scores = (model if isinstance(model, dict) else
              {piece: score for piece, score, kind in model.pieces if kind == 1})
    segs = []
    n = len(normalized)
    for cuts in itertools.product((0, 1), repeat=n - 1):
        bounds = [0, *[i + 1 for i, c in enumerate(cuts) if c], n]
        pieces = tuple(normalized[a:b] for a, b in itertools.pairwise(bounds))
        if all(piece in scores for piece in pieces):
            segs.append((pieces, sum(scores[piece] for piece in pieces)))
    segs.sort(key=lambda x: -x[1])
    if nbest > 0:
        segs = segs[:nbest]
    top = segs[0][1]
    weights = {seg: math.exp(alpha * (s - top)) for seg, s in segs}
    total = sum(weights.values())
    return {seg: w / total for seg, w in weights.items()}


@pytest.mark.parametrize("text", ["the function", "returns", "  a  value"])
def test_unigram_samples_are_valid_and_nbest_one_is_viterbi(spm_files, text):
    import sentencepiece as spm

    from bpeviz.unigram.spm import load_spm

    model = load_spm(spm_files["unigram"])
    sp = spm.SentencePieceProcessor(model_file=spm_files["unigram"])
    normalized, _ = model.normalize(text)
    for seed in range(30):
        tokens = model.encode(text, alpha=0.1, nbest_size=-1, seed=seed)
        assert "".join(tok.text for tok in tokens) == normalized
        assert all(model.pieces[tok.id][0] == tok.text for tok in tokens)
        assert sp.decode([tok.id for tok in tokens]) == sp.decode(sp.encode(text))
        assert all(0 <= tok.start <= tok.end <= len(text) for tok in tokens)
        for size in (0, 1):
            assert model.encode_ids(text) == [
                tok.id for tok in model.encode(text, alpha=0.7, nbest_size=size, seed=seed)]
    assert model.encode(text, alpha=0.2, seed=5) == model.encode(text, alpha=0.2, seed=5)


@pytest.mark.parametrize("word,nbest,alpha", [
    ("tokenizers", -1, ALPHA), ("parsing", -1, ALPHA), ("tokenizers", -1, 0.1),
    ("tokenizers", 4, ALPHA), ("imported", 3, ALPHA)])
def test_unigram_frequencies_match_the_lattice_and_sentencepiece(spm_files, word, nbest,
                                                                  alpha):
    import sentencepiece as spm

    from bpeviz.unigram.spm import load_spm

    model = load_spm(spm_files["unigram"])
    sp = spm.SentencePieceProcessor(model_file=spm_files["unigram"])
    normalized, _ = model.normalize(word)
    expected = exact_unigram(model, normalized, alpha, nbest)
    assert sum(p > 0.04 for p in expected.values()) >= 2  # several likely segmentations
    n = 4000
    cloud = segmentation_cloud(unigram_sampler(model, alpha, nbest), word, n=n, seed=3)
    ours = Counter(dict(zip(cloud.segmentation, cloud["count"])))
    assert chi_square_ok(ours, expected, n) > 1e-4
    theirs = Counter(tuple(sp.encode(word, out_type=str, enable_sampling=True, alpha=alpha,
                                     nbest_size=nbest)) for _ in range(n))
    assert chi_square_ok(theirs, expected, n) > 1e-4


def test_bpe_model_sampling_is_sentencepiece_dropout(spm_files):
    import sentencepiece as spm

    from bpeviz.unigram.spm import load_spm

    model = load_spm(spm_files["bpe"])
    sp = spm.SentencePieceProcessor(model_file=spm_files["bpe"])
    text = "the function returns a value"
    for alpha in (0.0, 1.0):  # no randomness at the ends: exact ids
        assert [tok.id for tok in model.encode(text, alpha=alpha, seed=1)] == sp.encode(
            text, enable_sampling=True, alpha=alpha, nbest_size=-1)
    # in between: the same distribution as the library's, word by word (two samples)
    n, word = 3000, "returns"
    ours = Counter(tuple(tok.text for tok in model.encode(word, alpha=0.3, seed=s))
                   for s in range(n))
    theirs = Counter(tuple(sp.encode(word, out_type=str, enable_sampling=True, alpha=0.3))
                     for _ in range(n))
    keys = sorted(set(ours) | set(theirs))
    table = [[ours.get(k, 0) + 0.5 for k in keys], [theirs.get(k, 0) + 0.5 for k in keys]]
    from scipy.stats import chi2_contingency

    assert chi2_contingency(table)[1] > 1e-4
    with pytest.raises(ValueError, match="alpha must be a number between 0 and 1"):
        model.encode(text, alpha=2.0)


# -- the segmentation cloud ----------------------------------------------------------------
def test_cloud_columns_order_and_reproducibility(bpe_trainings):
    snap = bpe_trainings["bpe"].at()
    cloud = segmentation_cloud(dropout_sampler(snap, 0.4), "huggers pugs", n=500, seed=2)
    assert list(cloud.columns) == ["segmentation", "count", "share"]
    assert cloud["count"].sum() == 500
    assert list(cloud["count"]) == sorted(cloud["count"], reverse=True)
    assert (cloud["share"] == cloud["count"] / 500).all()
    assert all("".join(seg) == "huggerspugs" for seg in cloud.segmentation)
    assert cloud.equals(segmentation_cloud(dropout_sampler(snap, 0.4), "huggers pugs", n=500,
                                           seed=2))
    assert not cloud.equals(segmentation_cloud(dropout_sampler(snap, 0.4), "huggers pugs",
                                               n=500, seed=3))
    plain = segmentation_cloud(dropout_sampler(snap, 0.0), "huggers pugs", n=20)
    assert plain.to_dict("records") == [{"segmentation": tuple(snap.encode("huggers pugs").texts),
                                         "count": 20, "share": 1.0}]
    with pytest.raises(ValueError, match="positive integer"):
        segmentation_cloud(dropout_sampler(snap, 0.1), "hug", n=0)


def test_cloud_by_word(bpe_trainings, spm_files):
    from bpeviz.unigram.spm import load_spm

    snap = bpe_trainings["bpe"].at()
    cloud = segmentation_cloud(dropout_sampler(snap, 0.3), "hugs pug hugs", n=300, seed=1,
                               by_word=True)
    assert list(cloud.columns) == ["word", "segmentation", "count", "share"]
    assert list(dict.fromkeys(cloud.word)) == ["hugs", "pug"]
    sums = cloud.groupby("word")["count"].sum()
    assert sums["hugs"] == 600 and sums["pug"] == 300
    assert all(math.isclose(s, 1.0) for s in cloud.groupby("word")["share"].sum())
    assert all("".join(seg) == w for w, seg in zip(cloud.word, cloud.segmentation))
    # Unigram: the "▁" token, which covers the space before a word, belongs to the word
    model = load_spm(spm_files["unigram"])
    cloud = segmentation_cloud(unigram_sampler(model, 0.3), " returns  values", n=200,
                               by_word=True)
    assert list(dict.fromkeys(cloud.word)) == ["returns", "values"]
    assert all("".join(seg) == "\u2581" + w for w, seg in zip(cloud.word, cloud.segmentation))


def test_cli_encode_with_dropout(tmp_path, capsys):
    import json

    from bpeviz.cli import main

    corpus = tmp_path / "c.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    out = tmp_path / "t.json"
    assert main(["train", str(corpus), "--merges", "40", "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()

    def run(*extra):
        assert main(["encode", "--training", str(out), *extra, "huggers hugging"]) == 0
        return [json.loads(line)["text"] for line in capsys.readouterr().out.splitlines()]

    plain = run()
    assert run("--dropout", "0") == plain
    assert run("--dropout", "1") == list("huggers") + list("hugging")
    assert run("--dropout", "0.5", "--seed", "4") == run("--dropout", "0.5", "--seed", "4")
    assert main(["encode", "--training", str(out), "--dropout", "1.5", "hug"]) == 2
    assert "dropout must be a number between 0 and 1" in capsys.readouterr().err


def test_cloud_of_a_trained_unigram_model():
    """Sampling with a Unigram model trained by bpeviz: valid splits, lattice frequencies."""
    from bench.data import corpus_text
    from bpeviz.unigram import train_unigram
    from bpeviz.unigram.model import normalize_identity

    training = train_unigram(corpus_text(0.05), vocab_size=400)
    model = training.final.model
    word = "tokenizers"
    expected = exact_unigram(dict(model.scores), normalize_identity(word)[0], ALPHA)
    assert sum(p > 0.04 for p in expected.values()) >= 2
    n = 3000
    cloud = segmentation_cloud(unigram_sampler(training.final, ALPHA), word, n=n, seed=5)
    assert chi_square_ok(Counter(dict(zip(cloud.segmentation, cloud["count"]))), expected,
                         n) > 1e-4
    viterbi = segmentation_cloud(unigram_sampler(model, ALPHA, nbest_size=1), word, n=50)
    assert viterbi.segmentation.tolist() == [tuple(t.text for t in model.encode(word))]
