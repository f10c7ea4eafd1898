"""The :class:`Algorithm` record: everything bpeviz knows about one algorithm.

Every other module asks the record (``bpeviz.algorithms.get(name)``) instead of
comparing names, so an algorithm's facts live in its own module.

>>> from bpeviz.algorithms import get
>>> wp = get("wordpiece")
>>> wp.initial_symbols("hug"), wp.join("h", "##u"), wp.surface(["hu", "##g"])
(['h', '##u', '##g'], 'hu', 'hug')
>>> wp.score(6, 3, 4)  # count(ab) / (count(a) x count(b))
0.5
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bpeviz.algorithms.prose import Prose
from bpeviz.text.display import bytes_to_gpt2, display, gpt2_to_bytes
from bpeviz.text.symbols import Symbol, utf8_bytes

#: what a word starts as: its characters, or the bytes of its UTF-8 encoding
UNITS = ("characters", "bytes")
#: how a word is encoded: by applying the merges in order, by longest match from the left,
#: or by the best-scoring segmentation (Viterbi, Unigram)
ENCODERS = ("merges", "longest_match", "viterbi")
#: what one step of a training does: merge a pair (the vocabulary grows), or prune (it shrinks)
STEP_KINDS = ("merge", "prune")
#: what a pair wins with: its count; its count over the product of its parts' counts
#: (WordPiece), which the compiled merge loop also computes itself; or any other formula,
#: the record's ``score``, which the Python merge loop calls (same results, slower)
SCORE_KINDS = ("count", "count_over_parts", "custom")
#: a byte-level vocabulary's first 256 symbols, byte 0 first
_ALL_BYTES = tuple(bytes((b,)) for b in range(256))


def _utf8_units(words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    r"""Every word's bytes as :func:`~bpeviz.text.symbols.utf8_bytes` reads them, in a row
    (uint8), and how many each word has (int64).

    Words are encoded by ``str.encode`` itself (strict UTF-8, what ``utf8_bytes`` does for
    all but surrogates): a Python function call per word cost more than the encoding.
    A surrogate anywhere makes the words go through ``utf8_bytes`` one by one.

    >>> [a.tolist() for a in _utf8_units(["hé", "a\ud800"])]
    [[104, 195, 169, 97, 239, 191, 189], [3, 4]]
    """
    try:
        data = list(map(str.encode, words))
    except UnicodeEncodeError:  # a surrogate: read as tiktoken reads it
        data = [utf8_bytes(w) for w in words]
    lengths = np.fromiter(map(len, data), dtype=np.int64, count=len(data))
    return np.frombuffer(b"".join(data), dtype=np.uint8), lengths


@dataclass(frozen=True)
class Algorithm(Prose):
    """One algorithm's facts, its sentences among them (the methods of
    :class:`~bpeviz.algorithms.prose.Prose`). Adding an algorithm = one module declaring one
    of these, plus one :func:`bpeviz.algorithms.register` line (and its tests)."""

    #: the name used in options, files, URLs and the CLI ("bpe")
    name: str
    #: what the UI calls it ("BPE (characters)")
    label: str
    #: one or two sentences for the UI's help
    help: str
    #: "characters" or "bytes" (then the vocabulary starts with the 256 bytes, ids 0-255)
    units: str = "characters"
    #: put on every piece of a word but the first ("##" for WordPiece), "" for none
    continuing_prefix: str = ""
    #: whether an end-of-word marker (``</w>``) may be added to each word
    takes_marker: bool = False
    #: the special tokens a training starts its vocabulary with unless told otherwise
    special_tokens: tuple[str, ...] = ()
    #: ``score(pair count, left count, right count)`` a pair wins with; None: its count
    score: Callable[[int, int, int], float] | None = None
    #: which formula :attr:`score` is (one of :data:`SCORE_KINDS`): the merge loops compute
    #: "count" and "count_over_parts" natively, "custom" by calling :attr:`score`
    score_kind: str = "count"
    #: the score written out for sentences, in symbols and in numbers (``str.format``
    #: templates over ``{pair}``, ``{left}``, ``{right}`` and ``{count}``, ``{left_count}``,
    #: ``{right_count}``); empty: "score(...)" of the same
    score_words: str = ""
    score_numbers: str = ""
    #: what ranking by count instead of the score means for it (a clause for sentences)
    count_ranking_note: str = ""
    #: why the most frequent pair can lose on the score (the lesson's clause after "scores
    #: only ..."); "" for none
    score_why: str = ""
    #: what one of the symbols a word starts as is called in sentences ("byte")
    unit_word: str = "symbol"
    #: how a word is cut into its first symbols, a sentence up to its colon; "" for
    #: "<short> cuts every word into its <units>" (and what it does with a marker)
    split_words: str = ""
    #: how a word is encoded, one sentence for a newcomer
    encode_words: str = ("To cut a word, the tokenizer counts nothing: it replays the merges "
                         "it learned, the earliest first, wherever they fit.")
    #: how encoding at a step cuts a word, a template over ``{word}``, ``{step}``, ``{units}``
    trace_words: str = ("“{word}” starts as its {units}; encoding at step {step} applies the "
                        "merges it holds, the earliest-learned merge first, until none is left.")
    #: why a text became the unknown token, a clause after "which this vocabulary cannot
    #: spell: "
    unknown_words: str = ("that character never appeared in the training text, so it has no "
                          "token.")
    #: the pre-tokenizer used when none is chosen (see :mod:`bpeviz.text.pretokenize`)
    pretokenizer: str = "whitespace"
    #: how text is encoded with the vocabulary: "merges" or "longest_match"
    encoder: str = "merges"
    #: how encoding cuts one word, when not the built-in way of :attr:`encoder` over
    #: :attr:`units`: a :class:`bpeviz.core.coders.WordCoder`; None for the built-in one
    #: (:func:`bpeviz.core.coders.coder_of` chooses)
    coder: Any = None
    #: the export formats that hold it exactly (see :data:`bpeviz.formats.FORMATS`)
    export_formats: tuple[str, ...] = ("hf", "training")
    #: what a Hugging Face tokenizer.json holds it as: "BPE", "byte-level BPE" (a BPE
    #: model between ByteLevel pre-tokenizer and decoder), "WordPiece" or "Unigram"
    hf_model: str = "BPE"
    #: what one step of a training is, in words a newcomer reads ("merge")
    step: str = "merge"
    #: why its steps are not on the merge steps' scale, a clause for Compare's curves
    #: ("a pruning round removes many pieces ..."); "" for merge steps
    steps_scale: str = ""
    #: how the corpus is cut after each of its steps and what that does to its tokens, a
    #: clause for Compare's corpus-token chart; "" for merge steps
    steps_cut: str = ""
    #: a short name for tight places (the Learn page's switch: "BPE"); the label if empty
    short_label: str = ""
    #: the sample (see :data:`bpeviz.samples.SAMPLES`) its Learn lesson starts on; "" for none
    lesson_sample: str = ""
    #: where its lesson comes on the Learn page (smaller first)
    lesson_order: int = 100
    #: "merge" (a step adds one token) or "prune" (a step removes pieces: Unigram)
    step_kind: str = "merge"
    #: the function that trains it when the merge loop does not, as messages name it
    #: ("bpeviz.unigram.train_unigram"); "" for the merge loop
    trainer: str = ""
    #: how a training's length is given: ("merges", "vocab") or only ("vocab",)
    sizes: tuple[str, ...] = ("merges", "vocab")
    #: the options of ``bpeviz.train`` besides the size that a user chooses for it, in the
    #: order the app draws them: "marker", "marker_style", "scoring", "tie_break",
    #: "min_frequency", or its own trainer's ("variant", "shrinking_factor", "seed_size")
    settings: tuple[str, ...] = ("tie_break", "min_frequency")
    #: the app's module that draws its pages when the merge pages cannot (its ``PAGES``
    #: maps a page title to a view of the page's context): "bpeviz.ui.unigram"; "" for none
    views: str = ""
    #: the module that draws one step of its trainings as HTML when the merge card cannot
    #: (its ``CSS``, ``step_card_html(training, k, byte_style, strong)`` and
    #: ``why_step_html(...)``, user text escaped): the offline slides show each step with
    #: them; "bpeviz.present.render_picky"; "" for the merge card
    step_views: str = ""
    #: the module that reads its vocabulary's health when the merge trainings' and
    #: Unigram's reading cannot: its ``health(step, corpus)`` (a
    #: :class:`bpeviz.analysis.health.Health`) and ``unused_by_step(training, corpus)``;
    #: "bpeviz.analysis.health_picky"; "" for those
    health: str = ""
    #: how Hugging Face ranks the initial symbols when its ids order them otherwise than
    #: ours, for the ``ids`` tie rule (which compares Hugging Face's ids): a key of one
    #: symbol, None for a symbol that keeps its place before the others (a special
    #: token); None here: our ids are in Hugging Face's order already
    tie_order: Callable[[Symbol], Any] | None = None
    #: whether the app offers it in its algorithm choices (its pages draw its trainings); an
    #: algorithm whose pages do not exist yet is trained from the API and the command line
    offered: bool = True

    def __post_init__(self) -> None:
        if self.step_kind not in STEP_KINDS:
            raise ValueError(f"step_kind must be one of {STEP_KINDS}, got {self.step_kind!r}")
        if self.score_kind not in SCORE_KINDS:
            raise ValueError(f"score_kind must be one of {SCORE_KINDS}, got {self.score_kind!r}")
        if (self.score is None) != (self.score_kind == "count"):
            raise ValueError("a score formula goes with score_kind 'count_over_parts' or "
                             "'custom', and the pair's count (score=None) with 'count'; got "
                             f"score={self.score!r}, score_kind={self.score_kind!r}")
        if self.units not in UNITS:
            raise ValueError(f"units must be one of {UNITS}, got {self.units!r}")
        if self.encoder not in ENCODERS:
            raise ValueError(f"encoder must be one of {ENCODERS}, got {self.encoder!r}")
        if (self.encoder == "viterbi") != (self.step_kind == "prune"):
            raise ValueError("the viterbi encoder goes with pruning steps (step_kind='prune'), "
                             f"and only with them; got encoder={self.encoder!r}, "
                             f"step_kind={self.step_kind!r}")
        if self.byte_level and (self.special_tokens or self.continuing_prefix):
            raise ValueError("a byte-level algorithm keeps ids 0-255 for the bytes: "
                             "no special tokens, no continuing prefix")

    @property
    def byte_level(self) -> bool:
        """Symbols are bytes, the vocabulary starts with all 256 of them."""
        return self.units == "bytes"

    @property
    def scored(self) -> bool:
        """Pairs are ranked by :attr:`score`, not by their count."""
        return self.score is not None

    @property
    def short(self) -> str:
        """:attr:`short_label`, else :attr:`label`."""
        return self.short_label or self.label

    def pretokenizer_for(self, choice: str) -> str:
        """The pre-tokenizer a setting names: ``"auto"`` is this algorithm's own.

        >>> from bpeviz.algorithms import get
        >>> get("bbpe").pretokenizer_for("auto"), get("bpe").pretokenizer_for("none")
        ('gpt2', 'none')
        """
        return self.pretokenizer if choice == "auto" else choice

    @property
    def longest_match(self) -> bool:
        """Text is encoded by longest match from the left, not by applying merges."""
        return self.encoder == "longest_match"

    def initial_symbols(self, word: str, marker: str | None = None,
                        marker_style: str = "separate") -> list[Symbol]:
        """The symbols ``word`` starts as, before any merge.

        >>> from bpeviz.algorithms import get
        >>> get("bpe").initial_symbols("low", "</w>", "glued"), get("bbpe").initial_symbols("é")
        (['l', 'o', 'w</w>'], [b'\\xc3', b'\\xa9'])
        """
        if self.byte_level:
            return [bytes((b,)) for b in utf8_bytes(word)]
        if self.continuing_prefix:
            prefix = self.continuing_prefix
            return [word[0]] + [prefix + ch for ch in word[1:]] if word else []
        symbols: list[Symbol] = list(word)
        if marker:
            if marker_style == "glued" and symbols:
                symbols[-1] = symbols[-1] + marker
            else:
                symbols.append(marker)
        return symbols

    @property
    def base_symbols(self) -> tuple[Symbol, ...]:
        """The symbols every vocabulary of it starts with, ids 0 up, whatever the corpus:
        the 256 bytes; none when its alphabet is the corpus's characters.

        >>> from bpeviz.algorithms import get
        >>> len(get("bbpe").base_symbols), get("bpe").base_symbols
        (256, ())
        """
        return _ALL_BYTES if self.byte_level else ()

    def check_base_symbols(self, vocab: Container[Symbol], source: str) -> None:
        """Raise ValueError, naming ``source``, when ``vocab`` lacks one of
        :attr:`base_symbols` (an imported byte-level vocabulary must hold every byte)."""
        missing = [s for s in self.base_symbols if s not in vocab]
        if missing:
            raise ValueError(f"{source} is byte-level but its vocabulary lacks {len(missing)} "
                             f"of the 256 bytes (the first: 0x{missing[0][0]:02X})")

    def check_special_tokens(self, tokens: Sequence[str]) -> None:
        """Raise ValueError unless a training of it may start its vocabulary with
        ``tokens``: the ids of :attr:`base_symbols` come first, so then it takes none."""
        if tokens and self.base_symbols:
            raise ValueError("byte-level BPE keeps ids 0-255 for the bytes; it takes no "
                             "special tokens")

    def unit_codes(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """The units the words start as, as numbers (code points as uint32, or byte values
        as uint8, a quarter of the memory), every word's in a row, and how many each word
        has (int64): the units of :meth:`initial_symbols` for many words at once, before
        any prefix or marker.

        >>> from bpeviz.algorithms import get
        >>> [a.tolist() for a in get("bbpe").unit_codes(["hé", "a"])]
        [[104, 195, 169, 97], [3, 1]]
        >>> [a.tolist() for a in get("bpe").unit_codes(["hé", "a"])]
        [[104, 233, 97], [2, 1]]
        """
        if self.byte_level:
            return _utf8_units(words)
        lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
        text = "".join(words).encode("utf-32-le", "surrogatepass")
        return np.frombuffer(text, dtype=np.uint32), lengths

    def initial_sizes(self, words: Sequence[str], marker: str | None = None,
                      marker_style: str = "separate") -> np.ndarray:
        """How many symbols each word starts as, ``len(initial_symbols(word, marker,
        marker_style))``, without making them (int64).

        >>> from bpeviz.algorithms import get
        >>> get("bpe").initial_sizes(["low", ""], "</w>").tolist()
        [4, 1]
        >>> get("bbpe").initial_sizes(["é"]).tolist()
        [2]
        """
        if self.byte_level:
            return np.fromiter((len(utf8_bytes(w)) for w in words), np.int64, len(words))
        sizes = np.fromiter(map(len, words), np.int64, len(words))
        if marker and not self.continuing_prefix:  # glued to the last symbol, if there is one
            sizes += 1 if marker_style != "glued" else sizes == 0
        return sizes

    def symbol_to_json(self, symbol: Symbol, spelling: str = "hex") -> str:
        """How a file writes one of its symbols: characters as themselves; bytes in hex
        (bpeviz's training files) or, ``spelling="gpt2"``, in GPT-2's byte characters
        (vocab.json, merges.txt, tokenizer.json).

        >>> from bpeviz.algorithms import get
        >>> get("bbpe").symbol_to_json(b" \\xc3"), get("bbpe").symbol_to_json(b" a", "gpt2")
        ('20c3', 'Ġa')
        """
        if not self.byte_level:
            return symbol  # type: ignore[return-value]
        return bytes_to_gpt2(symbol) if spelling == "gpt2" else symbol.hex()  # type: ignore[arg-type,union-attr]

    def symbol_from_json(self, value: str, spelling: str = "hex") -> Symbol:
        """The symbol a file's ``value`` spells (:meth:`symbol_to_json` undone); ValueError
        when it spells none.

        >>> from bpeviz.algorithms import get
        >>> get("bbpe").symbol_from_json("Ġa", "gpt2"), get("bpe").symbol_from_json("20c3")
        (b' a', '20c3')
        """
        if not self.byte_level:
            return value
        return gpt2_to_bytes(value) if spelling == "gpt2" else bytes.fromhex(value)

    def bare(self, symbol: Symbol, marker: str | None = None) -> str | None:
        """The characters a token covers: without the continuing prefix (``##``) or the
        end-of-word ``marker``, bytes decoded; None for bytes that are not whole UTF-8
        characters (part of one).

        >>> from bpeviz.algorithms import get
        >>> get("wordpiece").bare("##ing"), get("bpe").bare("low</w>", "</w>")
        ('ing', 'low')
        >>> get("bbpe").bare(b" the"), get("bbpe").bare(b"\\xe6\\x9c")
        (' the', None)
        """
        if isinstance(symbol, bytes):
            try:
                return symbol.decode("utf-8")
            except UnicodeDecodeError:
                return None
        prefix = self.continuing_prefix
        if prefix and symbol.startswith(prefix) and len(symbol) > len(prefix):
            symbol = symbol[len(prefix):]
        if marker and symbol.endswith(marker) and len(symbol) > len(marker):
            symbol = symbol[: -len(marker)]
        return symbol

    def is_unit(self, symbol: Symbol, marker: str | None = None,
                marker_style: str = "separate") -> bool:
        """Whether a word can start as ``symbol`` (one of :meth:`initial_symbols`' symbols:
        a byte, a character with the prefix or the glued marker, the marker itself).

        >>> from bpeviz.algorithms import get
        >>> get("wordpiece").is_unit("##u"), get("bpe").is_unit("w</w>", "</w>", "glued")
        (True, True)
        >>> get("bpe").is_unit("w</w>", "</w>"), get("bbpe").is_unit(b"ab")
        (False, False)
        """
        if isinstance(symbol, bytes):
            return len(symbol) == 1
        if marker and symbol == marker:
            return True
        if marker and marker_style != "glued" and symbol.endswith(marker):
            return False
        text = self.bare(symbol, marker if marker_style == "glued" else None)
        return text is not None and len(text) == 1

    def tie_ranks(self, base: Sequence[Symbol]) -> list[int] | None:
        """The base ids (of the initial vocabulary ``base``) in the order the ``ids`` tie
        rule ranks them (:attr:`tie_order`; special tokens first, in their places), or
        None when that is their own order.

        >>> from bpeviz.algorithms import get
        >>> get("bbpe").tie_ranks([b"<s>", b" ", b"a", b"!"]), get("bpe").tie_ranks(["a", "b"])
        ([0, 3, 2, 1], None)
        """
        if self.tie_order is None:
            return None
        keys = [self.tie_order(sym) for sym in base]
        ranked = sorted(range(len(base)),
                        key=lambda i: (0, i, "") if keys[i] is None else (1, 0, keys[i]))
        return None if ranked == list(range(len(base))) else ranked

    def join(self, left: Symbol, right: Symbol) -> Symbol:
        """The token a merge of ``left`` and ``right`` creates."""
        prefix = self.continuing_prefix
        if prefix and right.startswith(prefix):  # type: ignore[arg-type]
            return left + right[len(prefix):]  # type: ignore[operator]
        return left + right  # type: ignore[operator]

    def surface(self, symbols: Sequence[Symbol], marker: str | None = None) -> str:
        """The text a split stands for: markers and prefixes removed, bytes decoded."""
        if self.byte_level:
            return b"".join(symbols).decode("utf-8", "surrogatepass")  # type: ignore[arg-type]
        prefix = self.continuing_prefix
        if prefix:
            return "".join(s[len(prefix):] if i and s.startswith(prefix) else s  # type: ignore[union-attr]
                           for i, s in enumerate(symbols))  # type: ignore[misc]
        text = "".join(symbols)  # type: ignore[arg-type]
        if marker and text.endswith(marker):
            text = text[: -len(marker)]
        return text

    def show(self, symbol: Symbol, byte_style: str = "gpt2") -> str:
        """A readable string for one of its symbols (bytes as GPT-2 characters or hex)."""
        return display(symbol, byte_style)

    def pair_scores(self, pair_counts: np.ndarray, left_counts: np.ndarray,
                    right_counts: np.ndarray) -> np.ndarray:
        """:attr:`score` of many pairs at once (float64), as the merge loops compute it.

        >>> from bpeviz.algorithms import get
        >>> get("wordpiece").pair_scores(np.array([6, 2]), np.array([3, 2]), np.array([4, 1]))
        array([0.5, 1. ])
        """
        if self.score_kind == "count_over_parts":
            return np.asarray(pair_counts, dtype=np.float64) / (
                np.asarray(left_counts, dtype=np.float64) * np.asarray(right_counts))
        if self.score is None:
            return np.asarray(pair_counts, dtype=np.float64)
        return np.fromiter(
            (self.score(int(c), int(a), int(b)) if c else 0.0
             for c, a, b in zip(pair_counts, left_counts, right_counts)),
            np.float64, len(pair_counts))

    def score_in_words(self, left: str, right: str, pair: str | None = None) -> str:
        """The score of the pair ``left`` + ``right`` (``pair``, when named otherwise than
        by its two symbols), written with symbols.

        >>> from bpeviz.algorithms import get
        >>> get("wordpiece").score_in_words("a", "b")
        'count(a b) / (count(a) × count(b))'
        >>> get("wordpiece").score_in_words("first", "second", "pair")
        'count(pair) / (count(first) × count(second))'
        """
        template = self.score_words or "score({pair})"
        return template.format(pair=pair or f"{left} {right}", left=left, right=right)

    def score_in_numbers(self, count: int, left_count: int, right_count: int) -> str:
        """The score with its numbers put in (``score_in_words``' numbers).

        >>> from bpeviz.algorithms import get
        >>> get("wordpiece").score_in_numbers(15, 15, 1036)
        '15 / (15 × 1,036)'
        """
        template = self.score_numbers or "score({count}, {left_count}, {right_count})"
        return template.format(count=f"{count:,}", left_count=f"{left_count:,}",
                               right_count=f"{right_count:,}")

    def score_of(self, count: int, left_count: int, right_count: int) -> float:
        """:attr:`score` of one pair (its count when the record has no formula; 0 when a
        part has no count, as a pair that no longer occurs)."""
        if self.score is None:
            return float(count)
        return self.score(count, left_count, right_count) if left_count and right_count else 0.0

    def value_name(self, scoring: str = "score") -> str:
        """What a pair wins with under ``scoring``: "score" or "count"."""
        return "score" if self.scored and scoring == "score" else "count"

    def check_export(self, fmt: str, holds: str) -> None:
        """Raise ValueError (``holds``, then where to export instead) unless ``fmt`` holds
        this algorithm exactly.

        >>> from bpeviz.algorithms import get
        >>> get("bpe").check_export("vocab", "vocab.txt holds WordPiece")
        Traceback (most recent call last):
        ValueError: vocab.txt holds WordPiece; export bpe as 'hf' or 'gpt2'
        """
        if fmt in self.export_formats:
            return
        others = [f"'{f}'" for f in self.export_formats if f != "training"]
        where = " or ".join([", ".join(others[:-1]), others[-1]] if len(others) > 1 else others)
        raise ValueError(f"{holds}; export {self.name} as {where}")
