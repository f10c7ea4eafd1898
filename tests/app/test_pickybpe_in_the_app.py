"""PickyBPE in the app: offered in the sidebar with its removal threshold, every page
runs with it chosen, Explore steps through its merges and removals (a removal named on
the step bar and on the card, explained with its IoS numbers and the threshold; a merge
explained as BPE's), its vocabulary size curve goes down at each removal, and Compare
sets it beside BPE at the same vocabulary size. The bar's drawing of a removal is
bpeviz/ui/stepper/tests/landmarks.test.mjs and
tests/browser/test_a_removal_stands_out_on_a_projector.py.
"""

from __future__ import annotations

import json
import re

import pytest

import bpeviz
from bpeviz.algorithms.picky_explain import removal_headline
from bpeviz.samples import load_sample
from tests.support.app import (
    HOSTILE,
    heatmap_caption_text,
    heatmap_cells,
    heatmap_pair,
    heatmap_view,
    html_bodies,
    html_text,
    ok,
    open_page,
    plain,
    stage,
)

EVERY_PAGE = ["app.py", "pages/0_Learn.py", "pages/1_Explore.py", "pages/2_Tokenize.py",
              "pages/3_Compare.py", "pages/4_Vocabulary.py"]


def picky_reference(threshold: float = 0.9, merges: int = 200):
    """The training the app should show on the default sample, made by the engine."""
    return bpeviz.train(load_sample("tour", "whitespace"), algorithm="picky", merges=merges,
                        threshold=threshold)


def no_errors(at, where: str = "") -> None:
    ok(at)
    assert not at.error, (where, [e.value for e in at.error])


