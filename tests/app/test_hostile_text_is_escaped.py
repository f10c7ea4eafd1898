"""User text never becomes markup on any page: a corpus and a text made of HTML,
Markdown and LaTeX travel as data or escaped text, and hover titles survive the sanitizer
of ``st.html`` whole. (tests/browser/test_hostile_text_runs_nothing.py checks what a
browser shows.)"""

from __future__ import annotations

import html
import re

from tests.support.app import HOSTILE, PAGES, heatmap_view, html_bodies, ok, open_page, stage


def test_hostile_corpus_and_text_are_escaped_everywhere():
    corpus = (HOSTILE + "\n") * 3 + "low lower lowest"
    at = open_page("pages/1_Explore.py", source="paste", paste=corpus, step=3, text=HOSTILE,
                   text_edited=True)
    assert not ok(at).error
    for page in PAGES:
        at.switch_page(page).run()
        ok(at)
        assert at.text_area(key="w_paste").value == corpus
        for body in html_bodies(at):
            assert "<script" not in body and "<img" not in body and "<b>" not in body
        for el in at.get("plotly_chart"):
            spec = el.proto.spec
            assert "<script" not in spec and "<img" not in spec and "$x$" not in spec
    at.switch_page("pages/2_Tokenize.py").run()
    # the text travels as data; the browser draws it as text (tests/browser/)
    assert stage(ok(at), "tokens")["text"] == HOSTILE
    assert not any(HOSTILE[:8] in body for body in html_bodies(at))
    at.switch_page("pages/1_Explore.py").run()
    # the words travel as data and the browser draws them as text (tests/browser/)
    words = [w[1] for w in stage(ok(at), "words")["words"]]
    assert {"<img", "onerror=alert(1)>", "</span>", "$x$"} <= set(words)
    # so do the heatmap's labels: the symbols as they are, set as text by the browser
    view = heatmap_view(at)
    labels = {name for _, name in view["rows"] + view["cols"]}
    assert "<" in labels and not any("&lt;" in name for name in labels)


def test_hover_titles_survive_the_sanitizer_of_st_html():
    """DOMPurify (st.html) drops a whole attribute holding ``</script``, ``-->`` or ``]>``:
    chip titles break those with an invisible word joiner and keep everything else."""
    from bpeviz.present.render import chip

    drops = re.compile(r"((--!?|])>)|<\/(style|script|title|xmp|textarea|noscript|iframe|"
                       r"noembed|noframes)", re.I)  # DOMPurify 3.4, SAFE_FOR_XML
    for token in ["</script>", "</STYLE>", "a-->b", "--!>", "]>", "</title>", HOSTILE]:
        title = html.unescape(re.search(r' title="([^"]*)"', chip(token, 1, title=token))[1])
        assert not drops.search(title), token
        assert title.replace("\u2060", "") == token
