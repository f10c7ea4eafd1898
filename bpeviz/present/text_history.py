"""A text's tokens at every step, in a compact form a browser can step through.

For each distinct word of the text (as the pre-tokenizer cuts it), the word's pieces at
each step where they change: ``[[step, ids, starts, ends, flags], ...]``, first at step 0.
The pieces at step k are the last version whose step is <= k. Every version is what the
encoder gives at that step (same code, only the merges or tokens it may use differ).

How the change steps are found:

- **BPE / BBPE**: the encoding of a word at step k applies, lowest rank first, only the
  merges of rank <= k. A merge's parts are made before it, so a merge never makes a pair
  of a lower rank than its own: the ranks applied with all merges come in rising order,
  and the encoding at step k is the all-merges run stopped before its first rank > k.
  The encoding is thus constant between the ranks that run applies, and each change
  step is found by bisection (equal pieces at both ends of a range: no change inside).
- **WordPiece**: the greedy longest match is not monotone in k (a longer token can
  appear, then be skipped for another), so every step whose new token occurs in the
  word (at its start, or after ``##`` inside it) is tried, and kept when the pieces change.

tests/test_text_history.py checks every step against :func:`bpeviz.core.encoding.encode`.

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_text("low low lower"), merges=2)
>>> h = text_history(t, "low")
>>> [v[0] for v in h["forms"][0]], h["words"]
([0, 1, 2], [[0, 0]])
"""

from __future__ import annotations

from typing import Any

from bpeviz.algorithms import get as get_algorithm
from bpeviz.core import coders, encoded, encoding
from bpeviz.core.training import Training
from bpeviz.engine import merge_word
from bpeviz.present import stage_data
from bpeviz.text.symbols import WORDPIECE_PREFIX

_Pieces = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class _RanksUpTo:
    """The first ``step`` merges of a ranks table (``get`` as :func:`merge_word` uses it)."""

    def __init__(self, ranks: dict[tuple[int, int], tuple[int, int]], step: int) -> None:
        self.ranks, self.step = ranks, step

    def get(self, pair: tuple[int, int], default: Any = None) -> Any:
        found = self.ranks.get(pair)
        return found if found is not None and found[0] <= self.step else default


class _Stepper:
    """Pieces of one word at any step, with one encoder (all merges, Python engine)."""

    def __init__(self, training: Training) -> None:
        self.training = training
        self.n = len(training.merges)
        self.enc = encoding._Encoder(training, self.n, engine="python")
        self.algorithm = self.enc.algorithm
        alg = get_algorithm(self.algorithm)
        self.longest_match = alg.encoder == "longest_match"  # WordPiece: no merges to replay
        self.byte_level = alg.byte_level
        self.final = training.vocab_size_at(self.n)

    def pieces(self, word: str, step: int) -> _Pieces:
        enc = self.enc
        if self.longest_match:
            found = self._wordpiece(word, step)
        else:
            ranks = _RanksUpTo(enc.ranks, step)
            enc._merge = lambda ids, s, e: merge_word.merge_word(ids, s, e, ranks)  # type: ignore[assignment]
            found = enc._bbpe(word) if self.byte_level else enc._bpe(word)
        return tuple(zip(*found)) if found else ((), (), (), ())  # type: ignore[return-value]

    def _wordpiece(self, word: str, step: int) -> tuple[tuple[int, int, int, int], ...]:
        """The encoder's greedy longest match, with the tokens known at ``step``."""
        enc = self.enc
        size, final = self.training.vocab_size_at(step), self.final
        n = len(word)
        if n > coders.MAX_WORDPIECE_CHARS:
            return ((enc.unk_id, 0, n, encoded._UNK),)
        ids, prefixes = enc.ids, enc.prefixes
        pieces = []
        start = 0
        while start < n:
            found, found_end = coders.longest_match(
                word, start, WORDPIECE_PREFIX if start else "", prefixes, ids, enc.longest,
                lambda i: i < size or i >= final)
            if found < 0:
                return ((enc.unk_id, 0, n, encoded._UNK),)
            pieces.append((found, start, found_end, 0))
            start = found_end
        return tuple(pieces)

    def versions(self, word: str) -> list[list[Any]]:
        """``[[step, ids, starts, ends, flags], ...]``: the word's pieces where they change."""
        first = self.pieces(word, 0)
        out = [(0, first)]
        if self.longest_match:
            if len(word) <= coders.MAX_WORDPIECE_CHARS:
                rest = word[1:]
                for merge in self.training.merges:
                    token = merge.token
                    if not isinstance(token, str):
                        continue
                    if word.startswith(token) or (token.startswith(WORDPIECE_PREFIX)
                                                  and token[len(WORDPIECE_PREFIX):] in rest):
                        now = self.pieces(word, merge.step)
                        if now != out[-1][1]:
                            out.append((merge.step, now))
        else:
            last = self.pieces(word, self.n)
            if last != first:
                self._bisect(word, 0, first, self.n, last, out)
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
