"""The pair heatmap drawn as HTML for the browser to hold step by step: every pair of
the engine's grid is a cell with its count, the next merge's pair is ringed, the picked
pair too, user text is escaped, and the stage's tree reader keeps what a click needs."""

from __future__ import annotations

import re

import numpy as np
import pytest

from bpeviz import Corpus, train
from bpeviz.analysis.views import pair_grid
from bpeviz.present.html_tree import html_tree
from bpeviz.present.render_heatmap import colour, heatmap_html

TEXT = "low lower lowest newer newest wider widest " * 3 + "<b>x</b> سلام سلام"


@pytest.fixture(scope="module")
def training():
    return train(Corpus.from_text(TEXT), "bpe", merges=12)


def cells(page: str) -> list[tuple[str, str]]:
    """(data-pick, written value) of every non-empty cell, in order."""
    return re.findall(r'data-pick="([0-9,]+)"[^>]*>([^<]*)</div>', page)


@pytest.mark.parametrize("step", [0, 1, 5, 11])
def test_every_pair_of_the_grid_is_a_cell_with_its_count(training, step):
    snap = training.at(step)
    grid = pair_grid(snap, 8)
    page = heatmap_html(grid, "count", cell=40)
    got = {pick: text for pick, text in cells(page)}
    want = {}
    for r, left in enumerate(grid.rows):
        for c, right in enumerate(grid.cols):
            if not np.isnan(grid.count[r, c]):
                want[f"{left},{right}"] = f"{int(grid.count[r, c]):,}"
    assert got == want
    # the pair counts themselves: the snapshot's own table
    pairs = snap.pairs.set_index(["left_id", "right_id"])["count"]
    for pick, text in got.items():
        left, right = map(int, pick.split(","))
        assert int(text.replace(",", "")) == pairs[(left, right)]


def test_the_next_merge_is_ringed_and_the_picked_pair_too(training):
    snap = training.at(3)
    grid = pair_grid(snap, 8)
    nxt = training.merges[3]
    filled = [(grid.rows[r], grid.cols[c]) for r, c in zip(*np.nonzero(~np.isnan(grid.count)))
              if (r, c) != grid.next_pair]
    picked = filled[-1]
    page = heatmap_html(grid, "count", selected=picked)
    assert re.search(rf'class="bv-hm-cell bv-hm-next" data-pick="{nxt.left_id},{nxt.right_id}"',
                     page)
    assert f'bv-hm-picked" data-pick="{picked[0]},{picked[1]}"' in page
    assert page.count("bv-hm-next") == 2  # the cell, and the rule in the style sheet


def test_user_text_is_escaped_and_isolated(training):
    grid = pair_grid(training.at(0), 60)
    page = heatmap_html(grid, "count")
    assert "<b>" not in page.replace("<bdi>", "")
    assert "&lt;" in page
    assert "<bdi>س</bdi>" in page


def test_the_stage_reader_keeps_the_cells_and_what_a_click_needs(training):
    tree = html_tree(heatmap_html(pair_grid(training.at(2), 8), "count"))
    found = []

    def walk(nodes):
        for node in nodes:
            if isinstance(node, list):
                if "data-pick" in node[1]:
                    found.append(node[1])
                walk(node[2:])
    walk(tree)
    assert found and all(set(a) >= {"class", "data-pick", "title", "style"} for a in found)


def test_brighter_means_more():
    shades = [colour(v, 0, 9) for v in range(10)]
    assert shades[0] == "#440154" and shades[-1] == "#fde725"
    assert len(set(shades)) == 10
