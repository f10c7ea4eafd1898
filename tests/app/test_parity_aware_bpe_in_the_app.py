"""Parity-aware BPE in the app: offered in the sidebar, trained on one corpus per language
(the shipped parallel sample by default, or a text pasted per language), its record's
settings drawn in the sidebar, every page drawn without an error box, and at every step
which language got the merge and on which numbers: beside the card (drawn by the
browser at the bar's step: tests/browser/test_parity_names_the_language_of_each_step.py)
and in "Why this merge?"; each language at the step, per script, and its curve on
Explore and on Compare beside standard BPE's."""

from __future__ import annotations

import json

import pytest

import bpeviz
from bpeviz.samples import parallel_sample
from tests.support.app import PAGES, chart_spec, html_text, ok, open_page, plain, stage

TEXTS, _ = parallel_sample()
SAMPLE = {lang: data.decode("utf-8") for lang, data in TEXTS.items()}


def choose_parity(at):
    next(b for b in at.sidebar.selectbox if b.label == "Algorithm").select("parity").run()
    return ok(at)


def beside_card(at) -> list[dict]:
    """What the page sends the browser for the numbers beside the card."""
    found = [json.loads(el.proto.json or "null") for el in at.get("bidi_component")]
    return [d for d in found if isinstance(d, dict) and d.get("role") == "numbers"]


def language_choice(at) -> dict:
    """The sentence per step beside the card: who got the merge, on which numbers."""
    return next(d for d in beside_card(at) if d.get("notes"))


def language_numbers(at) -> dict:
    """Each language's tokens at every step, beside the card."""
    return next(d for d in beside_card(at)
                if d["metrics"] and d["metrics"][0]["label"].endswith(" tokens")
                and d["metrics"][0]["label"] != "Corpus tokens")


def no_error(at, page: str):
    ok(at)
    assert not at.error, (page, [e.value for e in at.error])
    return at


@pytest.fixture(scope="module")
def expected():
    return bpeviz.train(SAMPLE, algorithm="parity", merges=200)


def test_every_page_runs_with_parity_chosen_on_the_parallel_sample():
    at = choose_parity(open_page())
    for page in [*PAGES, "pages/0_Learn.py"]:
        no_error(at.switch_page(page).run(), page)
    at.switch_page("pages/1_Explore.py").run()
    said = plain(" ".join(c.value for c in at.caption))
    assert "Parity-aware BPE on the parallel sample (en, de, hi, ar, zh)" in said


def test_the_card_says_which_language_got_each_merge_with_its_numbers(expected):
    at = choose_parity(open_page("pages/1_Explore.py"))
    card = stage(at, "card")
    assert [tuple(m[:3]) for m in card["merges"]] == [
        (m.left_id, m.right_id, m.token_id) for m in expected.merges]
    choice = language_choice(at)
    assert choice["notes"][1:] == [expected.why(k) for k in range(1, 201)]
    assert beside_card(at)[0] == choice, "the sentence comes first beside the card"
    numbers = language_numbers(at)
    assert [m["label"] for m in numbers["metrics"]] == [
        f"{lang} tokens" for lang in ("en", "de", "hi", "ar", "zh")]
    hi = numbers["metrics"][2]["values"]
    assert hi[0] == len(TEXTS["hi"]) and len(hi) == 201  # bytes at step 0, then every step
    first = expected.choice(1)
    assert first.language == "hi"  # the most bytes: the most tokens before any merge
    assert choice["notes"][1].startswith(
        "Merge 1 went to hi: the most tokens on its training text (en 2,412, de 2,694, "
        "hi 6,041, ar 3,491, zh 2,103)")


def test_why_this_merge_names_the_language_and_the_numbers_it_was_chosen_on(expected):
    at = choose_parity(open_page("pages/1_Explore.py"))
    at.session_state["step"] = 10
    ok(at.run())
    text = html_text(at)
    c = expected.choice(10)
    assert f'data-language="{c.language}"' in text
    assert f"Merge 10 went to {c.language}: the most tokens on its training text" in text
    assert "◀ got merge 10" in text
    # the pairs most frequent over all languages were not its rivals: none are named
    assert "bv-why-rival" not in text and "replayed from a tokenizer file" not in text


