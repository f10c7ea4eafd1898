"""Unigram in the app: chosen in the sidebar, trained with bpeviz.unigram,
stepped through by pruning rounds on Explore, cut by Viterbi on Tokenize; the pages
that show merges only say so. Expected values come from the engine, never from the page.
"""

from __future__ import annotations

import html
import itertools
import json
import math
import re
import signal

import pytest
from streamlit.testing.v1 import AppTest

from bpeviz.algorithms import get as get_algorithm
from bpeviz.text import display
from bpeviz.unigram.cards import CARD_PIECES
from bpeviz.unigram.lattice import f32
from bpeviz.unigram.model import unigram_word
from bpeviz.unigram.views import (
    removal_sentence,
    removed_at,
    removed_frame,
    round_sentence,
    rounds_sentence,
    segmentation_cloud,
    used_removals,
    word_lattice,
)
from tests.support import APP
from tests.support.app import HOSTILE, PAGES, html_bodies, ok, stage, unigram_app
from tests.support.trainings import sample_training


def chip_rows(body: str) -> dict[str, list[str]]:
    """word -> the chip texts of its row, from a ``splits_html`` table."""
    rows = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        if len(cells) != 4:
            continue
        # the word, isolated in <bdi> (a badge may follow it)
        isolated = re.match(r"<bdi>(.*?)</bdi>", cells[1], re.S)
        word = html.unescape(isolated.group(1) if isolated
                             else re.sub(r"<[^>]+>.*", "", cells[1]))
        rows[word] = [html.unescape(c) for c in
                      re.findall(r'<span class="bv-chip[^"]*"[^>]*>(.*?)</span>', cells[3])]
    return rows


def test_the_record_says_a_step_prunes_and_the_sidebar_offers_it():
    record = get_algorithm("unigram")
    assert (record.label, record.step_kind, record.sizes) == (
        "Unigram (SentencePiece)", "prune", ("vocab",))
    assert get_algorithm("bpe").step_kind == "merge"
    at = AppTest.from_file(APP, default_timeout=120)
    ok(at.run())
    assert "unigram" in at.selectbox(key="w_algo").options or \
        "Unigram (SentencePiece)" in at.selectbox(key="w_algo").options


def test_every_page_runs_and_the_merge_only_pages_say_so():
    at = unigram_app()
    for page in PAGES:
        ok(at.switch_page(page).run())
        infos = " ".join(i.value for i in at.info)
        if page == "app.py":
            assert "prunes instead" in infos and "Explore" in infos, page
        if page == "pages/3_Compare.py":  # every configuration may be Unigram (its own box)
            for i in (1, 2):
                box = at.selectbox(key=f"w_c{i}_algo")
                assert box.value != "unigram"
                assert get_algorithm("unigram").label in box.options
    # back to BPE: the merge pages work again
    ok(at.selectbox(key="w_algo").set_value("bpe").run())
    for page in PAGES:
        ok(at.switch_page(page).run())
        assert not any("prunes instead" in i.value for i in at.info)


