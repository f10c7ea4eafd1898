"""How one pre-tokenized word is cut into tokens: the word coders an algorithm's record
chooses (:func:`coder_of`): merges over characters, merges over bytes, longest match.
:class:`bpeviz.core.encoding._Encoder` calls the coder of its training's algorithm.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from bpeviz.algorithms import get as get_algorithm
from bpeviz.core.encoded import _PARTIAL, _UNK
from bpeviz.core.trace import Trace, longest_match_trace, merge_trace
from bpeviz.core.training_data import AtStep, TrainingData
from bpeviz.engine.merge_word import merge_word
from bpeviz.text.display import readable
from bpeviz.text.symbols import Symbol, utf8_bytes

if TYPE_CHECKING:
    from bpeviz.algorithms import Algorithm

#: Words longer than this many characters are one [UNK] in WordPiece (as BERT and HF).
MAX_WORDPIECE_CHARS = 100

#: one token of a word: (id, start, end, flags)
_Piece = tuple[int, int, int, int]


class EncoderTables(Protocol):
    """What a coder reads of the encoder it serves (:class:`bpeviz.core.encoding._Encoder`,
    the layer above, which calls the coders): one step's vocabulary tables, its merge
    function and unknown token, and the tables :meth:`WordCoder.setup` keeps on it."""

    training: TrainingData
    step: int
    alg: Algorithm
    vocab: Sequence[Symbol]
    ids: dict[Symbol, int]
    known: list[int]
    #: (left id, right id) -> (rank, merged token id)
    ranks: dict[tuple[int, int], tuple[int, int]]
    prefix: str
    marker: str | None
    marker_style: str
    unk_id: int
    unk_text: str
    byte_ids: list[int]
    longest: int
    prefixes: set[str]
    _merge: Callable[[list[int], list[int], list[int]],
                     tuple[list[int], list[int], list[int]]]


def longest_match(word: str, start: int, head: str, prefixes: Container[str],
                  ids: Mapping[str, int], longest: int,
                  known: Callable[[int], bool] | None = None) -> tuple[int, int]:
    """WordPiece's longest match at ``start``: ``(token id, end)``, or ``(-1, -1)``, for
    the step-limited cutters (:mod:`bpeviz.present.text_history`,
    :mod:`bpeviz.analysis.curves`); the encoder inlines the same loop (its hot path).

    Reads on while ``head`` + the piece is the start of some token (``prefixes``: a longer
    match would start with it) and keeps the last match; ``known`` limits which token ids
    count (the tokens of an earlier step).

    >>> longest_match("hugs", 0, "", {"h", "hu", "hug"}, {"h": 0, "hug": 1}, 3)
    (1, 3)
    """
    found = found_end = -1
    end = start
    last = min(len(word), start + longest)
    while end < last:
        end += 1
        piece = head + word[start:end]
        if piece not in prefixes:
            break
        i = ids.get(piece)
        if i is not None and (known is None or known(i)):
            found, found_end = i, end
    return found, found_end


class _RanksUpTo:
    """The first ``step`` merges of a ranks table (``get`` as :func:`merge_word` uses it)."""

    def __init__(self, ranks: dict[tuple[int, int], tuple[int, int]], step: int) -> None:
        self.ranks, self.step = ranks, step

    def get(self, pair: tuple[int, int], default: Any = None) -> Any:
        found = self.ranks.get(pair)
        return found if found is not None and found[0] <= self.step else default


# -- how one word is cut: the coders a record chooses ------------------------------------
class WordCoder:
    """How encoding cuts one word, for the algorithms whose record chooses it: the encoder
    (what :class:`EncoderTables` lists of it, passed to every method as ``enc``: its
    vocabulary tables, merge function and unknown token), the trace, the replay on another
    corpus and the token records call these methods and nothing else of the algorithm.

    A new way of encoding is a subclass of one of the coders below, set on a record
    (``Algorithm(..., coder=MyCoder())``); nothing else changes.
    """

    #: whether the merges' ranks cut a word (``enc._merge`` applies them, the compiled
    #: rank table is built, BPE-dropout can leave merges out); else the vocabulary alone
    by_ranks = True

    def setup(self, enc: EncoderTables) -> None:
        """Build the tables this coder reads on every word and keep them on ``enc``."""

    def texts(self, enc: EncoderTables) -> dict[int, str]:
        """Every known token's text, as :attr:`Token.text <bpeviz.core.encoded.Token>`
        shows it: its vocabulary entry."""
        vocab = enc.vocab
        return {i: vocab[i] for i in enc.known}  # type: ignore[misc]

    def byte_table(self, enc: EncoderTables) -> list[int] | None:
        """Every byte's id, when the compiled encoder may merge the bytes of a word itself
        (with the merges' ranks); None: it hands every word to :meth:`cut`."""
        return None

    def cut(self, enc: EncoderTables, word: str) -> tuple[_Piece, ...]:
        """``(id, start, end, flags)`` of every piece of ``word`` (offsets in characters)."""
        raise NotImplementedError

    def trace(self, snapshot: AtStep, enc: EncoderTables, word: str) -> Trace:
        """How :meth:`cut` reaches the word's pieces, step by step (:mod:`bpeviz.core.trace`)."""
        raise NotImplementedError

    def token_bytes(self, enc: EncoderTables, text: str, ids: Sequence[int],
                    starts: Sequence[int], ends: Sequence[int]) -> Iterator[bytes]:
        """Every token's bytes: the UTF-8 of the input it covers."""
        return (text[s:e].encode("utf-8", "surrogatepass") for s, e in zip(starts, ends))

    def decode(self, enc: EncoderTables, ids: Sequence[int], spaced: bool) -> str:
        """The text of checked token ids (-1: the unknown token); ``spaced``: the
        pre-tokenizer dropped the whitespace between words."""
        raise NotImplementedError

    def with_unknown(self, ids: list[int], unk_id: int) -> list[int]:
        """A word's initial ids, where the vocabulary lacks a symbol (-1), as encoding has
        them: the unknown token in place of each such symbol."""
        return [unk_id if i < 0 else i for i in ids]

    def check_replay(self, training: TrainingData) -> None:
        """Raise ValueError when replaying ``training``'s merges on a corpus cannot show
        how it cuts words (:func:`bpeviz.core.recount.replay_on`)."""

    def cut_at(self, enc: EncoderTables, word: str, step: int) -> tuple[_Piece, ...]:
        """:meth:`cut` as an encoder of step ``step`` would cut ``word``, with ``enc`` an
        encoder of a later step (one encoder serves every step of a word's history,
        :mod:`bpeviz.present.text_history`): only the first ``step`` merges' ranks apply."""
        ranks = _RanksUpTo(enc.ranks, step)
        merge = enc._merge
        enc._merge = lambda ids, starts, ends: merge_word(ids, starts, ends, ranks)  # type: ignore[method-assign]
        try:
            return self.cut(enc, word)
        finally:
            enc._merge = merge  # type: ignore[method-assign]

    def change_steps(self, training: TrainingData, word: str) -> Sequence[int] | None:
        """The steps at which :meth:`cut_at` may cut ``word`` differently from the step
        before, each to be tried; None when the pieces change only at the merges applied
        with all of them (the ranks a word takes rise, so the steps between are found by
        bisection). A coder that cuts by the vocabulary alone has every step tried."""
        return None if self.by_ranks else range(1, len(training.merges) + 1)


class MergeCoder(WordCoder):
    """The record's initial symbols, merged by rank (leftmost lowest rank first); a symbol
    the vocabulary lacks is one unknown token (BPE)."""

    def initial(self, enc: EncoderTables, word: str) -> tuple[list[Symbol], list[int]]:
        """The word's initial symbols and their ids (-1: not in the vocabulary)."""
        symbols = enc.alg.initial_symbols(word, enc.marker, enc.marker_style)
        ids = enc.ids
        return symbols, [ids.get(s, -1) for s in symbols]

    def cut(self, enc: EncoderTables, word: str) -> tuple[_Piece, ...]:
        symbols, ids = self.initial(enc, word)
        n = len(word)
        starts = list(range(len(symbols)))
        ends = [i + 1 for i in starts]
        if len(symbols) > n:  # a separate marker: after the last character, no width
            starts[-1] = ends[-1] = n
        ids, starts, ends = enc._merge(ids, starts, ends)
        unk_id = enc.unk_id
        return tuple((unk_id, s, e, _UNK) if i < 0 else (i, s, e, 0)
                     for i, s, e in zip(ids, starts, ends))

    def trace(self, snapshot: AtStep, enc: EncoderTables, word: str) -> Trace:
        symbols, ids = self.initial(enc, word)
        return merge_trace(snapshot, enc, word, symbols, ids)

    def decode(self, enc: EncoderTables, ids: Sequence[int], spaced: bool) -> str:
        vocab, unk_text = enc.vocab, enc.unk_text
        text = "".join([vocab[i] if i >= 0 else unk_text for i in ids])  # type: ignore[misc]
        if enc.marker:
            text = text.replace(enc.marker, " " if spaced else "")
        return text


class ByteMergeCoder(MergeCoder):
    """:class:`MergeCoder` over the word's UTF-8 bytes (byte-level BPE): a token that holds
    part of a character points at the whole character (flag ``_PARTIAL``), its bytes are
    its vocabulary entry, and the compiled encoder merges bytes itself."""

    def setup(self, enc: EncoderTables) -> None:
        enc.byte_ids = [enc.ids.get(bytes((b,)), -1) for b in range(256)]

    def texts(self, enc: EncoderTables) -> dict[int, str]:
        vocab = enc.vocab
        return {i: readable(vocab[i]) for i in enc.known}  # type: ignore[arg-type]

    def byte_table(self, enc: EncoderTables) -> list[int] | None:
        return None if -1 in enc.byte_ids else enc.byte_ids

    def cut(self, enc: EncoderTables, word: str) -> tuple[_Piece, ...]:
        data = utf8_bytes(word)  # surrogates as tiktoken reads them (see the module doc)
        byte_ids = enc.byte_ids
        ids = [byte_ids[b] for b in data]
        if -1 in ids:  # only an imported vocabulary can lack a byte; imports check it
            raise ValueError("this byte-level vocabulary lacks some of the 256 bytes")
        # char_at[b]: the character byte b belongs to (a surrogate pair's bytes: its first)
        char_at: list[int] = []
        n, c = len(word), 0
        while c < n:
            ch = word[c]
            if "\ud800" <= ch < "\udc00" and c + 1 < n and "\udc00" <= word[c + 1] <= "\udfff":
                char_at.extend((c, c, c, c))  # one 4-byte character from two code points
                c += 2
                continue
            char_at.extend([c] * len(ch.encode("utf-8", "surrogatepass")))
            c += 1
        char_at.append(n)
        starts = list(range(len(data)))
        ends = [b + 1 for b in starts]
        ids, starts, ends = enc._merge(ids, starts, ends)
        pieces = []
        for i, bs, be in zip(ids, starts, ends):
            cs, last, k = char_at[bs], char_at[be - 1], be
            while char_at[k] == last:  # to the start of the next character (char_at[-1] = n)
                k += 1
            ce = char_at[k]
            whole = (bs == 0 or char_at[bs - 1] != cs) and char_at[be] != last
            pieces.append((i, cs, ce, 0 if whole else _PARTIAL))
        return tuple(pieces)

    def token_bytes(self, enc: EncoderTables, text: str, ids: Sequence[int],
                    starts: Sequence[int], ends: Sequence[int]) -> Iterator[bytes]:
        return map(enc.vocab.__getitem__, ids)  # type: ignore[arg-type]

    def decode(self, enc: EncoderTables, ids: Sequence[int], spaced: bool) -> str:
        vocab = enc.vocab
        data = b"".join([vocab[i] if i >= 0 else b"" for i in ids])  # type: ignore[misc]
        try:
            return data.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            return data.decode("utf-8", "replace")


class LongestMatchCoder(WordCoder):
    """The longest piece in the vocabulary from the left, the record's continuing prefix
    (``##``) on every piece after the first; a word that cannot be matched, or longer
    than ``max_chars`` characters, is one unknown token (WordPiece)."""

    by_ranks = False

    def __init__(self, max_chars: int = MAX_WORDPIECE_CHARS) -> None:
        self.max_chars = max_chars

    def setup(self, enc: EncoderTables) -> None:
        vocab = enc.vocab
        enc.longest = max((len(vocab[i]) for i in enc.known), default=0)
        # every start of every token (the tokens too), for the longest-match search
        enc.prefixes = {s[:k] for s in enc.ids for k in range(1, len(s) + 1)}  # type: ignore[misc]

    def cut(self, enc: EncoderTables, word: str) -> tuple[_Piece, ...]:
        n = len(word)
        if n > self.max_chars:
            return ((enc.unk_id, 0, n, _UNK),)
        ids, prefixes, prefix, longest = enc.ids, enc.prefixes, enc.prefix, enc.longest
        pieces = []
        start = 0
        while start < n:
            # longest_match(), inlined: a call per piece costs WordPiece encoding ~15%
            head = prefix if start else ""
            found = -1
            end = start
            last = min(n, start + longest)
            while end < last:
                end += 1
                piece = head + word[start:end]
                if piece not in prefixes:
                    break
                i = ids.get(piece)
                if i is not None:
                    found, found_end = i, end
            if found < 0:
                return ((enc.unk_id, 0, n, _UNK),)
            pieces.append((found, start, found_end, 0))
            start = found_end
        return tuple(pieces)

    def trace(self, snapshot: AtStep, enc: EncoderTables, word: str) -> Trace:
        return longest_match_trace(snapshot, enc, word, self.max_chars)

    def cut_at(self, enc: EncoderTables, word: str, step: int) -> tuple[_Piece, ...]:
        # the longest match among the tokens known at ``step`` (and the specials after all)
        training = enc.training
        size, final = training.vocab_sizes[step], training.vocab_sizes[enc.step]
        n = len(word)
        if n > self.max_chars:
            return ((enc.unk_id, 0, n, _UNK),)
        pieces = []
        start = 0
        while start < n:
            found, found_end = longest_match(
                word, start, enc.prefix if start else "", enc.prefixes, enc.ids, enc.longest,
                lambda i: i < size or i >= final)
            if found < 0:
                return ((enc.unk_id, 0, n, _UNK),)
            pieces.append((found, start, found_end, 0))
            start = found_end
        return tuple(pieces)

    def change_steps(self, training: TrainingData, word: str) -> Sequence[int] | None:
        # the longest match is not monotone in the step (a longer token can appear, then be
        # passed over for another): every merge whose token fits the word, at its start or
        # after the prefix inside it, is tried
        if len(word) > self.max_chars:
            return ()
        prefix = get_algorithm(training.algorithm).continuing_prefix
        rest = word[1:]
        return [m.step for m in training.merges if isinstance(m.token, str) and (
            word.startswith(m.token) or (m.token.startswith(prefix)
                                         and m.token[len(prefix):] in rest))]

    def decode(self, enc: EncoderTables, ids: Sequence[int], spaced: bool) -> str:
        vocab, unk_text, prefix = enc.vocab, enc.unk_text, enc.prefix
        out: list[str] = []
        for i in ids:
            token = vocab[i] if i >= 0 else unk_text
            if prefix and token.startswith(prefix) and out:  # type: ignore[union-attr]
                out.append(token[len(prefix) :])  # type: ignore[arg-type]
            else:
                if out and spaced:
                    out.append(" ")
                out.append(token)  # type: ignore[arg-type]
        return "".join(out)

    def with_unknown(self, ids: list[int], unk_id: int) -> list[int]:
        return [unk_id]  # a word it cannot match is one unknown token

    def check_replay(self, training: TrainingData) -> None:
        if training.merges:
            return
        alg = get_algorithm(training.algorithm)
        prefix, specials = alg.continuing_prefix, training.options.special_tokens
        made = [t for t in training.vocab[: training.n_base] if t not in specials
                and isinstance(t, str) and len(t.removeprefix(prefix)) > 1]
        if made:
            raise ValueError(
                f"this {alg.label} vocabulary lists {len(made):,} tokens longer than one "
                f"character (such as {made[0]!r}) but no merges, so there is nothing to "
                f"replay: {alg.label} cuts words by longest match, which encoding shows "
                "(Tokenize, Compare)")


#: the built-in coders, by the record's (encoder, units)
_BUILT_IN: dict[tuple[str, str], WordCoder] = {
    ("merges", "characters"): MergeCoder(),
    ("merges", "bytes"): ByteMergeCoder(),
    ("longest_match", "characters"): LongestMatchCoder(),
}


def coder_of(alg: Algorithm) -> WordCoder:
    """The coder that cuts words for ``alg``: the record's own (``Algorithm.coder``), else
    the built-in one of its ``encoder`` over its ``units``.

    >>> from bpeviz.algorithms import get
    >>> [type(coder_of(get(n))).__name__ for n in ("bpe", "bbpe", "wordpiece")]
    ['MergeCoder', 'ByteMergeCoder', 'LongestMatchCoder']
    """
    if alg.coder is not None:
        return alg.coder  # type: ignore[no-any-return]
    try:
        return _BUILT_IN[(alg.encoder, alg.units)]
    except KeyError:
        raise ValueError(f"{alg.label} encodes by {alg.encoder} over {alg.units}: no coder "
                         "of bpeviz.core.encoding does that; give its record a coder") from None


# -- pre-tokenization with offsets ---------------------------------------------------------
