"""The Learn page under AppTest: every algorithm, every lesson step, the numbers of
training.explain(k) and encode on screen, escaped, and the jump to Explore."""

from __future__ import annotations

import html
import re

import pytest

from bpeviz.analysis.lesson import LESSON_SAMPLES, lesson_training
from bpeviz.samples import SAMPLES
from tests.support.app import body_with, html_bodies, ok, open_page
from tests.support.app import stage as stage_data

ALGORITHMS = ["bpe", "wordpiece", "bbpe"]
LEARN = "pages/0_Learn.py"
TAGS = {"style", "div", "p", "span", "table", "thead", "tbody", "tr", "th", "td",
        "bdi",  # a user's word isolated (bpeviz.present.render.bdi)
        "h4"}  # the research step's title of each algorithm


def lesson_head(at) -> dict[str, str]:
    body = body_with(ok(at), "bv-lesson")
    head = re.search(r'<div class="bv-lesson"[^>]*>', body).group()
    return {k: html.unescape(v) for k, v in re.findall(r'data-([\w-]+)="([^"]*)"', head)}


def text_of(body: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", body.split("</style>")[-1]))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_stepping_through_the_whole_lesson(algorithm):
    training = lesson_training(algorithm, LESSON_SAMPLES[algorithm])
    at = open_page(LEARN)
    if algorithm != "bpe":
        at.segmented_control(key="w_learn_algo").set_value(algorithm).run()
    assert at.session_state["learn_sample"] == LESSON_SAMPLES[algorithm]
    assert at.session_state["learn_step"] == 1
    seen = []
    while True:
        head = lesson_head(ok(at))
        number, last = int(head["lesson-step"]), int(head["steps"])
        assert number == at.session_state["learn_step"] and last == 7
        assert head["algorithm"] == algorithm
        assert any(f"Step {number} of {last}" in p.proto.text for p in at.get("progress"))
        body = body_with(at, "bv-lesson")
        assert set(re.findall(r"<(\w+)", body)) <= TAGS
        seen.append(head["key"])
        if head["key"] in ("first-merge", "next-merge"):
            k = int(head["merge-step"])
            why = training.explain(k)
            assert int(head["count"]) == why.merge.count
            assert float(head["score"]) == why.score and int(head["tie"]) == len(why.tie)
            panel = body_with(at, "bv-why")
            assert f'data-step="{k}"' in panel and f'data-count="{why.merge.count}"' in panel
            words = text_of(body)
            for word in why.words["word"].iloc[:8]:
                assert f"“{word}” ×" in words or "↵" in words
        if head["key"] == "encode":
            trace = body_with(at, "bv-trace")
            word = re.search(r"“(.+?)” was never in the corpus", text_of(body)).group(1)
            ids = [t.id for t in training.at(len(training.merges)).encode(word)]
            assert text_of(trace).count("Tokens:") == 1
            assert all(f'data-id="{i}"' in trace.split("bv-trace-end")[-1] for i in ids)
        if number == last:
            break
        at.button(key="learn_next_top" if number % 2 else "learn_next_bottom").click().run()
    assert seen == ["corpus", "split", "first-merge", "next-merge", "repeat", "encode",
                    "research"]
    assert at.button(key="learn_next_top").disabled
    at.button(key="learn_prev_top").click().run()
    assert lesson_head(ok(at))["key"] == "encode"
    # the last step offers the other two algorithms
    at.button(key="learn_next_top").click().run()
    other = next(a for a in ALGORITHMS if a != algorithm)
    at.button(key=f"learn_go_{other}").click().run()
    assert (at.session_state["learn_algo"], at.session_state["learn_step"]) == (other, 1)
    assert lesson_head(ok(at))["algorithm"] == other


def test_symbols_are_escaped_on_the_page():
    at = open_page(LEARN, learn_step=3)
    bodies = [b for b in html_bodies(ok(at)) if "bv-lesson" in b or "bv-why" in b]
    assert bodies
    for body in bodies:
        assert "</w>" not in body and "&lt;/w&gt;" in body
        assert "<script" not in body


def test_jumping_to_a_step_and_another_sample_changes_the_text():
    at = open_page(LEARN)
    at.segmented_control(key="w_learn_step").set_value(3).run()
    first = text_of(body_with(ok(at), "bv-lesson"))
    assert lesson_head(at)["key"] == "first-merge"
    at.selectbox(key="w_learn_sample").set_value("fast").run()
    other = text_of(body_with(ok(at), "bv-lesson"))
    assert lesson_head(at)["key"] == "first-merge" and first != other
    m = lesson_training("bpe", "fast").merges[0]
    assert f"{m.left} + {m.right} occurs {m.count} times" in other


def test_explore_this_opens_explore_with_the_sample_algorithm_and_step():
    at = open_page(LEARN, learn_algo="wordpiece", learn_sample="hug", learn_step=4)
    k = int(lesson_head(ok(at))["merge-step"])
    at.button(key="learn_explore").click().run()
    ok(at)
    state = at.session_state
    assert (state["sample"], state["algo"], state["step"], state["source"]) == (
        "hug", "wordpiece", k, "sample")
    assert state["merges"] == SAMPLES["hug"].settings["merges"]
    merge = lesson_training("wordpiece", "hug").merges[k - 1]
    card = stage_data(at, "card")  # the card is drawn in the browser from this data
    assert card["step"] == k and card["merges"][k - 1][2] == merge.token_id


def test_home_links_to_the_lesson_and_presentation_mode_runs():
    at = open_page()
    links = [(link.proto.page, link.proto.label) for link in ok(at).get("page_link")]
    main = [label for page, label in links if page == "Learn" and label != "Learn"]
    assert main and "seven steps" in main[0], "a link in the page body, not only the sidebar"
    at = open_page(LEARN, present=True, learn_algo="bbpe", learn_sample="seed003",
                   learn_step=4)
    assert lesson_head(ok(at))["key"] == "next-merge"
    assert not at.error
    at = open_page(LEARN, bytes="hex", learn_algo="bbpe", learn_sample="seed003",
                   learn_step=2)
    body = body_with(ok(at), "bv-lesson")
    assert "&lt;0x20&gt;" in body and "Ġ" not in text_of(body)


def test_a_visit_to_learn_keeps_the_sidebar_settings_and_the_pasted_text():
    corpus = "<b>low</b> lower lowest " * 3
    at = open_page("pages/1_Explore.py", source="paste", paste=corpus, algo="wordpiece",
                   step=3)
    at.switch_page(LEARN).run()
    ok(at)
    params = {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert params["algo"] == "wordpiece" and "paste" not in params
    at.button(key="learn_next_top").click().run()
    at.switch_page("pages/1_Explore.py").run()
    ok(at)
    assert at.text_area(key="w_paste").value == corpus
    assert at.selectbox(key="w_algo").value == "wordpiece" and at.session_state["step"] == 3


def test_a_sample_the_lesson_does_not_offer_falls_back_to_the_algorithms_own():
    at = open_page(LEARN, learn_algo="wordpiece", learn_sample="tour", learn_step=99)
    assert at.session_state["learn_sample"] == "hug"
    assert lesson_head(ok(at))["lesson-step"] == "7", "a step past the end shows the last"
