"""The Unigram pages say what they show: the metrics' caption names the changes it
draws, and a vocabulary size the corpus cannot reach is said in words (what was used
and why), not as "1.1 × the target of 5" shown as 5."""

from __future__ import annotations

import json

from bpeviz.ui.unigram import deltas_sentence
from tests.support.app import html_bodies, ok, unigram_app
from tests.support.trainings import sample_training


def round_numbers(at) -> dict:
    """What the page sends the browser for the numbers beside the round card."""
    return next(d for d in (json.loads(e.proto.json or "null") for e in at.get("bidi_component"))
                if isinstance(d, dict) and d.get("role") == "numbers")


def metrics_caption(at) -> str:
    sent = round_numbers(at)
    return sent["notes"][sent["step"]]


def shown_deltas(at) -> list[bool]:
    """Whether each metric shows a change at the round the page is at (as the browser
    draws it: a change of at least its ``least``, in its shown digits)."""
    sent = round_numbers(at)
    k = sent["step"]
    if not k:
        return [False for _ in sent["metrics"]]
    return [abs(m["values"][k] - m["values"][k - 1]) >= m.get("least", 0)
            and round(m["values"][k] - m["values"][k - 1], m.get("digits", 0)) != 0
            for m in sent["metrics"]]


def rounds_why(at) -> str:
    return next(b for b in html_bodies(at) if "bv-rounds-why" in b)


def test_the_metrics_caption_says_which_changes_are_drawn_under_them():
    training = sample_training()
    at = unigram_app("pages/1_Explore.py")
    seen = set()
    for k in range(1, len(training)):
        ok(at.session_state.__setitem__("uround", k) or at.run())
        grew = len(training.at(k).pieces) - len(training.at(k - 1).pieces)
        fell = training.at(k).loss - training.at(k - 1).loss
        caption = metrics_caption(at).replace("\\", "")
        assert shown_deltas(at) == [grew != 0, abs(fell) >= 0.05], k
        assert "none shown: no change" not in caption
        assert deltas_sentence(k, grew, fell) in caption, (k, caption)
        seen.add((grew != 0, abs(fell) >= 0.05))
    assert (True, True) in seen  # a round where both changed: the caption names both


def test_a_vocabulary_size_under_the_characters_is_said_with_what_was_used_and_why():
    at = unigram_app("pages/1_Explore.py", uvocab=5)
    training = sample_training(vocab=5)
    chars = len({ch for w in training.at(0).words for ch in w})
    why = rounds_why(at)
    assert "1.1 × the target of 5" not in why
    assert "until at most 5 are left (1.1 × the vocabulary size of 5, rounded down)" in why
    pruned = len(training.steps[-2].pieces)
    assert (f"which this corpus cannot reach: the rounds stop when one removes nothing more, "
            f"at {pruned:,} pieces, its {chars:,} characters among them") in why
    final = len(training.final.pieces)
    assert (f"The last step is the final vocabulary: {final:,} pieces ({final + 3:,} tokens "
            "with &lt;unk&gt;, &lt;s&gt;, &lt;/s&gt;), more than the 5 asked for") in why
    # and the warning above the round bar says the size reached, the size asked and why
    warning = " ".join(w.value for w in at.warning).replace("\\", "")
    assert f"{training.size:,} tokens, more than the 5 asked for" in warning


def test_a_reachable_size_says_what_the_final_vocabulary_holds():
    training = sample_training()
    at = unigram_app("pages/1_Explore.py")
    why = rounds_why(at)
    assert "cannot reach" not in why and "asked for" not in why
    last = training.steps[-2]
    left = len(last.pieces) - len(last.restored)
    assert last.restored and left <= int(training.requested_size * 1.1)
    # 402 pieces after rounds that stop at 355: the characters the rounds' model dropped
    assert (f"{len(training.final.pieces):,} pieces ({training.size:,} tokens with "
            f"&lt;unk&gt;, &lt;s&gt;, &lt;/s&gt;): the {left:,} pieces the rounds left and the "
            f"{len(last.restored):,} characters of the corpus the trainer&#x27;s own model had "
            "dropped (every character is kept).") in why


def test_the_removed_table_writes_every_number_or_says_it_was_not_computed():
    training = sample_training()
    at = unigram_app("pages/1_Explore.py", uround=1)
    table = next(d.value for d in at.dataframe if "why" in d.value.columns)
    assert len(table) == len(training.at(0).removed)
    for column in ("cost", "nats", "uses"):
        assert table[column].notna().all(), column  # nothing drawn as "None"
    em = table[table["reason"] == "em"]
    assert len(em) and set(em["cost"]) == {"not computed"}


def test_no_lattice_label_lies_on_the_best_path():
    """The best path is drawn above the row of characters and every other arc below it:
    a best-path label sits above its own arc's top, every other label under the
    characters, where no red arc goes."""
    from bpeviz.ui.unigram_figures import BEST_COLOUR, lattice_figure
    from bpeviz.unigram.views import word_lattice

    training = sample_training()
    step = training.at(3)
    order = sorted(range(len(step.words)), key=lambda i: -step.counts[i])
    for word in [step.words[i] for i in order[:40]]:
        found = word_lattice(step.model, word)
        fig = lattice_figure(found)
        lines = [t for t in fig.data if t.mode == "lines"]
        red = [t for t in lines if t.line.color == BEST_COLOUR]
        assert len(red) == len(found.best)
        red_top = max(max(t.y) for t in red)
        assert all(min(t.y) >= 0 for t in red), word
        assert all(max(t.y) <= 0 for t in lines if t.line.color != BEST_COLOUR), word
        labels = [t for t in fig.data if t.mode == "text" and t.textposition != "middle center"]
        for trace in labels:
            best = trace.textfont.color == BEST_COLOUR
            if best:  # each above its own arc's top (the red arc's highest point)
                tops = {round((t.x[0] + t.x[-1]) / 2, 6): max(t.y) for t in red}
                assert all(y > tops[round(x, 6)] for x, y in zip(trace.x, trace.y)), word
                assert trace.textposition == "top center"
            else:  # under the characters, growing downwards: never near a red arc
                assert all(y < 0 for y in trace.y) and trace.textposition == "bottom center"
        assert red_top > 0
