"""Issue 12 (outside audit), app items: each test fails on the code before its fix.

AppTest for what the server decides (which pair is selected, which messages show,
which widgets exist); the figure spec for the heatmap; browser geometry is in
test_browser_defects.py.
"""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from bpeviz import Corpus, formats, train
from bpeviz.analysis import views
from bpeviz.present import figures
from bpeviz.samples import load_sample
from bpeviz.ui import train_options
from tests.test_app import ok, open_page, plain


def chart_spec(at: AppTest, key_part: str) -> dict:
    for el in at.get("plotly_chart"):
        if key_part in el.proto.id:
            return json.loads(el.proto.spec)
    raise AssertionError(f"no chart with key {key_part!r}")


def reference(algorithm: str = "bpe", merges: int = 200):
    pretok = "gpt2" if algorithm == "bbpe" else "whitespace"
    return train(load_sample("tour", pretok), **train_options(algorithm, merges=merges))


def go_to_step(at: AppTest, step: int) -> AppTest:
    """Move the shared step setting (what the slider, the number box and Next all do)."""
    at.session_state["step"] = step
    return ok(at.run())


# -- 8. pair details belong to the step they were picked at ---------------------------


def top_pair(training, step: int) -> tuple[int, int]:
    pairs = training.at(step).pairs
    return int(pairs.iloc[0].left_id), int(pairs.iloc[0].right_id)


def test_a_pair_picked_at_one_step_does_not_follow_to_another_step():
    training = reference()
    at20 = set(zip(training.at(20).pairs.left_id.tolist(),
                   training.at(20).pairs.right_id.tolist()))
    at = open_page("pages/1_Explore.py", step=199)
    box = at.selectbox(key="w_pair")
    assert box.value == top_pair(training, 199)
    # a pair that also occurs at step 20, but is not the best pair there
    pairs = training.at(199).pairs
    picked = next((int(r.left_id), int(r.right_id)) for r in pairs.iloc[:200].itertuples()
                  if (int(r.left_id), int(r.right_id)) in at20
                  and (int(r.left_id), int(r.right_id)) != top_pair(training, 20))
    box.set_value(picked).run()
    ok(at)
    assert at.selectbox(key="w_pair").value == picked
    go_to_step(at, 20)
    # the panel and the blue square show step 20's next merge, not the pair from step 199
    assert at.selectbox(key="w_pair").value == top_pair(training, 20)
    spec = chart_spec(at, "heatmap")
    heat = spec["data"][0]
    blue = next(t for t in spec["data"] if t.get("name") == "selected")
    assert (blue["y"][0], blue["x"][0]) == (heat["y"][0], heat["x"][0])
    # the pick made at a step still holds while the user stays there
    go_to_step(at, 199)
    assert at.selectbox(key="w_pair").value == top_pair(training, 199)
    at.selectbox(key="w_pair").set_value(picked).run()
    ok(at)
    at.text_input(key="word_search").set_value("the").run()  # any other rerun
    assert ok(at).selectbox(key="w_pair").value == picked


# -- 9. heatmap legibility -----------------------------------------------------------


def many_symbols_training(algorithm: str = "bpe"):
    """Words over 80 distinct letters, so 60 symbols per axis are there at step 0."""
    letters = [chr(c) for c in range(0x3b1, 0x3c9)] + [chr(c) for c in range(0x430, 0x450)]
    letters += list("abcdefghijklmnopqrstuvwxyz")
    words = {"".join(letters[(i * 7 + k * 3) % len(letters)] for k in range(5)): 1 + i % 4
             for i in range(300)}
    return train(Corpus.from_counts(words), **train_options(algorithm, merges=5))


@pytest.mark.parametrize("algorithm", ["bpe", "wordpiece"])
@pytest.mark.parametrize("presentation", [False, True])
def test_a_60_symbol_heatmap_is_square_and_shows_every_label(algorithm, presentation):
    grid = views.pair_grid(many_symbols_training(algorithm).at(0), 60)
    assert len(grid.rows) == len(grid.cols) == 60
    spec = figures.heatmap_figure(grid, algorithm, presentation=presentation).to_plotly_json()
    heat, layout = spec["data"][0], spec["layout"]
    for axis, labels in (("xaxis", heat["x"]), ("yaxis", heat["y"])):
        # every label is a tick (plotly drops category labels it thinks crowded otherwise)
        assert layout[axis]["tickmode"] == "array"
        assert list(layout[axis]["tickvals"]) == list(labels)
        assert layout[axis]["automargin"] is True
        # one label per cell: the font fits the cell's pitch
        assert layout[axis]["tickfont"]["size"] <= figures.heatmap_cell(60, presentation) - 3
    cell = figures.heatmap_cell(60, presentation)
    assert cell >= (20 if presentation else 14)
    # sized to its symbols: room for 60 cells each way, and roughly square
    assert layout["width"] >= 60 * cell and layout["height"] >= 60 * cell
    assert 0.75 <= layout["width"] / layout["height"] <= 1.4
    if layout["xaxis"]["tickangle"] != 0:
        assert layout["xaxis"]["tickangle"] == -90  # a rotated label is one font high


def test_heatmap_values_are_drawn_only_where_they_fit():
    training = reference("wordpiece")
    for top_n in (5, 12, 30):
        spec = figures.heatmap_figure(views.pair_grid(training.at(17), top_n),
                                     "wordpiece").to_plotly_json()
        heat = spec["data"][0]
        cell = figures.heatmap_cell(top_n)
        if "texttemplate" in heat:
            assert heat["texttemplate"] == "%{text}"
            widest = max(len(t) for row in heat["text"] for t in row)
            assert widest * 0.62 * heat["textfont"]["size"] <= cell - 3
    # small whole counts fit their cells and are drawn, one text per pair
    spec = figures.heatmap_figure(views.pair_grid(reference("bpe").at(17), 12),
                                 "bpe").to_plotly_json()
    heat = spec["data"][0]
    assert heat["texttemplate"] == "%{text}"
    for row_z, row_t in zip(heat["z"], heat["text"]):
        assert row_t == ["" if v is None else str(int(v)) for v in row_z]


