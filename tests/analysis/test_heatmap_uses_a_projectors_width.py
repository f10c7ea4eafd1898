"""The presentation heatmap's layout (bpeviz.present.render_heatmap): its columns use the
page's width (``wide``: the browser shares the page among the columns, each at most
CELL_WIDE_MAX pixels), and a column label that might not fit its column on the narrowest
page is turned upright, so no two labels run together ("m" "at" read as "mat")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bpeviz import Corpus, train
from bpeviz.analysis import views
from bpeviz.present.render_heatmap import (
    CELL_MAX_PRESENTATION,
    CELL_WIDE_MAX,
    HEATMAP_FIT_PRESENTATION,
    HEATMAP_NARROWEST_PRESENTATION,
    HEATMAP_SYMBOLS_PRESENTATION,
    LABEL_CHARS,
    LEGEND_ROOM,
    TITLE_ROOM,
    TITLE_ROOM_LEFT,
    heatmap_cell,
    heatmap_data,
    label_width,
)
from tests.support.trainings import many_symbols_training, reference

HEATMAP_VIEW = Path(__file__).parents[2] / "bpeviz/ui/stepper/src/heatmap_view.mjs"


def _view(grid, presentation=True):
    return heatmap_data(grid, "count", presentation=presentation)


def _label_room(view, side: str) -> float:
    """The widest label of a side at the chart's font, as the stylesheet draws it (cut at
    LABEL_CHARS characters' width)."""
    font = view["font"]
    return min(max(label_width(t, font) for _, t in view[side]), font * 0.7 * LABEL_CHARS)


def _column_on_the_narrowest_page(view) -> float:
    """A column's width on the narrowest page labels are laid out for: what the row labels
    and the left axis title leave, shared by the columns, at most CELL_WIDE_MAX."""
    left = TITLE_ROOM_LEFT + _label_room(view, "rows")
    return min(CELL_WIDE_MAX, (HEATMAP_NARROWEST_PRESENTATION - left) / len(view["cols"]))


@pytest.mark.parametrize("top_n", [12, 20, 24])
def test_presentation_columns_take_the_page_width(top_n):
    grid = views.pair_grid(many_symbols_training("bpe").at(0), top_n)
    view = _view(grid)
    assert view["wide"] is True, "a 1920 px projector's page, not 400 px of it"
    labels = view["font"] * 1.5 if view["upright"] else _label_room(view, "cols")
    height = view["cell"] * len(view["rows"]) + labels + TITLE_ROOM + LEGEND_ROOM
    assert height <= HEATMAP_FIT_PRESENTATION  # still fits 1280x720
    assert view["font"] >= 14


def test_the_browser_widens_columns_to_the_cap_the_labels_are_laid_out_for():
    # Python turns or keeps labels for columns of at most CELL_WIDE_MAX px: the stage
    # script's track for a wide chart must stop there too
    track = re.search(r"h\.wide \? `minmax\(\$\{cell\}px, (\d+)px\)`", HEATMAP_VIEW.read_text())
    assert track and int(track[1]) == CELL_WIDE_MAX


def test_few_symbols_get_wide_cells_but_not_a_whole_screen():
    view = _view(views.pair_grid(many_symbols_training("bpe").at(0), 3))
    assert view["wide"] is True
    assert view["cell"] <= CELL_MAX_PRESENTATION  # rows no taller than a large cell
    widest = TITLE_ROOM_LEFT + _label_room(view, "rows") + 3 * CELL_WIDE_MAX
    assert widest < 1280 / 2


def test_labels_that_might_collide_are_turned():
    words = {"eroin": 5, "mat": 4, "heroine": 3, "matter": 3, "material": 2, "eroding": 2}
    words.update({f"{a}{b}x": 1 for a in "abcdefghij" for b in "klmnopq"})
    small = train(Corpus.from_counts(words), merges=40)
    grids = [views.pair_grid(small.at(k), HEATMAP_SYMBOLS_PRESENTATION) for k in (0, 20, 40)]
    grids += [views.pair_grid(reference("bpe").at(k), HEATMAP_SYMBOLS_PRESENTATION)
              for k in (100, 200)]
    colliding = 0
    for grid in grids:
        view = _view(grid)
        assert view["wide"] is True
        widest = max(label_width(t, view["font"]) for _, t in view["cols"])
        if widest + 8 > _column_on_the_narrowest_page(view):
            assert view["upright"] is False, view["cols"]
            colliding += 1
        # turned, a label is one line high: it fits its column
        assert view["font"] * 1.3 <= (HEATMAP_NARROWEST_PRESENTATION - 200) / len(grid.cols)
    assert colliding, "the test needs labels that would run together upright"


def test_upright_labels_fit_their_column_on_the_narrowest_page():
    training = reference("bpe")
    seen = set()
    for step in (0, 40, 120, 200):
        for top_n in (3, 8, 12, 20, 24):
            view = _view(views.pair_grid(training.at(step), top_n))
            if view["upright"]:
                widest = max(label_width(t, view["font"]) for _, t in view["cols"])
                assert widest <= _column_on_the_narrowest_page(view), (step, top_n)
            seen.add(view["upright"])
    assert seen == {True, False}, "the test needs labels upright and turned"


def test_one_letter_labels_stay_level_when_they_fit():
    grid = views.pair_grid(train(Corpus.from_text("ab ba abc cab bca " * 4), merges=0).at(0), 3)
    assert _view(grid)["upright"] is True


def test_outside_presentation_mode_the_layout_is_unchanged():
    grid = views.pair_grid(many_symbols_training("bpe").at(0), 20)
    view = _view(grid, presentation=False)
    assert view["wide"] is False  # square cells, the columns not widened to the page
    assert view["cell"] == heatmap_cell(20)
    assert view["font"] == min(12, view["cell"] - 3)
