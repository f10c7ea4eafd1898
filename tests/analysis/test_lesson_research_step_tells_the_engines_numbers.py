"""The lesson's research step: each section's numbers are the ones its training gives,
and its sentences say them; hostile text in a section is escaped by the renderer."""

from __future__ import annotations

import re

from bpeviz.analysis import lesson_research as research
from bpeviz.analysis.lesson_parts import LessonSection, Sym
from bpeviz.analysis.lesson_research import research_step
from bpeviz.present.render_lesson import section_html


def test_superbpe_names_its_transition_and_superwords():
    s = research_step().sections[0]
    t = s.training
    assert s.key == "superbpe" and s.numbers["transition"] == t.transition
    assert all(t.stage(k) == 2 and t.superword(k) for k in s.numbers["superword_steps"])
    assert s.numbers["superwords"] == sum(
        t.superword(k) for k in range(t.transition + 1, len(t.merges) + 1))
    text = s.text()
    assert text[s.marks[0]] == f"The transition: after merge {t.transition}, stage 2 begins."
    sentence = s.numbers["sentence"]
    assert len(t.at(t.transition).encode(sentence)) == s.numbers["tokens_before"]
    assert len(t.at().encode(sentence)) == s.numbers["tokens_after"]
    assert s.numbers["tokens_after"] < s.numbers["tokens_before"]


def test_picky_removal_is_the_trainings_event_with_its_ios():
    s = research_step().sections[1]
    event = s.training.explain(s.numbers["step"])
    assert event.kind == "removal" and event.merge_step == s.numbers["merge_step"]
    assert event.ios == event.inside / (event.inside + event.count) == s.numbers["ios"]
    assert event.ios > research.PICKY_THRESHOLD
    total = event.inside + event.count
    assert any(f"IoS = {event.inside} / {total} = {event.ios:.1%}" in line
               for line in s.text())


def test_parity_gives_merge_one_to_the_language_with_the_most_dev_tokens():
    s = research_step().sections[2]
    t = s.training
    first = t.choice(1)
    assert first.language == s.numbers["first_language"]
    assert max(first.tokens) == first.tokens[t.languages.index(first.language)]
    _, dev = research.parity_texts()
    # before any merge every byte is a token, as the section says
    assert list(first.tokens) == [len(dev[lang].encode("utf-8")) for lang in t.languages]
    for lang in t.languages:
        assert s.numbers["dev_tokens_start"][lang] == len(t.at(0).encode(dev[lang]))
        assert s.numbers["dev_tokens"][lang] == len(t.at().encode(dev[lang]))
    # the language served worst at first ends closer to the others than under plain BPE
    spread = max(s.numbers["dev_tokens"].values()) - min(s.numbers["dev_tokens"].values())
    plain = s.numbers["dev_tokens_bbpe"]
    assert spread < max(plain.values()) - min(plain.values())


def test_a_section_escapes_its_title_words_and_numbers():
    section = LessonSection("<x>", "<b>Title</b>", (("“<script>” ", Sym("<i>", 5)),),
                            {"sentence": '"><img src=x>'}, marks=(0,))
    body = section_html(section)
    assert "<script" not in body and "<b>" not in body and "<img" not in body
    assert set(re.findall(r"<(\w+)", body)) <= {"div", "h4", "p", "span", "bdi"}