def text_only(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def test_the_sidebar_offers_pickybpe_with_its_threshold_and_trains_with_it():
    at = open_page("pages/1_Explore.py")
    box = next(b for b in at.sidebar.selectbox if b.label == "Algorithm")
    assert "PickyBPE" in box.options
    box.select("picky").run()
    no_errors(at)
    threshold = at.sidebar.selectbox(key="w_threshold")
    assert threshold.value == "0.9"
    threshold.select("0.6").run()
    no_errors(at)
    expected = picky_reference(0.6)
    removals = sum(e.kind == "removal" for e in expected.events)
    said = plain(" ".join(c.value for c in at.caption))
    assert f"{len(expected.events):,} steps" in said and f"{removals:,} removals" in said
    assert "threshold 0.6" in said
    assert stage(at, "controls")["n"] == len(expected.events)


@pytest.mark.parametrize("settings", [
    {}, {"vocab_view": "health"}, {"merges": 0}, {"size_by": "vocab", "vocab": 300},
    {"present": True, "threshold": "0.5"},
    {"source": "paste", "paste": "a"},
    {"source": "paste", "paste": "👨‍👩‍👧‍👦 👍🏽 e\u0301 שלום مرحبا 自然语言处理 a\u200bb\u00ad"},
], ids=["default", "health-view", "no-merges", "vocab-size", "presentation", "one-char",
        "emoji-rtl-cjk-invisible"])
def test_every_page_runs_with_pickybpe_chosen(settings):
    at = open_page("app.py", algo="picky", **settings)
    for page in EVERY_PAGE:
        at.switch_page(page).run()
        no_errors(at, page)
    assert at.session_state["algo"] == "picky"


def test_a_removal_is_named_on_the_bar_and_the_card_and_explained_with_its_ios():
    expected = picky_reference()
    removal = next(e for e in expected.events if e.kind == "removal")
    at = open_page("pages/1_Explore.py", algo="picky", step=removal.step)
    no_errors(at)
    bar = stage(at, "controls")
    assert bar["step"] == removal.step
    assert [removal.step, f"removal of “{removal.token}”", "removal"] in bar["landmarks"]
    assert [removal.step + 1, "merge", "merge"] in bar["landmarks"] or \
        expected.events[removal.step].kind == "removal"
    shown = text_only(html_text(at))
    # the card: the removal's sentence, as the issue words it
    assert removal_headline(removal) in shown
    assert "appears alone in" in shown and "below the threshold" in shown
    # Why this step?: the IoS written out with its numbers and the threshold
    total = removal.inside + removal.count
    assert (f"= {removal.inside:,} / ({removal.inside:,} + {removal.count:,}) = "
            f"{removal.inside:,} / {total:,}") in shown
    assert "above the threshold 90%" in shown
    card = next(b for b in html_bodies(at) if 'class="bv-card bv-picky"' in b)
    assert 'data-kind="removal"' in card


def test_a_merge_step_is_explained_as_bpes():
    expected = picky_reference()
    merge = expected.events[0]
    at = open_page("pages/1_Explore.py", algo="picky", step=1)
    no_errors(at)
    shown = text_only(html_text(at))
    assert f"occurs {merge.count:,} times in the corpus before any step" in shown
    assert "As in BPE, the pair counted most is merged" in shown
    assert "The pair counted most" in shown  # the card


def test_the_vocabulary_size_curve_goes_down_at_each_removal():
    expected = picky_reference()
    at = open_page("pages/1_Explore.py", algo="picky")
    no_errors(at)
    chart = next(json.loads(el.proto.spec) for el in at.get("plotly_chart")
                 if "tokens in the vocabulary" in el.proto.spec)
    line, marks = chart["data"][0], chart["data"][1]
    sizes = _values(line["y"])
    assert sizes == list(expected.vocab_sizes)
    downs = [k for k in range(1, len(sizes)) if sizes[k] < sizes[k - 1]]
    assert downs and downs == [e.step for e in expected.events if e.kind == "removal"]
    assert _values(marks["x"]) == downs


def _values(column) -> list[int]:
    """A Plotly column: a list, or a typed array Streamlit sent as {"dtype", "bdata"}."""
    if isinstance(column, list):
        return [int(v) for v in column]
    import base64

    import numpy as np
    return np.frombuffer(base64.b64decode(column["bdata"]), dtype=column["dtype"]).tolist()


def test_compare_sets_pickybpe_beside_bpe_at_the_same_vocabulary_size():
    """Its column has its own threshold; one control moves both by vocabulary size."""
    at = open_page("pages/3_Compare.py", c1_algo="bpe", c2_algo="picky", cmp_n=2,
                   c2_threshold="0.6")
    no_errors(at)
    said = plain(" ".join(c.value for c in at.caption))
    assert "Every configuration is moved by vocabulary size" in said, said
    assert stage(at, "controls")["name"] == "Vocabulary size"
    sizes = {letter: re.search(rf"\b{letter}: {name} \(.*?\): step [\d,]+ of [\d,]+, "
                               r"([\d,]+) tokens in the vocabulary", said).group(1)
             for letter, name in (("A", "BPE"), ("B", "PickyBPE"))}
    assert set(sizes) == {"A", "B"} and sizes["A"] == sizes["B"], said
    bpe = bpeviz.train(load_sample("tour", "whitespace"), algorithm="bpe", merges=200)
    picky = picky_reference(0.6)
    assert "PickyBPE (200 merges, whitespace, removal threshold 0.6)" in said
    assert f"step {len(picky.events)} of {len(picky.events)}" in said
    target = int(sizes["A"].replace(",", ""))
    assert target in set(picky.vocab_sizes) and target <= bpe.vocab_size_at(200)
    assert "its steps are merges and removals" in said


def test_hostile_words_are_escaped_on_every_pickybpe_view():
    at = open_page("pages/1_Explore.py", algo="picky", source="paste",
                   paste=(HOSTILE + " ") * 5)
    for page in ["pages/1_Explore.py", "pages/2_Tokenize.py", "pages/4_Vocabulary.py"]:
        at.switch_page(page).run()
        no_errors(at, page)
        for body in html_bodies(at):
            assert "<script>" not in body and "<img" not in body, page


@pytest.mark.parametrize("page,settings", [("pages/2_Tokenize.py", {}),
                                           ("pages/4_Vocabulary.py", {"vocab_view": "health"})],
                         ids=["tokenize", "health"])
def test_an_opened_tokenizer_file_leaves_pickybpe_views_on_its_training(page, settings):
    from bpeviz import formats
    from bpeviz.formats import import_files

    bpe = bpeviz.train(load_sample("tour", "whitespace"), algorithm="bpe", merges=30)
    files = formats.export(bpe.at(30), "hf")
    opened = import_files({name: text.encode() for name, text in files.items()})
    at = open_page("app.py", algo="picky", imported=(", ".join(files), opened),
                   imp_step=30, tok_source="imported", step=12, **settings)
    at.switch_page(page).run()
    no_errors(at, page)
    assert at.session_state["tok_source"] == "training"
    bar = stage(at, "controls")
    assert bar["step"] == at.session_state["step"] == 12
    assert bar["n"] == len(picky_reference().events)
    assert "to use the opened file" in plain(" ".join(c.value for c in at.caption))


def test_home_shows_what_pickybpe_made_and_its_first_removal():
    expected = picky_reference()
    at = open_page("app.py", algo="picky")
    no_errors(at)
    assert [t.value for t in at.title] == ["bpeviz: watch a tokenizer learn its vocabulary"]
    merges = sum(e.kind == "merge" for e in expected.events)
    shown = {m.label: m.value for m in at.metric}
    assert shown["Steps"] == f"{len(expected.events):,}"
    assert shown["Merges"] == f"{merges:,}"
    assert shown["Removals"] == f"{len(expected.events) - merges:,}"
    assert shown["Vocabulary"] == f"{expected.vocab_sizes[-1]:,}"
    first = next(e for e in expected.events if e.kind == "removal")
    assert removal_headline(first) in text_only(html_text(at))


def test_every_words_split_follows_the_bar_through_merges_and_removals():
    # the browser draws each word at the bar's step from its history: the tokens alive at
    # step k are the engine's split at k, for merges and removals alike
    at = open_page("pages/1_Explore.py", algo="picky", threshold="0.6")
    no_errors(at)
    training = picky_reference(0.6)
    data = stage(at, "words")
    assert data["n"] == len(training.events)
    removals = [e.step for e in training.events if e.kind == "removal"]
    assert removals
    checked = {0, 1, removals[0] - 1, removals[0], removals[-1], len(training.events)}
    for k in checked:
        splits = training.splits_at(k)
        for index, _word, _count, tokens, made, gone, *_ in data["words"]:
            alive = [t for t, m, g in zip(tokens, made, gone) if m <= k < g]
            assert alive == list(splits[index]), (k, index)
    # a removal's step highlights the words it split back
    k = removals[0]
    before, after = training.splits_at(k - 1), training.splits_at(k)
    changed = {w[0] for w in data["words"] if k in w[4]}
    assert changed == {w[0] for w in data["words"] if before[w[0]] != after[w[0]]}
    assert changed, "the first removal splits a word on the page back"


def test_tokenize_sends_the_texts_tokens_at_every_step_to_the_browser():
    """Tokenize draws PickyBPE's tokens at the bar's step in the browser, from the
    text's tokens at every step, merges and removals alike: each step the browser can
    draw is what encoding at that step gives."""
    from bpeviz.present.text_history import tokens_at

    expected = picky_reference()
    text = "The tokenizer learns tokens: lowest newer"
    at = open_page("pages/2_Tokenize.py", algo="picky", text=text, text_edited=True)
    no_errors(at, "Tokenize")
    data = stage(at, "tokens")
    assert data["text"] == text and data["n"] == len(expected.events)
    history = {"words": data["words"], "forms": data["forms"]}
    for step in range(len(expected.events) + 1):
        assert tokens_at(history, step) == [
            (t.id, t.start, t.end, 2 if t.unk else 0)
            for t in expected.at(step).encode(text)], step
    labels = {int(i) for i in data["labels"]}
    assert {t for form in data["forms"] for v in form for t in v[1]} <= labels


def test_the_health_view_reads_pickybpes_events_with_every_check():
    from bpeviz.analysis.health import health, unused_by_step

    expected = picky_reference()
    at = open_page("pages/4_Vocabulary.py", algo="picky", vocab_view="health", step=120)
    no_errors(at, "Health")
    found = health(expected.at(120))
    shown = {m.label: m.value for m in at.metric}
    assert shown["Unused"] == f"{len(found.unused):,}"
    assert shown["Near-duplicates"] == f"{len(found.near_duplicates):,}"
    said = plain(" ".join(m.value for m in at.markdown))
    assert all(line.split(":")[0] in said for line in found.summary)
    chart = next(el for el in at.get("plotly_chart") if "chart_unused" in el.proto.id)
    ys = json.loads(chart.proto.spec)["data"][0]["y"]
    assert _values(ys) == unused_by_step(expected).tolist()


def test_vocabulary_offers_the_steps_model_file_for_pickybpes_own_package():
    at = open_page("pages/4_Vocabulary.py", algo="picky", step=120)
    no_errors(at)
    buttons = at.get("download_button")
    assert [b.proto.label for b in buttons] == ["pickybpe.json"]
    said = plain(" ".join(c.value for c in at.caption))
    assert "at step 120 as PickyBPE's own model file" in said
    assert "PickyBPESegmenter.from_pretrained" in said


def _inside(node, key: str, found: list, within: bool = False) -> None:
    """The types of the elements inside the container keyed ``key``, into ``found``."""
    for child in getattr(node, "children", {}).values():
        if within:
            found.append(getattr(child, "type", ""))
        _inside(child, key, found, within or getattr(child, "key", None) == key)


def test_explores_views_below_the_first_screen_follow_when_the_step_settles():
    # the curve, the word list and the steps table sit in the container the browser
    # watches (stage.settles_key): out of view, keys start no rerun until they stop
    from bpeviz.ui.stage import settles_key

    at = open_page("pages/1_Explore.py", algo="picky", step=40)
    no_errors(at)
    inside: list = []
    _inside(at.main, settles_key("picky"), inside)
    assert "plotly_chart" in inside and "dataframe" in inside
    said = plain(" ".join(c.value for c in at.caption))
    assert "The dotted line marks step 40" in said and "is step 40." in said


def test_the_heatmap_counts_the_pairs_the_trainer_chooses_from_at_every_kind_of_step():
    """At a step before a merge, the red square is that merge's pair, top left, and the
    cells are the step's pair counts; before a removal nothing is red and the caption
    says the next step removes a token; the words listed hold the pair."""
    from bpeviz.text.display import visible

    expected = picky_reference()
    before_merge = next(k for k, e in enumerate(expected.events)
                        if e.kind == "merge" and k > 0 and expected.events[k - 1].kind
                        == "removal")
    at = open_page("pages/1_Explore.py", algo="picky", step=before_merge, top_n=10)
    no_errors(at)
    view = heatmap_view(at)
    rows, cols = [i for i, _ in view["rows"]], [i for i, _ in view["cols"]]
    nxt = expected.events[before_merge]
    assert (rows[0], cols[0]) == (nxt.left_id, nxt.right_id)
    assert view["next"] == [0, 0]  # ringed in red
    assert heatmap_pair(view, view["next"]) == (nxt.left_id, nxt.right_id)
    counts = {pair: count for pair, (_, count) in heatmap_cells(view).items()}
    assert counts[(nxt.left_id, nxt.right_id)] == nxt.count
    table = {(int(r.left_id), int(r.right_id)): int(r.count)
             for r in expected.at(before_merge).pairs.itertuples()}
    assert counts == {(a, b): table[(a, b)] for a in rows for b in cols if (a, b) in table}
    holders = at.dataframe[-2].value  # (the steps table is the last)
    splits = expected.splits_at(before_merge)
    holding = {visible(expected.words[i]) for i, s in enumerate(splits)
               if any(s[j:j + 2] == (nxt.left_id, nxt.right_id) for j in range(len(s) - 1))}
    assert set(holders["word"]) == holding
    assert int(holders["weighted"].sum()) == nxt.count

    before_removal = next(e.step - 1 for e in expected.events if e.kind == "removal")
    at = open_page("pages/1_Explore.py", algo="picky", step=before_removal)
    no_errors(at)
    assert heatmap_view(at)["next"] is None  # nothing ringed in red
    said = heatmap_caption_text(at)
    removed = expected.events[before_removal]
    assert f"The next step, {before_removal + 1:,}, removes" in said
    assert removed.kind == "removal"
