"""Settings persist across pages and links hold the whole view: the sidebar's settings,
the heatmap size, the speed of Play, the pair picked (with its step), the word search and
a short Tokenize text go into the URL and come back from it; a long text (a pasted
corpus) never does, and a link with values no setting takes is ignored with a warning."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from bpeviz import train
from bpeviz.samples import load_sample
from bpeviz.ui.state import TEXT_IN_URL
from tests.support import APP
from tests.support.app import PAGES, ok, open_page, pair_box, stage


def test_settings_persist_across_pages_and_go_into_the_url():
    at = open_page("pages/1_Explore.py")
    at.selectbox(key="w_algo").set_value("wordpiece").run()
    at.number_input(key="w_merges").set_value(60).run()
    for page in PAGES:
        at.switch_page(page).run()
        ok(at)
        assert at.selectbox(key="w_algo").value == "wordpiece", page
        assert at.number_input(key="w_merges").value == 60, page
    params = {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert params["algo"] == "wordpiece" and params["merges"] == "60"
    assert "paste" not in params and "text" not in params


def test_a_link_reopens_the_same_view():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"algo": "bbpe", "merges": "40", "sample": "seed003", "step": "7",
                            "bytes": "hex", "present": "1"})
    at.run()
    at.switch_page("pages/1_Explore.py").run()
    ok(at)
    assert stage(at, "controls")["step"] == 7
    assert at.session_state["algo"] == "bbpe" and at.session_state["sample"] == "seed003"
    training = train(load_sample("seed003", "gpt2"), "bbpe", merges=40)
    card = stage(at, "card")
    assert any(label.startswith("<0x") for label, *_ in card["labels"]), "hex bytes from the link"
    assert card["merges"][6][2] == training.merges[6].token_id
    assert at.session_state["present"] is True
    assert card["strong"] is True, "presentation mode: strong chip colours"


def test_a_hostile_link_is_ignored_with_a_warning():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"algo": "<script>", "merges": "lots", "step": "-3",
                            "sample": "../../etc/passwd"})
    at.run()
    ok(at)
    assert at.warning and "algo" in at.warning[0].value
    assert at.session_state["algo"] == "bpe" and at.session_state["sample"] == "tour"


def params(at: AppTest) -> dict[str, str]:
    return {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def open_link(page: str, **query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query)
    at.run()
    at.switch_page(page).run()
    return ok(at)


def test_heatmap_size_speed_and_search_go_into_the_link_and_back():
    at = open_page("pages/1_Explore.py")
    at.slider(key="w_top_n").set_value(12).run()
    ok(at)
    at.text_input(key="word_search").input("tok").run()
    ok(at)
    p = params(at)
    assert p["top_n"] == "12" and p["search"] == "tok"
    # the browser reports Play's speed with the step (a trigger of the stage component)
    at.session_state["speed"] = "4"
    at.run()
    assert params(at)["speed"] == "4"

    back = open_link("pages/1_Explore.py", **params(at))
    assert back.slider(key="w_top_n").value == 12
    assert back.text_input(key="word_search").value == "tok"
    assert stage(back, "controls")["speed"] == "4"
    words = [row[1] for row in stage(back, "words")["words"]]
    assert words and all("tok" in w.lower() for w in words), "the search is applied"


def test_a_picked_pair_goes_into_the_link_with_its_step():
    at = open_page("pages/1_Explore.py", step=10)
    box = pair_box(at)
    default = box.value
    index = 3  # not the pair merged next, nor the one after it
    pair_box(at).select_index(index).run()
    ok(at)
    pair = at.session_state["pair"]
    assert pair != default
    p = params(at)
    assert p["pair"] == f"{pair[0]},{pair[1]}" and p["pair_step"] == "10"

    back = open_link("pages/1_Explore.py", **p)
    assert tuple(pair_box(back).value) == tuple(pair)
    # at another step the link's pair is not that step's choice: the next merge's pair is
    elsewhere = open_link("pages/1_Explore.py", **{**p, "step": "11"})
    assert elsewhere.session_state["pair_step"] is None
    assert tuple(pair_box(elsewhere).value) != tuple(pair)


def test_a_pair_that_is_not_two_ids_is_refused_with_a_note():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"pair": "<b>x</b>", "step": "10"})
    at.run()
    ok(at)
    assert any("pair" in w.value for w in at.warning), "the first page says what was ignored"
    at.switch_page("pages/1_Explore.py").run()
    ok(at)
    assert at.session_state["pair_step"] is None  # the next merge's pair is shown


def test_a_short_typed_text_goes_into_the_link_a_long_one_never():
    at = open_page("pages/2_Tokenize.py")
    assert "text" not in params(at), "the sample's own text needs no link"
    at.text_area(key="w_text").input("hello tokens 你好").run()
    ok(at)
    assert params(at)["text"] == "hello tokens 你好"
    back = open_link("pages/2_Tokenize.py", **params(at))
    assert back.text_area(key="w_text").value == "hello tokens 你好"

    at.text_area(key="w_text").input("x" * (TEXT_IN_URL + 1)).run()
    ok(at)
    assert "text" not in params(at)
    refused = open_link("pages/2_Tokenize.py", text="y" * (TEXT_IN_URL + 1))
    assert refused.text_area(key="w_text").value != "y" * (TEXT_IN_URL + 1)


def test_explore_offers_the_offline_slides():
    at = open_page("pages/1_Explore.py")
    buttons = [b for b in at.get("download_button") if "slides" in b.proto.label.lower()]
    assert buttons, "a download button for the slides"


def test_a_pair_that_is_not_two_ids_never_breaks_the_page():
    """Under queued reruns the pair box can hand back its label, such as "t + o", instead
    of a pair; written into the link as it is, it would break every page (ValueError)."""
    at = open_page("pages/1_Explore.py", step=10, pair="t + o", pair_step=10)
    ok(at)
    assert "pair" not in params(at)
