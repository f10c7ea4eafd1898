"""The pair heatmap sent as numbers for the browser to hold step by step: every pair of
the engine's grid is a cell with its count, the next merge's pair and the picked pair
are named by their cell, and the stage's panel window carries it as it is."""

from __future__ import annotations

import numpy as np
import pytest

from bpeviz import Corpus, train
from bpeviz.analysis.views import pair_grid
from bpeviz.present.render_heatmap import heatmap_data
from bpeviz.present.step_panels import panel_window

TEXT = "low lower lowest newer newest wider widest " * 3 + "<b>x</b> سلام سلام"


@pytest.fixture(scope="module")
def training():
    return train(Corpus.from_text(TEXT), "bpe", merges=12)


@pytest.mark.parametrize("step", [0, 1, 5, 11])
def test_every_pair_of_the_grid_is_a_cell_with_its_count(training, step):
    snap = training.at(step)
    grid = pair_grid(snap, 8)
    d = heatmap_data(grid, "count")
    rows, cols, cells = d["rows"], d["cols"], d["cells"]
    got = {(rows[cells[i]][0], cols[cells[i + 1]][0]): cells[i + 3]
           for i in range(0, len(cells), 4)}
    pairs = snap.pairs.set_index(["left_id", "right_id"])["count"]
    want = {(a, b): int(pairs[(a, b)]) for a in grid.rows for b in grid.cols
            if (a, b) in pairs.index}
    assert got == want
    assert d["lo"] == min(want.values()) and d["hi"] == max(want.values())


def test_the_next_merge_and_the_picked_pair_are_named_by_their_cell(training):
    grid = pair_grid(training.at(3), 8)
    nxt = training.merges[3]
    d = heatmap_data(grid, "count", selected=(grid.rows[1], grid.cols[2]))
    assert (d["rows"][d["next"][0]][0], d["cols"][d["next"][1]][0]) == (nxt.left_id,
                                                                         nxt.right_id)
    assert d["picked"] == [1, 2]
    assert heatmap_data(grid, "count", selected=(-1, -1))["picked"] is None


def test_labels_are_the_symbols_as_drawn_elsewhere(training):
    grid = pair_grid(training.at(0), 60)
    labels = [name for _, name in heatmap_data(grid, "count")["rows"]]
    assert "<" in labels and "س" in labels  # text, escaped by the browser's textContent


def test_the_panel_window_carries_the_numbers_as_they_are(training):
    grid = pair_grid(training.at(2), 8)
    view = [{"heatmap": heatmap_data(grid, "count")}]
    window = panel_window(training, "heatmap-test", 2, 4, lambda k: view)
    assert window["2"] == view
    assert np.isfinite(window["2"][0]["heatmap"]["hi"])
