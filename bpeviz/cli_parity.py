"""``train``'s options for an algorithm trained on one text per language (parity-aware
BPE): ``--language LANG=FILE``, ``--dev LANG=FILE``, ``--ratio LANG=X``; the corpora they
name, and the lines that say how each language fared.

Which algorithms take them is asked of their trainers, not of their names: one whose
trainer takes a ``dev`` keyword (a dev text per language) trains on a mapping of
language -> corpus (the record has no field saying so).
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise
from typing import Any

from bpeviz import algorithms
from bpeviz.core.training import takes_languages as training_takes_languages
from bpeviz.text.corpus import Corpus
from bpeviz.text.symbols import utf8_bytes

#: the options of ``train`` that name one thing per language
PER_LANGUAGE = ("language", "dev")


def add_language_options(p: argparse.ArgumentParser) -> None:
    """``train``'s per-language options (``--ratio`` is here too: it is a record setting,
    refused through the record like the others)."""
    p.add_argument("--language", action="append", default=None, metavar="LANG=FILE",
                   help="a language's training text (repeat for each language; instead of "
                        "INPUT): parity")
    p.add_argument("--dev", action="append", default=None, metavar="LANG=FILE",
                   help="a language's dev text, ideally the same text translated (every "
                        "language's or none); the language with the most tokens on its own "
                        "gets the next merge: parity")
    p.add_argument("--ratio", action="append", default=None, metavar="LANG=X",
                   help="a language's target compression ratio (every language's or none; "
                        "a dev set wins over ratios): parity")
    p.add_argument("--global-merges", type=int, default=None, metavar="N",
                   help="the first N merges take the pair most frequent over all "
                        "languages (default 0): parity")
    p.add_argument("--window-size", type=int, default=None, metavar="N",
                   help="--variant window: the last N picks a language's share is counted "
                        "over (default 100): parity")
    p.add_argument("--alpha", type=float, default=None, metavar="X",
                   help="--variant window: a language with more than X / languages of the "
                        "window's picks is passed over (default 2.0): parity")


def takes_languages(alg: algorithms.Algorithm) -> bool:
    """Whether ``alg`` trains on one corpus per language: its trainer takes ``dev``
    (:func:`bpeviz.core.training.takes_languages`)."""
    return training_takes_languages(alg.name)


def check_languages(args: argparse.Namespace, alg: algorithms.Algorithm,
                    called: Callable[[algorithms.Algorithm], str]) -> None:
    """A ValueError when per-language options go to an algorithm that takes none, or
    the input is given both ways, or not at all."""
    given = [f"--{name}" for name in PER_LANGUAGE if getattr(args, name)]
    if given and not takes_languages(alg):
        takers = [algorithms.get(a) for a in algorithms.names()
                  if takes_languages(algorithms.get(a))]
        use = " or ".join(f"--algorithm {t.name}" for t in takers)
        raise ValueError(f"{', '.join(given)}: {called(alg)} trains on one text (INPUT), "
                         f"not one per language; use {use or 'an algorithm that does'}")
    if args.language and args.input is not None:
        raise ValueError(f"give the texts as INPUT or as --language LANG=FILE, not both "
                         f"(got {args.input} and --language)")
    if args.dev and not args.language:
        raise ValueError("--dev names a language's dev text: give the languages' texts "
                         "with --language LANG=FILE too")
    if args.input is None and not args.language:
        raise ValueError("give a text to train on (INPUT"
                         + (", or --language LANG=FILE per language)" if takes_languages(alg)
                            else ")"))


def _pairs(option: str, specs: Sequence[str]) -> dict[str, str]:
    """``LANG=VALUE`` options as {LANG: VALUE}; a ValueError naming a bad one."""
    found: dict[str, str] = {}
    for spec in specs:
        lang, sep, value = spec.partition("=")
        lang = lang.strip()
        if not sep or not lang or not value:
            raise ValueError(f"--{option} {spec}: give LANG={'X' if option == 'ratio' else 'FILE'}"
                             f", e.g. --{option} en={'1.0' if option == 'ratio' else 'en.txt'}")
        if lang in found:
            raise ValueError(f"--{option} {lang} is given twice")
        found[lang] = value
    return found


def _same_languages(option: str, given: Mapping[str, Any], languages: Sequence[str]) -> None:
    unknown = [lang for lang in given if lang not in languages]
    if unknown:
        raise ValueError(f"--{option} {unknown[0]}: no --language {unknown[0]} (the "
                         f"languages: {', '.join(languages)})")
    missing = [lang for lang in languages if lang not in given]
    if missing:
        raise ValueError(f"--{option} is needed for every language or none: missing "
                         f"{', '.join(missing)}")


def _read(option: str, lang: str, path: str, pretokenizer: str, fmt: str) -> Corpus:
    try:
        return Corpus.from_file(path, pretokenizer=pretokenizer, fmt=fmt)
    except OSError as err:
        raise ValueError(f"--{option} {lang}={path}: cannot read it "
                         f"({err.strerror or err})") from None


def corpora(args: argparse.Namespace, pretokenizer: str
            ) -> tuple[dict[str, Corpus], dict[str, Corpus] | None]:
    """The corpora ``--language`` names, in the order given, and ``--dev``'s (or None)."""
    files = _pairs("language", args.language)
    dev_files = _pairs("dev", args.dev) if args.dev else None
    if dev_files is not None:
        _same_languages("dev", dev_files, list(files))
    texts = {lang: _read("language", lang, path, pretokenizer, args.format)
             for lang, path in files.items()}
    dev = None if dev_files is None else {
        lang: _read("dev", lang, dev_files[lang], pretokenizer, args.format) for lang in files}
    return texts, dev


