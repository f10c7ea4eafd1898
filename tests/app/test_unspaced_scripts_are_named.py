"""A corpus mostly in scripts written without spaces (a Chinese paragraph) is one "word"
per run under whitespace splitting: Explore and Compare say so and name the BERT
pre-tokenizer, which sets each CJK ideograph apart."""

from __future__ import annotations

from tests.support.app import ok, open_page

CHINESE = ("自然语言处理是人工智能的一个重要分支。它研究如何让计算机理解和生成人类语言。"
           "分词是中文处理的第一步，因为中文句子中的词语之间没有空格。\n") * 3


def _warnings(at) -> list[str]:
    return [w.value for w in at.warning]


def test_explore_warns_that_a_chinese_corpus_is_one_word_and_suggests_bert():
    at = open_page("pages/1_Explore.py", source="paste", paste=CHINESE)
    found = [w for w in _warnings(at) if "without" in w]
    assert found, _warnings(at)
    assert "BERT" in found[0] and "Han" in found[0]


def test_explore_with_the_bert_pretokenizer_cuts_each_ideograph_and_stops_warning():
    at = open_page("pages/1_Explore.py", source="paste", paste=CHINESE, pretok="bert")
    assert not [w for w in _warnings(at) if "without" in w]
    assert at.selectbox(key="w_pretok").value == "bert"


def test_explore_on_an_english_sample_has_no_unspaced_warning():
    at = open_page("pages/1_Explore.py")
    assert not [w for w in _warnings(at) if "without" in w]


def test_compare_warns_for_the_configurations_that_keep_chinese_runs_whole():
    at = open_page("pages/3_Compare.py", source="paste", paste=CHINESE, c2_pretok="bert")
    ok(at)
    found = [w for w in _warnings(at) if "without" in w]
    assert len(found) == 1 and found[0].startswith("A"), found


def test_on_a_projector_the_warning_is_folded_under_its_first_clause():
    """In presentation mode the warning must not push the merge card off the screen: its
    first clause is an expander's label, the whole warning inside it."""
    at = open_page("pages/1_Explore.py", source="paste", paste=CHINESE, present=True)
    folded = [e for e in at.expander if "without spaces" in e.label]
    assert len(folded) == 1, [e.label for e in at.expander]
    assert "Han" in folded[0].label and "BERT" not in folded[0].label
    inside = [w.value for w in folded[0].warning]
    assert inside and "BERT" in inside[0]
