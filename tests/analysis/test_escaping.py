"""User text never becomes markup: the escape helpers, and every renderer that emits HTML
or a Plotly figure, fed tokens that are whole pieces of HTML (``<script>``, ``onerror=``).

No browser needed: the renderers' HTML is parsed with :mod:`html.parser`, and only the
renderers' own elements and attributes may appear in it; the text inside the chips must be
the tokens, literally. One AppTest checks the same on the app's pages.
"""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser

import pytest
from streamlit.testing.v1 import AppTest

from bpeviz import Corpus, train
from bpeviz.analysis import views
from bpeviz.present import figures, render
from bpeviz.present.render import attr_text, chart_text, esc, md_escape
from bpeviz.present.render_heatmap import heatmap_data
from bpeviz.text import display
from tests.support import APP
from tests.support.app import heatmap_view

#: Whole words of a corpus (whitespace-separated), so that training until no pair is left
#: makes each of them one token: tags, handlers, attribute break-outs, entities, comment and
#: CDATA ends, LaTeX and Markdown; the last two are pairs of such tokens, for the heatmap.
HOSTILE_WORDS = [
    "<script>", "</script>", "onerror=", '"onerror="alert(1)"', "'onload='x'",
    "<img/src=x>", "<b>b</b>", "&amp;", "&lt;i&gt;", "</span>", "-->", "]]>", "$x$",
    "**x**", "[a](javascript:alert(1))", "onerror=<script>", "<script></script>",
]
HOSTILE_TEXT = "\n".join(" ".join(HOSTILE_WORDS) for _ in range(3))
#: every hostile character at least once, for the helpers
HOSTILE = ('<script>alert("x")</script> <img src=x onerror=\'alert(1)\'> &amp; & $x$ '
           '**b** </span> --> ]]> [a](javascript:alert(1)) :red[x] `c` _i_ #h ~s~ \\')

#: the elements and attributes bpeviz.present.render writes itself (everything else is injected)
OWN_TAGS = {"table", "thead", "tbody", "tr", "th", "td", "span", "div", "b", "ul", "li",
            "p",  # p: the "Why this split?" trace (render_explain.trace_html)
            "bdi"}  # a user's word isolated in a sentence (render.bdi)
OWN_ATTRS = {"class", "style", "data-id", "title", "dir",
             # the numbers of a trace and its merge trees (render_explain), for tests
             "data-steps", "data-pieces", "data-merge", "data-count", "data-start",
             "data-trees"}


# -- the escape helpers ---------------------------------------------------------------------
@pytest.mark.parametrize("text", [HOSTILE, *HOSTILE_WORDS, "a & b", "\"'", "&lt;"])
def test_esc_leaves_no_markup_character(text):
    out = esc(text)
    assert not set(out) & set("<>\"'"), out
    assert re.fullmatch(r"([^&]|&(amp|lt|gt|quot|#x27);)*", out), out  # every & an entity
    assert html.unescape(out) == text


def test_esc_spells_each_character():
    assert esc("<a href=\"x\" title='y'>&amp;</a>") == (
        "&lt;a href=&quot;x&quot; title=&#x27;y&#x27;&gt;&amp;amp;&lt;/a&gt;")
    assert esc(3) == "3"


@pytest.mark.parametrize("text", [HOSTILE, *HOSTILE_WORDS])
def test_chart_text_leaves_nothing_plotly_reads(text):
    out = chart_text(text)
    assert not set(out) & set("<>$"), out
    assert re.fullmatch(r"([^&]|&(amp|lt|gt|#36);)*", out), out
    assert html.unescape(out) == text
    assert chart_text("a & <b> $") == "a &amp; &lt;b&gt; &#36;"


@pytest.mark.parametrize("text", [HOSTILE, *HOSTILE_WORDS])
def test_md_escape_backslashes_every_markdown_character(text):
    from bpeviz import ui

    assert ui.md_escape is md_escape  # the pages' helper is this one
    out = md_escape(text)
    special = set("\\`*_{}[]()#+-.!|<>$~&:\"'=^")
    i = 0
    shown = []
    while i < len(out):  # read it as Markdown does: a backslash makes the next one literal
        if out[i] == "\\":
            shown.append(out[i + 1])
            i += 2
        else:
            assert out[i] not in special, (out, i)
            shown.append(out[i])
            i += 1
    assert "".join(shown) == text
    assert md_escape("<b>$x$</b>") == "\\<b\\>\\$x\\$\\</b\\>"


@pytest.mark.parametrize("text", ["</script>", "</STYLE>", "a-->b", "--!>", "]]>", HOSTILE])
def test_attr_text_breaks_what_the_sanitizer_drops_and_keeps_the_rest(text):
    out = attr_text(text)
    assert not re.search(r"</|(--!?|])>", out), out
    assert out.replace("\u2060", "") == text


