"""The app under Streamlit's AppTest: open a page with settings preset, read what it
shows.

AppTest runs no JavaScript: it reads ``st.html`` bodies, Plotly specs and the data a page
sends its stage component from the element protos (the browser tests in tests/browser/
check the drawing). Explore's pair heatmap is such data: :func:`heatmap_view`.
"""

from __future__ import annotations

import json
import re

from streamlit.testing.v1 import AppTest

from bpeviz.present.html_tree import tree_html
from bpeviz.present.stage_data import expand_stage_merges
from tests.support import APP

PAGES = ["app.py", "pages/1_Explore.py", "pages/2_Tokenize.py", "pages/3_Compare.py",
         "pages/4_Vocabulary.py"]
ALGORITHMS = ["bpe", "bbpe", "wordpiece"]
HOSTILE = ('<script>alert(1)</script> <img src=x onerror=alert(1)> $x$ **bold** </span> '
           '[link](javascript:alert(1)) :red[red] <b>b</b> & &amp;')


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


def html_bodies(at: AppTest) -> list[str]:
    """Every ``st.html`` body, and the view each stage panel shows at its step (Python
    draws it; the browser builds it from a tree: ``bpeviz.ui.stage.panel``), as HTML."""
    bodies = [el.proto.body for el in at.get("html")]
    for el in at.get("bidi_component"):
        data = json.loads(el.proto.json or "null")
        if isinstance(data, dict) and data.get("role") == "panel":
            view = (data.get("views") or {}).get(str(data.get("step")), [])
            # a {"heatmap": numbers} node is data the browser draws as text, not HTML
            bodies.append(tree_html([n for n in view if not isinstance(n, dict)]))
    return bodies


def html_text(at: AppTest) -> str:
    return "\n".join(html_bodies(at))


def body_with(at: AppTest, marker: str) -> str:
    """The first ``st.html`` body holding ``marker`` (a CSS class such as "bv-card")."""
    return next(b for b in html_bodies(at) if marker in b)


def plain(message: str) -> str:
    """A message without the backslashes that keep Markdown from reading it."""
    return re.sub(r"\\(.)", r"\1", message)


def stage(at: AppTest, role: str) -> dict:
    """The data the Explore page sends its stage component (``role``: "controls",
    "card" or "words"); the browser draws the step bar, the card and the splits from it
    (AppTest runs no JavaScript: tests/browser/test_stepping_in_the_browser.py checks the
    drawing)."""
    for el in at.get("bidi_component"):
        data = json.loads(el.proto.json or "null")
        if isinstance(data, dict) and data.get("role") == role:
            return expand_stage_merges(data) if "mergeCols" in data else data
    raise AssertionError(f"no stage component {role!r}")


def shown_splits(at: AppTest) -> dict[int, list[int]]:
    """Each word on the Explore page -> its token ids at the page's step, as the stage
    component draws them (the tokens made at or before the step and not yet merged)."""
    data = stage(at, "words")
    k = data["step"]
    return {index: [t for t, made, gone in zip(tokens, made_at, merged_at) if made <= k < gone]
            for index, _, _, tokens, made_at, merged_at, *_ in data["words"]}


def pair_box(at: AppTest):
    """Explore's Pair details box (one per step: its key names the step it shows)."""
    return next(box for box in at.selectbox if (box.key or "").startswith("w_pair_"))


def heatmap_panel(at: AppTest) -> dict:
    """What Explore sends its pair heatmap's stage panel (``bpeviz.ui.explore.heatmap_panel``):
    ``step`` (the bar's), ``n`` and ``views``, the view of each step around it."""
    for el in at.get("bidi_component"):
        if el.proto.id.endswith("-stage_heatmap"):
            return json.loads(el.proto.json)
    raise AssertionError("no heatmap panel on the page")


def _heatmap_nodes(at: AppTest, step: int | None) -> list:
    data = heatmap_panel(at)
    k = data["step"] if step is None else step
    view = data["views"].get(str(k))
    assert view is not None, f"the heatmap panel holds no view of step {k}"
    return view


def heatmap_view(at: AppTest, step: int | None = None) -> dict:
    """The heatmap the browser draws at the page's step (or ``step``, one the panel holds):
    ``bpeviz.present.render_heatmap.heatmap_data``'s rows, cols, cells and layout."""
    found = [n["heatmap"] for n in _heatmap_nodes(at, step)
             if isinstance(n, dict) and "heatmap" in n]
    assert found, f"no heatmap at that step: {heatmap_caption_text(at, step)!r}"
    return found[0]


def has_heatmap(at: AppTest, step: int | None = None) -> bool:
    """Whether the panel draws a heatmap at the step (not only a caption saying why not)."""
    return any(isinstance(n, dict) and "heatmap" in n for n in _heatmap_nodes(at, step))


def heatmap_caption_text(at: AppTest, step: int | None = None) -> str:
    """The sentence under the heatmap at the page's step (or ``step``), as plain text."""
    for node in _heatmap_nodes(at, step):
        if isinstance(node, list) and node[0] == "p" and "bv-hm-caption" in node[1].get(
                "class", ""):
            return "".join(c for c in node[2:] if isinstance(c, str))
    raise AssertionError("the heatmap panel's view has no caption")


def heatmap_cells(view: dict) -> dict[tuple[int, int], tuple[float, int]]:
    """A heatmap's cells as (left id, right id) -> (value, count): what each cell draws."""
    rows, cols, cells = view["rows"], view["cols"], view["cells"]
    return {(rows[cells[i]][0], cols[cells[i + 1]][0]): (cells[i + 2], cells[i + 3])
            for i in range(0, len(cells), 4)}


def heatmap_pair(view: dict, cell: list[int] | None) -> tuple[int, int] | None:
    """The (left id, right id) of a heatmap cell given as [row, column] (``next``, ``picked``)."""
    return None if cell is None else (view["rows"][cell[0]][0], view["cols"][cell[1]][0])


def chart_spec(at: AppTest, key_part: str) -> dict:
    for el in at.get("plotly_chart"):
        if key_part in el.proto.id:
            return json.loads(el.proto.spec)
    raise AssertionError(f"no chart with key {key_part!r}")


def unigram_app(page: str = "app.py", **state) -> AppTest:
    """The app with Unigram chosen in the sidebar's Algorithm box, then on ``page``."""
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in state.items():
        at.session_state[key] = value
    ok(at.run())
    ok(at.selectbox(key="w_algo").set_value("unigram").run())
    if page != "app.py":
        ok(at.switch_page(page).run())
    return at
