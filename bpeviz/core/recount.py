"""Replaying a training's merges on another corpus: "how GPT-2's merges play out on your text".

``replay_on(training, corpus)`` (``bpeviz.replay_on``) returns a
:class:`~bpeviz.core.training.Training`
with the same merges, in the same order, the same base vocabulary and the same ids, but
with every count taken from ``corpus``: merge ``k`` is applied at step ``k`` to every word
of ``corpus`` (leftmost first, no overlaps), and its ``count`` is how often its pair
occurs there just before. A merge whose pair never occurs in ``corpus`` is kept, with
count 0 (and replaces nothing), so step ``k`` means the same merge in both trainings.

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_text("low low lower lowest"), merges=3)
>>> [(m.left, m.right, m.count) for m in t.merges]
[('l', 'o', 4), ('lo', 'w', 4), ('low', 'e', 2)]
>>> r = replay_on(t, "slow flow blew")
>>> [(m.left, m.right, m.count) for m in r.merges], r.vocab == t.vocab
([('l', 'o', 2), ('lo', 'w', 2), ('low', 'e', 0)], True)
>>> r.at(3).splits["flow"]
('[UNK]', 'low')

Rules:

- **Pre-tokenizer**: a text is cut into words as ``training`` cuts (its corpus's
  pre-tokenizer); a :class:`~bpeviz.text.corpus.Corpus` must have been cut the same way
  (a ``word<TAB>count`` table counts as whitespace-split), else ValueError.
- **Symbols the base vocabulary lacks** (a character outside a BPE alphabet) become the
  vocabulary's unknown token (``[UNK]``, ``<unk>``: see
  :data:`bpeviz.core.encoding.UNK_TOKENS`), as encoding does: one per character for BPE, the
  whole word for WordPiece. No merge ever joins it. Without an unknown token such a corpus
  is refused (ValueError naming the first such word). Byte-level BPE knows every byte.
- **WordPiece without merges** (a ``vocab.txt``, or a ``tokenizer.json`` with a WordPiece
  model) lists tokens, not the merges that made them: WordPiece cuts a word by longest
  match against the vocabulary, there is nothing to replay, and such a vocabulary is
  refused (ValueError) unless it holds only single characters. Encode with it instead
  (``training.at().encode(text)``), as Tokenize and Compare do.
- Tokens a file lists after its merged tokens (GPT-2's ``<|endoftext|>``) are kept, with
  their ids.

For byte-level and character BPE, a replayed word's split at step ``k`` is exactly how
``training.at(k).encode`` cuts that word (the tests check it); for WordPiece it is the
training's view (merges applied in order), not the longest-match encoding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from bpeviz.algorithms import get as get_algorithm
from bpeviz.algorithms import initial_symbols
from bpeviz.core.coders import coder_of
from bpeviz.core.encoding import unk_token
from bpeviz.core.training import Training, TrainOptions, _MergeLoop
from bpeviz.engine.inputs import initial_ids
from bpeviz.text.corpus import Corpus
from bpeviz.text.symbols import Symbol


def _same_cut(a: str, b: str) -> bool:
    """Whether two pre-tokenizer names cut text the same way ("counts" is whitespace)."""
    return ({a, b} - {"counts", "whitespace"} == set()) or a == b


def pretokenizer_of(training: Training) -> str:
    """The pre-tokenizer that cuts text into the training's words."""
    name = training.corpus.pretokenizer
    return "whitespace" if name == "counts" else name


def replay_on(training: Training, corpus: Corpus | str) -> Training:
    """``training``'s merges, base vocabulary and ids, counted on ``corpus`` (or a text).

    See the module docstring for the rules. Raises ValueError, with a one-line reason,
    when the replay is not defined.
    """
    if isinstance(corpus, str):
        corpus = Corpus.from_text(corpus, pretokenizer_of(training))
    if not isinstance(corpus, Corpus):
        raise ValueError(f"replay needs a Corpus or a text, got {type(corpus).__name__}")
    if not _same_cut(corpus.pretokenizer, training.corpus.pretokenizer):
        raise ValueError(
            f"this tokenizer cuts text with the {pretokenizer_of(training)!r} pre-tokenizer, "
            f"the corpus was cut with {corpus.pretokenizer!r}: give the text itself, or a "
            f"corpus made with Corpus.from_text(text, {pretokenizer_of(training)!r})")
    options = training.options
    base = list(training.vocab[: training.n_base])
    coder_of(get_algorithm(options.algorithm)).check_replay(training)
    unk = unk_token(training)
    unk_id = base.index(unk) if unk is not None and unk in base else None
    loop = _ReplayLoop(corpus, options, base, unk_id)
    loop.run(forced=[(m.left, m.right) for m in training.merges])
    result = loop.result()
    extra = training.vocab[training.vocab_sizes[-1] :]
    if extra:
        result = replace(result, vocab=result.vocab + tuple(extra))
    if training.normalizer:  # an opened tokenizer.json's, for its health on this corpus
        result = replace(result, normalizer=training.normalizer)
    return result


class _ReplayLoop(_MergeLoop):
    """The merge loop, with symbols the base vocabulary lacks read as its unknown token."""

    def __init__(self, corpus: Corpus, options: TrainOptions, base: list[Symbol],
                 unk_id: int | None) -> None:
        super().__init__(corpus, options, base)
        self.unk_id = unk_id

    def _initial_ids(self) -> tuple[np.ndarray, np.ndarray]:
        try:
            return initial_ids(self.corpus, self.options, self.ids)
        except ValueError:
            pass  # some symbol is missing: the per-word path below, with the unknown token
        return unknown_as(self.corpus.words, self.options.algorithm, self.options.marker,
                          self.options.marker_style, self.ids, self.unk_id)


def unknown_as(words: Sequence[str], algorithm: str, marker: str | None, marker_style: str,
               ids: dict[Symbol, int], unk_id: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Every word's initial symbols as ids, a missing symbol as ``unk_id`` as encoding has
    it (the record's coder says: WordPiece makes the whole word one ``unk_id``), as
    ``(flat int32 ids, word lengths)``.

    >>> unknown_as(["ab", "ax"], "bpe", None, "separate", {"[UNK]": 0, "a": 1, "b": 2}, 0)
    (array([1, 2, 1, 0], dtype=int32), array([2, 2]))
    """
    coder = coder_of(get_algorithm(algorithm))
    flat: list[int] = []
    sizes: list[int] = []
    for word in words:
        symbols = initial_symbols(word, algorithm, marker, marker_style)
        got = [ids.get(s, -1) for s in symbols]
        if -1 in got:
            if unk_id is None:
                missing = symbols[got.index(-1)]
                raise ValueError(
                    f"the word {word!r} holds {missing!r}, which this vocabulary lacks, and "
                    "it has no unknown token ([UNK], <unk>) to stand for it")
            got = coder.with_unknown(got, unk_id)
        flat.extend(got)
        sizes.append(len(got))
    return np.array(flat, dtype=np.int32), np.array(sizes, dtype=np.int64)
