"""Which tokens of a vocabulary encoding can never produce, and why (for
:mod:`bpeviz.analysis.health`).

A token is *reachable* when cutting its own text yields it:

- merges (BPE, byte-level BPE: the record's coder cuts by the merges' ranks): the token's
  initial symbols (its merge tree's leaves) are merged as encoding merges a word; the
  token is reachable when they become the token alone. Otherwise the first merge that
  joins across one of the token's own merges is the reason.
- longest match (WordPiece): a word-start token is its own word's longest match; a
  continuing token (``##ing``) must start a piece after some word-start piece, tried
  with the word-start pieces of the step, shortest first.
- pieces scored by Viterbi (Unigram): the best cut of the piece's text is the piece
  itself, and the normalizer keeps its text.

Before that the pre-tokenizer must keep the token's text in one word. Special tokens,
the initial symbols (bytes, characters) and tokens a file lists after its merged ones
are never unreachable.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator
from typing import Any

import regex

import bpeviz.unigram.lattice as lat
from bpeviz.algorithms import get as get_algorithm
from bpeviz.core.coders import coder_of
from bpeviz.core.encoding import UNK_TOKENS, fresh_encoder, split_words
from bpeviz.core.trace import _first_merges
from bpeviz.engine.merge_word import merge_word
from bpeviz.text.metaspace import WS
from bpeviz.unigram.model import normalize_identity

#: how many word-start pieces are tried in front of a continuing piece (WordPiece)
STARTS_TRIED = 64
#: a token a file lists among its base tokens that reads as a special token (<s>, [CLS])
_SPECIAL_LOOK = regex.compile(r"^(<[^<>\s]+>|\[[^\[\]\s]+\])$")


def q(text: str) -> str:
    """A token's text quoted for a sentence."""
    return f"`{text}`"


def shown(alg: Any, symbol: Any) -> str:
    return alg.show(symbol) if isinstance(symbol, bytes) else str(symbol)


def special_ids(training: Any, step: int) -> set[int]:
    """Ids of the special tokens at ``step``: the training's, the unknown token, tokens
    a file lists after its merged ones, and base tokens that read as special (<s>)."""
    vocab, n_base = training.vocab, training.n_base
    named = set(training.options.special_tokens) | set(UNK_TOKENS)
    ids = {i for i in range(n_base) if vocab[i] in named}
    ids.update(range(int(training.vocab_sizes[-1]), len(vocab)))
    for i in range(n_base):
        text = vocab[i].decode("utf-8", "replace") if isinstance(vocab[i], bytes) else vocab[i]
        if len(text) > 2 and _SPECIAL_LOOK.match(text):
            ids.add(i)
    return ids


def checked_ids(training: Any, step: int) -> Iterator[int]:
    """The ids reachability is asked of: every token known at ``step`` but the special
    tokens and the initial symbols."""
    alg = get_algorithm(training.algorithm)
    options = training.options
    specials = special_ids(training, step)
    for i in range(int(training.vocab_sizes[step])):
        if i in specials:
            continue
        if i < training.n_base and alg.is_unit(training.vocab[i], options.marker,
                                                options.marker_style):
            continue
        yield i


def pretokenizer_reason(text: str | None, pretokenizer: str) -> str | None:
    """Why the pre-tokenizer never hands encoding a word holding ``text`` whole (None:
    it can: the text is one word, or inside one)."""
    if not text:
        return None
    spoken = text.replace(WS, " ") if pretokenizer == "metaspace" else text
    words, _ = split_words(spoken, pretokenizer)
    if len(words) == 1 and text in words[0]:
        return None
    parts = ", ".join(q(w) for w in words) or "nothing"
    return f"the pre-tokenizer splits its text: {q(text)} → {parts}"


# -- merges (the record's coder cuts by the merges' ranks) -------------------------------
def _leaves(training: Any, i: int, memo: dict[int, tuple[int, ...]]) -> tuple[int, ...]:
    """The initial symbols token ``i``'s first merge tree is made of (ids)."""
    found = memo.get(i)
    if found is not None:
        return found
    first = _first_merges(training)
    stack, order = [i], []
    while stack:  # iterative: a merge tree may be thousands deep
        j = stack.pop()
        if j in memo:
            continue
        m = first.get(j)
        if m is None or j < training.n_base:
            memo[j] = (j,)
            continue
        if m.left_id in memo and m.right_id in memo:
            memo[j] = memo[m.left_id] + memo[m.right_id]
            continue
        order.append(j)
        stack.extend((j, m.right_id, m.left_id))
    return memo[i]


