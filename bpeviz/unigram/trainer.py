"""SentencePiece's Unigram trainer (``unigram_model_trainer.cc``), step by step.

What it does, as sentencepiece 0.2.3 does it (``train_unigram(..., variant="sentencepiece")``):

1. **Seed**: every character, plus the frequent substrings: those that occur at least
   twice and are *right-branching* (followed by at least two different characters
   somewhere: SentencePiece reads them off its suffix array's internal nodes), at most
   16 characters, valid pieces (``▁`` only in front, one Unicode script, no ``<unk>``
   character), scored ``frequency x length`` (float32), the best 1,000,000 kept (ties:
   the longer piece in UTF-8 bytes first, then the pieces in byte order). As 0.2.3
   reads them off a suffix array of UTF-8 bytes, "followed by different characters"
   means different first bytes. Scores become log-probabilities (the sum and its log in
   double, each score rounded once to float32). Quirk of 0.2.3, reproduced: a
   substring that ends the corpus's last sentence and at least one other also gets the
   count of the suffix-array node "substring + end of sentence" (sentences end in a
   NUL byte there, and a node's trailing NULs are trimmed).
2. **EM**, 2 sub-iterations per round: expected counts by forward-backward over every
   word's lattice, pieces with expected count < 0.5 dropped, new score
   ``digamma(count) - digamma(total)`` (SentencePiece's sparse prior). Its LogSumExp is
   ``vmax + log1p(exp(vmin - vmax))`` in double with libm's ``exp`` and ``log1p``
   (0.2.0 had ``log(exp(d) + 1)``), over the nodes in lattice order (a position's
   unknown node after the pieces that start there).
3. **Prune**: a piece whose own best split does not use it, or that no word's best
   split uses, goes; the others cost ``F x (log p(piece) - sum log p'(alternative))``
   where the alternative is the piece's second-best split and ``F`` its share of the
   Viterbi tokens; the costliest are kept until ``max(1.1 x vocab_size, 0.75 x size)``.
   Training stops after the pruning that reaches ``1.1 x vocab_size``; else EM again.
4. **Final**: pieces that their own best split does not use (unreachable) go; then
   every character of the corpus (missing ones get the lowest score plus a tiny
   penalty), then the best-scored pieces, up to ``vocab_size - 3`` (``<unk>``, ``<s>``,
   ``</s>`` are ids 0-2 and count in ``vocab_size``).

Steps: step 0 is the seed; step k the vocabulary after k prunings, with the scores the
EM before that pruning gave (the pieces the pruning kept keep their scores); the last
step is the final vocabulary. Every step has every character of the corpus, as the final
vocabulary (and any SentencePiece model, at ``character_coverage=1.0``) does: a character
that EM or a pruning dropped from the trainer's model stays in the step, scored as the
final cut scores it (``UnigramStep.restored`` names them; the trainer's next EM goes on
without them, as SentencePiece's does, so the final vocabulary is sentencepiece's).
``removed`` at step k lists what is gone at step k + 1 (EM's drops, the pruning's, the
final cut's; never a character) with the pruning's cost where it has one.
A step's ``loss`` is the corpus's negative log-likelihood under the step's best splits
(``sum of count x -score`` of every word's Viterbi split).

The corpus (:mod:`bpeviz.unigram.spm_input`): ``sentencepiece_input`` reads text as
``spm_train`` does with ``normalization_rule_name="identity"`` (one sentence per line,
spaces to ``▁``, runs of spaces once, lines over 4,192 bytes skipped,
``<unk>``/``<s>``/``</s>`` in the text become the unknown character; a tab is a
character like any other, as in 0.2.3). A table of words with counts (a
:class:`bpeviz.Corpus`) trains as if each word were its own line.

Sums are float32 in SentencePiece's order (``num_threads=16`` as its default, which
changes only rounding: per thread over the words ``i % 16``, then merged), and every
exp and log is libm's, as sentencepiece's; read against sentencepiece 0.2.3's source
(``unigram_model_trainer.cc``, ``unigram_model.cc``). Measured with
``python -m bench.unigram`` on the Python standard library's text (identity
normalization, ``character_coverage=1.0``): the final pieces, their order and their
float32 scores are sentencepiece 0.2.3's to the last bit at every vocabulary tried: 300,
500, 800, 1,000, 1,500, 2,000, 3,000 on 0.1 MB; 1,000, 2,000 on 0.3 MB; 1,000 on 0.5 MB;
1,000, 2,000, 4,000, 8,000 on 1 MB; 2,000, 4,000, 8,000 on 2 MB; 8,000 on 5, 10, 20, 30
and 100 MB (before: 7,973 of 7,997 pieces on 5 MB, 3,975 of 3,997 on 1 MB at 4,000). The
input is read as ``spm_train`` reads it (:mod:`bpeviz.unigram.spm_input`), down to what
shows only on large corpora: past 2**25 characters the rarest leave the alphabet. Not
reproduced, as no corpus here reaches them: the seed queue's garbage collection past 16
million distinct candidates, and the 500 MB chunks the seed's suffix arrays are built
over.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import cache

import numpy as np

import bpeviz.unigram.lattice as lat
from bpeviz.unigram._batch import Batch, compiled_lattice
from bpeviz.unigram.model import (
    SPM_SPECIALS,
    WS,
    Removal,
    UnigramModel,
    UnigramStep,
    UnigramTraining,
)
from bpeviz.unigram.scripts import script
from bpeviz.unigram.spm_input import _END, _MID, UNK_CHAR, SentencePieceInput

# -- seed ------------------------------------------------------------------------------
_BAD, _META, _INHERITED = "bad", "meta", "inherited"  # character classes beside scripts


@cache
def _char_class(ch: str, split_by_number: bool) -> str | None:
    """What :func:`_valid_piece` needs of one character: never in a piece (``_BAD``),
    ``▁`` (``_META``), a combining mark taking the script before it (``_INHERITED``), or
    its script (kana and U+30FC as Han; None for a digit when digits do not split)."""
    if ch in (UNK_CHAR, "\0", " "):
        return _BAD
    if ch == WS:
        return _META
    s = script(ch)
    if s in ("Hiragana", "Katakana") or ch == "\u30fc":
        s = "Han"
    elif s == "Inherited":
        return _INHERITED
    if not split_by_number and ("0" <= ch <= "9" or "\uff10" <= ch <= "\uff19"):
        return None
    return s


def _valid_piece(piece: str, split_by_unicode_script: bool, split_by_number: bool) -> bool:
    prev = None
    for pos, ch in enumerate(piece):
        s = _char_class(ch, split_by_number)
        if s is _BAD:
            return False
        if s is _META:
            if pos > 0:
                return False
            continue
        if s is _INHERITED:
            continue
        if split_by_unicode_script and s is not None and prev is not None and prev != s:
            return False
        prev = s
    return True


@cache
def _lead(char: str) -> str:
    """The first UTF-8 byte of ``char`` (as a one-character string).

    sentencepiece 0.2.3 builds its suffix array over UTF-8 bytes, so a substring is
    right-branching only if the characters after it differ in their *first byte*: "開發"
    followed by "及" (E5 8F 8A) and "好" (E5 A5 BD) is not.
    """
    return chr(char.encode("utf-8", "surrogatepass")[0])


def seed_pieces(data: SentencePieceInput, seed_size: int = 1_000_000, max_piece_length: int = 16,
                split_by_unicode_script: bool = True,
                split_by_number: bool = True) -> list[tuple[str, float]]:
    """SentencePiece's seed: characters then frequent substrings, with log-probabilities."""
    # sentencepiece 0.2.3 also reads a substring off the suffix array node "s + end of
    # sentence" (its trailing boundary dropped). Such a node exists when s ends at least
    # two sentences, one of them the last of the corpus (the only one followed by the end
    # of the array rather than by the next sentence's "▁"); its count adds to s's.
    bonus: Counter[str] = Counter()
    last = data.last_word
    if last is not None and data.line_ends:
        tails = {last[i:] for i in range(len(last)) if 2 <= len(last) - i <= max_piece_length}
        for word, at_end in zip(data.words, data.line_ends):
            if at_end:
                for i in range(max(0, len(word) - max_piece_length), len(word) - 1):
                    if word[i:] in tails:
                        bonus[word[i:]] += at_end
    compiled = compiled_lattice()
    if compiled is not None:  # (only valid pieces come back)
        chars, found = _substrings_compiled(compiled, data, max_piece_length, list(bonus),
                                            split_by_unicode_script, split_by_number)
    else:
        chars, found = _substrings(data, max_piece_length)
    f32 = lat.f32
    candidates = []
    for sub, freq, branching in found:
        extra = bonus[sub] if bonus.get(sub, 0) >= 2 else 0
        if (branching or extra) and (compiled is not None or _valid_piece(
                sub, split_by_unicode_script, split_by_number)):
            # sentencepiece 0.2.3's score: float(frequency) x float(length), in float32
            score = f32(f32((freq if branching else 0) + extra) * len(sub))
            encoded = sub.encode("utf-8", "surrogatepass")
            candidates.append((-score, -len(encoded), encoded, sub))
    # sentencepiece 0.2.3 (BoundedPriorityQueue::Get): by score, then by the piece's
    # length in UTF-8 bytes, both descending, then by its bytes ascending
    candidates.sort()
    del candidates[seed_size:]
    # the characters' counts become float32 (int64 into float), as the seed's scores are
    seed = [(ch, f32(n)) for ch, n in sorted(chars.items(), key=lambda x: (-x[1], x[0]))]
    seed += [(sub, -neg) for neg, _, _, sub in candidates]
    # ToLogProb: the sum and its log in double (exact: the values are whole numbers), each
    # log(value) - logsum rounded once to float32; math.log is libm's log, as there
    total = math.fsum(s for _, s in seed) if seed else 1.0
    logsum = math.log(total)
    logs = np.array([math.log(v) - logsum for _, v in seed], dtype=np.float64)
    return list(zip([p for p, _ in seed], logs.astype(np.float32).tolist()))


