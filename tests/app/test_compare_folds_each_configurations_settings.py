"""Compare on a screen: each configuration's settings are folded under a one-line label
that says what it is (letter, algorithm, size, pre-tokenizer), following the settings as
they change, so the text and its cuts come first; the widgets keep their keys. On a
projector the settings fold away below the cuts as one block, as before."""

from __future__ import annotations

from tests.support.compare import open_compare


def config_folds(at) -> list[str]:
    return [e.label for e in at.main.expander if e.label.startswith("**")]


def test_each_configuration_is_one_folded_line_naming_its_settings():
    at = open_compare(cmp_n=3)
    assert config_folds(at) == [
        "**A** · BPE \\(characters\\) · 200 merges · whitespace",
        "**B** · Byte\\-level BPE · 200 merges · GPT\\-2 regex",
        "**C** · WordPiece · 200 merges · whitespace"]
    for k in (1, 2, 3):  # the widgets, in the folds, under their own keys
        assert at.selectbox(key=f"w_c{k}_algo") is not None
        assert at.number_input(key=f"w_c{k}_merges") is not None
    at.number_input(key="w_c2_merges").set_value(300).run()
    at.selectbox(key="w_c1_algo").set_value("unigram").run()
    assert not at.exception
    folds = config_folds(at)
    assert folds[0].startswith("**A** · Unigram") and "400 tokens" in folds[0], folds
    assert folds[1] == "**B** · Byte\\-level BPE · 300 merges · GPT\\-2 regex"
    assert at.query_params["c2_merges"] in ("300", ["300"])


def test_a_projector_keeps_one_settings_fold_below_the_cuts():
    at = open_compare(present=True)
    assert not config_folds(at)
    assert any(e.label.startswith("Settings: how many") for e in at.main.expander)
