"""The lesson's last step (:mod:`bpeviz.analysis.lesson`): a word the corpus never held,
cut into tokens, told from the trace the record's coder makes (merges applied, or
pieces matched) in the record's own words. No streamlit here.

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_counts({"hug": 10, "pug": 5, "pun": 12, "bun": 4}), "wordpiece",
...           merges=6)
>>> encode_step(t, "hugs", "").text()[0]
'“hugs” was never in the corpus. WordPiece does not replay its merges: from the left, \
it takes the longest piece of the vocabulary that starts the word, then the longest that \
continues it (a piece inside the word has ##).'
"""

from __future__ import annotations

from bpeviz.algorithms import get as get_algorithm
from bpeviz.analysis.lesson_parts import (
    LessonStep,
    Sentence,
    Sym,
    _listed,
    _plural,
    _quote,
    _spaced,
    _times,
    sentence_text,
)
from bpeviz.core.snapshot import Snapshot
from bpeviz.core.trace import Trace
from bpeviz.core.tracing import text_words
from bpeviz.core.training import Training


def pick_example(training: Training, example_text: str) -> str | None:
    """The word tokenized in the last step: the first word of ``example_text`` missing from
    the corpus that encoding cuts in at least two steps (merges applied or pieces matched;
    else the one cut in most steps); a corpus word when the text has none."""
    snap = training.at(len(training.merges))
    known = set(training.corpus.words)
    candidates = []
    try:
        candidates = [w for w in text_words(training, example_text or "", 50)
                      if w not in known and w.strip()]
    except ValueError:
        candidates = []
    if not candidates:
        candidates = [w for w in training.corpus.words if w.strip()][:20]
    best, best_size = None, -2
    for w in candidates:
        try:
            tr = snap.trace(w)
        except ValueError:
            continue
        size = -1 if tr.unk else len(tr.steps) + len(tr.pieces)
        if size >= 2:
            return w
        if size > best_size:
            best, best_size = w, size
    return best


def encode_step(training: Training, word: str, example_text: str) -> LessonStep:
    """The lesson step that tokenizes ``word`` (``example_text``: where a word that
    becomes the unknown token may be found)."""
    n = len(training.merges)
    snap = training.at(n)
    tr = snap.trace(word)
    novel = word not in set(training.corpus.words)
    said = (f"{_quote(word)} was never in the corpus." if novel
            else f"Take {_quote(word)}, a word of the corpus.")
    alg = get_algorithm(training.algorithm)
    sentences: list[Sentence] = [(f"{said} {alg.encode_words}",)]
    if tr.pieces:  # the trace of a longest match: the pieces it took
        sentences.extend(_matched(training, snap, tr, example_text, word))
        numbers = {"word": word, "pieces": [p.piece for p in tr.pieces], "unk": tr.unk}
    else:  # the trace of merges applied
        sentences.extend(_merged(training, snap, tr, word))
        numbers = {"word": word, "merges": [s.step for s in tr.steps], "tokens": list(tr.ids)}
    return LessonStep("encode", "Tokenize a new word", tuple(sentences), (), numbers,
                      merge_step=n, trace=tr)


def _matched(training: Training, snap: Snapshot, tr: Trace, example_text: str,
             word: str) -> list[Sentence]:
    vocab = training.vocab
    steps = [[Sym(vocab[p.id], p.id)] for p in tr.pieces if p.piece is not None]
    misses = [t for p in tr.pieces for t in p.tried if t != p.piece]
    out: list[Sentence] = []
    if tr.unk:
        out.append((f"At character {tr.pieces[-1].start + 1} no piece matches, so "
                    "the whole word becomes ", Sym(tr.unk_text, -1), "."))
    else:
        tried = sentence_text(tuple(_listed([[x] for x in misses[:6]], len(misses) - 6)))
        out.append(("It takes ", *_listed(steps), f": {_plural(len(steps), 'token')}"
                    + (f"; it first tried {tried}, which are not in the "
                       "vocabulary." if misses else "."),))
    unknown = _unknown_word(training, snap, example_text, word)
    if unknown is not None:
        short = get_algorithm(training.algorithm).short
        out.append((f"{_quote(unknown[0])} becomes ", Sym(tr.unk_text, -1),
                    f": {_quote(unknown[1])} was never in the corpus, so no piece "
                    f"holds it, and {short} gives up on the whole word.",))
    return out


def _merged(training: Training, snap: Snapshot, tr: Trace, word: str) -> list[Sentence]:
    vocab, merges = training.vocab, training.merges
    final = [Sym(vocab[i], i) if i >= 0 else Sym(tr.unk_text, -1) for i in tr.ids]
    uses: dict[int, int] = {}  # merge step -> how often it applied, in order
    for s in tr.steps:
        uses[s.step] = uses.get(s.step, 0) + 1
    applied = [[f"merge {k} (", Sym(merges[k - 1].left, merges[k - 1].left_id), " + ",
                Sym(merges[k - 1].right, merges[k - 1].right_id),
                f", {_times(times)})" if times > 1 else ")"]
               for k, times in list(uses.items())[:8]]
    alg = get_algorithm(training.algorithm)
    out: list[Sentence] = [
        (f"{_quote(word)} starts as {alg.units_named(len(tr.initial))}"
         + (" and takes " if tr.steps else ", and no merge fits it"),
         *(_listed(applied, len(uses) - 8, "merge") if tr.steps else []),
         f"; it ends as {_plural(len(final), 'token')}: ", *_spaced(final), "."),
    ]
    if tr.steps:
        out.extend(alg.reading_sentences(word, snap.encode(word)))
    return out


def _unknown_word(training: Training, snap: Snapshot, text: str,
                  skip: str) -> tuple[str, str] | None:
    """A word of ``text`` that becomes the unknown token as a whole, with a character
    whose starting symbol the vocabulary lacks."""
    vocab = set(training.vocab)
    alg = get_algorithm(training.algorithm)
    try:
        candidates = text_words(training, text or "", 50)
    except ValueError:
        return None
    for w in candidates:
        if w == skip or not w.strip():
            continue
        try:
            tr = snap.trace(w)
        except ValueError:
            continue
        if tr.unk:
            missing = alg.missing_unit(w, vocab)
            if missing is not None:
                return w, missing
    return None
