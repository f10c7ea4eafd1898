"""The Learn page's seventh step under AppTest: for every lesson it presents SuperBPE,
PickyBPE and Parity-aware BPE, each with numbers equal to the engine's own trainings on
the shipped story (trained here through the public API, not read from the lesson)."""

from __future__ import annotations

import html
import re

import pytest

import bpeviz
from bpeviz.analysis import lesson_research as research
from bpeviz.analysis.lesson import LESSON_SAMPLES
from bpeviz.samples import parallel_text
from tests.app.test_learn_page import LEARN, TAGS, lesson_head, text_of
from tests.support.app import body_with, ok, open_page


def sections(at) -> dict[str, dict[str, str]]:
    """Each research section's ``data-*`` numbers, by algorithm."""
    body = body_with(ok(at), "bv-lesson-section")
    out = {}
    for head in re.findall(r'<div class="bv-lesson-section"[^>]*>', body):
        attrs = {k: html.unescape(v) for k, v in re.findall(r'data-([\w-]+)="([^"]*)"', head)}
        out[attrs["algorithm"]] = attrs
    return out


@pytest.fixture(scope="module")
def engine():
    """The three examples trained through ``bpeviz.train`` as a user would."""
    story = parallel_text("en")
    superbpe = bpeviz.train(story, algorithm="superbpe", merges=research.SUPERBPE_MERGES,
                            transition=research.SUPERBPE_TRANSITION)
    picky = bpeviz.train(story, algorithm="picky", merges=research.PICKY_MERGES,
                         threshold=research.PICKY_THRESHOLD)
    texts, dev = research.parity_texts()
    parity = bpeviz.train(texts, algorithm="parity", merges=research.PARITY_MERGES, dev=dev)
    return superbpe, picky, parity, dev


@pytest.mark.parametrize("algorithm", list(LESSON_SAMPLES))
def test_the_seventh_step_presents_three_research_algorithms_with_the_engines_numbers(
        algorithm, engine):
    superbpe, picky, parity, dev = engine
    at = open_page(LEARN, learn_algo=algorithm, learn_sample=LESSON_SAMPLES[algorithm],
                   learn_step=7)
    assert not at.error, [e.value for e in at.error]
    head = lesson_head(at)
    assert (head["lesson-step"], head["steps"], head["key"]) == ("7", "7", "research")
    assert any("Step 7 of 7" in p.proto.text for p in at.get("progress"))
    body = body_with(at, "bv-lesson")
    assert set(re.findall(r"<(\w+)", body)) <= TAGS
    shown = sections(at)
    assert list(shown) == ["superbpe", "picky", "parity"]
    words = text_of(body)

    # SuperBPE: the transition is the training's, stage 2's superwords are the engine's
    s = shown["superbpe"]
    assert int(s["transition"]) == superbpe.transition == research.SUPERBPE_TRANSITION
    supers = [k for k in range(superbpe.transition + 1, len(superbpe.merges) + 1)
              if superbpe.superword(k)]
    assert int(s["superwords"]) == len(supers) > 0
    assert f"The transition: after merge {superbpe.transition}, stage 2 begins." in words
    sentence = s["sentence"]
    assert int(s["tokens-before"]) == len(superbpe.at(superbpe.transition).encode(sentence))
    assert int(s["tokens-after"]) == len(superbpe.at().encode(sentence))
    assert f"“{sentence}” takes {s['tokens-before']} tokens after stage 1" in words
    assert 'class="bv-lesson-text bv-lesson-mark"' in body  # the transition drawn as a line

    # PickyBPE: the removal and its Intersection over Self
    p = shown["picky"]
    event = picky.explain(int(p["step"]))
    assert event.kind == "removal" and event.token == p["token"]
    assert (int(p["inside"]), int(p["alone"])) == (event.inside, event.count)
    assert float(p["ios"]) == event.ios > research.PICKY_THRESHOLD
    total = event.inside + event.count
    assert f"IoS = {event.inside} / {total} = {event.ios:.1%}" in words
    assert int(p["removals"]) == sum(e.kind == "removal" for e in picky.merges)

    # Parity-aware BPE: merge 1's language and the dev texts' token counts
    q = shown["parity"]
    first = parity.choice(1)
    assert q["first-language"] == first.language
    hindi, english = (first.tokens[parity.languages.index(lang)] for lang in ("hi", "en"))
    assert f"English {english} tokens and Hindi {hindi:,} tokens before merge 1" in words
    final = {lang: len(parity.at().encode(dev[lang])) for lang in parity.languages}
    assert (f"the dev texts take English {final['en']:,} tokens and Hindi "
            f"{final['hi']:,} tokens") in words
    got = parity.merges_per_language()
    assert f"English got {got['en']:,} and Hindi got {got['hi']:,}" in words


def test_the_seventh_step_is_reached_by_next_and_its_buttons():
    at = open_page(LEARN, learn_step=6)
    at.button(key="learn_next_top").click().run()
    assert lesson_head(ok(at))["key"] == "research"
    assert at.button(key="learn_next_top").disabled
    labels = at.segmented_control(key="w_learn_step").options
    assert len(labels) == 7