def _follow_code(ends: int) -> int:
    """What follows a word for the branching test, as a first UTF-8 byte: ``▁`` (another
    word), 0 (the sentence's end) or -1 (both: the word branches there)."""
    if ends == (_MID | _END):
        return -1
    return ord(_lead(WS)) if ends == _MID else 0


_CLASS_CODES = {_BAD: -1, _META: -2, _INHERITED: -3, None: -4}  # as _lattice.c numbers them


def _substrings_compiled(compiled, data: SentencePieceInput, max_piece_length: int,
                         wanted: list[str], split_by_unicode_script: bool,
                         split_by_number: bool):
    """:func:`_substrings` in C, keeping the valid pieces (:func:`_valid_piece`) only: the
    branching ones, then those of ``wanted`` (whatever their branching)."""
    scripts: dict[str, int] = {}
    classes = {}
    for ch in set("".join(data.words)):
        cls = _char_class(ch, split_by_number)
        classes[ch] = (_CLASS_CODES[cls] if cls in _CLASS_CODES
                       else scripts.setdefault(cls, len(scripts)))
    subs, freq, branching, chars = compiled.substrings(
        list(data.words), list(data.counts), [_follow_code(e) for e in data.ends],
        max_piece_length, ord(UNK_CHAR), wanted, classes, split_by_unicode_script)
    freqs = np.frombuffer(freq, dtype=np.int64).tolist()
    return chars, zip(subs, freqs, bytes(branching))


