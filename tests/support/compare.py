"""The Compare page under AppTest.

The cuts and their marks are drawn by the browser (the stage component's "compare" part)
from the data Python sends; AppTest runs no JavaScript, so these helpers read that data
at the settled position (bpeviz's ``compare_at``, whose rule the browser's equals:
tests/analysis/test_compare_history.py)."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from bpeviz.present.compare_history import compare_at
from tests.support import APP

PAGE = "pages/3_Compare.py"
TEXT = "low lower lowest 苹果派 naïve café"


def open_compare(**state) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90)
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def stage(at: AppTest, role: str) -> dict:
    """The data Compare sends its stage component (``role``: "controls" or "compare")."""
    for el in at.get("bidi_component"):
        kind = el.proto.WhichOneof("data")
        # Compare's cuts travel as JSON bytes (made once, resent unchanged: a reference)
        data = json.loads(el.proto.bytes if kind == "bytes" else el.proto.json or "null")
        if isinstance(data, dict) and data.get("role") == role:
            return data
    raise AssertionError(f"no stage component {role!r}")


def has_stage(at: AppTest, role: str) -> bool:
    try:
        stage(at, role)
    except AssertionError:
        return False
    return True


def move(at: AppTest, value: int) -> AppTest:
    """Type a position into the box beside the bar (as after the browser reports one)."""
    box = next(b for b in at.number_input if b.key.startswith("cmp_box_"))
    box.set_value(value).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown(at: AppTest):
    """What the browser draws at the page's position: every cut and its marks."""
    data = stage(at, "compare")
    assert "step" not in data  # the browser takes the position from the bar
    return compare_at(data, position(at))


def position(at: AppTest) -> int:
    """The page's position: the bar's (or, with nothing to move, the box's range start)."""
    if has_stage(at, "controls"):
        return stage(at, "controls")["step"]
    return stage(at, "compare")["lo"]


def marks(at: AppTest) -> list[list[tuple[int, int]]]:
    return [list(cut.diff_spans) for cut in shown(at).cuts]


def same_cuts(at: AppTest, expected) -> None:
    """The browser's cuts at the page's position are the engine's ``expected`` ones."""
    found = shown(at)
    assert [[(t.id, t.start, t.end) for t in c.tokens] for c in found.cuts] == \
        [[(t.id, t.start, t.end) for t in c.tokens] for c in expected.cuts]
    assert [list(c.diff_spans) for c in found.cuts] == [list(c.diff_spans)
                                                         for c in expected.cuts]
    assert found.n_differing == expected.n_differing


def captions(at: AppTest) -> str:
    return "\n".join(c.value for c in at.caption).replace("\\", "")
