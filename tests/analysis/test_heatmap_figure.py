"""The pair heatmap's figure (bpeviz.present.figures) stays legible: every label of a
60-symbol grid is a tick on square cells, values are written only where they fit, whole
counts get whole ticks on the colour bar, the hover speaks of a score only for WordPiece,
and in presentation mode the figure fits a 1280x720 screen while its labels stay large
enough to read from the back of a room."""

from __future__ import annotations

import pytest

from bpeviz import Corpus, train
from bpeviz.analysis import views
from bpeviz.present import figures
from bpeviz.ui import train_options
from tests.support.trainings import many_symbols_training, reference


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


@pytest.mark.parametrize("top_n", [5, 12, 20, 24])
def test_presentation_heatmap_fits_a_720_px_screen(top_n):
    grid = views.pair_grid(many_symbols_training("bpe").at(0), top_n)
    layout = figures.heatmap_figure(grid, "bpe", presentation=True).to_plotly_json()["layout"]
    assert layout["height"] <= figures.HEATMAP_FIT_PRESENTATION <= 720 - 80
    assert layout["xaxis"]["tickfont"]["size"] >= 14  # still legible from the back row
    # more symbols than fit: legibility wins (cells never below the presentation minimum)
    big = figures.heatmap_figure(views.pair_grid(many_symbols_training("bpe").at(0), 60),
                                "bpe", presentation=True).to_plotly_json()["layout"]
    assert big["height"] >= 60 * figures.CELL_MIN_PRESENTATION
