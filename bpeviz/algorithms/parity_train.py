"""Parity-aware BPE's trainer: the merges of Hugging Face's ``ParityBpeTrainer``, exactly.

One corpus per language, byte-level words (GPT-2's pre-tokenizer). Before each merge a
language is picked, then the pair that language counts most often is merged in every
language's words. The language picked:

* with a dev set (one per language, ideally the same text translated): the one whose
  dev text takes the most tokens now; a dev set wins over ratios;
* else with ``ratio`` (one per language): the lowest compression so far (the training
  text's first token count over its current one) divided by its ratio;
* else: the one whose training text takes the most tokens;
* ties go to the language given first; a language with no pair left (or none reaching
  ``min_frequency``) is skipped from then on;
* ``variant="window"``: the same ranking, but a language that had more than
  ``alpha / languages`` of the last ``window_size`` picks is passed over for the next
  one down (the last one left is taken even so; when only languages out of pairs are
  left, where Hugging Face's loop never ends, the best one passed over is taken);
* the first ``global_merges`` merges ignore the languages: the pair most frequent over
  all of them.

A language's pair is its most frequent; between equal counts, the pair whose left token,
then right token, spelled in GPT-2's byte characters, sorts last (Hugging Face's rule).
The merges are then replayed by the merge loop, so the result is an ordinary byte-level
training (:class:`ParityTraining`) that also keeps, per step, who got the merge and the
numbers that decided it (:attr:`ParityTraining.choices`).

>>> t = train_parity({"en": "the cat, the hat", "de": "die Katze, der Hut"}, merges=3,
...                  dev={"en": "the hat", "de": "der Hut"})
>>> [(c.language, c.tokens) for c in t.choices]
[('en', (7, 7)), ('de', (6, 7)), ('de', (6, 7))]
>>> [m.token for m in t.merges]
[b'th', b' d', b' de']
>>> print(t.why(2))  # doctest: +NORMALIZE_WHITESPACE
Merge 2 went to de: the most tokens on its dev text (en 6, de 7); its most frequent
pair occurs once in it.
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from bpeviz.algorithms.parity import BASES, PARITY, ParityChoice
from bpeviz.algorithms.prose import times
from bpeviz.core.files import write_atomic
from bpeviz.core.training import Training, replay
from bpeviz.core.training_data import TrainOptions
from bpeviz.engine import compiled_module
from bpeviz.engine.inputs import INT64_MAX, _weighted_counts
from bpeviz.engine.python import PairState
from bpeviz.text.corpus import Corpus
from bpeviz.text.display import bytes_to_gpt2
from bpeviz.text.symbols import utf8_bytes

VARIANTS = ("base", "window")
_GLOBAL = -1


@dataclass(frozen=True, eq=False)
class ParityTraining(Training):
    """A byte-level training whose merges parity-aware BPE chose, with the choices."""

    languages: tuple[str, ...] = ()
    choices: tuple[ParityChoice, ...] = ()
    variant: str = "base"
    #: each language's words, and its dev words (None without a dev set)
    sources: tuple[Corpus, ...] = ()
    dev: tuple[Corpus, ...] | None = None
    #: the settings of :func:`train_parity` besides the merges (ratios as a list)
    settings: dict[str, Any] = field(default_factory=dict)
    #: each language's tokens after the last merge, on the text its choices count (its dev
    #: text with a dev set, else its training text), and that text's characters
    final_tokens: tuple[int, ...] = ()
    characters: tuple[int, ...] = ()

    def choice(self, step: int) -> ParityChoice:
        """The record of merge ``step`` (1-based)."""
        if not 1 <= step <= len(self.choices):
            raise ValueError(f"step must be between 1 and {len(self.choices)}, got {step}")
        return self.choices[step - 1]

    def why(self, step: int) -> str:
        """Merge ``step``'s language and the numbers that chose it, in one sentence."""
        c = self.choice(step)
        if c.language is None:
            return (f"Merge {step} is a global merge: the pair most frequent over all "
                    f"languages ({times(c.count)}).")
        shown = (f"{v:.4g}" if c.basis == "ratio" else f"{int(v):,}" for v in c.scores)
        numbers = ", ".join(f"{lang} {v}" for lang, v in zip(self.languages, shown))
        text = (f"Merge {step} went to {c.language}: {BASES[c.basis]} ({numbers}); "
                f"its most frequent pair occurs {times(c.count)} in it.")
        if c.passed_over:
            text += (f" Passed over: {', '.join(c.passed_over)}, which had more than "
                     f"their share of the last merges.")
        return text

    @property
    def measured(self) -> str:
        """Which text each language's tokens are counted on: "dev text" or "training text"."""
        return "dev text" if self.dev is not None else "training text"

    def language_tokens(self) -> list[tuple[int, ...]]:
        """Each language's tokens after every step, step 0 (bytes) first, on the text of
        :attr:`measured` (what the rule compared before each merge).

        >>> t = train_parity({"en": "the cat", "de": "die Katze"}, merges=2)
        >>> t.language_tokens()
        [(7, 9), (7, 8), (7, 7)]
        """
        return [c.tokens for c in self.choices] + [self.final_tokens]

    def step_notes(self) -> list[str]:
        """What the step bar says at each step, step 0 first: before any merge, each
        language's tokens; at step k, :meth:`why` (who got merge k, on which numbers)."""
        first = self.language_tokens()[0]
        counted = ", ".join(f"{lang} {n:,}" for lang, n in zip(self.languages, first))
        return ([f"Before any merge, tokens on each language's {self.measured}: {counted}."]
                + [self.why(k) for k in range(1, len(self.choices) + 1)])

    def merges_per_language(self) -> dict[str | None, int]:
        """How many merges each language got (None: global merges)."""
        return dict(Counter(c.language for c in self.choices))


