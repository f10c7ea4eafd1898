"""The app's pages under Streamlit's AppTest: no exception, the right data on screen.

AppTest cannot click a chart or run JavaScript (see test_browser.py for that); it reads
``st.html`` bodies and Plotly specs from the element protos.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bpeviz import Corpus, formats, train
from bpeviz.present.stage_data import expand_stage_merges
from bpeviz.present.text_history import tokens_at
from bpeviz.samples import SAMPLES, load_sample, sample_bytes
from bpeviz.ui import train_options

APP = str(Path(__file__).resolve().parent.parent / "app.py")
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
    return [el.proto.body for el in at.get("html")]


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
    (AppTest runs no JavaScript: tests/test_browser_stage.py checks the drawing)."""
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


def chart_spec(at: AppTest, key_part: str) -> dict:
    for el in at.get("plotly_chart"):
        if key_part in el.proto.id:
            return json.loads(el.proto.spec)
    raise AssertionError(f"no chart with key {key_part!r}")


def reference(algorithm: str = "bpe", sample: str = "tour", merges: int = 200, **settings):
    """The training the app should show, made with the engine directly."""
    pretok = "gpt2" if algorithm == "bbpe" else "whitespace"
    return train(load_sample(sample, pretok), **train_options(algorithm, merges=merges,
                                                              **settings))


# -- every page runs --------------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_on_the_default_sample(page):
    at = ok(open_page(page))
    assert not at.error, [e.value for e in at.error]
    assert at.title, "each page has a title"
    assert at.session_state["sample"] == "tour"


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_page_runs_for_each_algorithm(algorithm):
    at = open_page("app.py", algo=algorithm)
    for page in PAGES:
        ok(at.switch_page(page).run())
        assert not at.error, (page, [e.value for e in at.error])


@pytest.mark.parametrize("sample", list(SAMPLES))
def test_every_sample_trains_and_explores(sample):
    at = ok(open_page("pages/1_Explore.py", sample=sample,
                      **{k: v for k, v in SAMPLES[sample].settings.items()}))
    assert not at.error
    assert stage(at, "words")["words"], "the word splits are drawn"


def test_home_opens_on_a_trained_sample_with_its_first_merges():
    at = ok(open_page())
    first = reference().merges[0]
    body = html_text(at)
    assert f'data-id="{first.token_id}"' in body
    assert [m.value for m in at.metric][2] == "200"  # merges


# -- moving the step --------------------------------------------------------------------


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_moving_the_step_changes_the_merge_the_splits_and_the_tokens(algorithm):
    training = reference(algorithm)
    at = open_page("pages/1_Explore.py", algo=algorithm)
    at.number_input(key="stage_box_10").set_value(5).run()
    splits5 = shown_splits(ok(at))
    at.number_input(key="stage_box_5").set_value(6).run()
    splits6 = shown_splits(ok(at))
    assert at.session_state["step"] == 6
    assert stage(at, "controls")["step"] == stage(at, "card")["step"] == 6
    assert splits5 != splits6
    m = training.merges[5]
    assert stage(at, "card")["merges"][5][:3] == [m.left_id, m.right_id, m.token_id]
    assert all(ids == training.at(6).split_ids(i) for i, ids in splits6.items())
    # the words this merge changed come first (they are the ones with a token made now)
    words = stage(at, "words")["words"]
    changed = [w[0] for w in words if 6 in w[4]]
    assert sorted(changed) == sorted(training.at(6).changed_words)[:50]

    at.switch_page("pages/2_Tokenize.py").run()
    assert at.session_state["step"] == 6, "the step is shared by the pages"
    ids_at_6 = ok(at).code[0].value
    # the browser draws the text's tokens of every step from one history (the stage)
    assert [str(t[0]) for t in tokens_at(stage(at, "tokens"), 6)] == ids_at_6.split()
    at.number_input(key="stage_box_6").set_value(0).run()
    ids_at_0 = ok(at).code[0].value
    at.number_input(key="stage_box_0").set_value(len(training.merges)).run()
    ids_at_end = ok(at).code[0].value
    assert len(ids_at_0.split()) >= len(ids_at_6.split()) >= len(ids_at_end.split())
    assert ids_at_0 != ids_at_end
    text = at.session_state["text"]
    expected = [t.id for t in training.at(len(training.merges)).encode(text)]
    assert ids_at_end.split() == [str(i) for i in expected]