def _substrings(data: SentencePieceInput, max_piece_length: int):
    """Every character's count, and every substring of 2 .. ``max_piece_length``
    characters as ``(substring, frequency, right-branching)``."""
    chars: Counter[str] = Counter()
    subs: dict[str, list] = {}  # substring -> [frequency, next character or "" if branching]
    for word, count, ends in zip(data.words, data.counts, data.ends):
        n = len(word)
        follow = (_lead(WS) if ends == _MID else "\0") if ends != (_MID | _END) else ""
        leads = [_lead(c) for c in word]
        for i in range(n):
            ch = word[i]
            if ch != UNK_CHAR:
                chars[ch] += count
            for j in range(i + 2, min(n, i + max_piece_length) + 1):
                sub = word[i:j]
                nxt = leads[j] if j < n else follow
                entry = subs.get(sub)
                if entry is None:
                    subs[sub] = [count, nxt]
                else:
                    entry[0] += count
                    if entry[1] and entry[1] != nxt:
                        entry[1] = ""
    return chars, ((sub, freq, nxt == "") for sub, (freq, nxt) in subs.items())


# -- EM and pruning -------------------------------------------------------------------------
def digamma(x: float) -> float:
    """SentencePiece's digamma approximation."""
    result = 0.0
    while x < 7:
        result -= 1 / x
        x += 1
    x -= 0.5
    xx = 1.0 / x
    xx2 = xx * xx
    xx4 = xx2 * xx2
    result += (math.log(x) + (1.0 / 24.0) * xx2 - (7.0 / 960.0) * xx4
               + (31.0 / 8064.0) * xx4 * xx2 - (127.0 / 30720.0) * xx4 * xx4)
    return result