def test_explore_shows_each_language_and_script_at_the_step_and_its_curve(expected):
    at = choose_parity(open_page("pages/1_Explore.py"))
    at.session_state["step"] = 50
    ok(at.run())
    table = next(df.value for df in at.dataframe if "merges so far" in df.value.columns)
    assert table["language"].tolist() == ["en", "de", "hi", "ar", "zh"]
    got = expected.merges_per_language()
    assert table["merges so far"].sum() == 50
    assert table["tokens"].tolist() == list(expected.language_tokens()[50])
    assert set(table["script"]) >= {"Latin", "Devanagari", "Arabic", "Han"}
    assert "By script" in " ".join(m.value for m in at.markdown)
    scripts = next(b for b in (el.proto.body for el in at.get("html"))
                   if "tokens/word" in b or "chars/token" in b)
    assert "Devanagari" in scripts and "step 50" in scripts
    curve = chart_spec(at, "language_rates")
    assert [d["name"] for d in curve["data"]] == ["en", "de", "hi", "ar", "zh"]
    assert sum(got.values()) == 200


def test_compare_draws_each_languages_curve_beside_standard_bpe():
    at = choose_parity(open_page("pages/3_Compare.py"))
    at.selectbox(key="w_c2_algo").set_value("parity").run()
    no_error(at, "Compare")
    names = [d["name"] for d in chart_spec(at, "compare_language_rates")["data"]]
    assert names == [f"{c} {lang}" for c in "AB" for lang in ("en", "de", "hi", "ar", "zh")]


def test_a_parity_column_beside_a_one_corpus_sidebar_says_it_trains_one_language():
    at = open_page("pages/3_Compare.py")  # the sidebar: byte-level BPE on one sample
    at.selectbox(key="w_c2_algo").set_value("parity").run()
    no_error(at, "Compare")
    notes = [c.value for c in at.caption if "trains as one language" in c.value]
    assert len(notes) == 1, [c.value for c in at.caption]
    assert "Choose Parity-aware BPE in the sidebar" in notes[0]
    choose_parity(at)  # one corpus per language: nothing to explain
    no_error(at, "Compare")
    assert not [c.value for c in at.caption if "trains as one language" in c.value]


def paste_languages(at, names: str):
    at.sidebar.segmented_control(key="w_source").set_value("paste").run()
    at.sidebar.text_input(key="w_langs").set_value(names).run()
    return ok(at)


def test_a_text_pasted_per_language_trains_one_corpus_each():
    at = paste_languages(choose_parity(open_page("pages/1_Explore.py")), "en, fr")
    at.sidebar.text_area(key="w_lang_paste_en").set_value("the cat sat on the mat " * 20).run()
    at.sidebar.text_area(key="w_lang_paste_fr").set_value(
        "le chat est assis sur le tapis " * 20).run()
    no_error(at, "Explore")
    expected = bpeviz.train({"en": "the cat sat on the mat " * 20,
                             "fr": "le chat est assis sur le tapis " * 20},
                            algorithm="parity", merges=200)
    numbers = language_numbers(at)
    assert [m["label"] for m in numbers["metrics"]] == ["en tokens", "fr tokens"]
    assert language_choice(at)["notes"][1] == expected.why(1)
    for page in PAGES:  # the texts stay in their boxes on every page
        no_error(at.switch_page(page).run(), page)
        assert at.sidebar.text_area(key="w_lang_paste_fr").value.startswith("le chat")


