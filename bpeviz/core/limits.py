"""How much the interactive explorer takes on, and what to say when a corpus is past it.

Past these limits the command line trains without a time budget::

    python -m bpeviz train corpus.txt --algorithm bpe --merges 5000 --out training.json

>>> from bpeviz import Corpus
>>> from bpeviz.core.training import make_options
>>> check(Corpus.from_text("low lower"), make_options("bpe", merges=60_000))[0].split(":")[0]
'Too many merges for the live explorer'
>>> check(Corpus.from_text("low lower"), make_options("bpe", vocab_size=12))
[]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bpeviz.text.corpus import Corpus
from bpeviz.text.owned import OwnedCache

if TYPE_CHECKING:
    from bpeviz.algorithms import Algorithm
    from bpeviz.core.training import TrainOptions


@dataclass(frozen=True)
class Limits:
    """The interactive limits (a few seconds of training at most on a small server)."""

    #: characters of pasted or uploaded text (10 MB of text trains 50,000 merges in
    #: 3-7 s on a 2-core server: ``python -m bench.realsize``)
    text_chars: int = 10_000_000
    #: bytes of an uploaded file (the server's own cap is in .streamlit/config.toml)
    upload_bytes: int = 40_000_000
    #: distinct words after pre-tokenization (10 MB of Python's docs and sources hold
    #: 163,000 whitespace words)
    unique_words: int = 500_000
    #: merges (or vocabulary size minus the starting vocabulary)
    merges: int = 50_000
    #: merges of an opened tokenizer replayed on the corpus (Explore, Vocabulary)
    replay_merges: int = 200_000
    #: symbols per axis of the pair heatmap
    heatmap_symbols: int = 60
    #: configurations side by side on the Compare page
    compare: int = 3
    #: characters of text on the Tokenize page
    input_chars: int = 20_000
    #: initial symbols of the corpus counted with repeats (sum of count x word length):
    #: the explorer's tables and charts count in floating point, exact up to 2**53
    weighted_symbols: int = 2**53


LIMITS = Limits()


def cli_command(algorithm: str = "bpe", merges: int = 5000, pretokenizer: str | None = None) -> str:
    """The command that trains the same thing without the app's limits."""
    pre = f" --pretokenizer {pretokenizer}" if pretokenizer else ""
    return (f"python -m bpeviz train corpus.txt --algorithm {algorithm} --merges {merges}"
            f"{pre} --out training.json")


def check(*args: Any, **kwargs: Any) -> list[str]:
    """Messages for every limit ``check(corpus, options)`` passes (empty when they fit).

    ``corpus`` is a :class:`~bpeviz.text.corpus.Corpus`, ``options`` a
    :class:`~bpeviz.core.training.TrainOptions`; ``limits=`` another :class:`Limits`. The
    older form with sizes, ``check(text_chars, unique_words, merges, algorithm, ...)``,
    still works: it is :func:`check_sizes`.
    """
    if not args or not isinstance(args[0], Corpus):
        return check_sizes(*args, **kwargs)
    return _check_training(*args, **kwargs)


def _check_training(corpus: Corpus, options: TrainOptions, limits: Limits = LIMITS) -> list[str]:
    from bpeviz.core.training import base_vocabulary

    merges = options.merges
    if merges is None:
        merges = max(0, options.vocab_size - len(base_vocabulary(corpus, options)))  # type: ignore[operator]
    pretokenizer = corpus.pretokenizer if corpus.pretokenizer != "counts" else None
    return check_sizes(0, len(corpus.words), merges, options.algorithm, pretokenizer,
                       limits, _weighted_symbols(corpus, options))


def _weighted_symbols(corpus: Corpus, options: TrainOptions) -> int:
    """Initial symbols counted with repeats (sum of count x initial length), exactly:
    what ``Training.initial_tokens`` will be, known before training. Counted once per
    corpus and record and marker (every page run checks the limits: at 10 MB the count
    took a tenth of a rerun)."""
    from bpeviz.algorithms import get

    alg = get(options.algorithm)
    marker, style = options.marker, options.marker_style
    return _WEIGHTED.get(corpus, (alg, marker, style),
                         lambda: _count_weighted_symbols(corpus, alg, marker, style))


def _count_weighted_symbols(corpus: Corpus, alg: Algorithm, marker: str | None,
                            marker_style: str) -> int:
    sizes = alg.initial_sizes(corpus.words, marker, marker_style).tolist()
    return sum(c * n for c, n in zip(corpus.counts, sizes))  # Python ints: exact


_WEIGHTED: OwnedCache[int] = OwnedCache("weighted symbols")


def check_sizes(
    text_chars: int = 0,
    unique_words: int = 0,
    merges: int = 0,
    algorithm: str = "bpe",
    pretokenizer: str | None = None,
    limits: Limits = LIMITS,
    weighted_symbols: int = 0,
) -> list[str]:
    """Messages for every limit passed (empty when the corpus fits the live explorer)."""
    cli = cli_command(algorithm, max(merges, 1000), pretokenizer)
    problems = []
    if text_chars > limits.text_chars:
        problems.append(
            f"Corpus too large for the live explorer: {text_chars:,} characters, the limit is "
            f"{limits.text_chars:,}. Train it on the command line instead: `{cli}`")
    if unique_words > limits.unique_words:
        problems.append(
            f"Too many distinct words for the live explorer: {unique_words:,}, the limit is "
            f"{limits.unique_words:,}. Use a smaller sample, or train on the command line: "
            f"`{cli}`")
    if merges > limits.merges:
        problems.append(
            f"Too many merges for the live explorer: {merges:,} asked, the limit is "
            f"{limits.merges:,}. Ask for fewer, or train on the command line: `{cli}`")
    if weighted_symbols > limits.weighted_symbols:
        problems.append(
            f"Counts too large for the live explorer: the corpus holds {weighted_symbols:,} "
            f"symbols counted with repeats, and the explorer counts exactly up to "
            f"{limits.weighted_symbols:,} (2^53). The command line counts exactly at any "
            f"size: `{cli}`")
    return problems
