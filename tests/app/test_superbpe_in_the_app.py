"""SuperBPE in the app: offered in the sidebar, its transition chosen there (empty: 90% of
the merges), the page's training equal to the engine's on the same text, and the stages
named where the page says what it trained and on the step bar (a tick where stage 2
starts, the stage of the bar's step beside Play: bpeviz/ui/stepper/tests/landmarks.test.mjs)."""

from __future__ import annotations

import json

import bpeviz
from bpeviz.core.tracing import text_words
from bpeviz.samples import sample_bytes
from tests.support.app import PAGES, ok, open_page, stage

TEXT = sample_bytes("tour").decode("utf-8")


def choose_superbpe(at):
    next(b for b in at.sidebar.selectbox if b.label == "Algorithm").select("superbpe").run()
    return ok(at)


def captions(at) -> str:
    return " ".join(c.value for c in at.caption).replace("\\", "")


def test_superbpe_trains_to_the_transition_chosen_in_the_sidebar():
    at = choose_superbpe(open_page("pages/1_Explore.py"))
    assert at.sidebar.number_input(key="w_transition").value is None
    at.sidebar.number_input(key="w_transition").set_value(150).run()
    ok(at)
    expected = bpeviz.train(TEXT, algorithm="superbpe", merges=200, transition=150)
    card = stage(at, "card")
    assert [tuple(m[:3]) for m in card["merges"]] == [
        (m.left_id, m.right_id, m.token_id) for m in expected.merges]
    said = captions(at)
    assert "200 merges. Stage 2, across spaces, from merge 151." in said
    # the step bar marks where stage 2 starts and names the stage of its step
    assert stage(at, "controls")["landmarks"] == [[0, "stage 1: merges inside words"],
                                                  [151, "stage 2: merges across spaces"]]
    assert any(expected.superword(k) for k in range(151, 201)), "stage 2 made superwords"


def test_an_empty_transition_is_ninety_percent_of_the_merges_on_every_page():
    at = choose_superbpe(open_page())
    for page in PAGES:
        ok(at.switch_page(page).run())
        assert not at.error, (page, [e.value for e in at.error])
    at.switch_page("pages/1_Explore.py").run()
    assert "Stage 2, across spaces, from merge 181." in captions(ok(at))


def test_a_pre_tokenizer_that_drops_spaces_is_refused_with_a_sentence():
    at = choose_superbpe(open_page("pages/1_Explore.py"))
    next(b for b in at.sidebar.selectbox if b.label == "Pre-tokenizer").select(
        "whitespace").run()
    assert not at.exception
    assert any("SuperBPE needs the text with its spaces" in e.value.replace("\\", "")
               for e in at.error), [e.value for e in at.error]


def test_why_this_split_traces_each_stage_two_piece_of_the_text():
    """A stage-2 piece that ends in the space before a number ("panic: " before "42") is
    cut again alone (its trailing space becomes a piece): the page traces the piece as the
    text was cut, every one of them, with no error."""
    text = "I'm here, don't panic: 42 tokens!  of the world"
    at = choose_superbpe(open_page("pages/2_Tokenize.py", step=200, text=text,
                                   text_edited=True))
    words = text_words(bpeviz.train(TEXT, algorithm="superbpe", merges=200), text)
    assert "I'm here, don't panic: " in words
    assert len(at.selectbox(key="split_word").options) == len(words)
    for word in words:
        at.selectbox(key="split_word").set_value(word).run()
        assert not at.error, (word, [e.value for e in at.error])


def test_beside_the_card_each_step_names_its_stage_and_its_superwords():
    """A sentence per step goes to the browser with the card (drawn at the bar's step):
    the stage of the merge and, in stage 2, whether its token crosses a space."""
    at = choose_superbpe(open_page("pages/1_Explore.py"))
    expected = bpeviz.train(TEXT, algorithm="superbpe", merges=200)
    sent = [json.loads(el.proto.json) for el in at.get("bidi_component")
            if '"role": "numbers"' in (el.proto.json or "").replace('":"', '": "')]
    notes = next(d["notes"] for d in sent if "notes" in d)
    assert notes == expected.step_notes() and len(notes) == 201
    superword = next(k for k in range(181, 201) if expected.superword(k))
    assert "crosses a space: a superword" in notes[superword]
    assert "Ġ" in notes[superword], "its space is drawn, not left blank"
    assert notes[180] == "Merge 180, stage 1: inside a word, never across a space."
