"""The pair heatmap's layout (bpeviz.present.render_heatmap) keeps it legible: a 60-symbol
grid sends every label and lays them out on square cells, each label one cell's pitch;
column labels stand upright only where they fit their column; values are written only
where the text the browser writes fits; whole counts stay whole (the colour bar's ends
among them); the hover speaks of a score only for WordPiece; and in presentation mode the
chart fits a 1280x720 screen while its labels stay large enough to read from the back of
a room. The browser draws what these numbers say (heatmap_view.mjs: its Node tests and
tests/browser/)."""

from __future__ import annotations

import math

import pytest

from bpeviz import Corpus, train
from bpeviz.analysis import views
from bpeviz.present.render_heatmap import (
    CELL_MIN_PRESENTATION,
    HEATMAP_FIT_PRESENTATION,
    LABEL_CHARS,
    LEGEND_ROOM,
    TITLE_ROOM,
    heatmap_data,
    label_width,
)
from bpeviz.text.display import label
from bpeviz.ui import train_options
from tests.support.trainings import many_symbols_training, reference


def value_of(algorithm: str) -> str:
    return "score" if algorithm == "wordpiece" else "count"


def js_to_precision(x: float, digits: int) -> str:
    """``Number(x).toPrecision(digits)`` as the browser writes it (a score in a cell):
    fixed notation, trailing zeros kept, unless the exponent is below -6 or not below
    ``digits``."""
    if x == 0:
        return "0" + ("." + "0" * (digits - 1) if digits > 1 else "")
    mantissa, exponent = f"{x:.{digits - 1}e}".split("e")
    e = int(exponent)
    if e < -6 or e >= digits:
        return f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
    return f"{x:.{max(0, digits - 1 - e)}f}"


def cell_text(value: float, kind: str) -> str:
    """What heatmap_view.mjs's cellText writes in a cell."""
    return f"{math.trunc(value):,}" if kind == "count" else js_to_precision(value, 2)


def column_labels_height(view: dict) -> float:
    """How tall the column labels are drawn: one line upright, the longest label's width
    turned (the stylesheet cuts a label at LABEL_CHARS characters' width)."""
    font = view["font"]
    if view["upright"]:
        return font * 1.5
    return min(max(label_width(t, font) for _, t in view["cols"]), font * 0.7 * LABEL_CHARS)


def test_js_to_precision_writes_what_the_browser_writes():
    assert [js_to_precision(v, 2) for v in (0.5, 1, 15, 150, 9.96, 0.0001, 1.2e-7, 0)] == [
        "0.50", "1.0", "15", "1.5e+2", "10", "0.00010", "1.2e-7", "0.0"]


@pytest.mark.parametrize("algorithm", ["bpe", "wordpiece"])
@pytest.mark.parametrize("presentation", [False, True])
def test_a_60_symbol_heatmap_is_square_and_shows_every_label(algorithm, presentation):
    grid = views.pair_grid(many_symbols_training(algorithm).at(0), 60)
    assert len(grid.rows) == len(grid.cols) == 60
    view = heatmap_data(grid, value_of(algorithm), presentation=presentation)
    # every label is sent, as the symbol is named elsewhere (none dropped as crowded)
    assert view["rows"] == [[i, label(grid.symbols[i])] for i in grid.rows]
    assert view["cols"] == [[i, label(grid.symbols[i])] for i in grid.cols]
    # square cells: one size for both sides (columns are widened only on a projector's
    # page of at most 24 columns), never below legible
    assert view["wide"] is False
    assert view["cell"] >= (CELL_MIN_PRESENTATION if presentation else 14)
    # one label per cell: a row label (and a turned column label) is one font high
    assert view["font"] <= view["cell"] - 3
    # an upright column label fits its column: no two run together
    if view["upright"]:
        assert max(label_width(t, view["font"]) for _, t in view["cols"]) <= view["cell"]


