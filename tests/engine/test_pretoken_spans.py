"""Pre-token spans: the pieces the pre-tokenizer cuts a text into, with the rule that cut
each (Tokenize's "Show pre-tokens" draws them; a wrong span would show a boundary that
BPE can cross, or hide one it cannot)."""

import pytest
import regex

from bpeviz.text.pretoken_spans import alternatives, pretoken_spans, rules
from bpeviz.text.pretokenize import _PATTERNS, PRETOKENIZERS, spans

TEXTS = ["The tokenizer's  42 tokens!\n  自然语言处理 ab\tc ", "I'M here, isn't it?  ",
         "", "   ", "x", "emoji 👍🏽 and ﬁ 12345 \r\n\r\nend", "שלום עולם 123"]


@pytest.mark.parametrize("name", list(PRETOKENIZERS))
@pytest.mark.parametrize("text", TEXTS)
def test_the_pieces_put_together_give_back_the_text(name, text):
    # nothing is lost or doubled: the gaps hold what the pre-tokenizer drops
    assert "".join(p.text for p in pretoken_spans(text, name)) == text


@pytest.mark.parametrize("name", list(PRETOKENIZERS))
@pytest.mark.parametrize("text", TEXTS)
def test_the_pre_tokens_are_the_pre_tokenizers_own_matches(name, text):
    # the tagged pattern must cut exactly where training and encoding cut
    pieces = pretoken_spans(text, name)
    assert [(p.start, p.end) for p in pieces if not p.is_gap] == list(spans(text, name))
    for p in pieces:
        assert text[p.start:p.end] == p.text
        assert p.is_gap or p.start < p.end  # a gap is never a pre-token


@pytest.mark.parametrize("name", list(PRETOKENIZERS))
@pytest.mark.parametrize("text", TEXTS)
def test_the_rule_named_is_the_first_alternative_that_matches_there(name, text):
    # an alternation takes its first matching alternative: the one named must match
    # this whole span at its start, and no earlier alternative may match there at all
    alts = rules(name)
    assert "|".join(alts) == _PATTERNS[name].pattern
    for p in pretoken_spans(text, name):
        if p.is_gap:
            continue
        assert p.rule == alts[p.rule_index]
        chosen = regex.compile(p.rule).match(text, p.start)
        assert chosen is not None and chosen.end() == p.end
        for earlier in alts[:p.rule_index]:
            assert regex.compile(earlier).match(text, p.start) is None


def test_gpt2_names_the_contraction_and_the_letters_that_cut_a_word():
    pieces = pretoken_spans("I'm here", "gpt2")
    assert [(p.text, p.rule) for p in pieces] == [
        ("I", r" ?\p{L}+"), ("'m", "'m"), (" here", r" ?\p{L}+")]
    assert pieces[2].description == "letters, with at most one space in front"


def test_alternatives_split_only_at_the_top_level():
    # a | inside a group, a character class or after a backslash does not split the rule
    assert alternatives(r"a|(?:b|c)|[|x]|\||d") == ["a", "(?:b|c)", "[|x]", r"\|", "d"]
