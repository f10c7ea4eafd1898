"""Explore's "Why this split?" (a word of the word splits, traced at the page's step) and
the glossary notes in the chips' hover titles."""

from __future__ import annotations

import html
import re

import pytest

from bpeviz.present.glossary import CHIP_NOTES, chip_note
from bpeviz.text.display import label, visible
from tests.test_app import body_with, ok, open_page, reference, stage

ALGORITHMS = ["bpe", "bbpe", "wordpiece"]
ROW = re.compile(r'<div class="bv-trace-row" data-(merge|start)="(-?\d+)"'
                 r'(?: data-(?:count|id)="(-?\d+)")?[^>]*>(.*?)</div>', re.S)


def text_of(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def shown_trace(at) -> tuple[str, list[tuple[str, int, int, str]]]:
    body = body_with(ok(at), "bv-trace")
    return body, [(kind, int(a), int(b or 0), text_of(rest))
                  for kind, a, b, rest in ROW.findall(body)]


def assert_trace_shown(at, training, step: int, word: str) -> None:
    """The rows on screen are ``training.at(step).trace(word)``, in order, with numbers."""
    found = training.at(step).trace(word)
    body, rows = shown_trace(at)
    assert f"at step {step:,}" in text_of(body)
    if training.algorithm == "wordpiece":
        assert [(s, i) for _, s, i, _ in rows] == [
            (p.start, p.id if p.piece is not None else -1) for p in found.pieces]
        for (_, _, _, text), p in zip(rows, found.pieces):
            misses = [t for t in p.tried if t != p.piece]
            if misses:  # the candidates tried, longest first
                assert f"tried, not in the vocabulary: {', '.join(misses[:12])}" in text
            if p.piece is not None:
                assert label(p.piece) in text
                assert (f"made at merge {p.step:,}" if p.step else "starting alphabet") in text
    else:
        assert [(m, c) for _, m, c, _ in rows] == [(0, 0)] + [
            (s.step, s.count) for s in found.steps]
        for (_, _, _, text), s in zip(rows[1:], found.steps):
            assert f"merge {s.step:,} (" in text and f"count {s.count:,} when it was made" in text
            # the word's symbols after this merge, as chips in order
            assert text.split("):", 1)[1].split() == [label(x) for x in s.symbols]
    end = body.split("bv-trace-end")[1]
    assert [int(i) for i in re.findall(r'data-id="(-?\d+)"', end)] == list(found.ids)


def most_merged(training, step: int, words: list[str]) -> str:
    """The word of ``words`` whose trace at ``step`` is longest (the most to check)."""
    snap = training.at(step)
    return max(words, key=lambda w: len(snap.trace(w).steps) + len(snap.trace(w).pieces))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_why_this_split_traces_a_word_of_the_page_and_follows_the_step(algorithm):
    training = reference(algorithm)
    at = open_page("pages/1_Explore.py", explore_split_open=True, algo=algorithm, step=60)
    box = ok(at).selectbox(key="w_explore_split_word")
    page_words = [training.corpus.words[w[0]] for w in stage(at, "words")["words"]]
    assert box.options == [visible(w) for w in page_words]  # (as shown: spaces visible)
    word = most_merged(training, 60, page_words)
    box.set_value(word).run()
    assert_trace_shown(at, training, 60, word)
    # the trees of its merged tokens
    trees = body_with(at, "bv-trees")
    made = [i for i in dict.fromkeys(training.at(60).trace(word).ids) if i >= training.n_base]
    roots = re.findall(r'<div class="bv-tree"><ul><li><span class="bv-chip[^"]*" '
                       r'dir="auto" style="[^"]*" data-id="(\d+)"', trees)
    assert [int(i) for i in roots] == made[:6] and made
    # a new step: the same word, traced at that step
    for step in (150, 5):
        box_key = next(b.key for b in at.number_input if b.key.startswith("stage_box_"))
        at.number_input(key=box_key).set_value(step).run()
        assert ok(at).selectbox(key="w_explore_split_word").value == word
        assert_trace_shown(at, training, step, word)


def test_the_picked_word_stays_when_the_page_of_words_no_longer_lists_it():
    training = reference("bpe")
    at = open_page("pages/1_Explore.py", explore_split_open=True, step=30)
    box = ok(at).selectbox(key="w_explore_split_word")
    listed = [training.corpus.words[w[0]] for w in stage(at, "words")["words"]]
    word = next(w for w in reversed(listed) if "e" not in w)
    box.set_value(word).run()
    at.text_input(key="word_search").set_value("zzzz-not-a-word").run()
    assert "No word matches." in [i.value for i in ok(at).info]  # (no box drawn)
    at.text_input(key="word_search").set_value("e").run()
    listed = [training.corpus.words[w[0]] for w in stage(at, "words")["words"]]
    assert word not in listed
    box = ok(at).selectbox(key="w_explore_split_word")
    assert box.value == word and box.options == [word, *listed]  # (BPE words as they are)
    assert_trace_shown(at, training, 30, word)


# -- the glossary in the chips' titles ------------------------------------------------------
def titles(body: str) -> dict[int, str]:
    return {int(i): html.unescape(t).replace("\u2060", "") for i, t in  # (attr_text)
            re.findall(r'data-id="(-?\d+)" title="([^"]*)"', body)}


@pytest.mark.parametrize(("algorithm", "key", "settings"), [
    ("wordpiece", "wordpiece-prefix", {}),
    ("bbpe", "byte-space", {}),
    ("bpe", "marker-end", {"marker": "</w>"}),
])
def test_chips_of_the_trace_and_panel_say_what_their_marks_mean(algorithm, key, settings):
    training = reference(algorithm, **settings)
    at = open_page("pages/1_Explore.py", explore_split_open=True, algo=algorithm, step=120,
                   **settings)
    wanted = CHIP_NOTES[key].format(marker=training.options.marker)
    listed = [training.corpus.words[w[0]] for w in stage(at, "words")["words"]]
    word = next(w for w in listed if any(wanted in chip_note(training, training.vocab[i])
                                         for i in training.at(120).trace(w).ids))
    ok(at).selectbox(key="w_explore_split_word").set_value(word).run()
    noted = 0
    for marker in ("bv-trace", "bv-why", "bv-trees"):
        for i, title in titles(body_with(ok(at), marker)).items():
            note = chip_note(training, training.vocab[i])
            assert title.startswith(f"id {i} · {label(training.vocab[i])} · bytes ")
            assert title.endswith(f" · {note}") if note else " · " not in title.split(
                " · bytes ")[1]
            noted += wanted in title
    assert noted, f"no chip on the page carries the {key} note"


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_the_stage_sends_each_tokens_note_for_the_chip_titles(algorithm):
    training = reference(algorithm)
    at = open_page("pages/1_Explore.py", explore_split_open=True, algo=algorithm, step=40)
    for role in ("card", "words"):
        data = stage(at, role)
        labels = data["labels"]
        items = labels.items() if isinstance(labels, dict) else enumerate(labels)
        notes = [(int(i), data["notes"][lab[2]] if len(lab) > 2 else "") for i, lab in items]
        assert notes == [(i, chip_note(training, training.vocab[i])) for i, _ in notes]
        assert any(n for _, n in notes) == (role == "card" or algorithm != "bpe")


def test_tokenize_chips_say_what_their_marks_mean():
    training = reference("wordpiece")
    text = "tokenizers ŋŋ"
    at = open_page("pages/2_Tokenize.py", algo="wordpiece", text=text, text_edited=True,
                   step=150)
    # the chips are drawn in the browser from the stage's data: each label carries the
    # index of its note (the title's last part; tests/test_browser_tokens.py draws them)
    data = stage(ok(at), "tokens")
    tokens = list(training.at(150).encode(text))
    assert {int(i) for i in data["labels"]} >= {t.id for t in tokens}
    assert any(t.text.startswith("##") for t in tokens) and any(t.unk for t in tokens)
    shown = {t.id: (data["notes"][data["labels"][str(t.id)][2]]
                    if len(data["labels"][str(t.id)]) > 2 else "") for t in tokens}
    for t in tokens:
        assert shown[t.id] == chip_note(training, t.text)
    assert CHIP_NOTES["wordpiece-prefix"] in shown[next(t.id for t in tokens
                                                        if t.text.startswith("##"))]
    assert CHIP_NOTES["unk"] in shown[next(t.id for t in tokens if t.unk)]


@pytest.mark.parametrize(("page", "marker"), [("app.py", "bv-words"), ("app.py", "Merge"),
                                              ("pages/4_Vocabulary.py", "bv-tree")])
def test_home_and_vocabulary_chips_carry_their_notes(page, marker):
    training = reference("wordpiece")
    at = open_page(page, algo="wordpiece", step=150)
    bodies = [b for b in (el.proto.body for el in ok(at).get("html"))
              if 'class="bv-chip' in b and (marker in b or marker == "Merge")]
    shown = {i: t for b in bodies for i, t in titles(b).items()}
    assert shown
    for i, title in shown.items():
        note = chip_note(training, training.vocab[i])
        assert title.endswith(f" · {note}") if note else title.count(" · ") == 2
    assert any(CHIP_NOTES["wordpiece-prefix"] in t for t in shown.values()) or page != "app.py"


@pytest.mark.parametrize(("algorithm", "sample", "step", "key"), [
    ("bbpe", "tour", 3, "byte-gpt2"), ("wordpiece", "hug", 2, "wordpiece-prefix")])
def test_the_why_panel_explains_the_marks_on_its_chips(algorithm, sample, step, key):
    from bpeviz.present.glossary import notes

    training = reference(algorithm, sample=sample)
    at = open_page("pages/1_Explore.py", algo=algorithm, sample=sample, step=step)
    bodies = [el.proto.body for el in ok(at).get("html")]
    at_panel = next(i for i, b in enumerate(bodies) if 'class="bv-why"' in b)
    legend = bodies[at_panel + 1]
    why = training.explain(step)
    rivals = why.runners_up.iloc[:5]
    expected = notes(training, [why.merge.left, why.merge.right, why.merge.token,
                                *rivals["left"], *rivals["right"]])
    assert re.findall(r'data-note="([\w-]+)"', legend) == [n.key for n in expected]
    assert key in [n.key for n in expected]
    assert all(n.text in text_of(legend) for n in expected)


def test_a_closed_why_this_split_traces_nothing():
    at = open_page("pages/1_Explore.py", step=30)
    assert not [b for b in (el.proto.body for el in ok(at).get("html")) if "bv-trace" in b]
    assert not [s for s in at.selectbox if s.key == "w_explore_split_word"]
    at.session_state["explore_split_open"] = True
    at.run()
    assert "bv-trace" in body_with(ok(at), "bv-trace")
