"""A guided first lesson: how BPE, WordPiece or byte-level BPE learn, in seven steps.

:func:`build_lesson` turns one training into steps (the corpus; cut into symbols; the
first merge; the next merge; repeat; tokenize a new word), then adds what research
changed (:mod:`bpeviz.analysis.lesson_research`: SuperBPE, PickyBPE and Parity-aware
BPE, each with an example of its own). Every sentence is made from
that training's own numbers (:func:`bpeviz.core.explain.explain`,
:func:`bpeviz.core.tracing.trace`), so another corpus gives another lesson. A sentence
is a tuple of parts: plain text, or a :class:`Sym` (a vocabulary symbol, drawn as a
chip); :meth:`LessonStep.text` gives the plain sentences. No streamlit here (the page is
``pages/0_Learn.py``).

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_counts({"low": 5, "lower": 2, "newest": 6, "widest": 3}),
...           merges=10, marker="</w>")
>>> lesson = build_lesson(t, "lowest")
>>> [s.key for s in lesson.steps]
['corpus', 'split', 'first-merge', 'next-merge', 'repeat', 'encode', 'research']
>>> lesson.steps[2].text()[1]
'e + s occurs 9 times in the corpus: “newest” ×6 and “widest” ×3 (6 + 3 = 9).'
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from bpeviz.algorithms import get as get_algorithm
from bpeviz.algorithms import lessons
from bpeviz.analysis.lesson_encode import encode_step, pick_example
from bpeviz.analysis.lesson_parts import (  # noqa: F401  (Sym, Lesson, ...: the lesson's public names)
    PRETOKENIZER_NAMES,
    RULE_NAMES,
    TIE_HOW,
    Lesson,
    LessonSection,
    LessonStep,
    Part,
    Sentence,
    Sym,
    WordSplit,
    _blank_names,
    _listed,
    _most_frequent,
    _num,
    _plural,
    _quote,
    _spaced,
    _times,
    _unit_counts,
    _Words,
    sentence_text,
)
from bpeviz.analysis.lesson_research import research_step
from bpeviz.analysis.views import created_at
from bpeviz.core.explain import explain
from bpeviz.core.training import STOP_REASONS, Training
from bpeviz.samples import SAMPLES, load_sample

#: the sample each algorithm's lesson starts on
LESSON_SAMPLES = lessons()
#: samples small enough for a lesson (every word fits on one screen)
SMALL_SAMPLES = ("low", "fast", "lowly", "hug", "seed003")


def lesson_pretokenizer(algorithm: str) -> str:
    """The pre-tokenizer of a lesson (the app's "auto"): GPT-2's for byte-level BPE."""
    return get_algorithm(algorithm).pretokenizer


def lesson_options(algorithm: str, sample_id: str) -> dict[str, Any]:
    """The keyword arguments of ``bpeviz.train`` for a lesson on a sample: the sample's
    merges and marker (BPE), tie rule "first", WordPiece's score. The same dict as the
    app's sidebar makes for these settings, so Explore reuses the cached training.

    >>> lesson_options("bpe", "low")["marker"]
    '</w>'
    """
    settings = SAMPLES[sample_id].settings
    options: dict[str, Any] = {"algorithm": algorithm, "tie_break": "first",
                               "min_frequency": 0, "merges": int(settings.get("merges", 10))}
    marker = settings.get("marker", "none")
    alg = get_algorithm(algorithm)
    if alg.takes_marker and marker != "none":
        options.update(marker=marker, marker_style="separate")
    options.update(alg.scoring_options("score"))
    return options


def lesson_training(algorithm: str, sample_id: str) -> Training:
    """The training a lesson explains (uncached; the app caches its own)."""
    from bpeviz.core.training import train

    corpus = load_sample(sample_id, lesson_pretokenizer(algorithm))
    return train(corpus, **lesson_options(algorithm, sample_id))


# -- the lesson -----------------------------------------------------------------------
def build_lesson(training: Training, example_text: str = "", max_words: int = 12) -> Lesson:
    """The lesson on ``training``: seven steps (fewer when it made fewer than two merges),
    the last one about research algorithms.

    ``example_text``: text whose first word missing from the corpus is tokenized in the
    last step (a corpus word when none is missing); ``max_words``: words per table.
    """
    words = _Words(training)
    n = len(training.merges)
    steps = [_corpus_step(training, words, max_words), _split_step(training, words, max_words)]
    if n == 0:
        steps.append(LessonStep(
            "no-merge", "Nothing to merge",
            ((f"No pair of symbols can be merged here: {STOP_REASONS[training.stop_reason]}. "
              "Pick a bigger corpus or more merges to see a merge.",),),
            (), {"merges": 0}))
    else:
        steps.append(_merge_step(training, words, 1, "first-merge", max_words))
        if n >= 2:
            steps.append(_merge_step(training, words, _second_step(training), "next-merge",
                                     max_words))
        steps.append(_repeat_step(training, words, max_words))
    example = pick_example(training, example_text)
    if example is not None:
        steps.append(encode_step(training, example, example_text))
    # the research step shows the whole run, so "Explore this" opens it at the end
    steps.append(dataclasses.replace(research_step(), merge_step=n))
    return Lesson(training, tuple(steps), example)


def _second_step(training: Training) -> int:
    """The merge the "next merge" step shows: the first merge after the first whose token
    holds part of a character (byte-level BPE), else merge 2."""
    alg = get_algorithm(training.algorithm)
    return next((m.step for m in training.merges[1:] if not alg.whole(m.token)), 2)


def _corpus_step(training: Training, words: _Words, max_words: int) -> LessonStep:
    corpus = training.corpus
    n, total = len(corpus.words), corpus.total
    shown = [[_quote(w), f" ×{c:,}"] for w, c in zip(corpus.words[:8], corpus.counts[:8])]
    example = next((i for i, (w, c) in enumerate(zip(corpus.words, corpus.counts))
                    if c > 1 and w.strip()), 0)
    first_count = int(corpus.counts[example])
    sentences: list[Sentence] = [
        (f"The corpus holds {_plural(total, 'word')}, {n:,} of them different: ",
         *_listed(shown, n - 8, "word"), "."),
        (f"×{first_count:,} means how often a word appears: {_quote(corpus.words[example])} "
         f"appears {_times(first_count)}. Training only needs each different word and its "
         "count, never the order of the words.",),
    ]
    spaced = next((w for w in corpus.words if len(w) > 1 and w[0] == " "), None)
    if spaced is not None:
        sentences.append((
            f"The {PRETOKENIZER_NAMES.get(corpus.pretokenizer, corpus.pretokenizer)} "
            "pre-tokenizer cut the text into words and kept "
            f"the space in front of a word as part of it: {_quote(spaced)} starts with a "
            "space, so a word at the start of a line and the same word after a space are "
            "different words.",))
    blank = next((w for w in corpus.words if w and not w.strip()), None)
    if blank is not None:
        sentences.append((
            f"{_quote(blank)} is whitespace ({', '.join(_blank_names(blank))}): this "
            "pre-tokenizer keeps it as a word of its own, so it is counted too.",))
    return LessonStep("corpus", "Start from a corpus", tuple(sentences),
                      words.rows(None, None, max_words),
                      {"distinct_words": n, "words": total,
                       "counts": dict(zip(corpus.words, map(int, corpus.counts)))})


def _split_step(training: Training, words: _Words, max_words: int) -> LessonStep:
    corpus, alg = training.corpus, get_algorithm(training.algorithm)
    snap = training.at(0)
    freq = _unit_counts(snap)
    used = [int(i) for i in np.flatnonzero(freq)]
    tokens = int(training.token_counts()[0])
    # the example word: the longest of the first five
    index = max(range(min(5, len(corpus.words))), key=lambda i: len(corpus.words[i]))
    example = list(words.split(snap, index))
    head: Sentence = (alg.split_in_words(training.options.marker,
                                         training.options.marker_style) + ": ",
                      _quote(corpus.words[index]), " becomes ", *_spaced(example), ".")
    syms = [Sym(training.vocab[i], i) for i in used]
    lengths = [(int(c), len(snap.split_ids(i))) for i, c in enumerate(corpus.counts)]
    sentences: list[Sentence] = [head, *alg.alphabet_sentences(
        corpus.words, syms, tokens, training.options.special_tokens, lengths)]
    return LessonStep("split", "Cut every word into " + alg.units, tuple(sentences),
                      words.rows(None, snap, max_words),
                      {"alphabet": len(used), "tokens": tokens,
                       "vocabulary": training.vocab_size_at(0),
                       "example": corpus.words[index]})


def _merge_step(training: Training, words: _Words, k: int, key: str,
                max_words: int) -> LessonStep:
    alg = get_algorithm(training.algorithm)
    before, after = training.at(k - 1), training.at(k)
    why = explain(training, k, before=before)
    m = why.merge
    left, right, token = Sym(m.left, m.left_id), Sym(m.right, m.right_id), Sym(
        m.token, m.token_id, new=True)
    score = why.value == "score"
    sentences: list[Sentence] = []
    if key == "first-merge":
        if score:
            sentences.append((
                f"{alg.short} counts every pair of neighbouring symbols too, but it merges "
                f"the pair with the best score, {alg.score_in_words('first', 'second', 'pair')}"
                ", not the most frequent pair.",))
        else:
            sentences.append((
                "Now count every pair of neighbouring symbols in the corpus, each word "
                "weighted by how often it appears, and merge the pair that occurs most.",))
    else:
        made = [s for s in (left, right) if created_at(training)[s.id] > 0]
        sentences.append((
            f"After {_plural(k - 1, 'merge')} the pairs are counted again on the new "
            "splits"
            + (f", and merge {k} uses " if made else "."),
            *(_listed([[s, f" (made by merge {int(created_at(training)[s.id])})"]
                       for s in made]) if made else []),
            ": tokens grow by joining tokens already made." if made else ""))
    # the words behind the count
    rows = why.words.iloc[:8]
    shown = []
    for r in rows.itertuples(index=False):
        item: list[Part] = [_quote(r.word), f" ×{int(r.count):,}"]
        if r.occurrences > 1:
            item.append(f" (the pair {_times(int(r.occurrences))} in it: "
                        f"{int(r.contribution):,})")
        shown.append(item)
    sums = (f" ({' + '.join(str(int(c)) for c in why.words['contribution'])} = {m.count:,})"
            if 1 < len(why.words) <= 6 else "")
    sentences.append((left, " + ", right, f" occurs {_times(m.count)} in the corpus: ",
                      *_listed(shown, len(why.words) - 8, "word"), f"{sums}."))
    numbers: dict[str, Any] = {
        "step": k, "left": m.left, "right": m.right, "token": m.token,
        "token_id": m.token_id, "count": m.count, "score": why.score,
        "words": [(r.word, int(r.count), int(r.occurrences), int(r.contribution))
                  for r in why.words.itertuples(index=False)],
        "tie": len(why.tie), "tie_rule": why.tie_rule,
        "count_left": why.count_left, "count_right": why.count_right,
        "tokens_before": before.token_count, "tokens_after": after.token_count,
        "vocab_before": training.vocab_size_at(k - 1),
        "vocab_after": training.vocab_size_at(k),
    }
    if score:
        sentences.append((
            left, f" appears {_times(why.count_left)} in the corpus and ", right,
            f" {_times(why.count_right)}, so the score is "
            f"{alg.score_in_numbers(m.count, why.count_left, why.count_right)} = "
            f"{_num(why.score)}.",))
        frequent = _most_frequent(before, why)
        if frequent is not None:
            a, b, count, value, count_a, count_b = frequent
            numbers["most_frequent"] = {"left_id": a.id, "right_id": b.id, "count": count,
                                        "score": value, "count_left": count_a,
                                        "count_right": count_b}
            if count > m.count and value < why.score:
                sentences.append((
                    "The most frequent pair, ", a, " + ", b, f" ({_times(count)}), scores "
                    f"only {alg.score_in_numbers(count, count_a, count_b)} = {_num(value)}"
                    + (f": {alg.score_why}" if alg.score_why else "."),))
            elif (a.id, b.id) == (m.left_id, m.right_id):
                sentences.append(("It is also the most frequent pair: no rarer pair "
                                  "scored better.",))
    elif why.count_left is not None and why.count_right is not None:
        note = f", {alg.count_ranking_note}" if alg.count_ranking_note else ""
        sentences.append((
            f"Scoring “frequency” ranks pairs by count only{note} (the {alg.short} score "
            f"would be {alg.score_in_numbers(m.count, why.count_left, why.count_right)} = "
            f"{_num(why.formula_score or 0.0)}).",))
    # rivals and ties
    value = "score" if score else "count"
    if len(why.tie):
        tied = [[Sym(r.left, int(r.left_id)), " + ", Sym(r.right, int(r.right_id))]
                for r in why.tie.iloc[:4].itertuples(index=False)]
        one = len(why.tie) == 1
        amount = (f"{'scores' if one else 'score'} {_num(why.score)} too" if score
                  else f"{'occurs' if one else 'occur'} {_times(m.count)} too")
        rule = why.tie_rule
        where = (f"comes first, in {_quote(why.first_word or '')}" if rule == "first" else
                 f"has the smallest ids ({m.left_id:,}, {m.right_id:,})")
        sentences.append((
            *_listed(tied, len(why.tie) - 4, "pair"),
            f" {amount}: a tie. The tie rule “{RULE_NAMES[rule]}” decides ({TIE_HOW[rule]}): ",
            left, " + ", right, f" {where}."))
    elif len(why.runners_up):
        r = why.runners_up.iloc[0]
        amount = (f"scores {_num(float(r['score']))}" if score
                  else f"occurs {_times(int(r['count']))}")
        sentences.append(("No other pair does as well: the next best, ",
                          Sym(r["left"], int(r["left_id"])), " + ",
                          Sym(r["right"], int(r["right_id"])), f", {amount}."))
    else:
        sentences.append(("No other pair was left.",))
    first = why.first_index
    sentences.extend(alg.merge_notes(
        token, None if first is None else training.corpus.words[first],
        [] if first is None else [training.vocab[i] for i in
                                  before.split_ids(first)[: why.first_position or 0]]))
    removed = before.token_count - after.token_count
    sentences.append((
        "So ", left, " + ", right, " becomes the new token ", token,
        f" (id {m.token_id:,}: its number in the vocabulary), written wherever the pair "
        "stands: the corpus shrinks from "
        f"{before.token_count:,} to {after.token_count:,} "
        f"{'symbols' if k == 1 else 'tokens'} ({removed:,} fewer), and the vocabulary grows "
        f"from {training.vocab_size_at(k - 1):,} to {training.vocab_size_at(k):,} tokens.",))
    title = ("Merge the " + ("best-scoring" if score else "most frequent") + " pair"
             if key == "first-merge" else f"Merge again (merge {k})")
    return LessonStep(key, title, tuple(sentences),
                      words.rows(before, after, max_words, list(after.changed_words)),
                      numbers, merge_step=k, explanation=why)


def _repeat_step(training: Training, words: _Words, max_words: int) -> LessonStep:
    alg = get_algorithm(training.algorithm)
    n = len(training.merges)
    start, end = training.at(0), training.at(n)
    merges = training.merges
    made = [[Sym(m.token, m.token_id)] for m in merges[:12]]
    value = alg.value_name(training.options.scoring)
    values = ", ".join(_num(m.score) if value == "score" else f"{m.count:,}"
                       for m in merges[:12])
    more = f" and {n - 12:,} more" if n > 12 else ""
    sentences: list[Sentence] = [
        (f"Training repeats count, pick, merge: {_plural(n, 'merge')} in all. It stopped "
         f"there: {STOP_REASONS[training.stop_reason]}.",),
        ("The tokens made, in order: ", *_listed(made, n - 12), "."),
        (f"The {'score' if value == 'score' else 'count'} of each when it was merged: "
         f"{values}{more}.",),
        (f"The vocabulary grew from {training.vocab_size_at(0):,} to "
         f"{training.vocab_size_at(n):,} tokens, and the corpus shrank from "
         f"{start.token_count:,} symbols to {end.token_count:,} tokens.",),
    ]
    corpus = training.corpus
    single = [i for i in range(len(corpus.words)) if len(end.split_ids(i)) == 1
              and len(start.split_ids(i)) > 1]
    if single:
        named = [[_quote(corpus.words[i])] for i in single[:6]]
        sentences.append((
            (f"All {len(single):,} words are" if len(single) == len(corpus.words) > 1 else
             f"{_plural(len(single), 'word')} of {len(corpus.words):,} "
             f"{'is' if len(single) == 1 else 'are'}") + " now a single token: ",
            *_listed(named, len(single) - 6), "."))
    sentences.extend(alg.rejoin_sentences([(m.token, m.token_id, m.step) for m in merges]))
    return LessonStep("repeat", "Repeat", tuple(sentences),
                      words.rows(start, end, max_words),
                      {"merges": n, "vocab_before": training.vocab_size_at(0),
                       "vocab_after": training.vocab_size_at(n),
                       "tokens_before": start.token_count, "tokens_after": end.token_count,
                       "single": len(single), "values": [m.score if value == "score"
                                                         else m.count for m in merges]},
                      merge_step=n)
