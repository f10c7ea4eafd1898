"""Vocabulary health (bpeviz.analysis.health) against direct computations: every kind is
checked by encoding the tokens' own texts and the corpus with the snapshot's public
``encode``, on trainings of all four algorithms on the package's samples and on a
GPT-2-style vocab.json + merges.txt written here with tokens made impossible on purpose."""

from __future__ import annotations

import json
import unicodedata
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpeviz import train
from bpeviz.algorithms import get as get_algorithm
from bpeviz.analysis.health import Health, health, unused_by_step
from bpeviz.formats import import_files
from bpeviz.samples import load_sample
from bpeviz.text.display import bytes_to_gpt2

#: (algorithm, pre-tokenizer, training options): one training of each kind of vocabulary
MERGE_CASES = {
    "bpe": ("bpe", "whitespace", {"merges": 250}),
    "bpe-marker": ("bpe", "whitespace", {"merges": 250, "marker": "</w>"}),
    "bbpe": ("bbpe", "gpt2", {"merges": 350}),
    "wordpiece": ("wordpiece", "whitespace", {"merges": 250}),
}
WS = "\u2581"


@cache
def trained(case: str):
    algorithm, pretokenizer, options = MERGE_CASES[case]
    return train(load_sample("tour", pretokenizer), algorithm=algorithm, **options)


@cache
def unigram():
    return train(load_sample("tour", "metaspace"), algorithm="unigram", vocab_size=300)


def specials(training) -> set[int]:
    named = set(training.options.special_tokens) | {"[UNK]", "<unk>"}
    return {i for i, t in enumerate(training.vocab) if t in named}


def merged_ids(training, step: int) -> list[int]:
    skip = specials(training)
    return [i for i in range(training.n_base, int(training.vocab_sizes[step])) if i not in skip]


def corpus_counts(snap) -> dict[int, int]:
    """Every id encoding the training's corpus at the snapshot's step produces, weighted by
    the words' counts: each word encoded on its own with the public encoder."""
    found: dict[int, int] = {}
    corpus = snap.training.corpus
    for word, count in zip(corpus.words, corpus.counts):
        for i in snap.encode(word).ids:
            found[i] = found.get(i, 0) + count
    return found


def ends_inside(data: bytes) -> bool:
    """Whether ``data`` stops inside a UTF-8 character (what decoding it says)."""
    rest = data.lstrip(bytes(range(0x80, 0xC0)))  # a token may start inside a character too
    try:
        rest.decode("utf-8")
    except UnicodeDecodeError as err:
        return err.reason == "unexpected end of data"
    return False


# -- every kind's columns, on every algorithm ----------------------------------------------------
@pytest.mark.parametrize("case", [*MERGE_CASES, "unigram"])
def test_every_table_has_ids_tokens_and_sentences(case):
    step = unigram().at() if case == "unigram" else trained(case).at()
    found = health(step)
    assert isinstance(found, Health)
    for kind in ("unreachable", "unused", "near_duplicates", "partial"):
        frame = getattr(found, kind)
        assert list(frame.columns[:3]) == ["id", "token", "reason"]
        assert all(isinstance(r, str) and r for r in frame["reason"])
    assert len(found.summary) == 4 and all("%" in line or "not counted" in line
                                           for line in found.summary)


# -- unreachable: encoding a token's own text ---------------------------------------------------
@pytest.mark.parametrize("case", ["bpe", "bbpe"])
def test_a_token_is_unreachable_exactly_when_its_own_text_encodes_otherwise(case):
    # tokens that are whole words of their own (no end-of-word marker, no prefix): encoding
    # their text is the whole test
    training = trained(case)
    snap = training.at()
    unreachable = set(snap.health().unreachable["id"])
    for i in merged_ids(training, snap.step):
        text = get_algorithm(training.algorithm).bare(training.vocab[i])
        if text is None:
            continue  # part of a character: no text of its own to encode
        assert (snap.encode(text).ids != [i]) == (i in unreachable), training.vocab[i]


