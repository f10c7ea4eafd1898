"""The lesson's seventh step: what research changed, three algorithms each with a worked
example trained live on the shipped story (``bpeviz/samples/parallel/``). No streamlit.

* SuperBPE: byte-level BPE up to a transition, then merges across spaces (superwords);
  the example names the transition, the first superwords and a sentence cut by both
  stages;
* PickyBPE: a merge followed by the removal of a part whose Intersection over Self is
  above the threshold, with its numbers;
* Parity-aware BPE: each merge given to the language whose dev text takes the most
  tokens, with the counts that chose, against ordinary byte-level BPE on the same texts.

Every number is read from the engine's trainings (:func:`research_step` keeps them in
each section's ``numbers``), so a change to a trainer changes the sentences.

>>> step = research_step()
>>> [s.key for s in step.sections]
['superbpe', 'picky', 'parity']
>>> s = step.sections[0]
>>> s.numbers["transition"] == s.training.transition
True
"""

from __future__ import annotations

from functools import lru_cache

import regex

from bpeviz.algorithms import get as get_algorithm
from bpeviz.analysis.lesson_parts import (
    LessonSection,
    LessonStep,
    Sentence,
    Sym,
    _listed,
    _plural,
    _spaced,
    _times,
)
from bpeviz.core.training import train
from bpeviz.samples import PARALLEL_LANGUAGES, parallel_text, split_off_dev
from bpeviz.text.corpus import Corpus

#: the examples' settings: small enough to train on every first visit in well under a
#: second, large enough that each shows its effect (superwords, a removal, a language
#: passed over) on the story
SUPERBPE_MERGES, SUPERBPE_TRANSITION = 120, 100
PICKY_MERGES, PICKY_THRESHOLD = 60, 0.9
PARITY_MERGES, PARITY_LANGUAGES = 100, ("en", "hi")
#: the example text of SuperBPE and PickyBPE
STORY = "en"
#: the longest sentence SuperBPE's example cuts (its tokens fit a line or two)
MAX_SENTENCE = 60

_SENTENCE = regex.compile(r"[^.!?\n]+[.!?]")


@lru_cache(maxsize=1)  # the same for every lesson: trained once per process
def research_step() -> LessonStep:
    """The step "What research changed": a section per research algorithm."""
    sections = (superbpe_section(), picky_section(), parity_section())
    intro: Sentence = (
        "The steps before this one are the tokenizers most models use. Research keeps "
        "changing the rule that picks the next merge; here are three recent changes, each "
        "trained "
        "just now on a short story shipped with bpeviz, “"
        + parallel_text(STORY).splitlines()[0] + "”.",)
    return LessonStep("research", "What research changed", (intro,), (),
                      {"sections": [s.key for s in sections]}, sections=sections)


def _label(name: str) -> str:
    return get_algorithm(name).label