def _word_order(data: SentencePieceInput) -> list[int]:
    """EM's word order: by count, then by the word's UTF-8 bytes (SentencePiece's Sorted)."""
    return sorted(range(len(data.words)),
                  key=lambda i: (-data.counts[i], data.words[i].encode("utf-8")))


class _State:
    """The current model: seed indices in SentencePiece's id order, and their scores."""

    def __init__(self, order: list[int], scores: np.ndarray, n_seed: int) -> None:
        self.order = order
        self.scores = scores  # float32 per seed index
        self.alive = np.zeros(n_seed, dtype=bool)
        self.alive[order] = True

    @property
    def min_score(self) -> float:
        return float(self.scores[self.order].min())

    @property
    def unk_score(self) -> float:
        return lat.f32(self.min_score - lat.UNK_PENALTY)


def train_sentencepiece(data: SentencePieceInput, vocab_size: int, *, seed_size: int = 1_000_000,
                        max_piece_length: int = 16, shrinking_factor: float = 0.75,
                        num_sub_iterations: int = 2, num_threads: int = 16,
                        split_by_unicode_script: bool = True,
                        split_by_number: bool = True,
                        specials: tuple[str, ...] = SPM_SPECIALS) -> UnigramTraining:
    """Train as SentencePiece's unigram trainer does; see the module docstring."""
    seed = seed_pieces(data, seed_size, max_piece_length, split_by_unicode_script,
                       split_by_number)
    if vocab_size - len(specials) < 1:
        raise ValueError(f"vocab_size must be more than the {len(specials)} special tokens")
    pieces = [p for p, _ in seed]
    index = {p: i for i, p in enumerate(pieces)}
    n_seed = len(pieces)
    # EM works on words sorted by count, then by the word (SentencePiece's Sorted())
    order_w = _word_order(data)
    words = [data.words[i] for i in order_w]
    counts = np.array([data.counts[i] for i in order_w], dtype=np.float64)
    batch = Batch(words, index, max_piece_length)
    piece_batch = Batch(pieces, index, max_piece_length)
    scores = np.array([s for _, s in seed], dtype=np.float32)
    state = _State(list(range(n_seed)), scores, n_seed)
    desired = int(vocab_size * 1.1)
    records: list[_State] = [state]
    why: list[dict[str, Removal]] = [{}]
    while True:
        before = state.order
        for _ in range(num_sub_iterations):
            expected, _ = batch.expected_counts(state.alive, state.scores, state.order[0],
                                                state.unk_score, counts, n_seed, num_threads)
            state = _m_step(state, expected, n_seed)
        for i in before:
            if not state.alive[i]:
                why[-1][pieces[i]] = Removal(pieces[i], None, "em", uses=0.0)
        # sentencepiece 0.2.3: every round prunes (unused pieces go even when the size is
        # reached), and training stops right after a pruning, without EM
        state, removed = _prune(state, batch, piece_batch, pieces, counts, desired,
                                shrinking_factor, n_seed, num_threads)
        why[-1].update((r.piece, r) for r in removed)
        records.append(state)
        why.append({})
        # a round that removes nothing would repeat forever (only characters and pieces
        # every word needs are left, more than 1.1 x vocab_size): stop, as nothing shrinks
        if len(state.order) <= desired or len(state.order) == len(before):
            break
    state = _drop_unreachable(state, piece_batch, pieces, why[-1], n_seed)
    corpus_chars = [ch for ch, _ in _corpus_chars(data)]
    final_pieces = _finalize(state, pieces, corpus_chars, vocab_size - len(specials))
    fs = np.zeros(n_seed, dtype=np.float32)
    f_order = []
    for p, sc in final_pieces:
        fs[index[p]] = sc
        f_order.append(index[p])
    records.append(_State(f_order, fs, n_seed))
    why.append({})
    # every round keeps every character of the corpus (SentencePiece's model does, at
    # character_coverage=1.0): one that the round's re-estimation or pruning dropped
    # stays, scored as the final cut scores it; the trainer's own model goes on without it
    chars = [index[ch] for ch in corpus_chars]
    restored = [_restore(st, chars) for st in records]
    records = [st for st, _ in restored]
    word_t, count_t = tuple(data.words), tuple(data.counts)
    steps: list[UnigramStep] = []
    for k, st in enumerate(records):
        model = UnigramModel(tuple(pieces[i] for i in st.order),
                             tuple(st.scores[st.order].tolist()), specials)
        *_, best = batch.viterbi(st.alive, st.scores, st.order[0], st.unk_score)
        removed_k: tuple[Removal, ...] = ()
        if k + 1 < len(records):
            nxt = records[k + 1].alive
            order = np.array(st.order, dtype=np.int64)
            gone = [pieces[i] for i in order[~nxt[order]].tolist()]
            removed_k = tuple(why[k][p] if p in why[k] else Removal(p, None, "final")
                              for p in gone)
        steps.append(UnigramStep(k, model, float(-(best * counts).sum()), removed_k,
                                 word_t, count_t,
                                 tuple(pieces[i] for i in restored[k][1])))
    options = {"vocab_size": vocab_size, "seed_size": seed_size,
               "max_piece_length": max_piece_length, "shrinking_factor": shrinking_factor,
               "num_sub_iterations": num_sub_iterations, "num_threads": num_threads,
               "split_by_unicode_script": split_by_unicode_script,
               "split_by_number": split_by_number, "specials": tuple(specials)}
    return UnigramTraining("sentencepiece", tuple(steps), options, source=data)


