"""Encoding text with the vocabulary of a snapshot: any text, cut into the tokens of step k.

The text is pre-tokenized as the corpus was (``"counts"`` corpora split on whitespace),
then every word is cut on its own, by the :class:`WordCoder` the algorithm's record
chooses (:func:`coder_of`: the record's own ``coder``, else the built-in one of its
``encoder`` over its ``units``):

- **merges** (BPE: :class:`MergeCoder`; BBPE: :class:`ByteMergeCoder`): the word starts
  as its initial symbols (characters plus the end-of-word marker, or UTF-8 bytes); the
  leftmost occurrence of the present pair with the lowest merge rank (among the first k
  merges) is merged, again and again, until no learned pair is left. This is Hugging
  Face's ``BPE`` model and seed 004's ``encode``.
- **longest match** (WordPiece: :class:`LongestMatchCoder`): greedy longest match from the
  left, ``##`` on every piece after the first, as BERT and Hugging Face's ``WordPiece``
  model do.

The encoder, the trace (:mod:`bpeviz.core.trace`), the replay on another corpus
(:mod:`bpeviz.core.recount`) and the token records (:mod:`bpeviz.core.encoded`) call the
coder; none of them asks which algorithm it is.

Byte-level BPE reads a word as UTF-8 bytes. A Python string may hold surrogate code
points (U+D800-U+DFFF, halves of UTF-16 pairs), which UTF-8 cannot encode; bpeviz reads
them as tiktoken does, in training and in encoding (see
:func:`bpeviz.text.symbols.utf8_bytes`): a high surrogate followed by a low one is the
character they encode (``"\ud83d\ude00"`` is 😀, F0 9F 98 80, and its tokens span both
code points), and any other, lone, surrogate is U+FFFD, the replacement character (EF BF
BD), spanning its one code point.

Unknown input is never dropped: a BPE character outside the alphabet becomes one
``[UNK]`` token (one per character); a WordPiece word that cannot be matched, or that is
longer than :data:`MAX_WORDPIECE_CHARS` characters, becomes one ``[UNK]`` spanning the
word. The unknown token is the first of :data:`UNK_TOKENS` in the vocabulary (the
training's special tokens, ``[UNK]`` by default, ids 0.. before the alphabet); a
vocabulary without one gives unknown tokens the id ``-1``. Byte-level BPE never needs it.

Results are cached per word, per (training, step): a cache never serves another step
or another training.

When the compiled module ``bpeviz.engine._merge`` is built (and chosen: see
:func:`bpeviz.engine.default_engine`), whole texts go through it: it cuts the words
(from a table of character classes that the ``regex`` module computes, so letters,
digits and whitespace are what the patterns say they are), keeps the word cache, merges
byte-level words itself and hands every other word to the Python code below, which
stays the reference: the tests check both paths give the same tokens.

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_text("low low low lowly lower newer newer happy dog happy cat"),
...           merges=5, marker="</w>")
>>> [tok.text for tok in t.at().encode("lowly hilo")]
['low', 'l', 'y</w>', 'h', '[UNK]', 'lo', '</w>']
>>> t.at().decode([t.vocab.index(s) for s in ("low</w>", "low", "l", "y</w>")])
'low lowly '
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from itertools import accumulate, chain
from operator import itemgetter
from typing import Any

import numpy as np
import regex

from bpeviz.algorithms import get as get_algorithm
from bpeviz.core.coders import _Piece, coder_of
from bpeviz.core.encoded import Encoding, _Columns
from bpeviz.core.training_data import AtStep, TrainingData
from bpeviz.engine import char_classes as _char_classes
from bpeviz.engine import compiled_module, default_engine
from bpeviz.engine.merge_word import merge_word
from bpeviz.text import pretokenize
from bpeviz.text.owned import OwnedCache
from bpeviz.text.symbols import Symbol

#: Names recognised as the unknown token, in order of preference.
UNK_TOKENS = ("[UNK]", "<unk>", "<UNK>")
#: Pre-tokenizers that drop whitespace, so decoding puts a space between words.
_SPACE_DROPPING = ("whitespace", "counts")
# Per-word cache entries per encoder, and encoders (steps) kept per training.
_WORD_CACHE_SIZE = 200_000
_STEPS_PER_TRAINING = 8


# -- public functions ----------------------------------------------------------------------
def encode(snapshot: AtStep, text: str) -> Encoding:
    """Cut ``text`` into the tokens of ``snapshot``'s step, with character offsets."""
    return encoder(snapshot.training, snapshot.step).encode(text)