def test_the_number_box_moves_the_step_and_the_url():
    at = open_page("pages/1_Explore.py")
    at.number_input(key="stage_box_10").set_value(42).run()
    assert stage(ok(at), "controls")["step"] == 42
    assert ok(at).number_input(key="stage_box_42").value == 42, "a fresh box shows the step"
    at.number_input(key="stage_box_42").set_value(41).run()
    assert ok(at).session_state["step"] == 41
    assert at.query_params["step"] == ["41"] or at.query_params["step"] == "41"


def test_a_request_that_crossed_the_last_run_never_moves_the_step_back():
    """Issue 16 (a 6-session CI run): the bar's report set the step to 14; the run that
    drew box 14 ended (and dropped box 10's value) while the browser, busy, sent a search
    with the widgets it still showed, box 10 among them. Its unchanged 10 looked like a
    change (no old value to compare with), its callback moved the step back, and the bar
    followed Python there: a step the user made was lost. An element of an old tree reruns
    with that tree's widget states, as such a request does."""
    at = open_page("pages/1_Explore.py")
    old_box = at.number_input(key="stage_box_10")
    at.session_state["step"] = 14  # what the bar's report does (stage._from_browser)
    at.run()
    assert ok(at).number_input(key="stage_box_14").value == 14
    old_box.set_value(10).run()  # the browser's request with the widgets it still shows
    assert ok(at).session_state["step"] == 14
    assert stage(at, "controls")["step"] == 14
    # a number really typed into a box still moves the step, even into an old box
    at.number_input(key="stage_box_14").set_value(20).run()
    assert ok(at).session_state["step"] == 20


def test_a_crossed_request_never_moves_the_step_back_on_vocabulary_either():
    """The same race on the pages whose step Python owns (their box: "step_box_<k>")."""
    at = open_page("pages/4_Vocabulary.py")
    old_box = at.number_input(key="step_box_10")
    at.session_state["step"] = 14
    at.run()
    assert ok(at).number_input(key="step_box_14").value == 14
    old_box.set_value(10).run()
    assert ok(at).session_state["step"] == 14
    at.number_input(key="step_box_14").set_value(3).run()
    assert ok(at).session_state["step"] == 3


def test_changing_only_the_step_never_retrains(monkeypatch):
    import bpeviz.ui.training as cache

    calls = []
    real = cache.train

    def counting(*args, **kwargs):  # train(corpus, options) or train(corpus, **keywords)
        calls.append(args[1].merges if len(args) > 1 else kwargs.get("merges"))
        return real(*args, **kwargs)

    monkeypatch.setattr(cache, "train", counting)
    at = open_page("pages/1_Explore.py", merges=137)
    trained = len(calls)
    for step in (3, 50, 136):
        box = next(b for b in at.number_input if b.key.startswith("stage_box_"))
        box.set_value(step).run()
        ok(at)
    at.switch_page("pages/4_Vocabulary.py").run()
    at.switch_page("pages/2_Tokenize.py").run()
    assert len(calls) == trained <= 1
    at.number_input(key="w_merges").set_value(139).run()
    assert ok(at) and calls[-1] == 139


def test_explore_has_no_timer_and_no_fragment():
    """Play runs in the browser (the stage component); Explore reruns only when the step
    settles, never on a ``run_every`` timer (issue 16: a timed fragment froze pages)."""
    source = (Path(APP).parent / "pages" / "1_Explore.py").read_text()
    assert "run_every=" not in source and "@st.fragment" not in source
    at = open_page("pages/1_Explore.py", merges=12, step=10)
    assert stage(ok(at), "controls")["n"] == 12
    assert "playing" not in at.session_state


