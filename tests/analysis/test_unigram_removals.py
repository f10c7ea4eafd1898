"""What a Unigram round's removals say (uses, alternative, nats) equals a direct
computation from the step's log-probabilities, and the default plan gives the sample
enough rounds to step through."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from bpeviz import Corpus
from bpeviz.samples import DEFAULT_SAMPLE, SAMPLES, sample_bytes
from bpeviz.ui import pretokenizer_for
from bpeviz.unigram import lattice as lat
from bpeviz.unigram.corpus_words import train_corpus, unigram_words
from bpeviz.unigram.course import compute_loss, encode_word
from bpeviz.unigram.teaching import MIN_ROUNDS, plan
from bpeviz.unigram.views import removal_sentence, rounds_sentence, used_removals


def corpus(sample=DEFAULT_SAMPLE):
    return Corpus.from_bytes(sample_bytes(sample), pretokenizer_for("auto", "unigram"), "auto",
                             name=SAMPLES[sample].filename)


@pytest.fixture(scope="module")
def spm():
    return train_corpus(corpus(), None, shrinking_factor=None)


def pruning_model(training, k):
    """The pieces and log-probabilities round k + 1's pruning judged: what it kept (step
    k + 1, less the characters it keeps only for the learner) and what it removed after
    re-estimation (each with its log-prob then)."""
    scores = dict(training.at(k + 1).log_probs)
    for ch in training.at(k + 1).restored:
        del scores[ch]
    for r in training.at(k).removed:
        if r.reason != "em":
            assert r.log_prob is not None, r
            scores[r.piece] = r.log_prob
    return scores


def viterbi(word, scores):
    unk = lat.f32(min(scores.values()) - lat.UNK_PENALTY)
    path, score = lat.viterbi(lat.Lattice.build(word, scores, max_piece_length=16,
                                                unk_score=unk))
    return tuple(word[n.start:n.end] for n in path), score


def test_sentencepiece_alternatives_uses_and_nats_equal_a_direct_computation(spm):
    checked = unknown = 0
    for k in range(len(spm) - 2):  # the last step's removals are the final cut
        pruned = [r for r in spm.at(k).removed if r.reason == "pruned"]
        if not pruned:
            continue
        scores = pruning_model(spm, k)
        step = spm.at(k)
        # SentencePiece's trainer counts an unknown character for the piece at id 0:
        # the first live piece in the seed's order
        first = next(p for p in spm.at(0).pieces if p in scores)

        def known(piece, scores=scores, first=first):
            return piece if piece in scores else first

        freq: Counter[str] = Counter()
        for word, count in zip(step.words, step.counts):
            for piece in viterbi(word, scores)[0]:
                freq[known(piece)] += count
        total = sum(freq.values())
        for r in step.removed:
            if r.reason == "unused":
                assert r.uses == 0 and freq[r.piece] == 0, r
        for r in pruned:
            without = {p: s for p, s in scores.items() if p != r.piece}
            alternative, _ = viterbi(r.piece, without)
            assert r.alternative == alternative, r
            assert r.uses == freq[r.piece] > 0, r
            checked += 1
            unknown += any(p not in scores for p in alternative)
            f = freq[r.piece]
            logprob_sp = math.log(f) - math.log(total)
            logsum_alt = math.log(total + f * (len(alternative) - 1))
            logprob_alt = sum(math.log(freq[known(p)] + f) - logsum_alt for p in alternative)
            lost = logprob_sp - logprob_alt
            assert r.nats == pytest.approx(f * lost, rel=1e-3, abs=1e-3), r
            # F: the piece's share of the Viterbi tokens (sentencepiece 0.2.3)
            assert r.cost == pytest.approx(f / total * lost, rel=1e-3, abs=1e-5), r
    assert checked > 50 and unknown  # some alternatives hold a character nobody kept


def test_course_alternatives_uses_and_costs_equal_a_direct_computation():
    training = train_corpus(corpus("hug"), None, "course", seed_size=None)
    table = unigram_words(corpus("hug"))
    checked = 0
    for k in range(len(training) - 1):
        model = {p: -s for p, s in training.at(k).log_probs.items()}
        uses: Counter[str] = Counter()
        for word, count in table.items():
            for piece in encode_word(word, model)[0]:
                uses[piece] += count
        base = compute_loss(model, table)
        for r in training.at(k).removed:
            without = {p: s for p, s in model.items() if p != r.piece}
            assert r.cost == pytest.approx(compute_loss(without, table) - base)
            assert r.nats == r.cost
            assert r.alternative == tuple(encode_word(r.piece, without)[0])
            assert r.uses == uses[r.piece]
            checked += 1
    assert checked > 5


def test_the_cheapest_used_removal_is_said_with_its_numbers(spm):
    k = next(k for k in range(len(spm)) if used_removals(spm.at(k).removed))
    removed = spm.at(k).removed
    used = used_removals(removed)
    assert all(not r.unused and r.uses > 0 for r in used)
    assert [r.cost for r in used] == sorted(r.cost for r in used)
    assert any(r.unused for r in removed)  # the round also drops pieces nobody used
    lead = used[0]
    text = removal_sentence(lead)
    assert f"{abs(lead.nats):,.3g} nats" in text
    assert " + ".join(f"‘{p}’" for p in lead.alternative) in text
    assert f"its {lead.uses:,.0f} use" in text


@pytest.mark.parametrize("variant", ["sentencepiece", "course"])
def test_the_default_plan_gives_the_default_sample_rounds_to_step_through(variant):
    options = {"shrinking_factor": None} if variant == "sentencepiece" else {"seed_size": None}
    training = train_corpus(corpus(), None, variant, **options)
    found = training.options["plan"]
    prunings = len(training) - 1 - (variant == "sentencepiece")
    assert 6 <= prunings <= 15
    assert prunings == found.rounds
    assert training.options["vocab_size"] == found.vocab_size
    sizes = [len(s.pieces) for s in training.steps]
    assert all(b < a for a, b in itertools.pairwise(sizes[:prunings + 1]))  # each prunes
    # the trainer's own defaults make (next to) nothing of this sample: why the plan exists
    assert found.natural is not None and found.natural < MIN_ROUNDS
    text = rounds_sentence(training)
    assert text.startswith(f"{prunings} pruning rounds: the seed has {sizes[0]:,} pieces")
    assert "chosen for this corpus" in text
    # a size the user chose is used as given
    mine = train_corpus(corpus(), 1000, variant, **options)
    assert mine.options["vocab_size"] == 1000 and mine.options["auto"] == tuple(options)


def test_the_plan_is_the_data_not_a_constant():
    """Different samples get different sizes, each the size after its planned rounds."""
    sizes = {}
    for sample in SAMPLES:
        table = unigram_words(corpus(sample))
        found = plan(table, "course")
        training = train_corpus(corpus(sample), None, "course", seed_size=None)
        assert len(training) - 1 == found.rounds
        assert len(training.final.pieces) <= found.vocab_size
        sizes[sample] = found.vocab_size
    assert len(set(sizes.values())) > 3