def _digammas(values: np.ndarray) -> np.ndarray:
    """:func:`digamma` of each value (in C where built: the same operations, libm's log)."""
    compiled = compiled_lattice()
    if compiled is not None:
        return np.frombuffer(compiled.digammas(np.ascontiguousarray(values, dtype=np.float64)),
                             dtype=np.float64)
    return np.array([digamma(v) for v in values.tolist()], dtype=np.float64)


def _m_step(state: _State, expected: np.ndarray, n_seed: int) -> _State:
    order = np.array(state.order, dtype=np.int64)
    kept = order[expected[order] >= 0.5]
    counts = expected[kept].astype(np.float32)
    total = float(np.cumsum(counts, dtype=np.float32)[-1]) if len(kept) else 1.0
    logsum = lat.f32(digamma(total))
    scores = state.scores.copy()
    scores[kept] = _digammas(counts.astype(np.float64)) - logsum  # rounded to float32 here
    return _State(kept.tolist(), scores, n_seed)


def _prune(state: _State, batch: Batch, piece_batch: Batch, pieces: list[str],
           counts: np.ndarray, desired: int, shrinking_factor: float, n_seed: int,
           num_threads: int = 16):
    unk = state.order[0]
    # 1. each piece's best split, and its best split without itself
    _, _, _, _, whole_best = piece_batch.viterbi(state.alive, state.scores, unk, state.unk_score)
    pw, pp, ps, pe, alt_best = piece_batch.viterbi(state.alive, state.scores, unk,
                                                   state.unk_score, skip_whole=True)
    # the text of each alternative (a character no live piece covers is its own text)
    ps = ps - piece_batch.word_start[pw]
    pe = pe - piece_batch.word_start[pw]
    own = state.scores.astype(np.float32)
    alternatives: set[int] = set()  # pieces with an alternative: pp[bounds[i]:bounds[i + 1]]
    splits_itself: set[int] = set()
    bounds = np.searchsorted(pw, np.arange(n_seed + 1))
    own_l, whole_l = own.tolist(), whole_best.tolist()
    for i in state.order:
        if len(pieces[i]) == 1:
            continue  # one path only: always kept (if used)
        if own_l[i] < whole_l[i]:  # the best split of the piece does not use it
            splits_itself.add(i)
        else:
            alternatives.add(i)

    def alt_text(i: int) -> tuple[str, ...]:
        lo, hi = bounds[i], bounds[i + 1]
        return tuple(pieces[i][a:b] for a, b in zip(ps[lo:hi].tolist(), pe[lo:hi].tolist()))
    del alt_best
    # 2. Viterbi frequencies over the corpus
    vw, vp, _, _, _ = batch.viterbi(state.alive, state.scores, unk, state.unk_score)
    known = vp >= 0
    freq = _viterbi_freq(vw[known], vp[known], counts, n_seed, num_threads)
    f32 = lat.f32
    # sentencepiece 0.2.3: the sum of the frequencies (in double, then float32) is both
    # the log-probabilities' total and F's denominator (0.2.0 divided F by the word count)
    total = f32(math.fsum(freq[state.order].tolist()))
    logsum = f32(math.log(total))
    kept: list[int] = []
    removed: list[Removal] = []
    judged_ranks: list[int] = []
    freq_l = freq.tolist()
    for rank, i in enumerate(state.order):
        if freq_l[i] == 0:
            removed.append(Removal(pieces[i], 0.0, "unused", uses=0.0,
                                   log_prob=own_l[i]))
        elif i in splits_itself:
            removed.append(Removal(pieces[i], 0.0, "split", uses=freq_l[i],
                                   log_prob=own_l[i]))
        elif i not in alternatives:
            kept.append(i)
        else:
            judged_ranks.append(rank)
    judged_ids = [state.order[r] for r in judged_ranks]
    compiled = compiled_lattice()
    if compiled is not None:
        lost_b, loss_b = compiled.prune_costs(
            np.array(judged_ids, dtype=np.int64), np.ascontiguousarray(pp, dtype=np.int64),
            np.ascontiguousarray(bounds, dtype=np.int64), freq.astype(np.float64), total, logsum)
        lost_l = np.frombuffer(lost_b, dtype=np.float64).tolist()
        loss_l = np.frombuffer(loss_b, dtype=np.float64).tolist()
    else:
        lost_l, loss_l = [], []
        for i in judged_ids:
            # float32 at every step, as SentencePiece computes it
            alt = pp[bounds[i]:bounds[i + 1]].tolist()
            fi = f32(freq_l[i])
            f = f32(fi / total)
            logprob_sp = f32(math.log(fi) - logsum)
            logsum_alt = f32(math.log(f32(total + f32(fi * (len(alt) - 1)))))
            logprob_alt = 0.0
            for n in alt:
                logprob_alt = f32(logprob_alt + (math.log(f32(f32(freq_l[n]) + fi))
                                                 - logsum_alt))
            lost_l.append(f32(logprob_sp - logprob_alt))
            loss_l.append(f32(f * f32(logprob_sp - logprob_alt)))
    # rank -> (log-prob lost per use, uses)
    uses_l = freq[judged_ids].astype(np.float32).tolist()  # f32(freq[i]), as above
    judged = dict(zip(judged_ranks, zip(lost_l, uses_l)))
    candidates = list(zip(loss_l, judged_ranks))
    pruned_size = max(desired, int(shrinking_factor * len(state.order)))
    candidates.sort(key=lambda x: (-x[0], x[1]))
    for loss, rank in candidates:
        i = state.order[rank]
        if len(kept) == pruned_size:
            lost, uses = judged[rank]
            removed.append(Removal(pieces[i], loss, "pruned", uses=float(uses),
                                   log_prob=own_l[i],
                                   alternative=alt_text(i),
                                   nats=float(uses) * float(lost)))
        else:
            kept.append(i)
    return _State(kept, state.scores, n_seed), removed