def _corpus(source: Any) -> Corpus:
    """A language's words: a :class:`Corpus` as given, a text cut by GPT-2's pattern."""
    if isinstance(source, Corpus):
        return source
    if isinstance(source, str):
        return Corpus.from_text(source, "gpt2")
    raise TypeError(f"a language's text must be a str or a Corpus, got {type(source)}")


def _table(corpus: Corpus) -> Counter[bytes]:
    """A language's byte-level words with their counts."""
    table: Counter[bytes] = Counter()
    for word, count in zip(corpus.words, corpus.counts):
        if word:
            table[utf8_bytes(word)] += count
    return table


#: each byte's tie key: its character in GPT-2's byte alphabet (the spelling the rule sorts)
_SPELL = np.array([ord(bytes_to_gpt2(bytes((b,)))) for b in range(256)], dtype=np.int32)


def _ratio(x: float, y: float) -> float:
    """``x / y`` as IEEE floats divide (infinity or NaN for a zero ``y``)."""
    if y == 0:
        return math.nan if x == 0 or math.isnan(x) else math.copysign(math.inf, x)
    return x / y


def _state(table: Mapping[bytes, int], min_frequency: int) -> Any:
    """The merge loop's state (the compiled one when built) over one table of byte-level
    words, its ties decided by the tokens' GPT-2 spelling, the later one winning."""
    words = [w for w in table if w]
    flat = np.frombuffer(b"".join(words), dtype=np.uint8).astype(np.int32)
    lengths = np.array([len(w) for w in words], dtype=np.int64)
    counts, _ = _weighted_counts([table[w] for w in words], lengths)
    compiled = compiled_module()
    if compiled is not None and counts.dtype == np.int64 and min_frequency <= INT64_MAX:
        return compiled.State(flat, lengths, counts, 256, False, 0, min_frequency, _SPELL)
    return PairState(flat, lengths, counts, 256, False, None, min_frequency,
                     spell=_SPELL.tolist())


def _tokens(table: Mapping[bytes, int]) -> int:
    """The table's tokens before any merge: one per byte."""
    return sum(len(w) * c for w, c in table.items())