def test_column_labels_stand_upright_only_where_they_fit_their_column():
    training = train(Corpus.from_counts({"xabcdefg": 10, "yabcdefg": 9, "zabcdefg": 8,
                                         "wabcdefg": 7}), "bpe", merges=6)
    seen = set()
    for step in range(7):
        view = heatmap_data(views.pair_grid(training.at(step), 20), "count")
        widest = max(label_width(t, view["font"]) for _, t in view["cols"])
        assert view["upright"] == (widest <= view["cell"]), (step, view["cols"])
        seen.add(view["upright"])
    assert seen == {True, False}, "the test needs labels that fit and labels that do not"


@pytest.mark.parametrize("algorithm", ["bpe", "wordpiece"])
def test_heatmap_values_are_written_only_where_they_fit(algorithm):
    # WordPiece's scores are 1.0 early and 0.50 or 0.33 later: the browser writes the
    # trailing zero, one character more than Python's "0.5"
    training = reference(algorithm)
    written = set()
    for step in (0, 17, 50, 150):
        for top_n in (2, 3, 5, 8, 12, 30, 60):
            view = heatmap_data(views.pair_grid(training.at(step), top_n), value_of(algorithm))
            if view["values"]:
                texts = [cell_text(v, view["value"]) for v in view["cells"][2::4]]
                widest = max(len(t) for t in texts)
                assert widest * 0.62 * (view["font"] - 2) <= view["cell"] - 3, (step, top_n,
                                                                                  texts)
            written.add(view["values"])
    assert written == {True, False}, "the test needs charts with and without values"


def test_whole_counts_stay_whole_in_the_cells_and_at_the_colour_bars_ends():
    training = train(Corpus.from_counts({"ab": 3, "cd": 2, "ef": 1, "abcd": 1}),
                     **train_options("bpe", merges=1))
    view = heatmap_data(views.pair_grid(training.at(0), 6), "count")
    values = view["cells"][2::4]
    assert all(type(v) is int for v in [*values, view["lo"], view["hi"]])
    assert (view["lo"], view["hi"]) == (1, 4)  # the colour bar runs 1 .. 4, never 1.5
    view = heatmap_data(views.pair_grid(reference().at(0), 20), "count")
    assert all(type(v) is int for v in [*view["cells"][2::4], view["lo"], view["hi"]])


def test_heatmap_hover_speaks_of_a_score_only_for_wordpiece():
    # the browser's hover names the count of every cell, and the score where the value
    # is one (heatmap_view.mjs)
    for algorithm in ("bpe", "bbpe", "wordpiece"):
        snap = reference(algorithm).at(50)  # WordPiece's scores (0.5) are not its counts
        grid = views.pair_grid(snap, 8)
        view = heatmap_data(grid, value_of(algorithm))
        assert (view["value"] == "score") == (algorithm == "wordpiece"), algorithm
        counts = snap.pairs.set_index(["left_id", "right_id"])["count"]
        cells = view["cells"]
        for i in range(0, len(cells), 4):
            pair = (view["rows"][cells[i]][0], view["cols"][cells[i + 1]][0])
            assert cells[i + 3] == counts[pair], (algorithm, pair)


@pytest.mark.parametrize("top_n", [5, 12, 20, 24])
def test_presentation_heatmap_fits_a_720_px_screen(top_n):
    grid = views.pair_grid(many_symbols_training("bpe").at(0), top_n)
    view = heatmap_data(grid, "count", presentation=True)
    rows = len(view["rows"])
    # the cells, the column labels, the axis title above and the legend below
    height = view["cell"] * rows + column_labels_height(view) + TITLE_ROOM + LEGEND_ROOM
    assert height <= HEATMAP_FIT_PRESENTATION <= 720 - 80
    assert view["font"] >= 14  # still legible from the back row
    # more symbols than fit: legibility wins (cells never below the presentation minimum)
    big = heatmap_data(views.pair_grid(many_symbols_training("bpe").at(0), 60), "count",
                       presentation=True)
    assert big["cell"] >= CELL_MIN_PRESENTATION