def _viterbi_freq(words: np.ndarray, pieces: np.ndarray, counts: np.ndarray, n_seed: int,
                  threads: int) -> np.ndarray:
    """Every piece's Viterbi frequency as sentencepiece 0.2.3 sums it: per thread (the
    words ``i % threads``) in float32, adding each word's count (rounded to float32) in
    word and path order, then the threads' sums added in thread order, in float32."""
    acc = np.zeros(threads * n_seed, dtype=np.float32)
    np.add.at(acc, (words % threads) * n_seed + pieces, counts[words].astype(np.float32))
    acc = acc.reshape(threads, n_seed)
    freq = np.zeros(n_seed, dtype=np.float32)
    for t in range(threads):
        freq += acc[t]
    return freq.astype(np.float64)


def _drop_unreachable(state: _State, piece_batch: Batch, pieces: list[str],
                      why: dict[str, Removal], n_seed: int) -> _State:
    """SentencePiece 0.2.3's last pruning: a piece whose own best split does not use it
    could never come out of the encoder, so it goes."""
    *_, best = piece_batch.viterbi(state.alive, state.scores, state.order[0], state.unk_score)
    kept = []
    for i in state.order:
        if len(pieces[i]) > 1 and state.scores[i] < best[i]:
            why[pieces[i]] = Removal(pieces[i], 0.0, "unreachable",
                                     log_prob=float(state.scores[i]))
        else:
            kept.append(i)
    return _State(kept, state.scores, n_seed)