# -- the heatmap ------------------------------------------------------------------------


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
    at.selectbox(key="w_pair").set_value(target).run()
    holders = ok(at).dataframe[-1].value
    words = {w for w, s in training.at(0).splits.items()
             if any(s[k:k + 2] == (training.vocab[target[0]], training.vocab[target[1]])
                    for k in range(len(s) - 1))}
    assert set(holders["word"]) == words


# -- settings, URL, pages ---------------------------------------------------------------


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


# -- bad input --------------------------------------------------------------------------


def test_hostile_corpus_and_text_are_escaped_everywhere():
    corpus = (HOSTILE + "\n") * 3 + "low lower lowest"
    at = open_page("pages/1_Explore.py", source="paste", paste=corpus, step=3, text=HOSTILE,
                   text_edited=True)
    assert not ok(at).error
    for page in PAGES:
        at.switch_page(page).run()
        ok(at)
        assert at.text_area(key="w_paste").value == corpus
        for body in html_bodies(at):
            assert "<script" not in body and "<img" not in body and "<b>" not in body
        for el in at.get("plotly_chart"):
            spec = el.proto.spec
            assert "<script" not in spec and "<img" not in spec and "$x$" not in spec
    at.switch_page("pages/2_Tokenize.py").run()
    # the text travels as data; the browser draws it as text (test_browser.py)
    assert stage(ok(at), "tokens")["text"] == HOSTILE
    assert not any(HOSTILE[:8] in body for body in html_bodies(at))
    at.switch_page("pages/1_Explore.py").run()
    # the words travel as data and the browser draws them as text (test_browser_stage.py)
    words = [w[1] for w in stage(ok(at), "words")["words"]]
    assert {"<img", "onerror=alert(1)>", "</span>", "$x$"} <= set(words)


def test_hover_titles_survive_the_sanitizer_of_st_html():
    """DOMPurify (st.html) drops a whole attribute holding ``</script``, ``-->`` or ``]>``:
    chip titles break those with an invisible word joiner and keep everything else."""
    from bpeviz.present.render import chip

    drops = re.compile(r"((--!?|])>)|<\/(style|script|title|xmp|textarea|noscript|iframe|"
                       r"noembed|noframes)", re.I)  # DOMPurify 3.4, SAFE_FOR_XML
    for token in ["</script>", "</STYLE>", "a-->b", "--!>", "]>", "</title>", HOSTILE]:
        title = html.unescape(re.search(r' title="([^"]*)"', chip(token, 1, title=token))[1])
        assert not drops.search(title), token
        assert title.replace("\u2060", "") == token


@pytest.mark.parametrize("text,expected", [
    ("", "Paste a text"),
    ("   \n\t  ", "Paste a text"),
])
def test_empty_or_blank_paste_says_what_to_do(text, expected):
    at = open_page("pages/1_Explore.py", source="paste", paste=text)
    ok(at)
    messages = [m.value for m in [*at.info, *at.error]]
    assert any(expected in m for m in messages), messages
    assert at.text_area(key="w_paste").value == text


def test_choosing_paste_or_upload_in_the_sidebar_asks_for_input():
    at = open_page("pages/1_Explore.py")
    at.segmented_control(key="w_source").set_value("paste").run()
    assert "Paste a text" in ok(at).info[0].value
    at.text_area(key="w_paste").input("low lower lowest " * 5).run()
    assert not any("Paste" in i.value for i in ok(at).info) and "bv-card" in html_text(at)
    at.segmented_control(key="w_source").set_value("upload").run()
    assert "Upload a UTF-8 text file" in ok(at).info[0].value


def test_a_file_that_is_not_utf8_gets_a_clear_error():
    at = open_page("pages/1_Explore.py", source="upload",
                   upload=("latin1.txt", "café crème".encode("latin-1")))
    ok(at)
    assert at.error and "not UTF-8" in plain(at.error[0].value)


