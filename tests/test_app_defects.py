"""Issue 12 (outside audit), app items: each test fails on the code before its fix.

AppTest for what the server decides (which pair is selected, which messages show,
which widgets exist); the figure spec for the heatmap; browser geometry is in
test_browser_defects.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bpeviz import Corpus, train
from bpeviz.samples import load_sample
from bpeviz.ui import train_options

APP = str(Path(__file__).resolve().parent.parent / "app.py")


def open_page(page: str = "app.py", **state) -> AppTest:
    """An AppTest on ``page`` with session settings preset (as if chosen in the sidebar)."""
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, at.exception
    if page != "app.py":
        at.switch_page(page).run()
    return ok(at)


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def plain(message: str) -> str:
    return re.sub(r"\\(.)", r"\1", message)


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