def encode_ids(snapshot: AtStep, text: str) -> list[int]:
    """Only the ids of :func:`encode` (faster: no :class:`Token` records)."""
    return encoder(snapshot.training, snapshot.step).encode_ids(text)


def decode(snapshot: AtStep, ids: Sequence[int]) -> str:
    """The text a list of token ids stands for.

    - BBPE: the bytes, decoded as UTF-8, so ``decode(encode(x)) == x`` for every string
      without surrogates (each of which encodes as U+FFFD, see the module docstring).
    - BPE: tokens joined; an end-of-word marker becomes a space when the pre-tokenizer
      drops whitespace (seed 004: ``low</w> low l y</w>`` -> ``"low lowly "``) and
      nothing otherwise. Without a marker, words of a whitespace-split text run together.
    - WordPiece: ``##`` pieces join the piece before; words are separated by a space
      when the pre-tokenizer drops whitespace.

    Special tokens (``[UNK]``, ``[CLS]``, ...) decode as their own text; ``-1`` (an
    unknown token in a vocabulary without ``[UNK]``) as ``"[UNK]"``.
    """
    return encoder(snapshot.training, snapshot.step).decode(ids)


def unk_token(training: TrainingData) -> str | None:
    """The vocabulary's unknown token: the first of :data:`UNK_TOKENS` it holds, or None."""
    # a training without merge options (PickyBPE's) lists its special tokens in its base
    options = getattr(training, "options", None)
    vocab = set(training.vocab[: training.n_base]) | set(getattr(options, "special_tokens", ()))
    return next((name for name in UNK_TOKENS if name in vocab), None)


def known_ids(training: TrainingData, step: int) -> list[int]:
    """Ids of the vocabulary at ``step``: the snapshot's vocabulary, plus any tokens an
    imported file lists after its merged tokens (such as GPT-2's ``<|endoftext|>``),
    which are known at every step."""
    final = int(training.vocab_sizes[-1])
    return [*range(training.vocab_sizes[step]), *range(final, len(training.vocab))]


# -- the encoder of one (training, step) ---------------------------------------------------
_ENCODERS: OwnedCache[_Encoder] = OwnedCache("encoders", keep=_STEPS_PER_TRAINING)


def encoder(training: TrainingData, step: int) -> _Encoder:
    """The (cached) encoder of ``training`` at ``step``.

    Encoders are kept on the training object itself (see :mod:`bpeviz.text.owned`), a few
    steps per training, so a cached word is never served to another step or training,
    and they go when the training goes.
    """
    # keyed by the engine too: an encoder made by one engine is never served to the other
    engine = default_engine()
    return _ENCODERS.get(training, (step, engine), lambda: _Encoder(training, step, engine))


def fresh_encoder(training: TrainingData, step: int) -> _Encoder:
    """The cached encoder of ``training`` at ``step`` if there is one, else a new one that
    is not cached (for one-off passes over many steps, which would evict the steps the
    pages keep)."""
    engine = default_engine()
    found = _ENCODERS.peek(training, (step, engine))
    return found if found is not None else _Encoder(training, step, engine)


# A piece of an encoded word: id, start and end (characters, relative to the word) and
# flags (_PARTIAL, _UNK). A cache entry holds a word's pieces column by column. A token's
# bytes are not kept: they are its vocabulary bytes (BBPE) or the input it covers.
_Ranks = dict[tuple[int, int], tuple[int, int]]
_Entry = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
_IDS, _STARTS, _ENDS, _FLAGS = (itemgetter(i) for i in range(4))
# Columns of an encoded text: every token's start, end (NumPy int64) and flags (uint8,
# or None when all are 0), or a function that computes them when first needed.
# The compiled pre-tokenizers (bpeviz.engine._merge.Coder); the GPT-2 pattern they hard-code
# is pretokenize.COMPILED_GPT2.
_COMPILED_SPLITS = {"whitespace": 0, "gpt2": 1, "none": 2}


