"""A text's tokens at every step, in a compact form a browser can step through.

For each distinct word of the text (as the pre-tokenizer cuts it), the word's pieces at
each step where they change: ``[[step, ids, starts, ends, flags], ...]``, first at step 0.
The pieces at step k are the last version whose step is <= k. Every version is what the
encoder gives at that step (same code, only the merges or tokens it may use differ).

How the change steps are found (the record's coder says which way,
:meth:`bpeviz.core.coders.WordCoder.change_steps`):

- **by the merges' ranks** (BPE, BBPE): the encoding of a word at step k applies, lowest
  rank first, only the merges of rank <= k. A merge's parts are made before it, so a
  merge never makes a pair of a lower rank than its own: the ranks applied with all
  merges come in rising order, and the encoding at step k is the all-merges run stopped
  before its first rank > k.
  The encoding is thus constant between the ranks that run applies, and each change
  step is found by bisection (equal pieces at both ends of a range: no change inside).
- **by longest match** (WordPiece): the greedy longest match is not monotone in k (a
  longer token can appear, then be skipped for another), so every step whose new token
  occurs in the word (at its start, or after ``##`` inside it) is tried, and kept when
  the pieces change.

tests/analysis/test_text_history.py checks every step against :func:`bpeviz.core.encoding.encode`.

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_text("low low lower"), merges=2)
>>> h = text_history(t, "low")
>>> [v[0] for v in h["forms"][0]], h["words"]
([0, 1, 2], [[0, 0]])
"""

from __future__ import annotations

from typing import Any

from bpeviz.core import encoding
from bpeviz.core.training import Training
from bpeviz.present import stage_data

_Pieces = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class _Stepper:
    """Pieces of one word at any step: the record's coder (:meth:`WordCoder.cut_at`) with
    one encoder of the last step (Python engine)."""

    def __init__(self, training: Training) -> None:
        self.training = training
        self.n = len(training.merges)
        self.enc = encoding._Encoder(training, self.n, engine="python")
        self.coder = self.enc.word_coder

    def pieces(self, word: str, step: int) -> _Pieces:
        found = self.coder.cut_at(self.enc, word, step)
        return tuple(zip(*found)) if found else ((), (), (), ())  # type: ignore[return-value]

    def versions(self, word: str) -> list[list[Any]]:
        """``[[step, ids, starts, ends, flags], ...]``: the word's pieces where they change."""
        first = self.pieces(word, 0)
        out = [(0, first)]
        steps = self.coder.change_steps(self.training, word)
        if steps is None:
            last = self.pieces(word, self.n)
            if last != first:
                self._bisect(word, 0, first, self.n, last, out)
        else:
            for step in steps:
                now = self.pieces(word, step)
                if now != out[-1][1]:
                    out.append((step, now))
        return [[step, *map(list, p)] for step, p in out]

    def _bisect(self, word: str, lo: int, at_lo: _Pieces, hi: int, at_hi: _Pieces,
                out: list[tuple[int, _Pieces]]) -> None:
        """Append the change steps in (lo, hi], given the pieces differ at lo and hi."""
        if hi - lo == 1:
            out.append((hi, at_hi))
            return
        mid = (lo + hi) // 2
        at_mid = self.pieces(word, mid)
        if at_mid != at_lo:
            self._bisect(word, lo, at_lo, mid, at_mid, out)
        if at_mid != at_hi:
            self._bisect(word, mid, at_mid, hi, at_hi, out)


def text_history(training: Training, text: str) -> dict[str, Any]:
    """The tokens of ``text`` at every step of ``training``.

    ``words``: ``[offset, form index]`` for each word of the text, in order (``offset``
    in characters); ``forms``: for each distinct word, the versions of its pieces
    (offsets relative to the word; flags 1 = part of a character, 2 = unknown).
    """
    stepper = _Stepper(training)
    words, offsets = encoding.split_words(text, stepper.enc.pretokenizer)
    index: dict[str, int] = {}
    forms = []
    for word in words:
        if word not in index:
            index[word] = len(forms)
            forms.append(stepper.versions(word))
    return {"words": [[off, index[w]] for w, off in zip(words, offsets)], "forms": forms}


def any_text_history(training: Any, text: str) -> dict[str, Any] | None:
    """:func:`text_history`, or the training's own ``text_history(text)`` when its steps
    are not merges alone (PickyBPE's removals), which may give None: the text's words
    need too many encodings to send every step's."""
    own = getattr(training, "text_history", None)
    return own(text) if callable(own) else text_history(training, text)


def tokens_at(history: dict[str, Any], step: int) -> list[tuple[int, int, int, int]]:
    """``(id, start, end, flags)`` of every token of the text at ``step`` (offsets in
    the text): what the browser draws, for tests."""
    out = []
    for offset, form in history["words"]:
        chosen = history["forms"][form][0]
        for version in history["forms"][form]:
            if version[0] <= step:
                chosen = version
        _, ids, starts, ends, flags = chosen
        out.extend((i, offset + s, offset + e, f) for i, s, e, f in zip(ids, starts, ends, flags))
    return out


def stage_tokens(training: Training, text: str, byte_style: str = "gpt2",
                 history: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the stage's "tokens" part draws: the text, its history (:func:`text_history`)
    and the labels of the tokens it uses (the app and the offline slides share it)."""
    from bpeviz.analysis import views

    history = text_history(training, text) if history is None else history
    used = {i for form in history["forms"] for version in form for i in version[1] if i >= 0}
    labels = {str(i): list(v) for i, v in views.token_labels(training, used, byte_style).items()}
    notes = stage_data.chip_notes(training, labels, byte_style)  # (a note's index joins its label)
    return {"text": text, "labels": labels, "notes": notes,
            "unkText": encoding.unk_token(training) or "[UNK]",
            "marks": stage_data.stage_marks(training, text), **history}