class _Languages:
    """Every language's training words, and its dev words, each in a merge-loop state of
    its own (and with global merges, all languages' words in one more), merged in step;
    the tokens each text takes now."""

    def __init__(self, tables: list[Counter[bytes]], dev: list[Counter[bytes]] | None,
                 want_global: bool, min_frequency: int) -> None:
        self.tokens = [bytes((b,)) for b in range(256)]
        self.ids = {t: i for i, t in enumerate(self.tokens)}
        self.train = [_state(t, min_frequency) for t in tables]
        self.lengths = [_tokens(t) for t in tables]  # tokens of each training text
        self.dev = None if dev is None else [_state(t, 0) for t in dev]
        self.dev_lengths = None if dev is None else [_tokens(t) for t in dev]
        self.total = None
        if want_global:
            joined: Counter[bytes] = Counter()
            for table in tables:
                joined.update(table)
            self.total = _state(joined, min_frequency)

    def pop_best(self, lang: int) -> tuple[int, int] | None:
        """The language's (or, ``_GLOBAL``, all languages') best pair, taken off its
        queue; None when no pair (reaching ``min_frequency``) is left."""
        return (self.total if lang == _GLOBAL else self.train[lang]).pop_best()

    def merge(self, a: int, b: int, step: int, lang: int) -> int:
        """Merge ``a b`` in every language's words and dev words; the pair's count in
        ``lang``'s words (all languages' for ``_GLOBAL``) before the merge."""
        token = self.tokens[a] + self.tokens[b]
        t = self.ids.get(token)
        if t is None:  # a token made twice keeps its first id
            t = self.ids[token] = len(self.tokens)
            self.tokens.append(token)
        count = 0
        for i, state in enumerate(self.train):
            made, _, replaced = state.merge(a, b, t, step)
            self.lengths[i] -= replaced
            if i == lang:
                count = made
        if self.total is not None:
            made, _, _ = self.total.merge(a, b, t, step)
            if lang == _GLOBAL:
                count = made
        for i, state in enumerate(self.dev or ()):
            self.dev_lengths[i] -= state.merge(a, b, t, step)[2]  # type: ignore[index]
        return count

    def pairs_left(self) -> bool:
        """Whether any language's words still hold a pair (called once training ends)."""
        return any(state.pop_best() is not None or state.stop_reason() == "min_frequency"
                   for state in self.train)