def _tree(training: Any, i: int, memo: dict[int, tuple[int, ...]]) -> dict[tuple[int, int], Any]:
    """Token ``i``'s own merges by the span of leaves each makes: ``(start, end) -> merge``."""
    first = _first_merges(training)
    spans: dict[tuple[int, int], Any] = {}
    stack = [(i, 0)]
    while stack:
        j, start = stack.pop()
        m = first.get(j)
        if m is None or j < training.n_base:
            continue
        width = len(_leaves(training, m.left_id, memo))
        spans[(start, start + len(_leaves(training, j, memo)))] = m
        stack.extend(((m.left_id, start), (m.right_id, start + width)))
    return spans


def _applied(ids: list[int], ranks: dict[tuple[int, int], tuple[int, int]]) -> Iterator[
        tuple[int, int, int, int, int]]:
    """Every merge encoding applies to ``ids``, in order: (rank, left id, right id, start,
    end) with the span in leaves (short words only: this rescans as merge_word does)."""
    ids = list(ids)
    starts = list(range(len(ids)))
    ends = [s + 1 for s in starts]
    while len(ids) > 1:
        best, at = None, 0
        for k in range(len(ids) - 1):
            found = ranks.get((ids[k], ids[k + 1]))
            if found is not None and (best is None or found[0] < best[0]):
                best, at = found, k
        if best is None:
            return
        yield best[0], ids[at], ids[at + 1], starts[at], ends[at + 1]
        ids[at : at + 2] = [best[1]]
        ends[at] = ends[at + 1]
        del starts[at + 1], ends[at + 1]


def merge_reasons(training: Any, step: int) -> dict[int, str]:
    """Unreachable tokens of a merge-cut vocabulary at ``step``: id -> reason."""
    alg = get_algorithm(training.algorithm)
    enc = fresh_encoder(training, step)
    vocab, marker = training.vocab, training.options.marker
    pretok = enc.pretokenizer
    memo: dict[int, tuple[int, ...]] = {}
    merges = training.merges
    out: dict[int, str] = {}

    def names(ids: list[int]) -> str:
        return " + ".join(q(shown(alg, vocab[j]) if j >= 0 else enc.unk_text) for j in ids)

    for i in checked_ids(training, step):
        symbol = vocab[i]
        why = pretokenizer_reason(alg.bare(symbol, marker), pretok)
        if why:
            out[i] = why
            continue
        if i < training.n_base:  # a file's base token that no merge makes
            text = alg.bare(symbol, marker)
            symbols = (alg.initial_symbols(text, marker if symbol != text else None,
                                           enc.marker_style) if text is not None
                       else [bytes((b,)) for b in symbol])
            ids = [enc.ids.get(s, -1) for s in symbols]
            got = merge_word(ids, list(range(len(ids))), list(range(1, len(ids) + 1)),
                             enc.ranks)[0]
            if got != [i]:
                out[i] = f"no merge makes it: its text encodes as {names(got)}"
            continue
        leaves = list(_leaves(training, i, memo))
        got = merge_word(leaves, list(range(len(leaves))), list(range(1, len(leaves) + 1)),
                         enc.ranks)[0]
        if got == [i]:
            continue
        own = _tree(training, i, memo)
        why = f"its text encodes as {names(got)}"
        for rank, left, right, start, end in _applied(leaves, enc.ranks):
            if (start, end) in own:
                continue
            # the smallest of its own merges this one cuts across
            crossed = min(((s, e) for s, e in own if start < e and s < end
                           and not (s <= start and end <= e)),
                          key=lambda span: span[1] - span[0], default=None)
            if crossed is None:
                continue
            need = own[crossed]
            shared = b"" if isinstance(symbol, bytes) else ""
            shared = shared.join(vocab[j] for j in leaves[max(start, crossed[0]):
                                                          min(end, crossed[1])])
            why += (f": merge {q(shown(alg, vocab[left]))} + {q(shown(alg, vocab[right]))} "
                    f"(step {merges[rank - 1].step}) comes before {q(shown(alg, need.left))} + "
                    f"{q(shown(alg, need.right))} (step {need.step}) and takes the "
                    f"{q(shown(alg, shared))} it needs")
            break
        out[i] = why
    return out