def _corpus_chars(data: SentencePieceInput) -> list[tuple[str, int]]:
    """Every character of the corpus with its count, most frequent first (SentencePiece's
    required characters, in the order its final cut adds them)."""
    by_count: dict[int, list[str]] = {}  # count -> words (Counter counts a string in C)
    for word, count in zip(data.words, data.counts):
        by_count.setdefault(count, []).append(word)
    chars: Counter[str] = Counter()
    for count, words in by_count.items():
        for ch, n in Counter("".join(words)).items():
            chars[ch] += n * count
    chars.pop(UNK_CHAR, None)
    return sorted(chars.items(), key=lambda x: (-x[1], x[0]))


def _restore(state: _State, chars: list[int]) -> tuple[_State, list[int]]:
    """``state`` with every character of ``chars`` (seed indices) that it lacks, each
    scored as :func:`_finalize` scores a missing character (the lowest score, plus
    0.0001 more for each one after the first); and the characters added."""
    missing = [i for i in chars if not state.alive[i]]
    if not missing:
        return state, []
    scores = state.scores.copy()
    penalty = 0.0
    min_score = state.min_score
    for i in missing:
        scores[i] = lat.f32(min_score + penalty)
        penalty = lat.f32(penalty + 0.0001)
    return _State(state.order + missing, scores, len(scores)), missing


def _finalize(state: _State, pieces: list[str], corpus_chars: list[str],
              size: int) -> list[tuple[str, float]]:
    current = {pieces[i]: float(state.scores[i]) for i in state.order}
    final: dict[str, float] = {}
    penalty = 0.0
    min_score = state.min_score
    for ch in corpus_chars:
        if ch in current:
            final[ch] = current[ch]
        else:
            final[ch] = lat.f32(min_score + penalty)
            penalty = lat.f32(penalty + 0.0001)
    for piece, score in sorted(current.items(), key=lambda x: (-x[1], x[0])):
        if piece in final:
            continue
        if len(final) == size:  # (never, when the characters alone pass the size: every
            break               # piece the rounds kept stays; stop_reason "characters")
        final[piece] = score
    return sorted(final.items(), key=lambda x: (-x[1], x[0]))