def _check(merges: Any, variant: str, window_size: int, alpha: float, global_merges: int,
           min_frequency: int) -> None:
    for name, value in (("merges", merges), ("global_merges", global_merges),
                        ("min_frequency", min_frequency), ("window_size", window_size)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a whole number >= 0, got {value!r}")
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
    if variant == "window" and window_size == 0:
        raise ValueError("the window variant needs window_size > 0")
    if variant == "window" and not (math.isfinite(alpha) and alpha > 0):
        raise ValueError(f"alpha must be a positive finite number, got {alpha!r}")


def _per_language(value: Any, languages: tuple[str, ...], what: str) -> list[Any]:
    """``value`` (a mapping by language, or a sequence in the languages' order) as a list."""
    if isinstance(value, Mapping):
        if set(value) != set(languages):
            raise ValueError(f"{what} must name the same languages as the corpora "
                             f"({', '.join(languages)}), got {', '.join(map(str, value))}")
        return [value[lang] for lang in languages]
    if isinstance(value, str | Corpus) and len(languages) == 1:
        return [value]
    items = list(value)
    if len(items) != len(languages):
        raise ValueError(f"{what} needs one entry per language ({len(languages)}), "
                         f"got {len(items)}")
    return items


def train_parity(
    corpora: Mapping[str, str | Corpus] | str | Corpus,
    *,
    merges: int,
    dev: Mapping[str, str | Corpus] | None = None,
    variant: str = "base",
    global_merges: int = 0,
    ratio: Mapping[str, float] | list[float] | None = None,
    window_size: int = 100,
    alpha: float = 2.0,
    min_frequency: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> ParityTraining:
    """Train parity-aware BPE on ``corpora`` (language name -> text or :class:`Corpus`;
    one text alone is one language): the merges of Hugging Face's ``ParityBpeTrainer``
    with the same settings, the texts as its ``train_iterators`` and ``dev`` as its
    ``dev_iterators`` (see the module's docstring for the rule)."""
    _check(merges, variant, window_size, alpha, global_merges, min_frequency)
    if not isinstance(corpora, Mapping):
        corpora = {"text": corpora}
    languages = tuple(corpora)
    if not languages:
        raise ValueError("give at least one language's text to train on")
    sources = tuple(_corpus(corpora[lang]) for lang in languages)
    dev_sources = None if dev is None else tuple(
        _corpus(d) for d in _per_language(dev, languages, "dev"))
    counts = _Languages([_table(c) for c in sources],
                        None if dev_sources is None else [_table(c) for c in dev_sources],
                        global_merges > 0, min_frequency)
    devs = counts.dev_lengths
    rates = None if devs is not None or ratio is None else [
        float(r) for r in _per_language(ratio, languages, "ratio")]
    if rates is not None and not all(math.isfinite(r) and r > 0 for r in rates):
        raise ValueError(f"every ratio must be a positive finite number, got {rates}")
    basis = "dev" if devs is not None else "ratio" if rates is not None else "training"
    first = [float(x) for x in counts.lengths]
    threshold = alpha / len(languages)
    window: deque[int] = deque()
    exhausted: set[int] = set()
    choices: list[ParityChoice] = []
    pairs: list[tuple[bytes, bytes]] = []
    stop = "merges"
    while len(pairs) < merges:
        if len(exhausted) >= len(languages):
            stop = "no_pairs"
            break
        tokens = tuple(devs if devs is not None else counts.lengths)
        if rates is not None:
            scores = tuple(_ratio(_ratio(f, float(now)), r)
                           for f, now, r in zip(first, counts.lengths, rates))
        else:
            scores = tuple(float(x) for x in tokens)
        in_window = tuple(window.count(i) for i in range(len(languages)))
        passed: list[int] = []
        if len(pairs) < global_merges:
            lang = _GLOBAL
        else:
            # the worst-served language ranks highest: most tokens, or lowest rate
            rank = [(-s if rates is not None else s) if i not in exhausted else -math.inf
                    for i, s in enumerate(scores)]
            if variant == "base":
                lang, best = 0, -math.inf
                for i, v in enumerate(rank):
                    if v > best:
                        lang, best = i, v
            else:
                open_ = [True] * len(rank)
                while True:
                    lang, best = 0, -math.inf
                    for i, v in enumerate(rank):
                        if open_[i] and v > best:
                            lang, best = i, v
                    if not open_[lang]:  # only languages out of pairs are left, where
                        lang = passed.pop(0)  # Hugging Face loops forever: the best passed
                        break
                    if in_window[lang] / window_size <= threshold:
                        break
                    open_[lang] = False
                    if not any(open_):
                        break
                    passed.append(lang)
                window.append(lang)
                if len(window) > window_size:
                    window.popleft()
        best_pair = counts.pop_best(lang)
        if best_pair is None:
            if lang == _GLOBAL:
                stop = "no_pairs"
                break
            exhausted.add(lang)
            continue
        a, b = best_pair
        pairs.append((counts.tokens[a], counts.tokens[b]))
        count = counts.merge(a, b, len(pairs), lang)
        choices.append(ParityChoice(
            step=len(pairs), language=None if lang == _GLOBAL else languages[lang],
            basis="global" if lang == _GLOBAL else basis, tokens=tokens, scores=scores,
            count=count, in_window=in_window if variant == "window" else (),
            passed_over=tuple(languages[i] for i in passed),
            exhausted=tuple(languages[i] for i in sorted(exhausted))))
        if progress is not None and len(pairs) % 100 == 0:
            progress(len(pairs), merges)
    if stop != "merges" and counts.pairs_left():
        stop = "min_frequency"  # pairs are left, but none frequent enough
    if progress is not None:
        progress(len(pairs), merges)
    settings = {"variant": variant, "global_merges": global_merges, "ratio": rates,
                "window_size": window_size, "alpha": alpha, "min_frequency": min_frequency}
    measured = dev_sources if dev_sources is not None else sources
    final = tuple(devs if devs is not None else counts.lengths)
    characters = tuple(sum(len(w) * c for w, c in zip(m.words, m.counts)) for m in measured)
    return _training(sources, dev_sources, pairs, merges, stop, languages, tuple(choices),
                     settings, final, characters)


def _training(sources: tuple[Corpus, ...], dev: tuple[Corpus, ...] | None,
              pairs: list[tuple[bytes, bytes]], merges: int, stop: str,
              languages: tuple[str, ...], choices: tuple[ParityChoice, ...],
              settings: dict[str, Any], final_tokens: tuple[int, ...] = (),
              characters: tuple[int, ...] = ()) -> ParityTraining:
    """The merges replayed by the merge loop on all languages' words together."""
    total: Counter[str] = Counter()
    for corpus in sources:
        for word, count in zip(corpus.words, corpus.counts):
            total[word] += count
    kinds = {c.pretokenizer for c in sources}
    corpus = Corpus(tuple(total), tuple(total.values()),
                    kinds.pop() if len(kinds) == 1 else "gpt2")
    options = TrainOptions(algorithm=PARITY.name, merges=merges,
                           min_frequency=settings["min_frequency"])
    replayed = replay(corpus, options, pairs)
    data = {f.name: getattr(replayed, f.name) for f in fields(Training)}
    data["stop_reason"] = stop
    return ParityTraining(**data, languages=languages, choices=choices,
                          variant=settings["variant"], sources=sources, dev=dev,
                          settings=settings, final_tokens=final_tokens, characters=characters)


#: the "format" of a saved parity training (:func:`save_parity`)
FORMAT = "bpeviz-parity-training"


def save_parity(training: ParityTraining, path: str | os.PathLike[str],
                corpus_name: str | None = None) -> None:
    """Write ``training`` to ``path`` as JSON (what ``bpeviz.save`` does with one): its
    languages' words, dev words and settings, which train it again, and its merges, which
    :func:`parity_from_dict` checks the new training against."""
    def words(c: Corpus) -> dict[str, Any]:
        return {"pretokenizer": c.pretokenizer, "words": c.words, "counts": c.counts}

    write_atomic(path, json.dumps({
        "format": FORMAT, "version": 1, "name": corpus_name,
        "languages": training.languages, "merges": len(training.merges),
        "corpora": [words(c) for c in training.sources],
        "dev": None if training.dev is None else [words(c) for c in training.dev],
        "settings": training.settings,
        "made": [[m.left.hex(), m.right.hex()] for m in training.merges],  # type: ignore[union-attr]
    }, ensure_ascii=False))


def parity_from_dict(data: Any) -> ParityTraining:
    """The training a :func:`save_parity` file holds, trained again; ValueError if the
    file is malformed or its merges are not the ones its data makes."""
    def corpus(d: Any) -> Corpus:
        return Corpus(tuple(d["words"]), tuple(int(c) for c in d["counts"]), d["pretokenizer"])

    try:
        languages = list(data["languages"])
        dev = None if data["dev"] is None else dict(zip(languages, map(corpus, data["dev"])))
        training = train_parity(dict(zip(languages, map(corpus, data["corpora"]))),
                                merges=data["merges"], dev=dev, **data["settings"])
        made = [(bytes.fromhex(a), bytes.fromhex(b)) for a, b in data["made"]]
    except (KeyError, TypeError, ValueError) as err:
        raise ValueError(f"the parity training file is missing or garbles a field: {err}"
                         ) from None
    if [(m.left, m.right) for m in training.merges] != made:
        raise ValueError("the parity training file's merges are not the ones its texts and "
                         "settings make: the file is corrupt")
    return training
