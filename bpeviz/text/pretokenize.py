"""Pre-tokenization: cutting text into the words that training and encoding work on.

Every pre-tokenizer returns ``(start, end)`` character spans, so encoders can report
offsets into the original text. Text outside every span (whitespace for
``"whitespace"``) produces no token. ``"metaspace"`` (SentencePiece's whitespace
handling, :mod:`bpeviz.text.metaspace`) is the one pre-tokenizer whose words are not
slices of the text: each word is its span with ``▁`` (U+2581) in front, the ``▁``
standing for the space before it (see :func:`words`).

>>> [text[s:e] for text in ["hug  the pug"] for s, e in spans(text, "whitespace")]
['hug', 'the', 'pug']
>>> [text[s:e] for text in ["I'm here"] for s, e in spans(text, "gpt2")]
['I', "'m", ' here']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

import regex

from bpeviz.text.metaspace import metaspace_words

#: GPT-2's pattern, as published with its encoder (``\p`` classes need the regex module).
GPT2_PATTERN = (
    r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
)

#: what the compiled scanner (``gpt2_end`` in ``_merge.c``) implements
COMPILED_GPT2 = (
    r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
)

#: scanners that cut text into the same words as a pattern, faster, by pre-tokenizer name;
#: one returns None when it cannot run now (the pattern is used then). The compiled engine
#: registers its GPT-2 scanner here (:mod:`bpeviz.engine`), this module staying below it.
FAST_CUTS: dict[str, Callable[[str], list[str] | None]] = {}
#: the same for counting a text's words (:func:`counts`)
FAST_COUNTS: dict[str, Callable[[str], dict[str, int] | None]] = {}

#: OpenAI's cl100k_base (GPT-3.5/GPT-4) and o200k_base (GPT-4o) patterns, as tiktoken
#: publishes them (``tiktoken_ext/openai_public.py``); possessive quantifiers need the
#: regex module
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
O200K_PATTERN = "|".join([
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"""
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"""
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""\p{N}{1,3}""",
    r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
    r"""\s*[\r\n]+""",
    r"""\s+(?!\S)""",
    r"""\s+""",
])

#: The CJK ideographs BERT's BasicTokenizer puts spaces around (``_is_chinese_char``), so
#: each is a word of its own. Written as literal characters: the ``regex`` module,
#: Oniguruma (Hugging Face) and fancy-regex (tiktoken) all read them the same way.
CJK_RANGES = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
              (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))
CJK_CLASS = "".join(f"{chr(a)}-{chr(b)}" for a, b in CJK_RANGES)
#: BERT's punctuation: every ASCII non-letter non-digit printable ("$", "+", "^" too) and
#: every Unicode punctuation character (category P*); each is a word of its own.
BERT_PUNCT_CLASS = r"\p{P}\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e"
#: BERT's BasicTokenizer as a pattern: split on whitespace (dropped), each punctuation
#: character and each CJK ideograph apart, the rest runs of other characters.
BERT_PATTERN = (f"[{CJK_CLASS}]|[{BERT_PUNCT_CLASS}]"
                f"|[^\\s{BERT_PUNCT_CLASS}{CJK_CLASS}]+")

PRETOKENIZERS: dict[str, str] = {
    "whitespace": "split on Unicode whitespace, like str.split(); whitespace is dropped",
    "gpt2": "GPT-2's regular expression; spaces stay attached to the following word",
    "none": "each line (with its line break) is one word, so merges may cross spaces",
    "metaspace": "SentencePiece's: split on whitespace, each word gets \u2581 in front "
                 "(the first word too)",
    "cl100k": "OpenAI's cl100k_base regex (GPT-3.5, GPT-4): digits in threes, case-free "
              "contractions",
    "o200k": "OpenAI's o200k_base regex (GPT-4o): cased words, digits in threes",
    "bert": "BERT's: split on whitespace and around each punctuation character; each CJK "
            "ideograph (Chinese character, Japanese kanji) is a word of its own",
}

_PATTERNS = {
    # str.split() also splits on the separators U+001C..U+001F, which \s does not cover
    "whitespace": regex.compile(r"[^\s\x1c-\x1f]+"),
    "gpt2": regex.compile(GPT2_PATTERN),
    "none": regex.compile(r"[^\n]*\n|[^\n]+"),
    # the spans of the words, without the "▁" that words() puts in front
    "metaspace": regex.compile(r"[^\s\x1c-\x1f]+"),
    "cl100k": regex.compile(CL100K_PATTERN),
    "o200k": regex.compile(O200K_PATTERN),
    "bert": regex.compile(BERT_PATTERN),
}


def check_pretokenizer(name: str) -> str:
    """Return ``name`` if it is a known pre-tokenizer, else raise a helpful ValueError."""
    if name not in _PATTERNS:
        known = ", ".join(repr(k) for k in PRETOKENIZERS)
        raise ValueError(f"unknown pre-tokenizer {name!r}; choose one of {known}")
    return name


def spans(text: str, name: str) -> Iterator[tuple[int, int]]:
    """Yield the ``(start, end)`` span of every word of ``text``."""
    for match in _PATTERNS[check_pretokenizer(name)].finditer(text):
        yield match.span()


def words(text: str, name: str) -> list[str]:
    """The words of ``text`` in order, repeats included.

    >>> words(" hug  the", "metaspace")
    ['\u2581hug', '\u2581the']
    """
    if name == "whitespace":  # str.split is the same thing, several times faster
        return text.split()
    if name == "metaspace":
        return metaspace_words(text)
    fast = FAST_CUTS.get(name)
    cut = None if fast is None else fast(text)
    return _PATTERNS[check_pretokenizer(name)].findall(text) if cut is None else cut


def counts(text: str, name: str) -> dict[str, int]:
    """How often each word of ``text`` occurs, words in order of first appearance.

    >>> counts("to be or not to be", "whitespace")
    {'to': 2, 'be': 2, 'or': 1, 'not': 1}
    """
    fast = FAST_COUNTS.get(name)
    found = None if fast is None else fast(text)
    return dict(Counter(words(text, name))) if found is None else found