def test_bad_per_language_input_gives_a_message_and_keeps_the_text():
    at = paste_languages(choose_parity(open_page("pages/1_Explore.py")), "en, hi")
    at.sidebar.text_area(key="w_lang_paste_en").set_value("the cat sat on the mat").run()
    ok(at)
    infos = plain(" ".join(i.value for i in at.info))
    assert "Paste a text for hi" in infos, infos
    assert at.sidebar.text_area(key="w_lang_paste_en").value == "the cat sat on the mat"
    at.sidebar.text_input(key="w_langs").set_value("en, en").run()
    ok(at)
    assert any("“en” is named twice" in plain(e.value) for e in at.error), \
        [e.value for e in at.error]
    assert at.sidebar.text_input(key="w_langs").value == "en, en"
    at.sidebar.text_input(key="w_langs").set_value("en, hi").run()
    ok(at)
    assert at.sidebar.text_area(key="w_lang_paste_en").value == "the cat sat on the mat"
    bad = "cat\t3\ndog\t2\nmat\tmany\n"  # word<TAB>count lines, one count not a number
    at.sidebar.text_area(key="w_lang_paste_hi").set_value(bad).run()
    ok(at)
    assert any("the hi text, line 3: the count 'many' is not a whole number" in plain(e.value)
               for e in at.error), [e.value for e in at.error]
    assert at.sidebar.text_area(key="w_lang_paste_hi").value == bad
    assert at.sidebar.text_area(key="w_lang_paste_en").value == "the cat sat on the mat"


def test_a_file_uploaded_per_language_trains_and_a_file_not_utf8_is_named():
    at = choose_parity(open_page("pages/1_Explore.py"))
    at.session_state["lang_upload"] = {"en": ("story.en.txt", TEXTS["en"]),
                                       "hi": ("story.hi.txt", TEXTS["hi"])}
    at.sidebar.segmented_control(key="w_source").set_value("upload").run()
    no_error(at, "Explore")
    expected = bpeviz.train({"en": SAMPLE["en"], "hi": SAMPLE["hi"]}, algorithm="parity",
                            merges=200)
    assert language_choice(at)["notes"][5] == expected.why(5)
    at.session_state["lang_upload"] = {"en": ("story.en.txt", TEXTS["en"]),
                                       "hi": ("story.hi.txt", b"\xff\xfe not UTF-8")}
    ok(at.run())
    assert any("the hi text is not UTF-8 text" in plain(e.value) for e in at.error), \
        [e.value for e in at.error]


def test_the_record_settings_are_drawn_and_train_as_the_engine_does():
    at = choose_parity(open_page("pages/1_Explore.py"))
    sidebar = {getattr(w, "key", None): w for w in at.sidebar}
    for key in ("w_pvariant", "w_global_merges", "w_ratio", "w_window_size", "w_alpha",
                "w_min_freq"):
        assert key in sidebar, key
    assert sidebar["w_window_size"].disabled and sidebar["w_alpha"].disabled
    at.sidebar.radio(key="w_pvariant").set_value("window").run()
    at.sidebar.number_input(key="w_global_merges").set_value(5).run()
    at.sidebar.number_input(key="w_window_size").set_value(20).run()
    no_error(at, "Explore")
    assert not at.sidebar.number_input(key="w_window_size").disabled
    expected = bpeviz.train(SAMPLE, algorithm="parity", merges=200, variant="window",
                            global_merges=5, window_size=20)
    assert [tuple(m[:3]) for m in stage(at, "card")["merges"]] == [
        (m.left_id, m.right_id, m.token_id) for m in expected.merges]
    assert language_choice(at)["notes"][1].startswith("Merge 1 is a global merge")
    at.sidebar.text_input(key="w_ratio").set_value("en=1, de=x").run()
    ok(at)
    assert any("is not language=number" in plain(w.value) for w in at.warning)
    at.sidebar.text_input(key="w_ratio").set_value("en=1").run()
    ok(at)  # ratios for some languages only: the trainer's message, not a traceback
    assert any("ratio" in plain(e.value) for e in at.error), [e.value for e in at.error]
    at.sidebar.radio(key="w_pvariant").set_value("base").run()
    at.sidebar.number_input(key="w_global_merges").set_value(0).run()
    at.sidebar.text_input(key="w_ratio").set_value("en=1, de=1, hi=1.5, ar=1.2, zh=2").run()
    no_error(at, "Explore")
    ratios = {"en": 1, "de": 1, "hi": 1.5, "ar": 1.2, "zh": 2}
    expected = bpeviz.train(SAMPLE, algorithm="parity", merges=200, ratio=ratios)
    notes = language_choice(at)["notes"]
    assert notes[1:] == [expected.why(k) for k in range(1, 201)]
    assert "the lowest compression over its ratio" in notes[1]


