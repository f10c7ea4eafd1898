"""SuperBPE's merges, splits and encodings equal a plain two-stage reference written here.

The reference is deliberately naive: recount every pair over the word table before each
merge, take the most frequent with the ``first`` tie rule (the first best pair met when
the words are read in first-appearance order, left to right: what ``max(dict,
key=dict.get)`` does), merge leftmost-first. Stage 1 runs on GPT-2's pre-tokens; stage 2
cuts the text line by line with the authors' pattern (matches and the stretches between
them are pre-tokens), applies stage 1's merges in order, then merges again, never making
a token with ": " in it or with more than four space-separated words.
"""

from __future__ import annotations

from collections import Counter
from importlib import resources
from itertools import pairwise

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import bpeviz
from bpeviz import Corpus
from bpeviz.algorithms.superbpe import STAGE2_REGEX, training_words
from bpeviz.text.display import bytes_to_gpt2

GPT2 = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+"""
                     r"""|\s+(?!\S)|\s+""")
AUTHORS = regex.compile(r"\p{N}{1,3}| ?[^\s\p{L}\p{N}]{2,}[\r\n/]*| +(?!\S)")


def sample(name: str) -> str:
    return resources.files("bpeviz.samples").joinpath(name).read_text(encoding="utf-8")


def split_isolated(text: str) -> list[str]:
    """The authors' Split(pattern, "isolated"): the matches and what lies between them."""
    out, pos = [], 0
    for m in AUTHORS.finditer(text):
        if m.start() > pos:
            out.append(text[pos:m.start()])
        out.append(m.group())
        pos = m.end()
    if pos < len(text):
        out.append(text[pos:])
    return out


def stage2_pieces(text: str) -> list[str]:
    """What stage 2 trains on: each line (its "\\n" kept) split alone."""
    return [p for line in regex.findall(r"[^\n]*\n|[^\n]+", text)
            for p in split_isolated(line)]


def table(pieces: list[str]) -> list[list]:
    """[[bytes symbols, count], ...] in first-appearance order."""
    return [[[bytes((b,)) for b in w.encode()], c] for w, c in Counter(pieces).items()]


def merge_word(syms: list[bytes], a: bytes, b: bytes) -> list[bytes]:
    out, i = [], 0
    while i < len(syms):
        if i + 1 < len(syms) and syms[i] == a and syms[i + 1] == b:
            out.append(a + b)
            i += 2
        else:
            out.append(syms[i])
            i += 1
    return out


def allowed(token: bytes) -> bool:
    return b": " not in token and len([w for w in token.split(b" ") if w]) <= 4


def learn(words: list[list], n: int, rule=lambda token: True,
          ids: dict[bytes, int] | None = None) -> list[tuple[bytes, bytes]]:
    """``n`` merges; with ``ids`` (token -> id, grown as tokens are made), ties go to the
    smallest (left id, right id), else to the pair seen first."""
    merges = []
    for _ in range(n):
        counts: dict[tuple[bytes, bytes], int] = {}
        for syms, c in words:
            for p in pairwise(syms):
                if rule(p[0] + p[1]):
                    counts[p] = counts.get(p, 0) + c
        if not counts:
            break
        if ids is None:
            a, b = max(counts, key=counts.get)
        else:
            a, b = min(counts, key=lambda p: (-counts[p], ids[p[0]], ids[p[1]]))
            ids.setdefault(a + b, len(ids))
        merges.append((a, b))
        for w in words:
            w[0] = merge_word(w[0], a, b)
    return merges


def reference(text: str, n: int, t: int, tie: str = "first") -> tuple[list, int, list]:
    """(merges, transition, stage-2 word table after training)."""
    # Hugging Face's byte-level ids (the authors' trainer is a fork of its): the 256
    # GPT-2 characters sorted
    ids = ({bytes((b,)): i for i, b in enumerate(sorted(range(256),
                                                        key=lambda b: bytes_to_gpt2(bytes((b,)))))}
           if tie == "ids" else None)
    stage1 = learn(table(GPT2.findall(text)), min(n, t), ids=ids)
    words = table(stage2_pieces(text))
    if t >= n or len(stage1) < min(n, t):
        return stage1, len(stage1), words
    for a, b in stage1:
        for w in words:
            w[0] = merge_word(w[0], a, b)
    return stage1 + learn(words, n - len(stage1), allowed, ids), len(stage1), words