class _Encoder:
    """Encodes and decodes with the vocabulary and merges of one step of a training."""

    # tables a coder's setup builds: ByteMergeCoder's id of every byte, LongestMatchCoder's
    # longest token and every start of a token
    byte_ids: list[int]
    longest: int
    prefixes: set[str]

    def __init__(self, training: TrainingData, step: int, engine: str | None = None) -> None:
        if not 0 <= step <= len(training.merges):
            raise ValueError(f"step must be between 0 and {len(training.merges)}, got {step}")
        options = training.options
        self.training = training
        self.step = step
        self.algorithm = options.algorithm
        alg = self.alg = get_algorithm(options.algorithm)
        # how a word is cut, the record's choice, asked once: every word goes to it
        self.word_coder = coder_of(alg)
        self.prefix = alg.continuing_prefix
        self.marker = options.marker
        self.marker_style = options.marker_style
        pretokenizer = training.corpus.pretokenizer
        self.pretokenizer = "whitespace" if pretokenizer == "counts" else pretokenizer
        vocab = training.vocab
        self.vocab = vocab
        self.known = known_ids(training, step)
        self.known_set = frozenset(self.known)
        self.ids: dict[Symbol, int] = {}
        for i in self.known:
            self.ids.setdefault(vocab[i], i)
        unk = unk_token(training)
        self.unk_text = unk or "[UNK]"
        self.unk_id = self.ids.get(unk, -1) if unk else -1
        # (left id, right id) -> (rank, merged token id), for the first ``step`` merges
        self.ranks: dict[tuple[int, int], tuple[int, int]] = {}
        for merge in training.merges[:step]:
            self.ranks.setdefault((merge.left_id, merge.right_id), (merge.step, merge.token_id))
        self.word_coder.setup(self)
        self.texts: dict[int, str] = self.word_coder.texts(self)
        self.cache: dict[str, _Entry] = {}
        # the compiled path (engine "compiled", the default when bpeviz.engine._merge is built)
        self._merge: Callable[[list[int], list[int], list[int]],
                              tuple[list[int], list[int], list[int]]] = self._merge_python
        self._coder: Any = None  # the compiled Coder (not the word coder): cuts texts, caches words
        compiled = compiled_module(engine)
        if compiled is not None:
            self._init_compiled(compiled, training.merges[:step])

    def _init_compiled(self, compiled: Any, merges: Sequence[Any]) -> None:
        ranks = None
        if self.word_coder.by_ranks:
            columns = np.array([(m.left_id, m.right_id, m.step, m.token_id) for m in merges],
                               dtype=np.int32).reshape(-1, 4).T
            ranks = compiled.Ranks(*map(np.ascontiguousarray, columns))
            self._merge = ranks.merge
        split = _COMPILED_SPLITS.get(self.pretokenizer)  # "metaspace": the Python path
        if split is None or pretokenize.GPT2_PATTERN != pretokenize.COMPILED_GPT2:
            return  # a pre-tokenizer the compiled code does not know: the Python path
        table = self.word_coder.byte_table(self) if ranks is not None else None
        self._coder = compiled.Coder(
            split, _char_classes(), None if table is None else ranks,
            None if table is None else np.array(table, dtype=np.int32),
            tuple(range(len(self.vocab))), _WORD_CACHE_SIZE)

    def _merge_python(self, ids: list[int], starts: list[int],
                      ends: list[int]) -> tuple[list[int], list[int], list[int]]:
        return merge_word(ids, starts, ends, self.ranks)

    # -- whole texts ----------------------------------------------------------------------
    def encode(self, text: str) -> Encoding:
        if self._coder is not None:
            ids, starts, ends, flags = self._coder.encode(text, self._encode_word, True)
            columns = (np.frombuffer(starts, dtype=np.int64), np.frombuffer(ends, dtype=np.int64),
                       None if flags is None else np.frombuffer(flags, dtype=np.uint8))
            return Encoding(self, text, ids, columns)
        words, offsets = split_words(text, self.pretokenizer)
        entries = self._entries(words)
        ids = list(chain.from_iterable(map(_IDS, entries)))
        return Encoding(self, text, ids, lambda: _flat_columns(entries, offsets, len(ids)))

    def encode_ids(self, text: str) -> list[int]:
        if self._coder is not None:
            return self._coder.encode(text, self._encode_word, False)[0]  # type: ignore[no-any-return]
        words, _ = split_words(text, self.pretokenizer)
        return list(chain.from_iterable(map(_IDS, self._entries(words))))

    def _entries(self, words: list[str]) -> list[_Entry]:
        cache = self.cache
        missing = set(words).difference(cache)
        if len(cache) + len(missing) > _WORD_CACHE_SIZE:
            # a new dict, not clear(): another thread may be reading the old one
            cache = self.cache = {}
            missing = set(words)
        for word in missing:
            cache[word] = self._encode_word(word)
        return list(map(cache.__getitem__, words))

    def word(self, word: str) -> list[tuple[int, int, int]]:
        """``(id, start, end)`` of each token of one pre-tokenized word (offsets in it)."""
        if self._coder is not None:
            entry = self._coder.word(word, self._encode_word)
        else:
            entry = self.cache.get(word) or self._encode_word(word)
        return list(zip(entry[0], entry[1], entry[2]))

    def _encode_word(self, word: str) -> _Entry:
        pieces = self.word_coder.cut(self, word)
        return tuple(zip(*pieces)) if pieces else ((), (), (), ())  # type: ignore[return-value]

    def cut(self, word: str) -> tuple[_Piece, ...]:
        """The pieces of one pre-tokenized word, as the record's coder cuts it with this
        encoder's tables and merge function (not cached)."""
        return self.word_coder.cut(self, word)

    # -- decoding -------------------------------------------------------------------------
    def decode(self, ids: Sequence[int]) -> str:
        checked = []
        for i in ids:
            try:
                i = operator.index(i)  # ints and NumPy integers, not floats or bools
            except TypeError:
                raise ValueError(f"token ids must be whole numbers, got {i!r}") from None
            if i not in self.known_set and i != -1:
                raise ValueError(f"{i!r} is not a token id at step {self.step} "
                                 f"(ids go from 0 to {len(self.known) - 1})")
            checked.append(i)
        text = self.word_coder.decode(self, checked, self.pretokenizer in _SPACE_DROPPING)
        return _unmetaspace(text) if self.pretokenizer == "metaspace" else text