def test_marked_tokens_are_reached_at_the_end_of_a_word_and_others_inside_one():
    # "low</w>" is its word "low"; "lo" sits inside a word: an unknown character after it
    # (never merged) keeps the marker away, so the encoding's first pieces are its own
    training = trained("bpe-marker")
    snap = training.at()
    unreachable = set(snap.health().unreachable["id"])
    unknown = "\u2603"
    assert unknown not in "".join(training.corpus.words)
    for i in merged_ids(training, snap.step):
        token = training.vocab[i]
        if token.endswith("</w>"):
            ids = snap.encode(token[: -len("</w>")]).ids
        else:
            ids = snap.encode(token + unknown).ids[:-2]  # [UNK] and the marker after it
        assert (ids != [i]) == (i in unreachable), token


def test_wordpiece_continuing_pieces_follow_some_word_start():
    # a "##" piece is reached when some word-start piece followed by its text encodes as
    # that piece then it: found here by trying every word-start piece of the vocabulary
    training = trained("wordpiece")
    snap = training.at()
    unreachable = set(snap.health().unreachable["id"])
    vocab = training.vocab
    starts = [t for t in vocab[: snap.training.vocab_sizes[-1]]
              if not t.startswith("##") and t not in training.options.special_tokens]
    for i in merged_ids(training, snap.step):
        token = vocab[i]
        if token.startswith("##"):
            reached = any(snap.encode(u + token[2:]).ids[-1:] == [i]
                          and len(snap.encode(u).ids) == len(snap.encode(u + token[2:]).ids) - 1
                          for u in sorted(starts, key=len)[:64])
        else:
            reached = snap.encode(token).ids == [i]
        assert reached != (i in unreachable), token


def test_unigram_pieces_are_reachable_when_their_text_encodes_as_them():
    # a piece with "▁" is a word's start: encoding the word alone must give the piece
    step = unigram().at()
    unreachable = set(health(step).unreachable["id"])
    ids = step.model.ids
    for piece, i in ids.items():
        if piece.startswith(WS) and len(piece) > 2 and " " not in piece[1:]:
            got = [t.id for t in step.encode(piece[1:])]
            assert (got != [i]) == (i in unreachable), piece