def test_a_vocabulary_size_below_the_alphabet_is_explained():
    at = open_page("pages/1_Explore.py", size_by="vocab", vocab=10)
    ok(at)
    assert at.error and "ask for at least" in plain(at.error[0].value)


def test_too_many_merges_names_the_limit_and_the_cli():
    from bpeviz.core.limits import LIMITS

    at = open_page("pages/1_Explore.py", merges=LIMITS.merges + 1)
    ok(at)
    message = at.error[0].value
    assert f"{LIMITS.merges:,}" in message and "python -m bpeviz train" in message


def test_too_many_distinct_words_names_the_limit():
    from bpeviz.core.limits import LIMITS

    words = " ".join(f"w{i}" for i in range(LIMITS.unique_words + 1))
    at = open_page("pages/1_Explore.py", source="paste", paste=words)
    ok(at)
    message = at.error[0].value
    assert f"{LIMITS.unique_words:,}" in message and "python -m bpeviz train" in message


def test_a_corpus_past_the_character_limit_names_it_offers_the_cli_and_keeps_the_text(
        monkeypatch):
    import bpeviz.ui.training as cache
    from bpeviz.core.limits import LIMITS

    calls = []
    monkeypatch.setattr(cache, "train", lambda *a, **k: calls.append(k))
    text = "lower newest " * (LIMITS.text_chars // 13 + 10)
    at = open_page("pages/1_Explore.py", source="paste", paste=text)
    ok(at)
    message = at.error[0].value
    assert "Corpus too large" in message and f"{len(text):,} characters" in message
    assert f"{LIMITS.text_chars:,}" in message and "python -m bpeviz train" in message
    assert at.text_area(key="w_paste").value == text, "the text stays in its box"
    assert not calls, "nothing is trained past the limits"


def test_a_vocabulary_size_past_the_merge_limit_names_it_and_the_cli():
    from bpeviz.core.limits import LIMITS

    at = open_page("pages/1_Explore.py", size_by="vocab", vocab=LIMITS.merges + 1_000)
    ok(at)
    message = at.error[0].value
    assert "Too many merges" in message and f"{LIMITS.merges:,}" in message
    assert "python -m bpeviz train" in message


def test_the_training_and_corpus_caches_are_bounded():
    """Past CACHE_ENTRIES trainings the oldest is dropped, and its memory freed."""
    import gc
    import weakref

    import bpeviz.ui.training as cache

    cache._training_job.clear()
    cache._corpus.clear()
    corpus = cache.get_corpus(sample_bytes("tour"), "whitespace", "tour")
    options = train_options("bpe", merges=1)
    first = weakref.ref(cache.get_training(corpus, options))
    first_job = weakref.ref(cache._training_job(  # the same key as get_training's
        corpus.digest, tuple(sorted(options.items())), corpus, options))
    assert first_job().result is first()
    assert first() is not None and first_job() is not None
    for merges in range(2, cache.CACHE_ENTRIES + 8):
        training = cache.get_training(corpus, train_options("bpe", merges=merges))
        assert len(training.merges) == merges
    del training
    gc.collect()
    jobs = [o for o in gc.get_objects() if isinstance(o, cache.TrainingJob)]
    assert len(jobs) <= cache.CACHE_ENTRIES
    assert first_job() is None and first() is None, "the oldest training was dropped"
    again = cache.get_training(corpus, train_options("bpe", merges=1))
    assert len(again.merges) == 1, "and is trained again when asked for"

    corpora = [weakref.ref(cache.get_corpus(f"w{i} x{i}".encode(), "whitespace", "c"))
               for i in range(cache.CACHE_ENTRIES + 8)]
    gc.collect()
    assert sum(r() is not None for r in corpora) <= cache.CACHE_ENTRIES
    assert corpora[0]() is None

    for step in range(len(again.merges) + 1):
        cache.snapshot(again, step)
    big = cache.get_training(corpus, train_options("bpe", merges=20))
    for step in range(21):
        cache.snapshot(big, step)
    assert len(cache._SNAPSHOTS.keys(big)) <= 6, "a few snapshots per training, not every step"
    cache._training_job.clear()
    cache._corpus.clear()


def test_a_word_count_paste_is_read_as_counts():
    """"cd" (10 times) is merged before "ab" (once); read as 1 each, the tie would go to
    the first pair, "ab"."""
    at = open_page("pages/1_Explore.py", source="paste", paste="ab\t1\ncd\t10\n",
                   merges=3, step=1)
    ok(at)
    expected = train(Corpus.from_counts({"ab": 1, "cd": 10}), "bpe", merges=3)
    assert [(m.token, m.count) for m in expected.merges] == [("cd", 10), ("ab", 1)]
    card = stage(at, "card")
    assert card["step"] == 1
    assert [m[:3] for m in card["merges"]] == [
        [m.left_id, m.right_id, m.token_id] for m in expected.merges]
    assert [m[3] for m in card["merges"]] == ["count 10", "count 1"]


# -- vocabulary, downloads, imports -----------------------------------------------------


def test_vocabulary_table_tree_and_downloads():
    training = reference()
    at = open_page("pages/4_Vocabulary.py", step=30)
    ok(at)
    table = at.dataframe[0].value
    assert len(table) == training.vocab_size_at(30)
    assert at.selectbox(key="w_tree_token").value == training.merges[29].token_id
    tree = body_with(at, "bv-tree")
    assert tree.count("<li>") >= 3  # a token and its two parts at least
    assert any(c.value == "One bar per merge: the count of the pair it merged."
               for c in at.caption)
    labels = [b.label for b in at.get("download_button")]
    assert "tokenizer.json" in labels and "training.json" in labels


def test_the_merge_tree_list_holds_the_newest_tokens_the_table_shows():
    """Past 500 merged tokens the tree's list holds the 500 newest the table shows (not
    every token, which would travel to the browser on every step) and says so; a search
    in the table reaches an older token, and the picked one stays a choice."""
    training = reference(merges=700)
    assert len(training.merges) == 700
    at = open_page("pages/4_Vocabulary.py", merges=700, step=700)
    box = at.selectbox(key="w_tree_token")
    ids = [int(o.rsplit("(id ", 1)[1].rstrip(")")) for o in box.options]
    assert box.value == training.merges[-1].token_id == ids[0]
    assert ids == sorted(ids, reverse=True) and len(ids) == 500
    assert any("500 newest merged tokens" in c.value for c in at.caption)
    old = training.merges[9]  # made at step 10: far from the newest 500
    assert old.token_id not in ids
    at.text_input(key="vocab_search").set_value(old.token).run()
    ok(at)
    box = at.selectbox(key="w_tree_token")
    ids = [int(o.rsplit("(id ", 1)[1].rstrip(")")) for o in box.options]
    assert old.token_id in ids and len(ids) < 500
    box.set_value(old.token_id).run()
    ok(at)
    assert at.selectbox(key="w_tree_token").value == old.token_id
    assert html_text(at).count("<li>") >= 3


def test_an_opened_tokenizer_is_used_on_the_tokenize_page():
    from bpeviz.formats import import_files

    training = reference("bbpe", merges=50)
    files = formats.export(training.at(50), "hf")
    opened = import_files(files)
    at = open_page("pages/2_Tokenize.py", imported=("tokenizer.json", opened),
                   tok_source="imported", imp_step=50, text="hello world")
    ok(at)
    ids = at.code[0].value.split()
    assert ids == [str(t.id) for t in opened.at(50).encode("hello world")]


def test_compare_shows_metrics_for_each_configuration():
    at = open_page("pages/3_Compare.py", cmp_n=3, text="low lower lowest 苹果")
    ok(at)
    metrics = at.dataframe[0].value.set_index("metric")  # a column per configuration
    assert list(metrics.columns) == ["A", "B", "C"]
    assert list(metrics.loc["tokens (corpus)"]) == [
        f"{int(reference(a).token_counts()[-1]):,}" for a in ALGORITHMS]
    spec = chart_spec(at, "compare_tokens")
    assert len(spec["data"]) == 3


def test_tokenize_draws_unknown_and_partial_tokens_distinctly():
    at = open_page("pages/2_Tokenize.py", text="lowest 😀 苹果", text_edited=True,
                   sample="low", merges=10, marker="</w>", step=4)
    flags = {f for *_, f in tokens_at(stage(ok(at), "tokens"), 4)}  # 1 partial, 2 unknown
    assert 2 in flags, "😀 and 苹 are not in the BPE alphabet of this corpus"
    assert not any(f & 1 for f in flags)
    at.selectbox(key="w_algo").set_value("bbpe").run()
    data = stage(ok(at), "tokens")
    flags = {f for *_, f in tokens_at(data, 4)}
    assert 1 in flags and not any(f & 2 for f in flags), "bytes of 苹 are partial tokens"
    assert "�" not in str(data["labels"])
    partial = [m.value for m in at.metric if m.label == "Partial characters"]
    assert partial and int(partial[0]) > 0


def test_the_whitespace_toggle_makes_spaces_tabs_and_newlines_visible():
    at = open_page("pages/2_Tokenize.py", text="a b\tc\nd", text_edited=True)
    # the browser draws the text (tests/test_browser_tokens.py checks what it shows)
    data = stage(ok(at), "tokens")
    assert data["text"] == "a b\tc\nd" and data["showWs"] is False
    at.toggle(key="show_ws").set_value(True).run()
    assert stage(ok(at), "tokens")["showWs"] is True


def test_word_search_sort_and_changed_filter():
    at = open_page("pages/1_Explore.py", step=10)
    at.text_input(key="word_search").input("token").run()
    rows = [w[1] for w in stage(ok(at), "words")["words"]]
    assert rows and all("token" in w.lower() for w in rows)
    at.text_input(key="word_search").input("").run()
    at.checkbox(key="word_changed").check().run()
    words = stage(ok(at), "words")["words"]
    assert len(words) == len(reference().at(10).changed_words)
    assert all(10 in made for *_, made, _ in words), "each has a token made at step 10"
    at.checkbox(key="word_changed").uncheck().run()
    at.selectbox(key="word_sort").set_value("most frequent").run()
    first = stage(ok(at), "words")["words"][0][1]
    corpus = load_sample("tour")
    assert first == max(zip(corpus.words, corpus.counts), key=lambda wc: wc[1])[0]


@pytest.mark.parametrize("settings", [
    {"merges": 0},
    {"min_freq": 10_000},
    {"source": "paste", "paste": "a"},
    {"source": "paste", "paste": "a" * 3000},
    {"source": "paste", "paste": "x" * 10_000 + " y"},
    {"source": "paste", "paste": "👨‍👩‍👧‍👦 👍🏽 e\u0301 שלום مرحبا 自然语言处理 a\u200bb\u00ad"},
    {"source": "paste", "paste": "tab\tseparated\r\nCRLF lines\x00nul"},
], ids=["no-merges", "min-frequency", "one-char", "one-char-repeated", "long-word",
        "emoji-rtl-cjk-invisible", "tabs-crlf-nul"])
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_edge_corpora_run_every_page(settings, algorithm):
    at = open_page("app.py", algo=algorithm, **settings)
    for page in PAGES:
        ok(at.switch_page(page).run())
        assert not at.error or "Training failed" not in at.error[0].value


def test_the_engine_and_its_view_helpers_do_not_import_streamlit():
    import subprocess
    import sys

    code = ("import sys, bpeviz, bpeviz.present.render, bpeviz.analysis.views, bpeviz.core.limits,"
            " bpeviz.samples;"
            "sys.exit('streamlit' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], cwd=Path(APP).parent).returncode == 0
