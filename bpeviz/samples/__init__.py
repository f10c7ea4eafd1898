"""Sample corpora shipped with bpeviz: the seeds' toy corpora and a multilingual tour.

>>> SAMPLES["hug"].title
'hug, pug, pun, bun, hugs (HF course)'
>>> corpus = load_sample("hug")
>>> list(zip(corpus.words, corpus.counts))[:2]
[('hug', 10), ('pug', 5)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from bpeviz.text.corpus import Corpus


@dataclass(frozen=True)
class Sample:
    """A corpus file with a title, a one-line story and the settings its tutorial used."""

    id: str
    title: str
    filename: str
    about: str
    #: training settings the tutorial used (keys of the app's settings: merges, marker...)
    settings: dict[str, Any] = field(default_factory=dict)
    #: a sentence to try on the Tokenize page
    try_text: str = ""


SAMPLES: dict[str, Sample] = {
    s.id: s
    for s in [
        Sample("tour", "A tour of tokens (multilingual, emoji)", "multilingual_tour.txt",
               "A few KB of English, Chinese, Japanese, Korean, European, Arabic, Hebrew and "
               "Hindi text with emoji, skin tones and ZWJ sequences.",
               {"merges": 200, "marker": "none"},
               "The tokenizer learns tokens: 自然语言处理 ありがとう 👍🏽 👨‍👩‍👧‍👦"),
        Sample("seed003", "13 Chinese/English sentences (seed 003)", "seed003_sentences.txt",
               "The sentences of the BPE/BBPE/WordPiece tutorial: 我 喜欢 吃 苹果 ... "
               "give you a hug.", {"merges": 23, "marker": "none"},
               "我喜欢吃苹果派 She likes cute apples"),
        Sample("low", "low, lower, newest, widest (seed 002)", "low_lower_newest_widest.txt",
               "Word counts 5/2/6/3, the classic example of Sennrich et al.",
               {"merges": 10, "marker": "</w>"}, "lowest newer wider"),
        Sample("fast", "fast_, faster_, tall_, taller_ (seed 001)", "fast_faster_tall_taller.txt",
               "Word counts 4/3/5/4, '_' already ends every word.",
               {"merges": 10, "marker": "none"}, "faster_ tallest_ fast_"),
        Sample("hug", "hug, pug, pun, bun, hugs (HF course)", "hug_pug_pun_bun_hugs.txt",
               "Word counts 10/5/12/4/5, the Hugging Face course example.",
               {"merges": 10, "marker": "none"}, "hugs bugs mug pun"),
        Sample("lowly", "low low low lowly ... happy dog (seed 004)", "low_lowly_happy.txt",
               "Two lines: 'low low low lowly lower newer newer' and 'happy dog happy cat'.",
               {"merges": 5, "marker": "</w>"}, "hilowest lowly"),
    ]
}
DEFAULT_SAMPLE = "tour"


def sample_bytes(sample_id: str) -> bytes:
    """The raw file of a sample; ValueError for an unknown id."""
    if sample_id not in SAMPLES:
        raise ValueError(f"unknown sample {sample_id!r}; choose one of {', '.join(SAMPLES)}")
    return resources.files("bpeviz.samples").joinpath(SAMPLES[sample_id].filename).read_bytes()


#: the parallel sample's languages, in the order the app lists them (one file each in
#: ``parallel/``; a language's dev text, when the sample has one, in ``parallel/dev/``)
PARALLEL_LANGUAGES = ("en", "de", "hi", "ar", "zh")
PARALLEL_ABOUT = ("The same short story, “The Library by the River”, in English, German, "
                  "Hindi, Arabic and Chinese, paragraph for paragraph: one corpus per "
                  "language.")


def parallel_sample() -> tuple[dict[str, bytes], dict[str, bytes] | None]:
    """The parallel sample: each language's text (UTF-8 bytes), and each language's dev
    text, or None when the sample has none for every language.

    >>> texts, dev = parallel_sample()
    >>> list(texts), dev
    (['en', 'de', 'hi', 'ar', 'zh'], None)
    """
    folder = resources.files("bpeviz.samples").joinpath("parallel")
    texts = {lang: folder.joinpath(f"{lang}.txt").read_bytes() for lang in PARALLEL_LANGUAGES}
    dev_folder = folder.joinpath("dev")
    found = {lang: dev_folder.joinpath(f"{lang}.txt") for lang in PARALLEL_LANGUAGES}
    if not all(f.is_file() for f in found.values()):
        return texts, None
    return texts, {lang: f.read_bytes() for lang, f in found.items()}


def split_off_dev(texts: dict[str, bytes]) -> tuple[dict[str, bytes], dict[str, bytes]]:
    r"""Each language's text without its last paragraph, and that paragraph as its dev
    text: of a parallel text, a parallel dev set (the same content in every language).

    >>> train, dev = split_off_dev({"en": b"Title\n\nOne.\n\nTwo.\n", "de": b"Titel\n\nZwei."})
    >>> train
    {'en': b'Title\n\nOne.', 'de': b'Titel'}
    >>> dev
    {'en': b'Two.\n', 'de': b'Zwei.'}
    """
    train, dev = {}, {}
    for language, data in texts.items():
        paragraphs = [p for p in re.split(rb"\n\s*\n", data) if p.strip()]
        if len(paragraphs) < 2:
            raise ValueError(f"the {language} text has one paragraph: none is left to hold out")
        ending = b"\n" if data.endswith(b"\n") else b""
        train[language] = b"\n\n".join(paragraphs[:-1])
        dev[language] = paragraphs[-1].strip(b"\n") + ending
    return train, dev


def load_sample(sample_id: str, pretokenizer: str = "whitespace") -> Corpus:
    """A sample as a corpus (count files keep their counts whatever the pre-tokenizer)."""
    name = SAMPLES[sample_id].filename
    return Corpus.from_bytes(sample_bytes(sample_id), pretokenizer, name=name)


#: the languages of the parallel sample (``parallel/<code>.txt``: one story, paragraph for
#: paragraph), in the order the files list them
PARALLEL_LANGUAGES = {"en": "English", "de": "German", "hi": "Hindi", "ar": "Arabic",
                      "zh": "Chinese"}


def parallel_text(language: str) -> str:
    """The parallel sample's story in ``language`` (a code of :data:`PARALLEL_LANGUAGES`).

    >>> parallel_text("en").splitlines()[0]
    'The Library by the River'
    """
    if language not in PARALLEL_LANGUAGES:
        raise ValueError(f"no parallel text in {language!r}; choose one of "
                         f"{', '.join(PARALLEL_LANGUAGES)}")
    folder = resources.files("bpeviz.samples").joinpath("parallel")
    return folder.joinpath(f"{language}.txt").read_text(encoding="utf-8")
