"""Vocabulary's "View" choice (Tokens or Health) sits under the page's title, in both
views, for a training of merges and for Unigram's rounds: the title comes first, once."""

from __future__ import annotations

import pytest

from tests.support.app import ok, open_page, unigram_app


def main_order(at) -> list[str]:
    """The main area's titles and segmented controls, in the order drawn."""
    found = []

    def walk(node) -> None:
        children = getattr(node, "children", None)
        if isinstance(children, dict):
            for key in sorted(children):
                walk(children[key])
            return
        kind = getattr(node, "type", "")
        if kind == "title":
            found.append(f"title:{node.value}")
        elif kind == "button_group" or type(node).__name__ == "ButtonGroup":
            found.append(f"choice:{node.label}")
    walk(at.main)
    return found


@pytest.mark.parametrize("algorithm", ["bpe", "unigram"])
@pytest.mark.parametrize("view", ["tokens", "health"])
def test_the_title_comes_first_then_the_view_choice(algorithm, view):
    if algorithm == "unigram":
        at = unigram_app("pages/4_Vocabulary.py", vocab_view=view)
    else:
        at = ok(open_page("pages/4_Vocabulary.py", vocab_view=view))
    assert not at.error
    order = main_order(at)
    assert order[:2] == ["title:The vocabulary", "choice:View"], order
    assert order.count("title:The vocabulary") == 1
