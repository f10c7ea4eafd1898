"""Scripts written without spaces between words (Chinese, Japanese, Thai...).

A pre-tokenizer that splits on whitespace keeps a whole sentence of such a script as one
"word": its pairs then occur once or twice, and the merges build long tokens out of them.
:func:`unspaced_share` measures how much of a corpus is in that state, and
:func:`unspaced_note` says so in a sentence, with the pre-tokenizer that helps.

>>> from bpeviz.text.corpus import Corpus
>>> share = unspaced_share(Corpus.from_text("我们喜欢自然语言处理 ok"))
>>> round(share.share, 2), share.scripts
(0.83, {'Han': 10})
>>> unspaced_share(Corpus.from_text("我们喜欢自然语言处理 ok", "bert")).share
0.0
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import regex

from bpeviz.text.corpus import Corpus

#: The scripts written without spaces between words (Unicode script names).
UNSPACED_SCRIPTS = ("Han", "Hiragana", "Katakana", "Thai", "Lao", "Khmer", "Myanmar",
                    "Tibetan", "Javanese", "Balinese", "Yi")
#: The scripts the "bert" pre-tokenizer cuts one character at a time.
BERT_SPLITS = ("Han",)
#: From this share of the corpus's letters on, a note is shown.
NOTE_SHARE = 0.2

_UNSPACED = regex.compile("|".join(f"(?P<{s}>\\p{{Script={s}}})" for s in UNSPACED_SCRIPTS))
_LETTER = regex.compile(r"[\p{L}\p{M}]")


@dataclass(frozen=True)
class UnspacedShare:
    """The letters of a corpus in unspaced scripts that sit in a word with others of them."""

    #: their share of all the corpus's letters (repeats counted), 0 to 1
    share: float
    #: how many letters (repeats counted) of each script, most first
    scripts: dict[str, int]
    #: the corpus's letters in all (repeats counted)
    letters: int


@lru_cache(maxsize=16)
def unspaced_share(corpus: Corpus) -> UnspacedShare:
    """How much of ``corpus`` is in scripts written without spaces and left in runs.

    A letter counts when its script is one of :data:`UNSPACED_SCRIPTS` and its word holds
    at least one other such letter: a CJK ideograph the "bert" pre-tokenizer set apart
    does not count, a Chinese sentence kept whole by "whitespace" does.
    """
    scripts: dict[str, int] = {}
    letters = 0
    for word, count in zip(corpus.words, corpus.counts):
        letters += len(_LETTER.findall(word)) * count
        found = [m.lastgroup for m in _UNSPACED.finditer(word)]
        if len(found) < 2:
            continue
        for script in found:
            scripts[script] = scripts.get(script, 0) + count  # type: ignore[index]
    in_runs = sum(scripts.values())
    ordered = dict(sorted(scripts.items(), key=lambda kv: -kv[1]))
    return UnspacedShare(in_runs / letters if letters else 0.0, ordered, letters)


def unspaced_note(corpus: Corpus, pretokenizer_label: str = "") -> str | None:
    """A sentence saying that a large share of ``corpus`` is runs of a script written
    without spaces, and which pre-tokenizer splits them; None below :data:`NOTE_SHARE`.

    ``pretokenizer_label`` names the pre-tokenizer the corpus was cut with.
    """
    found = unspaced_share(corpus)
    if found.share < NOTE_SHARE:
        return None
    parts = ", ".join(f"{script} {n / found.letters:.0%}" for script, n in found.scripts.items())
    used = f"the {pretokenizer_label} pre-tokenizer" if pretokenizer_label else \
        "this pre-tokenizer"
    note = (f"{found.share:.0%} of this corpus's letters are in scripts written without "
            f"spaces ({parts}), and {used} keeps each run of them as one word: a whole "
            "sentence can be one “word”, and the merges then build long tokens from pairs "
            "that occur only once or twice.")
    splittable = [s for s in found.scripts if s in BERT_SPLITS]
    others = [s for s in found.scripts if s not in BERT_SPLITS]
    if splittable:
        note += (" Choose the BERT pre-tokenizer (in the settings): it cuts each CJK "
                 "ideograph apart, as BERT does for Chinese.")
    if others:
        note += (f" No pre-tokenizer here finds word boundaries in {', '.join(others)} "
                 "(that takes a dictionary-based word segmenter).")
    return note