# -- unused: encoding the corpus ----------------------------------------------------------------
@pytest.mark.parametrize("case", list(MERGE_CASES))
def test_unused_tokens_are_those_encoding_the_corpus_never_produces(case):
    training = trained(case)
    for step in (len(training.merges) // 2, len(training.merges)):
        snap = training.at(step)
        counts = corpus_counts(snap)
        found = snap.health()
        expected = {i for i in merged_ids(training, step) if not counts.get(i)}
        assert set(found.unused["id"]) == expected
        # "absorbed": the training's words held it at the step that made it
        for row in found.unused[found.unused["kind"] == "absorbed"].itertuples():
            made = training.at(int(row.made_at)).splits
            assert any(training.vocab[row.id] in split for split in made.values())


def test_unused_tokens_of_unigram_are_the_pieces_no_best_cut_holds():
    step = unigram().at()
    counts: dict[int, int] = {}
    for word, count in zip(step.words, step.counts):
        for token in step.encode(word.removeprefix(WS)):
            counts[token.id] = counts.get(token.id, 0) + count
    pieces = step.model.ids
    specials = set(step.model.specials)
    expected = {i for p, i in pieces.items()
                if p not in specials and len(p.removeprefix(WS)) > 1 and not counts.get(i)}
    assert set(health(step).unused["id"]) == expected


@pytest.mark.parametrize("case", ["bpe", "bbpe", "bpe-marker"])
def test_unused_against_the_step_counts_what_each_step_leaves_behind(case):
    # the series is read from the merge forest in one pass; here each step is encoded
    training = trained(case)
    series = unused_by_step(training)
    assert len(series) == len(training.merges) + 1
    for step in range(0, len(training.merges) + 1, 25):
        snap = training.at(step)
        counts = corpus_counts(snap)
        assert series[step] == sum(1 for i in merged_ids(training, step) if not counts.get(i))


# -- near-duplicates: the definition, token by token ----------------------------------------------
def key(alg, token, marker) -> str | None:
    text = alg.bare(token, marker)
    if text is None:
        return None
    for mark in (" ", WS):
        if text.startswith(mark) and len(text) > 1:
            text = text[1:]
            break
    return unicodedata.normalize("NFKC", text).casefold()


@pytest.mark.parametrize("case", list(MERGE_CASES))
def test_near_duplicates_group_every_token_that_differs_only_by_case_mark_or_nfkc(case):
    training = trained(case)
    alg, marker = get_algorithm(training.algorithm), training.options.marker
    snap = training.at()
    frame = snap.health().near_duplicates
    skip = specials(training)
    groups: dict[str, set[int]] = {}
    for i in range(int(training.vocab_sizes[-1])):
        k = key(alg, training.vocab[i], marker)
        if k and i not in skip:
            groups.setdefault(k, set()).add(i)
    expected = set()
    for members in groups.values():
        if len(members) > 1 and any(i >= training.n_base for i in members):
            expected |= members
    assert set(frame["id"]) == expected
    for _, rows in frame.groupby("group"):
        assert len({key(alg, training.vocab[i], marker) for i in rows["id"]}) == 1


# -- partial characters: bytes that stop inside a character ----------------------------
def test_partial_tokens_end_inside_a_character_and_never_appear_in_the_encoded_corpus():
    training = trained("bbpe")
    snap = training.at()
    counts = corpus_counts(snap)
    expected = {i for i in merged_ids(training, snap.step)
                if ends_inside(training.vocab[i]) and not counts.get(i)}
    assert expected, "the tour sample's Chinese and Japanese leave some behind"
    assert set(snap.health().partial["id"]) == expected


def test_character_vocabularies_have_no_partial_tokens():
    assert not len(trained("bpe").at().health().partial)
    assert not len(health(unigram().at()).partial)


# -- an opened GPT-2 vocabulary with tokens made impossible on purpose ------------------
def gpt2_files(merges: list[tuple[bytes, bytes]]) -> dict[str, str]:
    """vocab.json + merges.txt: the 256 bytes, each merge's token, <|endoftext|> last."""
    vocab = {bytes_to_gpt2(bytes([b])): b for b in range(256)}
    for left, right in merges:
        vocab.setdefault(bytes_to_gpt2(left + right), len(vocab))
    vocab["<|endoftext|>"] = len(vocab)
    lines = "".join(f"{bytes_to_gpt2(a)} {bytes_to_gpt2(b)}\n" for a, b in merges)
    return {"vocab.json": json.dumps(vocab), "merges.txt": "#version: 0.2\n" + lines}


#: "b c" comes before "a b", so "ab" + "c" never finds its "ab" next to a lone "c";
#: "a" + "." crosses GPT-2's pre-tokenizer; " a" + "b" loses its "a" to "a b"; E6 9C is the
#: start of 朝 (E6 9C 9D), which the corpus below never holds
IMPOSSIBLE = [(b"b", b"c"), (b"a", b"b"), (b"ab", b"c"), (b"\xe6", b"\x9c"), (b"a", b"."),
              (b" ", b"a"), (b" a", b"b")]
CORPUS = "abc ab a.b ab cab bca"


@cache
def opened():
    return import_files(gpt2_files(IMPOSSIBLE))


def test_an_opened_gpt2_vocabulary_names_its_impossible_tokens_and_why():
    training = opened()
    snap = training.at()
    ids = {bytes(t) if isinstance(t, bytes) else t: i for i, t in enumerate(training.vocab)}
    found = snap.health(CORPUS)
    reasons = dict(zip(found.unreachable["id"], found.unreachable["reason"]))
    assert set(reasons) == {ids[b"abc"], ids[b"a."], ids[b" ab"]}
    # the direct computation: their own texts encode otherwise
    for token in (b"abc", b"a.", b" ab"):
        assert snap.encode(token.decode()).ids != [ids[token]]
    assert "`a` + `bc`" in reasons[ids[b"abc"]] and "`b` + `c` (step 1)" in reasons[ids[b"abc"]]
    assert "pre-tokenizer splits" in reasons[ids[b"a."]]
    # never unreachable: the bytes, <|endoftext|>, the tokens that do form
    for token in (b"bc", b"ab", b" a"):
        assert snap.encode(token.decode()).ids == [ids[token]]
    assert list(found.partial["id"]) == [ids[b"\xe6\x9c"]]
    assert "no word of the given corpus holds these bytes" in found.partial["reason"][0]


def test_an_opened_vocabulary_counts_unused_tokens_only_on_a_given_corpus():
    training = opened()
    snap = training.at()
    assert not len(snap.health().unused)
    assert "not counted" in snap.health().summary[1]
    counts: dict[int, int] = {}
    for i in snap.encode(CORPUS).ids:
        counts[i] = counts.get(i, 0) + 1
    expected = {i for i in merged_ids(training, snap.step) if not counts.get(i)}
    assert set(snap.health(CORPUS).unused["id"]) == expected
    assert unused_by_step(training, CORPUS).iloc[-1] == len(expected)


@st.composite
def merge_lists(draw):
    """Merges over a, b, c (and a space) in any order: each joins two tokens known so far."""
    tokens = [b"a", b"b", b"c", b" "]
    merges = []
    for _ in range(draw(st.integers(1, 12))):
        left = draw(st.sampled_from(tokens))
        right = draw(st.sampled_from(tokens))
        if left + right in tokens or len(left + right) > 6:
            continue
        merges.append((left, right))
        tokens.append(left + right)
    return merges


@settings(max_examples=40, deadline=None)
@given(merge_lists())
def test_any_merge_order_makes_unreachable_exactly_the_tokens_their_text_misses(merges):
    training = import_files(gpt2_files(merges))
    snap = training.at()
    unreachable = set(snap.health().unreachable["id"])
    for i in merged_ids(training, snap.step):
        text = training.vocab[i].decode()
        assert (snap.encode(text).ids != [i]) == (i in unreachable), (text, merges)


def test_unigram_pieces_the_normalizer_or_a_better_cut_makes_impossible():
    # "▁▁a": runs of spaces count once, so no normalized text holds two "▁"; "▁ab" scores
    # far below "▁a" + "b", so Viterbi never keeps it
    from bpeviz.unigram.model import UnigramModel, UnigramStep

    model = UnigramModel(("▁", "a", "b", "▁a", "▁▁a", "▁ab"), (-1.0, -1.0, -1.0, -0.5, -1.0, -9.0))
    step = UnigramStep(0, model, 0.0, (), ("▁ab", "▁a"), (3, 1))
    found = health(step)
    reasons = dict(zip(found.unreachable["id"], found.unreachable["reason"]))
    assert set(reasons) == {model.ids["▁▁a"], model.ids["▁ab"]}
    assert "normalizer" in reasons[model.ids["▁▁a"]]
    assert "Viterbi cuts its text as `▁a` + `b`" in reasons[model.ids["▁ab"]]
    assert [t.id for t in step.encode("ab")] != [model.ids["▁ab"]]  # the direct computation
    assert [t.id for t in step.encode("a")] == [model.ids["▁a"]]
    assert set(found.unused["id"]) == {model.ids["▁▁a"], model.ids["▁ab"]}


def test_health_refuses_what_is_not_a_step_in_one_sentence():
    with pytest.raises(ValueError, match="vocabulary health reads"):
        health(object())


def test_a_wordpiece_vocab_txt_counts_unused_tokens_by_encoding_the_corpus():
    # a vocab.txt lists tokens, not merges: nothing to replay, so every word is encoded
    tokens = ["[PAD]", "[UNK]", "[CLS]", "h", "u", "g", "p", "s", "##u", "##g", "##s", "hug",
              "##ug", "pug", "##gs", "bun"]
    training = import_files({"vocab.txt": "\n".join(tokens)})
    snap = training.at()
    text = "hug hugs pug"
    produced = set(snap.encode(text).ids)
    units = {t for t in tokens if len(t.removeprefix("##")) == 1}
    expected = {i for i, t in enumerate(tokens) if t not in units and not t.startswith("[")
                and i not in produced}
    found = snap.health(text)
    assert set(found.unused["id"]) == expected == {tokens.index(t) for t in ("##ug", "##gs", "bun")}
    assert not len(found.unreachable)  # every token is its own text's longest match


def test_unused_against_the_round_matches_each_rounds_health():
    training = unigram()
    series = unused_by_step(training)
    assert series.tolist() == [len(health(training.at(k)).unused)
                               for k in range(len(training.steps))]