def test_label_keeps_user_text_literally_for_esc_to_escape():
    """display.label makes whitespace visible but escapes nothing itself: esc is the one
    place, so a label escaped twice or not at all would show up here."""
    for word in HOSTILE_WORDS:
        assert display.label(word) == word
        assert display.label(word.encode(), "gpt2") == word
    assert display.label(" <b>\n") == "·<b>↵"


# -- every renderer, with tokens that are whole pieces of HTML -------------------------------
class Markup(HTMLParser):
    """The elements of an HTML fragment, and the text and title of every chip."""

    def __init__(self, fragment: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.chips: list[tuple[str, str]] = []
        self.other: list[str] = []
        self._chip: list[str] | None = None
        self._title = ""
        self.feed(fragment)
        self.close()

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        self.tags.append((tag, found))
        if tag == "span" and "bv-chip" in (found.get("class") or "").split():
            self._chip, self._title = [], found.get("title") or ""
        elif self._chip is not None:
            self.other.append(f"<{tag}> inside a chip")

    def handle_endtag(self, tag):
        if tag == "span" and self._chip is not None:
            self.chips.append(("".join(self._chip), self._title))
            self._chip = None

    def handle_data(self, data):
        if self._chip is not None:
            self._chip.append(data)

    def handle_comment(self, data):
        self.other.append(f"comment {data!r}")

    def handle_decl(self, decl):
        self.other.append(f"declaration {decl!r}")

    def unknown_decl(self, data):
        self.other.append(f"declaration {data!r}")

    def handle_pi(self, data):
        self.other.append(f"processing instruction {data!r}")


def only_own_markup(fragment: str) -> Markup:
    """Parse ``fragment``; fail if any element, attribute or comment is not render's own."""
    parsed = Markup(fragment)
    assert not parsed.other, parsed.other
    for tag, attrs in parsed.tags:
        assert tag in OWN_TAGS, f"<{tag} {attrs}> was injected"
        assert set(attrs) <= OWN_ATTRS, f"<{tag}> has injected attributes {attrs}"
    return parsed


def hostile_training(algorithm: str):
    training = train(Corpus.from_text(HOSTILE_TEXT, "whitespace"), algorithm, merges=1000)
    labels = {display.label(t) for t in training.vocab}
    assert training.stop_reason == "no_pairs"
    assert {"<script>", "onerror=", '"onerror="alert(1)"', "</span>"} <= labels, \
        "the payloads are single tokens"
    return training


@pytest.fixture(scope="module", params=["bpe", "bbpe", "wordpiece"])
def hostile(request):
    return hostile_training(request.param)


def merges_making(training, words):
    return [m for m in training.merges if display.label(m.token) in words]


def test_splits_table_shows_hostile_words_and_tokens_as_text(hostile):
    snap = hostile.at()
    rows = [(i, w, c, snap.splits[w], snap.split_ids(i), True)
            for i, (w, c) in enumerate(zip(hostile.corpus.words, hostile.corpus.counts))]
    parsed = only_own_markup(render.splits_html(rows, new_token_id=hostile.merges[-1].token_id))
    assert [text for text, _ in parsed.chips] == [display.label(s) for r in rows for s in r[3]]
    assert {text for text, _ in parsed.chips} >= set(HOSTILE_WORDS)
    for _, word, *_ in rows:
        assert f"<td><bdi>{esc(word)}</bdi><" in render.splits_html(rows), word


def test_merge_list_and_tree_show_hostile_tokens_as_text(hostile):
    made = merges_making(hostile, set(HOSTILE_WORDS))
    assert {display.label(m.token) for m in made} == set(HOSTILE_WORDS)
    for merge in made:
        card = only_own_markup(render.merge_list_html([merge], hostile.algorithm))
        texts = [text for text, _ in card.chips]
        assert texts[:3] == [display.label(merge.left), display.label(merge.right),
                             display.label(merge.token)]
        raw = merge.token if isinstance(merge.token, bytes) else merge.token.encode()
        assert attr_text_removed(card.chips[2][1]) == (
            f"id {merge.token_id} · {display.label(merge.token)} · bytes {raw.hex(' ')}")
        tree = only_own_markup(render.merge_tree_html(views.merge_tree(hostile,
                                                                       merge.token_id)))
        assert tree.chips[0][0] == display.label(merge.token)
    listed = only_own_markup(render.merge_list_html(hostile.merges, hostile.algorithm))
    assert [text for text, _ in listed.chips] == [
        display.label(s) for m in hostile.merges for s in (m.left, m.right, m.token)]


def attr_text_removed(title: str) -> str:
    return title.replace("\u2060", "")


def test_encoded_hostile_text_shows_literally(hostile):
    text = HOSTILE_TEXT + " <script>onerror=</span>"
    tokens = list(hostile.at().encode(text))
    parsed = only_own_markup(render.tokens_html(text, tokens))
    assert [t for t, _ in parsed.chips] == [display.label(tok.text) if not text[
        tok.start:tok.end].strip() else text[tok.start:tok.end] for tok in tokens]
    assert {"<script>", "onerror=", "</span>"} <= {t for t, _ in parsed.chips}
    for (_, title), tok in zip(parsed.chips, tokens):
        assert attr_text_removed(title).startswith(f"id {tok.id} · {display.label(tok.text)} · ")


def figure_strings(fig) -> list[str]:
    out: list[str] = []

    def walk(value):
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    walk(json.loads(fig.to_json()) if hasattr(fig, "to_json") else fig)  # numpy as lists
    return out


def only_own_chart_markup(strings: list[str]) -> None:
    """Plotly reads a few tags, entities and $...$ in labels: only its own may appear."""
    for s in strings:
        tags = set(re.findall(r"<\s*/?\s*([A-Za-z]+)", s))
        assert tags <= {"b", "br", "extra"}, (tags, s)
        assert "$" not in s, s
        assert re.fullmatch(r"([^&]|&(amp|lt|gt|#36);)*", s), s


def test_chart_labels_and_hover_texts_show_hostile_tokens_as_text(hostile):
    last = merges_making(hostile, {"<script></script>"})[0]  # "<script>" + "</script>"
    grid = views.pair_grid(hostile.at(last.step - 1), 40)
    # the heatmap is numbers and labels, which the browser sets as text (textContent,
    # heatmap_view.mjs): each label is the token itself, neither escaped nor markup
    view = heatmap_data(grid, "score" if hostile.algorithm == "wordpiece" else "count")
    assert [t for _, t in view["cols"]] == [display.label(grid.symbols[i]) for i in grid.cols]
    assert [t for _, t in view["rows"]] == [display.label(grid.symbols[i]) for i in grid.rows]
    assert display.label(last.left) in [t for _, t in view["rows"]]
    assert display.label(last.right) in [t for _, t in view["cols"]]
    assert "<" in display.label(last.left) and len(display.label(last.left)) > 1
    frame = views.merges_frame(hostile)
    bars = figures.merge_strength_figure(frame, hostile.algorithm, step=3)
    only_own_chart_markup(figure_strings(bars))
    assert [html.unescape(t) for t in bars.data[0].customdata] == [
        f"{left} + {right} → {token}"
        for left, right, token in zip(frame["left"], frame["right"], frame["token"])]
    lines = figures.token_count_figure({"<script>alert(1)</script> $x$ &": [5, 4, 3]}, step=1)
    only_own_chart_markup(figure_strings(lines))
    assert html.unescape(lines.data[0].name) == "<script>alert(1)</script> $x$ &"


# -- the app's pages, under AppTest ------------------------------------------------------------
def test_the_pages_show_hostile_tokens_as_text():
    from bpeviz.ui import train_options

    expected = train(Corpus.from_bytes(HOSTILE_TEXT.encode(), "whitespace", "auto",
                                       name="pasted text"), **train_options("bpe", merges=1000))
    # the step before "<script>" + "</script>": that pair is in the heatmap and comes next
    step = merges_making(expected, {"<script></script>"})[0].step - 1
    at = AppTest.from_file(APP, default_timeout=90)
    for key, value in {"source": "paste", "paste": HOSTILE_TEXT, "merges": 1000,
                       "step": step}.items():
        at.session_state[key] = value
    at.run()
    seen_chips: set[str] = set()
    charts = 0
    for page in (None, "pages/1_Explore.py", "pages/4_Vocabulary.py"):
        if page is not None:
            at.switch_page(page).run()
        assert not at.exception, [e.value for e in at.exception]
        for el in at.get("html"):
            body = el.proto.body
            if body.startswith("<style>"):
                continue
            seen_chips |= {text for text, _ in only_own_markup(body).chips}
        for el in at.get("plotly_chart"):
            only_own_chart_markup(figure_strings(json.loads(el.proto.spec)))
            charts += 1
        if page == "pages/1_Explore.py":
            # the heatmap travels as data: its labels are the tokens, set as text by the
            # browser; the pair merged next is "<script>" + "</script>"
            view = heatmap_view(at)
            assert [t for _, t in view["rows"]][view["next"][0]] == "<script>"
            assert [t for _, t in view["cols"]][view["next"][1]] == "</script>"
    assert charts >= 4  # home and the Vocabulary page's three
    assert {"<script>", "onerror=", '"onerror="alert(1)"', "</span>"} <= seen_chips