def test_explore_shows_the_engines_removed_pieces_splits_and_loss_at_a_round():
    training = sample_training()
    assert len(training) >= 3
    k = 1
    at = unigram_app("pages/1_Explore.py", uround=k)
    assert any(f'data-round="{k}"' in b for b in html_bodies(at))
    assert at.number_input(key=f"uround_box_{k}").value == k
    step = training.at(k)
    sent = stage(at, "numbers")  # drawn by the browser at the bar's round
    values = {m["label"]: m["values"] for m in sent["metrics"]}
    assert sent["step"] == k
    assert values["Vocabulary (pieces)"] == [len(s.pieces) for s in training.steps]
    assert values["Loss"] == pytest.approx([s.loss for s in training.steps])
    expected = removed_frame(removed_at(training, k))
    assert len(expected)  # round 1 removes pieces on this corpus
    table = next(d.value for d in at.dataframe if "piece" in d.value.columns)
    assert table["piece"].tolist() == expected["piece"].tolist()
    assert table["why"].tolist() == expected["why"].tolist()
    sentence = round_sentence(training, k)
    assert any(html.escape(sentence, quote=True) in b for b in html_bodies(at))
    body = next(b for b in html_bodies(at) if "bv-words" in b)
    rows = chip_rows(body)
    assert len(rows) == min(len(step.words), 300)
    shown = {display.visible(w): w for w in step.words}  # the page shows invisible chars
    for word, chips in rows.items():
        assert chips == [display.label(p) for p in step.splits[shown[word]]], word
    download = [el for el in at.get("download_button") if "tokenizer.json" in el.proto.label]
    assert download, "this round can be downloaded as tokenizer.json"
    # the loss curve and the vocabulary size: one point per step
    chart = next(c for c in at.get("plotly_chart") if '"loss"' in c.proto.spec)
    data = json.loads(chart.proto.spec)["data"]
    assert data[0]["y"] == pytest.approx([s.loss for s in training.steps])
    assert data[1]["y"] == [len(s.pieces) for s in training.steps]