def test_whole_counts_get_whole_ticks_on_the_colour_bar():
    training = train(Corpus.from_counts({"ab": 3, "cd": 2, "ef": 1, "abcd": 1}),
                     **train_options("bpe", merges=1))
    spec = figures.heatmap_figure(views.pair_grid(training.at(0), 6), "bpe").to_plotly_json()
    bar = spec["data"][0]["colorbar"]
    assert bar["tickformat"] == ",d" and bar["dtick"] == 1  # 1, 2, 3, 4; never 1.5
    spec = figures.heatmap_figure(views.pair_grid(reference().at(0), 20), "bpe").to_plotly_json()
    assert spec["data"][0]["colorbar"]["tickformat"] == ",d"


def test_heatmap_hover_speaks_of_a_score_only_for_wordpiece():
    for algorithm in ("bpe", "bbpe", "wordpiece"):
        spec = figures.heatmap_figure(views.pair_grid(reference(algorithm).at(3), 8),
                                     algorithm).to_plotly_json()
        hover = next(t for t in spec["data"] if t.get("name") == "select")["hovertemplate"]
        assert ("score" in hover) == (algorithm == "wordpiece"), algorithm
        assert "count" in hover


def test_the_heatmap_caption_speaks_of_a_red_square_only_when_there_is_one():
    at = open_page("pages/1_Explore.py", step=200)  # the last step of 200 merges
    captions = " ".join(plain(c.value) for c in at.caption)
    spec = chart_spec(at, "heatmap")
    assert not any(t.get("name") == "next merge" for t in spec["data"])
    assert "red square" not in captions.replace("no square is red", "")
    assert "last step" in captions
    go_to_step(at, 20)
    spec = chart_spec(at, "heatmap")
    assert any(t.get("name") == "next merge" for t in spec["data"])
    assert "The red square is the pair merged next" in " ".join(plain(c.value)
                                                                 for c in at.caption)


# -- 12. the paste box has a Train button and says its limit ---------------------


def test_the_paste_box_has_a_train_button_and_names_the_limit():
    from bpeviz.core.limits import LIMITS

    at = open_page("pages/1_Explore.py", source="paste")
    box = at.sidebar.text_area(key="w_paste")
    # (max_chars stays above the limit: Streamlit cuts a longer text to max_chars on the
    # server, which would train on the first million characters without a word)
    assert f"Up to {LIMITS.text_chars:,} characters" in box.help
    train_button = at.sidebar.button(key="paste_train")
    assert train_button.label == "Train"
    box.input("low lower lowest newer wider " * 20)
    train_button.click().run()
    ok(at)
    assert any("bv-card" in el.proto.body for el in at.get("html"))


# -- 11, 15. the tokenizer import box: one tokenizer at a time, messages in view --------


def import_box(at: AppTest):
    return next(u for u in at.main.get("file_uploader") if "tokenizer" in u.label)


def test_opening_a_second_tokenizer_replaces_the_first_with_messages_about_it():
    training = reference("bpe", merges=30)
    hf = formats.export(training.at(30), "hf")
    second = reference("bpe", merges=20)
    saved = formats.export(second.at(20), "training")
    assert set(hf) == {"tokenizer.json"} and set(saved) == {"training.json"}
    at = open_page("pages/4_Vocabulary.py")
    in_box: list[tuple[str, bytes, str]] = []

    def add(name: str, content: str) -> None:
        # the browser's box adds files to those it holds (until the app empties it)
        box = import_box(at)
        if getattr(add, "box_id", None) != box.proto.id:
            in_box.clear()
            add.box_id = box.proto.id
        in_box.append((name, content.encode(), "application/json"))
        box.set_value(list(in_box)).run()
        ok(at)

    add("tokenizer.json", hf["tokenizer.json"])
    assert [plain(s.value) for s in at.success] == [
        f"Opened tokenizer.json: {len(training.vocab):,} tokens, 30 merges (bpe)."]
    # 15: said where the user is looking, not only at the foot of the page
    assert any("Opened tokenizer.json" in plain(t.value) for t in at.toast)
    add("training.json", saved["training.json"])
    assert not at.error, [e.value for e in at.error]
    assert [plain(s.value) for s in at.success] == [
        f"Opened training.json: {len(second.vocab):,} tokens, 20 merges (bpe)."]
    assert any("Opened training.json" in plain(t.value) for t in at.toast)
    names, opened = at.session_state["imported"]
    assert names == "training.json" and len(opened.merges) == 20


def test_a_file_that_cannot_be_opened_is_named_and_the_open_tokenizer_kept():
    training = reference("bpe", merges=30)
    at = open_page("pages/4_Vocabulary.py")
    import_box(at).set_value(("tokenizer.json", formats.export(training.at(30), "hf")[
        "tokenizer.json"].encode(), "application/json")).run()
    import_box(ok(at)).set_value(("notes.txt", b"hello", "text/plain")).run()
    errors = [plain(e.value) for e in ok(at).error]
    assert len(errors) == 1
    assert errors[0].startswith("notes.txt cannot be opened as a tokenizer file")
    assert "tokenizer.json is still open" in errors[0]
    assert plain(at.success[0].value).startswith("Opened tokenizer.json")
    # emptying the box drops the message about its files
    import_box(at).set_value(None).run()
    assert not ok(at).error
