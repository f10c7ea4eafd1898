"""The live explorer's text limit, at its exact boundary in the app: a paste of exactly
the limit trains, one character more gets "Corpus too large" (and the text stays)."""

from __future__ import annotations

import pytest

from bpeviz.core.limits import LIMITS
from tests.support.app import open_page

WORDS = "low lower newest "


def pasted(size: int, tail: str = "") -> str:
    text = (WORDS * (size // len(WORDS) + 1))[: size - len(tail)] + tail
    assert len(text) == size
    return text


@pytest.mark.parametrize("tail", ["", "é"], ids=["ascii", "two-byte character at the end"])
def test_a_paste_of_exactly_the_limit_trains_and_one_more_character_is_refused(tail):
    at = open_page("pages/4_Vocabulary.py", source="paste", merges=3,
                   paste=pasted(LIMITS.text_chars, tail))
    errors = [e.value for e in at.error]
    assert not any("Corpus too large" in e for e in errors), errors
    assert at.session_state["step"] <= 3 and not at.exception
    over = pasted(LIMITS.text_chars + 1, tail)
    at.session_state["paste"] = over
    at.run()
    errors = [e.value for e in at.error]
    assert any("Corpus too large" in e and f"{LIMITS.text_chars + 1:,} characters" in e
               for e in errors), errors
    assert at.session_state["paste"] == over