def superbpe_section() -> LessonSection:
    """SuperBPE on the story: the transition, the first superwords, a sentence cut."""
    text = parallel_text(STORY)
    t = train(text, algorithm="superbpe", merges=SUPERBPE_MERGES,
              transition=SUPERBPE_TRANSITION)
    n, tr = len(t.merges), t.transition
    last = [[Sym(m.token, m.token_id), f" ({m.step})"] for m in t.merges[max(tr - 3, 0):tr]]
    second = list(range(tr + 1, n + 1))
    supers = [k for k in second if t.superword(k)]
    first = [[Sym(t.merges[k - 1].token, t.merges[k - 1].token_id),
              f" ({k}, {_times(t.merges[k - 1].count)})"] for k in supers[:5]]
    # the sentence of the story (short enough to read in one line) holding the most
    # superwords after stage 2; between equals, the one stage 2 shortens most
    before, after = t.at(tr), t.at(n)
    step_of = {m.token_id: m.step for m in t.merges}
    best, rank = "", (-1, -1)
    for sentence in _SENTENCE.findall(text):
        sentence = sentence.strip()
        if len(sentence) > MAX_SENTENCE:
            continue
        cut = after.encode(sentence)
        held = sum(tok.id in step_of and t.superword(step_of[tok.id]) for tok in cut)
        here = (held, len(before.encode(sentence)) - len(cut))
        if here > rank:
            best, rank = sentence, here
    cut_before = [Sym(t.vocab[tok.id], tok.id) for tok in before.encode(best)]
    cut_after = [Sym(t.vocab[tok.id], tok.id) for tok in after.encode(best)]
    sentences: list[Sentence] = [
        (f"{_label('superbpe')} (Liu et al., 2025) trains in two stages. Stage 1 is "
         "byte-level BPE on GPT-2's words: a space stays glued to the word after it, so no "
         "token joins two words. At the transition, training goes on over text cut only at "
         "digits and runs of punctuation, so a merge can cross a space and join words into "
         "a superword.",),
        (f"On the story, stage 1 makes {_plural(tr, 'merge')}; its last: ", *_listed(last),
         ".") if last else ("The story goes straight to stage 2.",),
        (f"The transition: after merge {tr:,}, stage 2 begins.",),
        (f"Of stage 2's {_plural(len(second), 'merge')}, {len(supers):,} cross a space. "
         "The first superwords (merge, count): ", *_listed(first, len(supers) - 5,
                                                            "superword"), ".")
        if supers else (f"None of stage 2's {_plural(len(second), 'merge')} crosses a "
                        "space on this story.",),
        (f"“{best}” takes {_plural(len(cut_before), 'token')} after stage 1: ",
         *_spaced(cut_before), "."),
        (f"After stage 2 it takes {_plural(len(cut_after), 'token')} "
         f"({len(cut_before) - len(cut_after):,} fewer), {_plural(rank[0], 'superword')} "
         "among them: ", *_spaced(cut_after), "."),
    ]
    numbers = {"merges": n, "transition": tr, "superwords": len(supers),
               "superword_steps": supers, "sentence": best,
               "tokens_before": len(cut_before), "tokens_after": len(cut_after)}
    return LessonSection("superbpe", _label("superbpe"), tuple(sentences), numbers, t,
                         marks=(2,))


def picky_section() -> LessonSection:
    """PickyBPE on the story: a removal with its Intersection over Self."""
    t = train(parallel_text(STORY), algorithm="picky", merges=PICKY_MERGES,
              threshold=PICKY_THRESHOLD)
    removals = [e for e in t.merges if e.kind == "removal"]
    share = f"{PICKY_THRESHOLD:.0%}"
    sentences: list[Sentence] = [
        (f"{_label('picky')} (Chizhov et al., 2024) merges as BPE does, then looks at the "
         "two parts of the new token: how many of a part's uses were inside the new token? "
         "That share is its Intersection over Self (IoS). Above the threshold "
         f"({share} here) the part was only a step on the way, and it is removed from "
         "the vocabulary (▁ marks the space before a word).",),
    ]
    numbers: dict = {"events": len(t.merges), "merges": t.merge_count,
                     "removals": len(removals), "threshold": PICKY_THRESHOLD}
    if removals:
        # the first removal whose part was still used alone, else the first
        e = next((r for r in removals if r.count), removals[0])
        made = t.merges[e.merge_step - 1]
        total = e.inside + e.count
        sentences.append((
            f"On the story, merge {e.merge_step} makes ", Sym(made.token, made.token_id),
            " from ", Sym(made.left, made.left_id), " + ", Sym(made.right, made.right_id),
            ". Of the ", f"{_plural(total, 'use')} of ", Sym(e.token, e.token_id),
            f", {e.inside:,} are inside it: IoS = {e.inside:,} / {total:,} = "
            f"{e.ios:.1%}, above {share}.",))
        sentences.append((
            f"So step {e.step} removes ", Sym(e.token, e.token_id),
            (f"; its {_plural(e.count, 'other use')} {'is' if e.count == 1 else 'are'} "
             "cut back into " if e.count else "; it is cut back into "),
            *_spaced([Sym(p, i) for p, i in zip(e.parts, e.part_ids)]), "."))
        gone = [[Sym(r.token, r.token_id), f" (step {r.step})"] for r in removals[:5]]
        sentences.append((
            f"In {_plural(len(t.merges), 'step')} it made {_plural(t.merge_count, 'merge')} "
            f"and {_plural(len(removals), 'removal')}: ", *_listed(gone, len(removals) - 5),
            f". At its largest the vocabulary held {max(t.vocab_sizes):,} tokens; it ends "
            f"with {t.vocab_sizes[-1]:,}.",))
        numbers.update(step=e.step, merge_step=e.merge_step, token=e.token,
                       inside=e.inside, alone=e.count, ios=e.ios)
    else:
        sentences.append((f"On the story no part reached the threshold in "
                          f"{_plural(len(t.merges), 'step')}: nothing was removed.",))
    return LessonSection("picky", _label("picky"), tuple(sentences), numbers, t)


