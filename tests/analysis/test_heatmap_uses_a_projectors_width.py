"""The presentation heatmap's layout (bpeviz.present.figures): its columns use the page's width
(the figure asks for up to HEATMAP_WIDTH_PRESENTATION pixels; Streamlit narrows it to
the page), and a column label that might not fit its column on the narrowest page is
turned upright (-90 degrees), so no two labels run together ("m" "at" read as "mat")."""

from __future__ import annotations

import pytest

from bpeviz import Corpus, train
from bpeviz.analysis import views
from bpeviz.present import figures
from tests.support.trainings import many_symbols_training


def _layout(grid, presentation=True):
    return figures.heatmap_figure(grid, "bpe", presentation=presentation).to_plotly_json()[
        "layout"]


@pytest.mark.parametrize("top_n", [12, 20, 24])
def test_presentation_columns_take_the_page_width(top_n):
    grid = views.pair_grid(many_symbols_training("bpe").at(0), top_n)
    layout = _layout(grid)
    assert layout["width"] >= 1200, "a 1920 px projector's page, not 400 px of it"
    assert layout["width"] <= figures.HEATMAP_WIDTH_PRESENTATION
    assert layout["height"] <= figures.HEATMAP_FIT_PRESENTATION  # still fits 1280x720
    assert layout["xaxis"]["tickfont"]["size"] >= 14


def test_few_symbols_get_wide_cells_but_not_a_whole_screen():
    layout = _layout(views.pair_grid(many_symbols_training("bpe").at(0), 3))
    assert layout["width"] <= (40 + 17 * 24 + figures.MARGIN_RIGHT_PRESENTATION
                               + 3 * figures.CELL_WIDE_MAX)


def _column_on_the_narrowest_page(layout) -> float:
    n = len(layout["xaxis"]["tickvals"])
    # the labels are laid out for HEATMAP_NARROWEST_PRESENTATION: at most that, less the
    # left labels and the colour bar, shared by the columns
    return min(layout["width"], figures.HEATMAP_NARROWEST_PRESENTATION) / n


def test_labels_that_might_collide_are_turned():
    words = {"eroin": 5, "mat": 4, "heroine": 3, "matter": 3, "material": 2, "eroding": 2}
    words.update({f"{a}{b}x": 1 for a in "abcdefghij" for b in "klmnopq"})
    training = train(Corpus.from_counts(words), merges=40)
    grid = views.pair_grid(training.at(40), 24)
    layout = _layout(grid)
    font = layout["xaxis"]["tickfont"]["size"]
    widest = max(figures.label_width(t, font) for t in layout["xaxis"]["tickvals"])
    if widest + 8 > _column_on_the_narrowest_page(layout) - 10:
        assert layout["xaxis"]["tickangle"] == -90
    # turned, a label is one line high: it fits its column
    assert font * 1.3 <= (figures.HEATMAP_NARROWEST_PRESENTATION - 200) / len(grid.cols)


def test_one_letter_labels_stay_level_when_they_fit():
    grid = views.pair_grid(train(Corpus.from_text("ab ba abc cab bca " * 4), merges=0).at(0), 3)
    assert _layout(grid)["xaxis"]["tickangle"] == 0


def test_outside_presentation_mode_the_layout_is_unchanged():
    grid = views.pair_grid(many_symbols_training("bpe").at(0), 20)
    layout = _layout(grid, presentation=False)
    cell = figures.heatmap_cell(20)
    assert layout["width"] < 20 * cell + 40 + 12 * 0.65 * 24 + 111
