"""An absorbed token's sentence ("` ing` was used 812 times at step 40; by step 300 every
use had become ...") against a direct computation: the corpus encoded word by word with
the snapshot's public ``encode`` at the step that made the token, at each step its uses
fell, and at the step each absorbing token appeared. Real trainings of the package's
sample, on the training's own corpus and on a corpus given to health."""

from __future__ import annotations

import re
from functools import cache

import pytest

from bpeviz import Corpus, train
from bpeviz.algorithms import get as get_algorithm
from bpeviz.analysis.health_unused import NAMED, uses_sentence
from bpeviz.samples import load_sample

CASES = {
    "bpe": ("bpe", "whitespace", {"merges": 250}),
    "bbpe": ("bbpe", "gpt2", {"merges": 350}),
}
SENTENCE = re.compile(r"^`(?P<tok>.+?)` was used (?P<used>[\d,]+) times? at step (?P<made>\d+); "
                      r"by step (?P<gone>\d+) every use had become (?P<list>.+?)"
                      r"(?: and (?P<more>[\d,]+) more)?$")
NAMED_TOKEN = re.compile(r"`(?P<tok>.+?)` \(step (?P<step>\d+), (?P<uses>[\d,]+)×\)")


@cache
def trained(case: str):
    algorithm, pretokenizer, options = CASES[case]
    return train(load_sample("tour", pretokenizer), algorithm=algorithm, **options)


def counts_at(training, step: int, corpus: Corpus) -> dict[int, int]:
    """How often each id appears when every word of ``corpus`` is encoded at ``step``."""
    snap = training.at(step)
    found: dict[int, int] = {}
    for word, count in zip(corpus.words, corpus.counts):
        for i in snap.encode(word).ids:
            found[i] = found.get(i, 0) + count
    return found


def number(text: str) -> int:
    return int(text.replace(",", ""))


def check_absorbed(training, step: int, corpus: Corpus, found) -> int:
    counts = cache(lambda k: counts_at(training, k, corpus))
    absorbed = found.unused[found.unused["kind"] == "absorbed"]
    for row in absorbed.itertuples():
        i = int(row.id)
        match = SENTENCE.match(row.reason)
        assert match, row.reason
        assert match["tok"] == row.token
        made = int(match["made"])
        assert made == row.made_at
        assert training.vocab_sizes[made - 1] <= i < training.vocab_sizes[made]  # made there
        assert counts(made).get(i, 0) == number(match["used"]) > 0
        # every step at which its uses fell, and by how many: what the sentence lists
        falls = {}
        for k in range(made + 1, step + 1):
            lost = counts(k - 1).get(i, 0) - counts(k).get(i, 0)
            if lost:
                falls[k] = lost
        gone = int(match["gone"])
        assert counts(gone).get(i, 0) == 0 < counts(gone - 1).get(i, 0)
        assert gone == max(falls)
        named = [(m["tok"], int(m["step"]), number(m["uses"]))
                 for m in NAMED_TOKEN.finditer(match["list"])]
        more = number(match["more"]) if match["more"] else 0
        assert len(named) == min(len(falls), NAMED)
        assert len(named) + more == len(falls)
        assert [u for _, _, u in named] == sorted((u for _, _, u in named), reverse=True)
        assert sorted(falls.values(), reverse=True)[: len(named)] == [u for _, _, u in named]
        for tok, k, uses in named:
            assert falls[k] == uses
            # the absorbing token is the one step k made, and it gained those uses then
            j = training.merges[k - 1].token_id
            assert tok == found_token(training, j)
            assert counts(k).get(j, 0) - counts(k - 1).get(j, 0) >= uses
    return len(absorbed)


def found_token(training, j: int) -> str:
    symbol = training.vocab[j]
    return get_algorithm(training.algorithm).show(symbol) if isinstance(symbol, bytes) \
        else symbol


@pytest.mark.parametrize("case", list(CASES))
def test_each_absorbed_token_says_its_uses_when_made_and_who_took_them(case):
    training = trained(case)
    step = len(training.merges)
    found = training.at(step).health()
    assert check_absorbed(training, step, training.corpus, found) > 5


def test_absorbed_tokens_on_a_given_corpus_count_that_corpus():
    training = trained("bpe")
    text = "the lower lowest tokens and the tokenizer, lower and lowest\n" * 3
    corpus = Corpus.from_text(text, "whitespace")
    step = len(training.merges)
    found = training.at(step).health(text)
    assert check_absorbed(training, step, corpus, found) > 0


def test_a_long_list_of_absorbing_tokens_names_five_then_how_many_more():
    went = [(w, s, f"`t{s}`") for w, s in ((9, 4), (1, 9), (5, 7), (5, 5), (2, 8), (3, 6),
                                            (1, 10))]
    assert uses_sentence("`a`", 26, 2, went) == (
        "`a` was used 26 times at step 2; by step 10 every use had become `t4` (step 4, 9×), "
        "`t5` (step 5, 5×), `t7` (step 7, 5×), `t6` (step 6, 3×), `t8` (step 8, 2×) and 2 more")
    assert uses_sentence("`a`", 1, 2, [(1, 3, "`ab`")]) == (
        "`a` was used 1 time at step 2; by step 3 every use had become `ab` (step 3, 1×)")