def parity_texts() -> tuple[dict[str, str], dict[str, str]]:
    """The parity example's training and dev texts: the story in each language, its last
    paragraph kept apart as the dev text."""
    texts, dev = split_off_dev({lang: parallel_text(lang).encode("utf-8")
                                for lang in PARITY_LANGUAGES})
    return ({lang: data.decode("utf-8") for lang, data in texts.items()},
            {lang: data.decode("utf-8") for lang, data in dev.items()})


def parity_section() -> LessonSection:
    """Parity-aware BPE on the story in two languages, against ordinary byte-level BPE."""
    texts, dev = parity_texts()
    t = train(texts, algorithm="parity", merges=PARITY_MERGES, dev=dev)
    alg = get_algorithm(t.algorithm)
    langs = t.languages
    names = {lang: PARALLEL_LANGUAGES[lang] for lang in langs}
    got = t.merges_per_language()
    first = t.choice(1)
    turn = next((c for c in t.choices if c.language != first.language), None)
    # ordinary byte-level BPE on the same texts together, for what parity changed
    plain = train(Corpus.from_text("\n\n".join(texts.values()),
                                   get_algorithm("bbpe").pretokenizer),
                  algorithm="bbpe", merges=PARITY_MERGES)
    start = {lang: len(t.at(0).encode(dev[lang])) for lang in langs}
    fair = {lang: len(t.at().encode(dev[lang])) for lang in langs}
    usual = {lang: len(plain.at().encode(dev[lang])) for lang in langs}

    def tokens(counts: dict[str, int] | tuple[int, ...]) -> str:
        values = counts.values() if isinstance(counts, dict) else counts
        return " and ".join(f"{names[lang]} {_plural(v, 'token')}"
                            for lang, v in zip(langs, values))

    sentences: list[Sentence] = [
        (f"{_label('parity')} (Foroutan et al., 2025) trains one tokenizer for several "
         "languages. Before each merge it tokenizes a dev text in every language, the "
         "same text translated, and gives the merge to the language whose dev text takes "
         "the most tokens: the one compressing worst. That language's most frequent pair "
         "is merged.",),
        (f"The example: the story in {' and '.join(names.values())}, its last paragraph "
         "kept apart as the dev text. Before any merge every byte is a token, and "
         + " and ".join(f"the {names[lang]} dev text has {len(dev[lang]):,} characters in "
                        f"{len(dev[lang].encode('utf-8')):,} bytes" for lang in langs)
         + ": the same story starts with more tokens in the script that takes more bytes.",),
        (f"So the dev texts take {tokens(first.tokens)} before merge 1, and merge 1 goes to "
         f"{names[first.language]}: ", Sym(t.merges[0].token, t.merges[0].token_id),
         "" if alg.whole(t.merges[0].token) else " (part of a character)", "."),
    ]
    if turn is not None:
        m = t.merges[turn.step - 1]
        sentences.append((
            f"Merge {turn.step} is the first that goes to {names[turn.language]}: by then "
            f"the dev texts take {tokens(turn.tokens)}, and ",
            Sym(m.token, m.token_id), " is made."))
    sentences.append((
        f"After {_plural(len(t.merges), 'merge')}, "
        + " and ".join(f"{names[lang]} got {got.get(lang, 0):,}" for lang in langs)
        + f"; the dev texts take {tokens(fair)} (from {tokens(start)}). Ordinary "
        f"byte-level BPE with as many merges on both texts together leaves "
        f"{tokens(usual)}.",))
    numbers = {"languages": list(langs), "merges": len(t.merges),
               "first_language": first.language, "first_tokens": list(first.tokens),
               "turn_step": None if turn is None else turn.step,
               "per_language": {lang: got.get(lang, 0) for lang in langs},
               "dev_tokens": fair, "dev_tokens_start": start, "dev_tokens_bbpe": usual}
    return LessonSection("parity", _label("parity"), tuple(sentences), numbers, t)
