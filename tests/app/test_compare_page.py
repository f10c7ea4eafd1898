"""The Compare page under AppTest: one control moves every configuration, the marked
differences are the engine's, labels are the sidebar's, an opened file is a configuration,
and the metrics table has a column per configuration.

The cuts and their marks are drawn by the browser (the stage component's "compare" part,
tests/browser/test_compare_steps_in_the_browser.py) from the data Python sends; AppTest
runs no JavaScript, so these tests read that data at the settled position (see
tests/support/compare.py)."""

from __future__ import annotations

import html
import json
import re

from streamlit.testing.v1 import AppTest

from bpeviz import formats
from bpeviz.analysis.compare import compare, step_for_vocab_size
from bpeviz.formats import import_files
from tests.support.app import chart_spec, ok, open_page
from tests.support.compare import PAGE, TEXT, captions, marks, move, open_compare, same_cuts, stage
from tests.support.trainings import reference

ALGORITHMS = ["bpe", "bbpe", "wordpiece"]  # configurations A, B, C by default


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
        same_cuts(at, expected)  # the browser's sentence counts n_differing from these
        # each one's own differing boundaries: a row of the metrics table; the sentence
        # over the cuts is the browser's alone (it steps with them)
        rows = at.dataframe[0].value.set_index("metric")
        assert list(rows.loc["token boundaries cut differently", ["A", "B", "C"]]) == \
            [f"{cut.own_differing:,}" for cut in expected.cuts]
        assert not [m for m in at.markdown if "token boundar" in m.value]
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
    trained = reference("bbpe", merges=120)
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


def test_compare_shows_metrics_for_each_configuration():
    at = open_page("pages/3_Compare.py", cmp_n=3, text="low lower lowest 苹果")
    ok(at)
    metrics = at.dataframe[0].value.set_index("metric")  # a column per configuration
    assert list(metrics.columns) == ["A", "B", "C"]
    assert list(metrics.loc["tokens (corpus)"]) == [
        f"{int(reference(a).token_counts()[-1]):,}" for a in ALGORITHMS]
    spec = chart_spec(at, "compare_tokens")
    assert len(spec["data"]) == 3
