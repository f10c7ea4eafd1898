"""The Compare page under AppTest: one control moves every configuration, the marked
differences are the engine's, labels are the sidebar's, an opened file is a configuration.

The cuts and their marks are drawn by the browser (the stage component's "compare" part,
tests/test_browser_compare.py) from the data Python sends; AppTest runs no JavaScript,
so these tests read that data at the settled position (bpeviz.present.compare_history.compare_at,
whose rule the browser's equals: tests/test_compare_history.py)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from bpeviz import formats, train
from bpeviz.analysis.compare import compare, step_for_vocab_size
from bpeviz.formats import import_files
from bpeviz.present.compare_history import compare_at
from bpeviz.samples import load_sample
from bpeviz.ui import train_options

APP = str(Path(__file__).resolve().parent.parent / "app.py")
PAGE = "pages/3_Compare.py"
TEXT = "low lower lowest 苹果派 naïve café"
ALGORITHMS = ["bpe", "bbpe", "wordpiece"]  # configurations A, B, C by default


def open_compare(**state) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90)
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def reference(algorithm: str, merges: int = 200):
    pretok = "gpt2" if algorithm == "bbpe" else "whitespace"
    return train(load_sample("tour", pretok), **train_options(algorithm, merges=merges))


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


def test_marked_differences_are_the_engines_at_every_step():
    at = open_compare(cmp_n=3, text=TEXT, text_edited=True)
    trainings = [reference(a) for a in ALGORITHMS]
    for step in (200, 0, 37):
        if step != 200:
            move(at, step)
        assert stage(at, "controls")["step"] == step
        assert at.query_params["cmp_step"] in (str(step), [str(step)])
        expected = compare([(a, t.at(step)) for a, t in zip("ABC", trainings)], TEXT)
        assert len(stage(at, "compare")["configs"]) == 3
        same_cuts(at, expected)
        assert f"{expected.n_differing:,} token boundar" in at.markdown[0].value or (
            expected.n_differing == 0 and "No differences" in at.markdown[0].value)
        for letter in "ABC":
            assert f"{letter}: " in captions(at) and f"step {step:,} of 200" in captions(at)


def test_only_differences_draws_just_the_marked_runs():
    at = open_compare(text=TEXT, text_edited=True)
    assert stage(at, "compare")["only"] is False
    at.toggle(key="w_cmp_only").set_value(True).run()
    expected = compare([(a, reference(a).at(200)) for a in ALGORITHMS[:2]], TEXT)
    assert expected.n_differing  # something to draw
    assert stage(at, "compare")["only"] is True  # the browser draws only the runs
    same_cuts(at, expected)


def test_equal_vocabulary_size_puts_each_configuration_at_its_own_step():
    at = open_compare(text=TEXT, text_edited=True, cmp_mode="vocab")
    target = 400
    move(at, target)
    expected = [step_for_vocab_size(reference(a), target) for a in ALGORITHMS[:2]]
    text = captions(at)
    for letter, found in zip("AB", expected):
        assert re.search(rf"{letter}: [^\n]*step {found.step:,} of 200, "
                         rf"{found.vocab_size:,} tokens in the vocabulary", text), text
    assert expected[0].step != expected[1].step  # bytes start at 256 tokens: a real test
    same_cuts(at, compare([(a, reference(a).at(f.step))
                           for a, f in zip(ALGORITHMS[:2], expected)], TEXT))
    assert at.query_params["cmp_vocab"] in (str(target), [str(target)])


def test_labels_are_the_sidebars_and_the_training_section_is_marked_unused():
    at = open_compare(text=TEXT, text_edited=True)
    options = [o for s in [*at.selectbox, *at.radio] for o in s.options]
    assert "first" not in options and "score" not in options  # raw values
    assert any("first seen" in o for o in options)
    assert [e.label for e in at.sidebar.expander] == ["Training: not used on this page"]
    table = at.dataframe[0].value  # one column per configuration, named in the legend
    assert list(table.columns) == ["metric", "A", "B"]
    legend = [b for b in (el.proto.body for el in at.get("html")) if "bv-legend" in b][-1]
    assert html.unescape(legend).count("ties: first seen in the corpus") == 2
    assert "A: BPE (characters) (200 merges, whitespace, ties: first seen in the corpus)" in \
        html.unescape(legend)
    assert "B: Byte-level BPE (200 merges, GPT-2 regex, ties: first seen in the corpus)" in \
        html.unescape(legend)


def test_an_opened_tokenizer_file_is_a_configuration():
    trained = reference("bbpe", 120)
    opened = import_files(formats.export(trained.at(120), "tiktoken"))
    at = open_compare(text=TEXT, text_edited=True, imported=("mine.tiktoken", opened),
                      c2_source="opened")
    legend = [b for b in (el.proto.body for el in at.get("html")) if "bv-legend" in b][-1]
    assert "B: mine.tiktoken (opened file)" in html.unescape(legend)
    expected = compare([("A", reference("bpe").at(120)), ("B", opened.at(120))], TEXT)
    move(at, 120)
    same_cuts(at, expected)
    rows = at.dataframe[0].value.set_index("metric")
    assert list(rows.loc["tokens", ["A", "B"]]) == [f"{len(c.tokens):,}" for c in expected.cuts]


def test_the_text_stays_when_switching_pages():
    at = open_compare(text=TEXT, text_edited=True)
    at.text_area(key="w_text").set_value("hello 苹果").run()
    at.switch_page("pages/2_Tokenize.py").run()
    assert at.text_area(key="w_text").value == "hello 苹果"
    at.switch_page(PAGE).run()
    assert at.text_area(key="w_text").value == "hello 苹果" and not at.exception


def test_curves_have_one_colour_per_configuration():
    at = open_compare(cmp_n=3, text=TEXT, text_edited=True)
    import json

    from bpeviz.present.render_compare import CONFIG_COLOURS

    spec = next(json.loads(el.proto.spec) for el in at.get("plotly_chart")
                if "compare_curve" in el.proto.id)
    lines = [t for t in spec["data"] if t["mode"] == "lines"]
    assert [t["line"]["color"] for t in lines] == list(CONFIG_COLOURS)
    tokens = next(json.loads(el.proto.spec) for el in at.get("plotly_chart")
                  if "compare_tokens" in el.proto.id)
    assert [t["line"]["color"] for t in tokens["data"]] == list(CONFIG_COLOURS)


def test_sidebar_training_settings_past_a_limit_do_not_stop_compare():
    from bpeviz.core.limits import LIMITS

    at = open_compare(text=TEXT, text_edited=True, merges=LIMITS.merges + 1)
    assert not at.error, [e.value for e in at.error]
    assert len(stage(at, "compare")["configs"]) == 2
    at.switch_page("pages/1_Explore.py").run()
    assert at.error and f"{LIMITS.merges:,}" in at.error[0].value  # where the setting is used


def cuts_payload(at: AppTest) -> bytes:
    return next(el.proto.bytes for el in at.get("bidi_component")
                if el.proto.WhichOneof("data") == "bytes")


def test_the_cuts_are_sent_unchanged_while_the_position_moves():
    """The cuts' data holds no position: a move sends byte-identical data (so Streamlit's
    message cache can send a reference), equal to the plain lockstep_data of the
    configurations; a new text or the toggle makes new data."""
    from bpeviz.present.compare_history import lockstep_data
    from bpeviz.present.render_compare import colour

    at = open_compare(text=TEXT, text_edited=True)
    sent = cuts_payload(at)
    for step in (37, 0, 200):
        move(at, step)
        assert cuts_payload(at) == sent
        assert stage(at, "controls")["step"] == step
    data = json.loads(sent)
    trainings = [reference(a) for a in ALGORITHMS[:2]]
    plain = lockstep_data([(c["label"], t) for c, t in zip(data["configs"], trainings)],
                          TEXT, "step")
    for i, config in enumerate(plain["configs"]):
        config["letter"], config["colour"] = "ABC"[i], colour(i)
        config["history"] = json.loads(json.dumps(config["history"]))  # tuples as lists
    assert {k: v for k, v in data.items() if k not in ("hist", "only", "strong", "maxTokens",
                                                        "role", "marks")} == plain
    at.toggle(key="w_cmp_only").set_value(True).run()
    assert cuts_payload(at) != sent and stage(at, "compare")["only"] is True
    at.text_area(key="w_text").set_value("lowest newer").run()
    assert stage(at, "compare")["text"] == "lowest newer"
    assert marks(at) == [list(c.diff_spans) for c in compare(
        [(a, t.at(200)) for a, t in zip("AB", trainings)], "lowest newer").cuts]