def encode(text: str, merges: list[tuple[bytes, bytes]]) -> list[bytes]:
    """GPT-2's bpe(): in each piece of the whole text (the authors' tokenizer does not cut
    lines), merge the lowest-ranked pair present, all of its places, until none applies."""
    rank = {p: i for i, p in enumerate(merges)}
    out = []
    for piece in split_isolated(text):
        syms = [bytes((b,)) for b in piece.encode()]
        while len(syms) > 1:
            best = min(pairwise(syms), key=lambda p: rank.get(p, len(rank)))
            if best not in rank:
                break
            syms = merge_word(syms, *best)
        out.extend(syms)
    return out


TEXTS = ["parallel/en.txt", "parallel/de.txt", "multilingual_tour.txt"]


@pytest.mark.parametrize("name", TEXTS)
@pytest.mark.parametrize("transition", [0, 40, 120])
def test_merges_transition_and_splits_equal_the_reference(name: str, transition: int) -> None:
    text, n = sample(name), 200
    ref, ref_t, words = reference(text, n, transition)
    t = bpeviz.train(text, algorithm="superbpe", merges=n, transition=transition)
    assert [(m.left, m.right) for m in t.merges] == ref
    assert t.transition == ref_t == transition
    assert t.stages() == (1,) * transition + (2,) * (n - transition)
    splits = t.at().splits
    assert {w.encode(): tuple(splits[w]) for w in t.corpus.words} == {
        b"".join(s): tuple(s) for s, _ in words}


@pytest.mark.parametrize("name", TEXTS)
def test_the_ids_tie_rule_equals_the_reference(name: str) -> None:
    text = sample(name)
    ref, _, _ = reference(text, 180, 70, tie="ids")
    t = bpeviz.train(text, algorithm="superbpe", merges=180, transition=70, tie_break="ids")
    assert [(m.left, m.right) for m in t.merges] == ref


@pytest.mark.parametrize("transition", [0, 60, 150])
def test_encoding_at_every_checked_step_equals_rank_order_merges_on_stage2_pieces(
        transition: int) -> None:
    t = bpeviz.train(sample("parallel/en.txt"), algorithm="superbpe", merges=200,
                     transition=transition)
    held_out = sample("parallel/de.txt") + "\n" + sample("multilingual_tour.txt")[:1500]
    pairs = [(m.left, m.right) for m in t.merges]
    for k in (0, transition // 2, transition, transition + 1, 120, 200):
        got = [tok.bytes for tok in t.at(k).encode(held_out)]
        assert got == encode(held_out, pairs[:k]), k


def test_transition_at_or_past_the_merges_is_plain_byte_level_bpe() -> None:
    text = sample("parallel/en.txt")
    plain = bpeviz.train(Corpus.from_text(text, "gpt2"), algorithm="bbpe", merges=150)
    for transition in (150, 1000):
        t = bpeviz.train(text, algorithm="superbpe", merges=150, transition=transition)
        assert [(m.left, m.right, m.count) for m in t.merges] == [
            (m.left, m.right, m.count) for m in plain.merges]
        assert t.transition == 150 and set(t.stages()) == {1}
        tour = sample("multilingual_tour.txt")
        assert [x.bytes for x in t.at().encode(tour)] == [x.bytes for x in plain.at().encode(tour)]


def test_a_corpus_of_lines_trains_as_its_text() -> None:
    text = sample("parallel/en.txt")
    a = bpeviz.train(text, algorithm="superbpe", merges=120, transition=50)
    cut = bpeviz.algorithms.get("superbpe").pretokenizer  # what the CLI and app cut with
    b = bpeviz.train(Corpus.from_text(text, cut), algorithm="superbpe", merges=120,
                     transition=50)
    assert [m.token for m in a.merges] == [m.token for m in b.merges]


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet="ab :,.1\n", max_size=60),
       n=st.integers(0, 25), transition=st.integers(0, 25))
def test_random_small_texts_equal_the_reference(text: str, n: int, transition: int) -> None:
    if not GPT2.findall(text):
        return
    ref, ref_t, _ = reference(text, n, transition)
    t = bpeviz.train(text, algorithm="superbpe", merges=n, transition=transition)
    assert [(m.left, m.right) for m in t.merges] == ref
    assert t.transition == ref_t


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="aé Z1٣ \t\n\r,.!/:-\u0301👍", max_size=40))
def test_the_stage2_pattern_cuts_as_the_authors_split_over_text_and_over_lines(text) -> None:
    assert STAGE2_REGEX.findall(text) == split_isolated(text)
    assert training_words(text) == stage2_pieces(text)
