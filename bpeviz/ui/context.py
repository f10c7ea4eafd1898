"""What every page works with (:class:`Context`: the corpus, its training, the display
options), and more trainings of the same corpus text (Compare's configurations)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bpeviz import algorithms, formats
from bpeviz.algorithms import Algorithm
from bpeviz.core import limits
from bpeviz.core.snapshot import Snapshot
from bpeviz.core.training import Training, make_options, takes_languages
from bpeviz.samples import Sample
from bpeviz.text.corpus import Corpus
from bpeviz.ui.languages import LanguageTexts
from bpeviz.ui.settings import Settings
from bpeviz.ui.training import get_corpus, get_language_training, get_training, snapshot


@dataclass(frozen=True)
class Context:
    """What every page works with: the corpus, its training and the display options."""

    corpus: Corpus
    corpus_name: str
    data: bytes
    training: Training  # None on a page with its own training settings (Compare)
    #: the sidebar's training options, the keywords of ``bpeviz.train`` (what ``training``
    #: was trained with)
    train_options: dict[str, Any]
    byte_style: str
    presentation: bool
    sample: Sample | None
    #: the texts of a corpus given one per language (parity-aware BPE), None for one corpus
    languages: LanguageTexts | None = None

    @property
    def try_text(self) -> str:
        """A text to tokenize first: the sample's, or a line of each language's; "" for
        a corpus of one's own."""
        if self.sample is not None:
            return self.sample.try_text
        return self.languages.try_text if self.languages is not None else ""

    def at(self, step: int) -> Snapshot:
        """The training's snapshot at ``step`` (the last few are kept)."""
        return snapshot(self.training, step)

    @property
    def algorithm(self) -> str:
        return self.training.algorithm

    @property
    def alg(self) -> Algorithm:
        """The training's algorithm record: ask it, never compare names."""
        return algorithms.get(self.training.algorithm)


def train_variant(ctx: Context, chosen: Settings, label: str = "Training") -> Training:
    """Train the page's corpus text with other settings (and maybe another pre-tokenizer).

    Raises ValueError with a message for the user (bad options, or a limit passed).
    """
    if ctx.languages is not None and takes_languages(chosen.algorithm):
        # one corpus per language, as the sidebar gave them (the others train on all
        # of them together, ``ctx.data``)
        def corpora(texts: dict[str, bytes]) -> dict[str, Corpus]:
            return {lang: get_corpus(data, chosen.pretokenizer, lang)
                    for lang, data in texts.items()}

        dev = None if ctx.languages.dev is None else corpora(ctx.languages.dev)
        return get_language_training(corpora(ctx.languages.texts), dev, chosen.options,
                                     label)
    corpus = get_corpus(ctx.data, chosen.pretokenizer, ctx.corpus_name)
    problems = training_problems(corpus, chosen)
    if problems:
        raise ValueError(" ".join(problems))
    return get_training(corpus, chosen.options, label)


def training_problems(corpus: Corpus, chosen: Settings) -> list[str]:
    """The limits training ``corpus`` with ``chosen`` passes (empty when it fits): the
    merge loop's (merges, counts) for what it trains; an algorithm with its own trainer
    (its record's ``trainer``) makes no merges, and the corpus's size is what limits it."""
    if algorithms.get(chosen.algorithm).trainer:
        return limits.check_sizes(0, len(corpus.words), 0, chosen.algorithm,
                                  chosen.pretokenizer)
    return limits.check(corpus, make_options(**chosen.options))


def export_files(snap: Snapshot, fmt: str) -> dict[str, str]:
    """``formats.export(snap, fmt)``; ValueError when this format cannot hold this training."""
    return formats.export(snap, fmt)
