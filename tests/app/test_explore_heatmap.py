"""Explore's pair heatmap: its cells are the snapshot's pair counts (scores for
WordPiece) with the next merge marked, a picked pair lists the words that hold it and
belongs to the step it was picked at, the caption speaks of the red square only when there
is one, and presentation mode draws at most its own size so the heatmap stays on a
projector's screen."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from bpeviz.present import figures
from tests.support.app import ALGORITHMS, chart_spec, ok, open_page, pair_box, plain
from tests.support.trainings import reference


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_heatmap_data_matches_snapshot_pairs(algorithm):
    training = reference(algorithm)
    at = open_page("pages/1_Explore.py", algo=algorithm, step=17, top_n=12)
    spec = chart_spec(ok(at), "heatmap")
    heat = spec["data"][0]
    assert heat["type"] == "heatmap"
    rows, cols, value = heat["meta"]["rows"], heat["meta"]["cols"], heat["meta"]["value"]
    assert value == ("score" if algorithm == "wordpiece" else "count")
    pairs = training.at(17).pairs
    table = {(int(r.left_id), int(r.right_id)): float(getattr(r, value))
             for r in pairs.itertuples()}
    assert len(rows) == len(cols) == 12
    seen = 0
    for i, left in enumerate(rows):
        for j, right in enumerate(cols):
            cell = heat["z"][i][j]
            if (left, right) in table:
                assert cell == pytest.approx(table[(left, right)]), (left, right)
                seen += 1
            else:
                assert cell is None
    assert seen >= 12
    # the best pair (the next merge) is the top-left cell, and is marked
    assert (rows[0], cols[0]) == (int(pairs.iloc[0].left_id), int(pairs.iloc[0].right_id))
    nxt = training.merges[17]
    assert (nxt.left_id, nxt.right_id) == (rows[0], cols[0])
    marker = next(t for t in spec["data"] if t.get("name") == "next merge")
    assert marker["x"] == [heat["x"][0]] and marker["y"] == [heat["y"][0]]
    # category axes, so labels like "1" stay labels
    assert spec["layout"]["xaxis"]["type"] == spec["layout"]["yaxis"]["type"] == "category"
    # the click layer carries the ids of every non-empty cell
    clicks = next(t for t in spec["data"] if t.get("name") == "select")
    assert len(clicks["customdata"]) == seen
    assert all(tuple(c[:2]) in table for c in clicks["customdata"])


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
    spec = chart_spec(at, "heatmap")
    heat = spec["data"][0]
    blue = next(t for t in spec["data"] if t.get("name") == "selected")
    assert (blue["y"][0], blue["x"][0]) == (heat["y"][0], heat["x"][0])
    # the pick made at a step still holds while the user stays there
    go_to_step(at, 199)
    assert pair_box(at).value == top_pair(training, 199)
    pair_box(at).set_value(picked).run()
    ok(at)
    at.text_input(key="word_search").set_value("the").run()  # any other rerun
    assert pair_box(ok(at)).value == picked


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


def _symbols(at) -> int:
    layout = chart_spec(at, "heatmap")["layout"]
    return len(layout["xaxis"]["tickvals"])


def test_presentation_mode_draws_at_most_its_heatmap_size_and_says_so():
    at = ok(open_page("pages/1_Explore.py", merges=200, step=0, top_n=60, present=True))
    limit = figures.HEATMAP_SYMBOLS_PRESENTATION
    assert _symbols(at) == limit
    assert any(f"at most {limit} symbols per axis" in c.value for c in at.caption)
    assert at.session_state["top_n"] == 60, "the setting itself is kept for normal mode"


def test_outside_presentation_mode_the_chosen_size_is_drawn():
    at = ok(open_page("pages/1_Explore.py", merges=200, step=0, top_n=60))
    assert _symbols(at) > figures.HEATMAP_SYMBOLS_PRESENTATION
