"""Explore's pair heatmap: its cells are the snapshot's pair counts (scores for
WordPiece) with the next merge marked, a picked pair lists the words that hold it and
belongs to the step it was picked at, the caption speaks of the red square only when there
is one, and presentation mode draws at most its own size so the heatmap stays on a
projector's screen; the browser is told its views are costly (not built ahead to be
measured, drawn out of view only once the bar rests) while the Why panel's are not."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from bpeviz.present.render_heatmap import HEATMAP_SYMBOLS_PRESENTATION
from bpeviz.text.display import label
from tests.support.app import (
    ALGORITHMS,
    heatmap_caption_text,
    heatmap_cells,
    heatmap_pair,
    heatmap_panel,
    heatmap_view,
    ok,
    open_page,
    pair_box,
)
from tests.support.trainings import reference


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_heatmap_data_matches_snapshot_pairs(algorithm):
    training = reference(algorithm)
    # WordPiece's scores differ from its counts from about step 50 (0.5 against 1 or 2)
    step = 50 if algorithm == "wordpiece" else 17
    at = open_page("pages/1_Explore.py", algo=algorithm, step=step, top_n=12)
    view = heatmap_view(ok(at))
    value = view["value"]
    assert value == ("score" if algorithm == "wordpiece" else "count")
    pairs = training.at(step).pairs
    table = {(int(r.left_id), int(r.right_id)): (float(getattr(r, value)), int(r.count))
             for r in pairs.itertuples()}
    rows = [i for i, _ in view["rows"]]
    cols = [i for i, _ in view["cols"]]
    assert len(rows) == len(cols) == 12
    # a cell for each pair of the grid that occurs, none where no pair does; each cell
    # names its pair by the symbols' ids (what a click on it sends)
    cells = heatmap_cells(view)
    assert set(cells) == {(a, b) for a in rows for b in cols if (a, b) in table}
    for pair, (shown, count) in cells.items():
        assert shown == pytest.approx(table[pair][0]), pair
        assert count == table[pair][1], pair
    assert len(cells) >= 12
    # the labels are the symbols as drawn elsewhere (a "1" stays the label "1")
    style = at.session_state["bytes"]  # the byte style the sidebar chose
    assert [t for _, t in view["rows"]] == [label(training.vocab[i], style) for i in rows]
    assert [t for _, t in view["cols"]] == [label(training.vocab[i], style) for i in cols]
    # the best pair (the next merge) is the top-left cell, and is marked
    assert (rows[0], cols[0]) == (int(pairs.iloc[0].left_id), int(pairs.iloc[0].right_id))
    nxt = training.merges[step]
    assert view["next"] == [0, 0]
    assert heatmap_pair(view, view["next"]) == (nxt.left_id, nxt.right_id)


def test_picking_a_pair_lists_the_words_that_hold_it():
    training = reference()
    at = open_page("pages/1_Explore.py", step=0)
    pairs = training.at(0).pairs
    target = (int(pairs.iloc[3].left_id), int(pairs.iloc[3].right_id))
    pair_box(at).set_value(target).run()
    holders = ok(at).dataframe[-1].value
    words = {w for w, s in training.at(0).splits.items()
             if any(s[k:k + 2] == (training.vocab[target[0]], training.vocab[target[1]])
                    for k in range(len(s) - 1))}
    assert set(holders["word"]) == words


def go_to_step(at: AppTest, step: int) -> AppTest:
    """Move the shared step setting (what the slider, the number box and Next all do)."""
    at.session_state["step"] = step
    return ok(at.run())


def top_pair(training, step: int) -> tuple[int, int]:
    pairs = training.at(step).pairs
    return int(pairs.iloc[0].left_id), int(pairs.iloc[0].right_id)


def test_a_pair_picked_at_one_step_does_not_follow_to_another_step():
    training = reference()
    at20 = set(zip(training.at(20).pairs.left_id.tolist(),
                   training.at(20).pairs.right_id.tolist()))
    at = open_page("pages/1_Explore.py", step=199)
    box = pair_box(at)
    assert box.value == top_pair(training, 199)
    # a pair that also occurs at step 20, but is not the best pair there
    pairs = training.at(199).pairs
    picked = next((int(r.left_id), int(r.right_id)) for r in pairs.iloc[:200].itertuples()
                  if (int(r.left_id), int(r.right_id)) in at20
                  and (int(r.left_id), int(r.right_id)) != top_pair(training, 20))
    box.set_value(picked).run()
    ok(at)
    assert pair_box(at).value == picked
    go_to_step(at, 20)
    # the panel and the blue square show step 20's next merge, not the pair from step 199
    assert pair_box(at).value == top_pair(training, 20)
    view = heatmap_view(at)
    assert view["picked"] == [0, 0]
    assert heatmap_pair(view, view["picked"]) == top_pair(training, 20)
    # the pick made at a step still holds while the user stays there
    go_to_step(at, 199)
    assert pair_box(at).value == top_pair(training, 199)
    pair_box(at).set_value(picked).run()
    ok(at)
    at.text_input(key="word_search").set_value("the").run()  # any other rerun
    assert pair_box(ok(at)).value == picked


def test_the_heatmap_caption_speaks_of_a_red_square_only_when_there_is_one():
    at = open_page("pages/1_Explore.py", step=200)  # the last step of 200 merges
    caption = heatmap_caption_text(at)
    assert heatmap_view(at)["next"] is None
    assert "red square" not in caption.replace("no square is red", "")
    assert "last step" in caption
    go_to_step(at, 20)
    assert heatmap_view(at)["next"] is not None
    assert "The red square is the pair merged next" in heatmap_caption_text(at)


def _symbols(at) -> int:
    view = heatmap_view(at)
    assert len(view["rows"]) == len(view["cols"])
    return len(view["cols"])


def test_presentation_mode_draws_at_most_its_heatmap_size_and_says_so():
    at = ok(open_page("pages/1_Explore.py", merges=200, step=0, top_n=60, present=True))
    limit = HEATMAP_SYMBOLS_PRESENTATION
    assert _symbols(at) == limit
    assert any(f"at most {limit} symbols per axis" in c.value for c in at.caption)
    assert at.session_state["top_n"] == 60, "the setting itself is kept for normal mode"


def test_outside_presentation_mode_the_chosen_size_is_drawn():
    at = ok(open_page("pages/1_Explore.py", merges=200, step=0, top_n=60))
    assert _symbols(at) > HEATMAP_SYMBOLS_PRESENTATION


def test_the_heatmap_panel_is_marked_costly_and_the_why_panel_is_not():
    at = ok(open_page("pages/1_Explore.py", step=3))
    assert heatmap_panel(at).get("costly") is True
    why = [el for el in at.get("bidi_component") if el.proto.id.endswith("-stage_why")]
    assert why, "Explore has its Why panel"
    assert "costly" not in json.loads(why[0].proto.json)