def _unmetaspace(text: str) -> str:
    """``▁`` back to a space, the first one dropped (Hugging Face's Metaspace decoder).

    >>> _unmetaspace("\u2581hug\u2581the")
    'hug the'
    """
    text = text.replace("\u2581", " ")
    return text[1:] if text.startswith(" ") else text


_WHITESPACE_WORDS = regex.compile(r"([\s\x1c-\x1f]*)([^\s\x1c-\x1f]+)")


def split_words(text: str, pretokenizer: str) -> tuple[list[str], list[int]]:
    """The words of ``text`` and the character offset of each, as
    :func:`bpeviz.text.pretokenize.spans` cuts them (but faster: no match objects).

    >>> split_words(" hug  the", "whitespace"), split_words("I'm here", "gpt2")
    ((['hug', 'the'], [1, 6]), (['I', "'m", ' here'], [0, 1, 3]))

    ``"metaspace"`` words carry a ``▁`` that stands for the space before them, so a
    word's offset is that space's (``-1`` for a word at the very start: tokens are then
    clamped to 0, see :func:`_flat_columns`).

    >>> split_words("hug  the", "metaspace")
    (['\u2581hug', '\u2581the'], [-1, 4])
    """
    if pretokenizer == "metaspace":
        words, offsets = split_words(text, "whitespace")
        return ["\u2581" + w for w in words], [o - 1 for o in offsets]
    if pretokenizer in _SPACE_DROPPING:
        pairs = _WHITESPACE_WORDS.findall(text)
        words = list(map(itemgetter(1), pairs))
        ends = list(accumulate(len(gap) + len(word) for gap, word in pairs))
        return words, [end - len(word) for end, word in zip(ends, words)]
    words = pretokenize.words(text, pretokenizer)
    offsets = [0, *accumulate(map(len, words))]
    if offsets[-1] != len(text):  # the pattern skipped something: take the slow way
        spans = list(pretokenize.spans(text, pretokenizer))
        return [text[s:e] for s, e in spans], [s for s, _ in spans]
    offsets.pop()
    return words, offsets


def _flat_columns(entries: list[_Entry], offsets: list[int], n: int) -> _Columns:
    """Every token's start, end and flags, from the words' entries and first characters."""
    counts = np.fromiter(map(len, map(_IDS, entries)), np.int64, len(entries))
    shift = np.repeat(np.asarray(offsets, dtype=np.int64), counts)
    starts = np.fromiter(chain.from_iterable(map(_STARTS, entries)), np.int64, n) + shift
    ends = np.fromiter(chain.from_iterable(map(_ENDS, entries)), np.int64, n) + shift
    if offsets and offsets[0] < 0:  # a metaspace "▁" before the first word: no space there
        np.maximum(starts, 0, out=starts)
    flags = np.fromiter(chain.from_iterable(map(_FLAGS, entries)), np.uint8, n)
    return starts, ends, flags if flags.any() else None