def test_the_lattice_best_path_is_viterbi_in_the_app():
    training = sample_training()
    k = len(training) - 1
    at = unigram_app("pages/1_Explore.py", uround=k)
    step = training.at(k)
    box = at.selectbox(key="ulattice_word")
    words = sorted(step.words, key=lambda w: -step.counts[step.words.index(w)])
    for word in (words[0], words[len(words) // 2]):
        ok(box.set_value(word).run())
        best = next(b for b in html_bodies(at) if "Best split (Viterbi)" in b)
        chips = [html.unescape(c) for c in
                 re.findall(r'<span class="bv-chip[^"]*"[^>]*>(.*?)</span>', best)]
        assert chips == [display.label(p) for p in step.model.split(word)]
        table = next(d.value for d in at.dataframe if "segmentation" in d.value.columns)
        assert table["segmentation"].iloc[0] == " | ".join(
            display.label(p) for p in step.model.split(word))
        box = at.selectbox(key="ulattice_word")


@pytest.mark.parametrize("variant", ["sentencepiece", "course"])
def test_the_lattice_best_path_is_the_best_of_all_segmentations(variant):
    """Brute force over the lattice's arcs on short words: no path beats Viterbi's."""
    training = sample_training(vocab=300, variant=variant)
    step = training.at(len(training) // 2)
    short = [w for w in step.words if len(w) <= 8][:40]
    assert short
    for word in short:
        found = word_lattice(step.model, word, 5)
        if variant != "course":  # the course's own Viterbi is model.split's there
            model = step.model  # a character no piece covers: <unk> in the lattice
            assert found.best == tuple(p if p in model.scores else model.unk
                                       for p in model.split(word))
        arcs = {(s, e): sc for s, e, _, sc, _ in found.nodes}
        scores = []
        for cuts in itertools.product([0, 1], repeat=len(word) - 1):
            bounds = [0] + [i + 1 for i, c in enumerate(cuts) if c] + [len(word)]
            spans = list(itertools.pairwise(bounds))
            if all(s in arcs for s in spans):
                total = 0.0
                for s in spans:
                    total = f32(total + arcs[s])
                scores.append(total)
        assert math.isclose(max(scores), found.best_score, rel_tol=1e-6, abs_tol=1e-6)
        assert found.nbest[0][0] == found.best
        on_path = sorted((s, e) for s, e, _, _, b in found.nodes if b)
        assert sum(e - s for s, e in on_path) == len(word)


def test_the_course_variant_prunes_in_the_app_and_says_when_it_cannot():
    at = unigram_app("pages/1_Explore.py", uvariant="course", uvocab=1000, sample="hug")
    assert any("made no pruning round" in i.value for i in at.info)  # seed under 1000
    ok(at.number_input(key="w_uvocab").set_value(15).run())
    training = sample_training(vocab=15, variant="course", sample="hug")
    assert len(training) > 2
    last = len(training) - 1
    box = next(b for b in at.number_input if b.key.startswith("uround_box_"))
    assert box.max == last
    ok(box.set_value(1).run())
    assert any('data-round="1"' in b for b in html_bodies(at))
    table = next(d.value for d in at.dataframe if "piece" in d.value.columns)
    assert table["piece"].tolist() == removed_frame(removed_at(training, 1))["piece"].tolist()


def test_vocabulary_lists_the_pieces_of_a_round_and_when_each_goes():
    training = sample_training()
    at = unigram_app("pages/4_Vocabulary.py", uround=0)
    table = next(d.value for d in at.dataframe if "piece" in d.value.columns)
    step = training.at(0)
    assert table["piece"].tolist() == list(step.pieces)
    assert table["log-prob"].tolist() == pytest.approx(list(step.model.log_probs))
    gone = {r.piece for r in step.removed}
    assert set(table[table["removed in round"] == "1"]["piece"]) == gone
    final = set(training.at(len(training) - 1).pieces)
    assert set(table[table["in final"]]["piece"]) == set(step.pieces) & final
    # every cell says something: a round, or never (no missing value drawn as "None")
    assert table["removed in round"].notna().all()
    assert all(v == "never" or v.replace(",", "").isdigit() for v in table["removed in round"])
    never = set(table[table["removed in round"] == "never"]["piece"])
    assert never <= final and never == {
        p for p in step.pieces if not any(p in {r.piece for r in training.at(j).removed}
                                          for j in range(len(training)))}


def test_tokenize_cuts_by_viterbi_at_the_round_and_counts_the_cloud():
    training = sample_training()
    text = "The tokenizer learns tokens"
    at = unigram_app("pages/2_Tokenize.py", uround=1, text=text, text_edited=True)
    step = training.at(1)
    tokens = step.model.encode(text)
    body = next(b for b in html_bodies(at) if "bv-tokens" in b)
    ids = [int(i) for i in re.findall(r'data-id="(\d+)"', body)]
    assert ids == [t.id for t in tokens]
    assert {m.label: m.value for m in at.metric}["Tokens"] == f"{len(tokens):,}"
    cloud = next(d.value for d in at.dataframe if "times" in d.value.columns)
    assert int(cloud["times"].sum()) == 100
    assert at.selectbox(key="ucloud_of").value == "tokenizer"  # the longest word
    expected = segmentation_cloud(step.model, "tokenizer", 100, 0.1)
    assert cloud["times"].tolist() == [n for _, n in expected]
    assert cloud["segmentation"].tolist() == [" | ".join(display.label(p) for p in split)
                                              for split, _ in expected]
    best = tuple(t.text for t in step.model.encode("tokenizer"))
    assert cloud["best"].tolist() == ["★" if split == best else "" for split, _ in expected]
    ok(at.selectbox(key="ucloud_of").set_value(text).run())  # the whole text
    cloud = next(d.value for d in at.dataframe if "times" in d.value.columns)
    expected = segmentation_cloud(step.model, text, 100, 0.1)
    assert cloud["times"].tolist() == [n for _, n in expected]


def test_hostile_corpus_and_text_are_escaped_on_every_page():
    corpus = (HOSTILE + "\n") * 3 + "low lower lowest"
    # uvocab=1000: a smaller vocabulary cuts the dummy prefix "▁" off as a token of its
    # own, which Tokenize shows as an extra leading ▁ (see the last assertion)
    at = unigram_app(source="paste", paste=corpus, text=HOSTILE, text_edited=True,
                     uvocab=1000)
    for page in PAGES:
        ok(at.switch_page(page).run())
        for body in html_bodies(at):
            assert "<script" not in body and "<img" not in body and "<b>" not in body, page
        for el in at.get("plotly_chart"):
            spec = el.proto.spec
            assert "<script" not in spec and "<img" not in spec and "$x$" not in spec
    ok(at.switch_page("pages/1_Explore.py").run())
    words = next(b for b in html_bodies(at) if "bv-words" in b)
    assert "&lt;script&gt;" in words or "&lt;script" in words
    ok(at.selectbox(key="ulattice_word").set_value(unigram_word("<script>alert(1)</script>"))
       .run())
    ok(at.switch_page("pages/2_Tokenize.py").run())
    tokens = next(b for b in html_bodies(at) if "bv-tokens" in b)
    assert "<script" not in tokens and "&lt;" in tokens
    shown = html.unescape(re.sub(r"<[^>]+>", "", tokens))  # what a reader sees
    assert shown.replace("▁", " ") == HOSTILE  # a lone space token shows as ▁


def test_sentencepiece_training_stops_when_a_round_removes_nothing():
    """vocab 200 on the tour sample leaves only pieces every word needs, more than
    1.1 x 200: a round that can remove nothing must end the training, not loop."""
    def stop(*_):
        raise TimeoutError("the trainer did not stop")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(60)
    try:
        training = sample_training(vocab=200)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    sizes = [len(s.pieces) for s in training.steps]
    assert sizes[0] > sizes[1]


def rounds_note(at: AppTest) -> str:
    body = next(b for b in html_bodies(at) if "bv-rounds-why" in b)
    return html.unescape(re.sub(r"<[^>]+>", "", body))


@pytest.mark.parametrize("variant", ["sentencepiece", "course"])
def test_the_default_run_has_rounds_to_step_through_and_says_why(variant):
    at = unigram_app("pages/1_Explore.py", uvariant=variant)
    training = sample_training(variant=variant)
    last = len(training) - 1
    assert 6 <= last <= 16
    assert at.number_input(key="w_uvocab").value is None  # nothing typed: chosen for it
    box = next(b for b in at.number_input if b.key.startswith("uround_box_"))
    assert box.max == last
    note = rounds_note(at)
    assert note == rounds_sentence(training)
    assert f"{training.options['vocab_size']:,} was chosen for this corpus" in note
    assert "uvocab" not in at.query_params
    # the user's own size is used as given, and goes into the link
    ok(at.number_input(key="w_uvocab").set_value(1000).run())
    mine = sample_training(1000, variant)
    assert rounds_note(at) == rounds_sentence(mine)
    assert "chosen for this corpus" not in rounds_note(at)
    assert at.query_params["uvocab"] == ["1000"] or at.query_params["uvocab"] == "1000"


def test_an_old_link_with_vocab_still_sets_the_unigram_size():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["algo"] = "unigram"
    at.query_params["vocab"] = "500"
    ok(at.switch_page("pages/1_Explore.py").run())
    assert at.session_state["uvocab"] == 500
    assert rounds_note(at) == rounds_sentence(sample_training(500))


def test_the_round_card_tells_unused_pieces_from_the_cheapest_used_ones():
    training = sample_training()
    k = 1
    at = unigram_app("pages/1_Explore.py", uround=k)
    card = next(b for b in html_bodies(at) if f'data-round="{k}"' in b)
    removed = removed_at(training, k)
    unused = [r for r in removed if r.unused]
    used = used_removals(removed)
    assert unused and used
    assert f'data-unused="{len(unused)}"' in card
    text = html.unescape(re.sub(r"<[^>]+>", " ", card))
    assert f"{len(unused):,} pieces went because nobody used them" in text
    assert removal_sentence(used[0]) in " ".join(text.split())
    items = re.findall(r'<span class="bv-removal"[^>]*>(.*?)</span></span>'
                       r'(?=<span class="bv-(?:removal|muted)|</div>)', card, re.S)
    assert len(items) == min(CARD_PIECES, len(used))
    for item, r in zip(items, used):
        chips = [html.unescape(c) for c in
                 re.findall(r'<span class="bv-chip[^"]*"[^>]*>(.*?)</span>', item)]
        assert chips == [display.label(p) for p in (r.piece, *r.alternative)]
        assert f"{r.nats:+,.3g} nats" in html.unescape(item)
    # no "loss +0" among the pieces the card lists as costing something
    assert "+0 nats" not in text
