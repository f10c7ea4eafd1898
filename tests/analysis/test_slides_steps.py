"""Every step of the offline slides matches the training, read outside the browser from
the data ``slides.py`` emits: the card of step k names merge k's pair, new token and
count (or WordPiece score), its tokens are labelled as the training's vocabulary, and
the words' splits at step k are ``training.at(k).splits``."""

from __future__ import annotations

import inspect
import textwrap

import pytest

from bpeviz import Corpus, train
from bpeviz.present.slides import slides_html
from bpeviz.text.display import label
from tests.support.slides import data_of

TEXT = inspect.getsource(textwrap)[:6000] + " naïve café 中文 苹果派 😀 "
CONFIGS = {
    "bpe": dict(algorithm="bpe"),
    "bpe-glued": dict(algorithm="bpe", marker="</w>", marker_style="glued", tie_break="ids"),
    "bpe-separate": dict(algorithm="bpe", marker="</w>"),
    "bbpe": dict(algorithm="bbpe"),
    "wordpiece": dict(algorithm="wordpiece"),
}


def card_rows(card: dict) -> tuple[list[tuple[int, int, int, str]], dict[int, str]]:
    """The card's merges and token labels, rebuilt from the emitted columns (the base
    labels by id, a merged token's label = left + right unless given in "extra")."""
    cols = card["mergeCols"]
    texts = cols.get("text") or [f"count {c:,}" for c in cols["count"]]
    rows = list(zip(cols["left"], cols["right"], cols["token"], texts))
    labels = {i: row[0] for i, row in enumerate(card["labels"]["base"])}
    extra = {int(i): row[0] for i, row in card["labels"]["extra"].items()}
    for left, right, token, _ in rows:
        if token not in labels:
            labels[token] = extra.get(token, labels[left] + labels[right])
    labels.update(extra)
    return rows, labels


@pytest.mark.parametrize("name", sorted(CONFIGS))
@pytest.mark.parametrize("byte_style", ["gpt2", "hex"])
def test_every_step_of_the_slides_is_the_trainings_merge(name, byte_style):
    config = dict(CONFIGS[name])
    pretokenizer = "gpt2" if config["algorithm"] == "bbpe" else "whitespace"
    training = train(Corpus.from_text(TEXT, pretokenizer), config.pop("algorithm"),
                     merges=120, **config)
    data = data_of(slides_html(training, words=10, byte_style=byte_style))
    card = data["bv-card"]
    assert card["n"] == len(training.merges) == 120
    rows, labels = card_rows(card)
    assert len(rows) == len(training.merges)
    scored = training.algorithm == "wordpiece"
    for m, (left, right, token, text) in zip(training.merges, rows):
        assert (left, right, token) == (m.left_id, m.right_id, m.token_id), m.step
        assert labels[left] == label(m.left, byte_style), m.step
        assert labels[right] == label(m.right, byte_style), m.step
        assert labels[token] == label(m.token, byte_style), m.step
        expected = (f"score {m.score:.4g} · count {m.count:,}" if scored
                    else f"count {m.count:,}")
        assert text == expected, m.step
    for i, symbol in enumerate(training.vocab):
        if i in labels:
            assert labels[i] == label(symbol, byte_style)

    words = data["bv-words"]
    word_labels = {int(i): row[0] for i, row in words["labels"].items()}
    n = len(training.merges)
    for index, _shown, count, tokens, made, merged in (w[:6] for w in words["words"]):
        word = training.corpus.words[index]
        assert count == training.corpus.counts[index]
        for k in range(n + 1):
            alive = [word_labels[t] for t, a, b in zip(tokens, made, merged) if a <= k < b]
            expected = [label(s, byte_style) for s in training.at(k).splits[word]]
            assert alive == expected, (word, k)