# -- longest match (the record's coder cuts by the vocabulary alone) ----------------------
def match_reasons(training: Any, step: int) -> dict[int, str]:
    """Unreachable tokens of a longest-match vocabulary at ``step``: id -> reason."""
    alg = get_algorithm(training.algorithm)
    enc = fresh_encoder(training, step)
    vocab, prefix = training.vocab, alg.continuing_prefix
    specials = special_ids(training, step)
    starts = sorted((vocab[i] for i in range(int(training.vocab_sizes[step]))
                     if i not in specials and isinstance(vocab[i], str)
                     and not (prefix and vocab[i].startswith(prefix))),
                    key=lambda s: (len(s), s))[:STARTS_TRIED]
    out: dict[int, str] = {}

    def names(pieces: Any) -> str:
        return " + ".join(q(str(vocab[p[0]]) if p[0] >= 0 else enc.unk_text) for p in pieces)

    for i in checked_ids(training, step):
        symbol = vocab[i]
        text = alg.bare(symbol)
        why = pretokenizer_reason(text, enc.pretokenizer)
        if why or text is None:
            out[i] = why or "its bytes are not whole characters"
            continue
        continuing = bool(prefix) and symbol != text
        heads = starts if continuing else [""]
        first = None
        for head in heads:
            word = head + text
            pieces = enc.cut(word)
            if any(p[0] == i and p[1] == len(head) and p[2] == len(word) for p in pieces):
                break
            first = first or (word, pieces)
        else:
            if first is None:
                out[i] = "no word-start piece to follow"
            elif continuing:
                word, pieces = first
                out[i] = (f"a longer piece always runs over its start: after each of the "
                          f"{len(heads)} shortest word-start pieces tried, e.g. {q(word)} "
                          f"encodes as {names(pieces)}")
            else:
                out[i] = f"its text encodes as {names(first[1])}"
    return out


def reasons_for(training: Any, step: int) -> dict[int, str]:
    """:func:`merge_reasons` or :func:`match_reasons`, as the record's coder cuts words."""
    if coder_of(get_algorithm(training.algorithm)).by_ranks:
        return merge_reasons(training, step)
    return match_reasons(training, step)


# -- pieces scored by Viterbi (Unigram) ----------------------------------------------------
def piece_table(step: Any) -> list[tuple[int, str, bool]]:
    """Every piece of a Unigram step: (id, piece, special), by id (a trained round's model,
    or an opened SentencePiece model whose pieces carry their types)."""
    model = step.model
    if hasattr(model, "specials"):  # a trained round: specials first, then the pieces
        table = [(i, p, True) for i, p in enumerate(model.specials)]
        return table + [(len(model.specials) + k, p, False) for k, p in enumerate(model.pieces)]
    return [(i, p, kind != 1) for i, (p, _, kind) in enumerate(model.pieces)]  # 1: NORMAL


def _normalizer(model: Any) -> Callable[[str], str]:
    normalize = getattr(model, "normalize", None)
    if normalize is None:
        return lambda text: normalize_identity(text)[0]
    return lambda text: normalize(text)[0]


def piece_reasons(step: Any) -> dict[int, str]:
    """Unreachable pieces of a Unigram step: id -> reason."""
    model = step.model
    normalize = _normalizer(model)
    out: dict[int, str] = {}
    for i, piece, special in piece_table(step):
        if special or len(piece.removeprefix(WS)) <= 1:
            continue
        spoken = piece.replace(WS, " ")
        normal = normalize("x" + spoken + "x")  # inside a word, with its spaces
        if piece not in normal:
            kept = normalize(spoken).removeprefix(WS) or "nothing"
            how = ("runs of spaces count once" if "  " in spoken or spoken.endswith(" ")
                   else "NFKC" if unicodedata.normalize("NFKC", spoken) != spoken else "")
            out[i] = (f"the normalizer turns its text into {q(kept)}"
                      + (f" ({how})" if how else ""))
            continue
        lattice = model.lattice(piece)
        best, score = lat.viterbi(lattice)
        cut = [piece[n.start:n.end] for n in best]
        if cut != [piece]:
            own = next((n for n in lattice.nodes() if n.start == 0 and n.end == len(piece)),
                       None)
            than = f" against {own.score:.2f} for the piece itself" if own is not None else ""
            out[i] = (f"Viterbi cuts its text as {' + '.join(q(c) for c in cut)} (score "
                      f"{score:.2f}{than})")
    return out
