"""why_merge_html on any corpus: only its own tags, every user string escaped, and the
words, rivals and tie of explain(k) in the text."""

from __future__ import annotations

from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, train
from bpeviz.present.render_explain import why_merge_html

TAGS = {"style", "div", "p", "span", "bdi"}  # bdi: a word isolated in a sentence


class Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.in_style = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self.in_style = tag == "style"

    def handle_endtag(self, tag):
        self.in_style = False

    def handle_data(self, data):
        if not self.in_style:
            self.text.append(data)


WORDS = st.lists(st.sampled_from([*"ab<>&\"'$*_ü語", "</", "-->", "<b>"]), min_size=1,
                 max_size=6).map("".join)


@settings(max_examples=30, deadline=None)
@given(counts=st.dictionaries(WORDS, st.integers(1, 5), min_size=1, max_size=8),
       algorithm=st.sampled_from(["bpe", "bbpe", "wordpiece"]),
       tie_break=st.sampled_from(["first", "ids"]), byte_style=st.sampled_from(["gpt2", "hex"]))
def test_the_panel_escapes_everything_and_shows_the_numbers(counts, algorithm, tie_break,
                                                            byte_style):
    words = {w.replace(" ", ""): c for w, c in counts.items() if w.strip()}
    if not words:
        return
    training = train(Corpus.from_counts(words), algorithm, merges=6, tie_break=tie_break)
    for step in range(1, len(training.merges) + 1):
        why = training.explain(step)
        out = why_merge_html(why, algorithm, byte_style)
        parsed = Collect()
        parsed.feed(out)
        assert {tag for tag, _ in parsed.tags} <= TAGS
        for _, attrs in parsed.tags:
            assert all(k in ("class", "style", "title", "dir") or k.startswith("data-")
                       for k in attrs)
        text = "".join(parsed.text)
        for row in why.words.iloc[:8].itertuples():
            assert f"“{row.word}” ×{row.count:,}" in text
        head = parsed.tags[1][1]
        assert head["class"] == "bv-why" and int(head["data-count"]) == why.merge.count
        assert int(head["data-tie"]) == len(why.tie)
        rivals = [a for t, a in parsed.tags if a.get("class") == "bv-why-rival"]
        assert [(int(a["data-left-id"]), int(a["data-right-id"])) for a in rivals] == list(
            why.runners_up[["left_id", "right_id"]].iloc[:5].itertuples(index=False, name=None))
        if len(why.tie):
            assert "A tie:" in text