def ratios(specs: Sequence[str], languages: Sequence[str]) -> dict[str, float]:
    """``--ratio LANG=X`` options as {LANG: X}; a ValueError for a bad one."""
    if not languages:
        raise ValueError("--ratio names a language's target ratio: give the languages' "
                         "texts with --language LANG=FILE")
    given = _pairs("ratio", specs)
    _same_languages("ratio", given, languages)
    found: dict[str, float] = {}
    for lang in languages:
        try:
            value = float(given[lang])
        except ValueError:
            raise ValueError(f"--ratio {lang}={given[lang]}: the ratio must be a number"
                             ) from None
        if not (math.isfinite(value) and value > 0):
            raise ValueError(f"--ratio {lang}={given[lang]}: the ratio must be a positive "
                             "number")
        found[lang] = value
    return found


def corpus_name(args: argparse.Namespace) -> str:
    """The name a training keeps of its texts: the file, or each language's."""
    if not args.language:
        return os.path.basename(args.input)
    return ", ".join(f"{spec.partition('=')[0]}: {os.path.basename(spec.partition('=')[2])}"
                     for spec in args.language)


def _tokens(corpus: Corpus, ranks: Mapping[tuple[bytes, bytes], int]) -> tuple[int, int]:
    """The corpus's bytes and its tokens once the merges (by rank) are applied."""
    n_bytes = n_tokens = 0
    for word, count in zip(corpus.words, corpus.counts):
        parts = [bytes((b,)) for b in utf8_bytes(word)]
        n_bytes += len(parts) * count
        while len(parts) > 1:
            rank, i = min((ranks.get(pair, math.inf), i)
                          for i, pair in enumerate(pairwise(parts)))
            if rank == math.inf:
                break
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        n_tokens += len(parts) * count
    return n_bytes, n_tokens


def summary(training: Any) -> list[str]:
    """One line per language: the merges it got and how well its dev text (or training
    text) compresses at the end; a line for the global merges. Nothing for a training
    that is not one per language."""
    per_language = getattr(training, "merges_per_language", None)
    if per_language is None:
        return []
    got = per_language()
    ranks = {(m.left, m.right): i for i, m in enumerate(training.merges)}
    texts = training.dev if training.dev is not None else training.sources
    which = "dev text" if training.dev is not None else "training text"
    lines = []
    if got.get(None):
        lines.append(f"global merges: {got[None]:,} (the pair most frequent over all "
                     "languages)")
    for lang, corpus in zip(training.languages, texts):
        n_bytes, n_tokens = _tokens(corpus, ranks)
        rate = f"{n_bytes / n_tokens:.2f}" if n_tokens else "-"
        count = got.get(lang, 0)
        lines.append(f"{lang}: {count:,} merge{'' if count == 1 else 's'}; its {which}: "
                     f"{n_bytes:,} bytes in {n_tokens:,} tokens ({rate} bytes a token)")
    return lines


def why(training: Any, step: int) -> str | None:
    """Which language got merge ``step`` and why (a training per language), else None."""
    explain = getattr(training, "why", None)
    if explain is None or not 1 <= step <= len(getattr(training, "choices", ())):
        return None
    return str(explain(step))