def test_dev_texts_pasted_per_language_decide_which_language_gets_each_merge():
    at = paste_languages(choose_parity(open_page("pages/1_Explore.py")), "en, fr")
    train = {"en": "the cat sat on the mat " * 20, "fr": "le chat est assis sur le tapis " * 20}
    dev = {"en": "the cat is on the mat", "fr": "le chat est sur le tapis"}
    for lang, text in train.items():
        at.sidebar.text_area(key=f"w_lang_paste_{lang}").set_value(text).run()
    at.sidebar.toggle(key="w_lang_dev").set_value(True).run()
    ok(at)
    assert "Paste a dev text for en, fr" in plain(" ".join(i.value for i in at.info))
    for lang, text in dev.items():
        at.sidebar.text_area(key=f"w_lang_dev_{lang}").set_value(text).run()
    no_error(at, "Explore")
    expected = bpeviz.train(train, algorithm="parity", merges=200, dev=dev)
    notes = language_choice(at)["notes"]
    assert notes[1:] == [expected.why(k) for k in range(1, len(expected.merges) + 1)]
    assert "the most tokens on its dev text" in notes[1]


def test_dev_files_uploaded_per_language_decide_which_language_gets_each_merge():
    at = choose_parity(open_page("pages/1_Explore.py"))
    at.session_state["lang_upload"] = {"en": ("story.en.txt", TEXTS["en"]),
                                       "hi": ("story.hi.txt", TEXTS["hi"])}
    at.sidebar.segmented_control(key="w_source").set_value("upload").run()
    at.sidebar.toggle(key="w_lang_dev").set_value(True).run()
    ok(at)
    assert "Upload a dev text for en, hi" in plain(" ".join(i.value for i in at.info))
    dev = {"en": "The library opens at eight.", "hi": "पुस्तकालय आठ बजे खुलता है।"}
    at.session_state["lang_dev_upload"] = {
        lang: (f"dev.{lang}.txt", text.encode("utf-8")) for lang, text in dev.items()}
    no_error(at.run(), "Explore")
    expected = bpeviz.train({"en": SAMPLE["en"], "hi": SAMPLE["hi"]}, algorithm="parity",
                            merges=200, dev=dev)
    notes = language_choice(at)["notes"]
    assert notes[1:] == [expected.why(k) for k in range(1, len(expected.merges) + 1)]
    assert "the most tokens on its dev text" in notes[1]
    assert "en: using dev.en.txt (27 bytes) as its dev text" in " ".join(
        plain(c.value) for c in at.sidebar.caption)


def test_the_sample_can_hold_out_its_last_paragraph_as_parallel_dev_texts():
    at = choose_parity(open_page("pages/1_Explore.py"))
    at.sidebar.toggle(key="w_sample_dev").set_value(True).run()
    no_error(at, "Explore")
    train, dev = {}, {}
    for lang, text in SAMPLE.items():  # the story without its last paragraph, and that one
        *kept, last = [p for p in text.split("\n\n") if p.strip()]
        train[lang], dev[lang] = "\n\n".join(kept), last.strip("\n") + "\n"
    expected = bpeviz.train(train, algorithm="parity", merges=200, dev=dev)
    notes = language_choice(at)["notes"]
    assert notes[1:] == [expected.why(k) for k in range(1, len(expected.merges) + 1)]
    assert "the most tokens on its dev text" in notes[1]
    assert plain(at.query_params["sample_dev"]) == "1", "the link holds the choice"
