"""SuperBPE (Liu et al., COLM 2025): byte-level BPE whose later merges cross spaces.

Training has two stages. Stage 1 is ordinary byte-level BPE on GPT-2's pre-tokens (a
space stays glued to the word after it, so no token holds a space inside) up to the
transition point, a merge count ``T``. Stage 2 resumes from stage 1's merges on other
words, the *stage-2 pre-tokens*, which no longer end at spaces: its merges join words
into superwords such as ``", and the"``. The trainer is
:func:`bpeviz.algorithms.superbpe_train.train_superbpe`::

    bpeviz.train(corpus, algorithm="superbpe", merges=N, transition=T)   # T >= N: BBPE

The rules, read from the authors' scripts (``scripts/extend_tokenizer.sh``) and their fork
of Hugging Face ``tokenizers`` (the BPE trainer's extension loop), and kept here:

* stage-2 pre-tokens: the text is cut by the pattern
  ``\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]{2,}[\\r\\n/]*| +(?!\\S)`` with the *isolated* behaviour:
  every match is a pre-token and so is every stretch between two matches. So digits go in
  groups of at most three, a run of two or more punctuation marks (with the space before
  it, and line breaks or slashes after it) stands alone, and spaces that come before other
  whitespace or the end stand alone; a single space, a single punctuation mark and letters
  stay together, which is what lets merges cross spaces (:data:`STAGE2_REGEX`). Training
  reads the text one line at a time (each line keeps its ``\\n``), as the Hugging Face
  trainer reads files, so its words never run past a line break
  (:func:`training_words`); encoding cuts the whole text, as the authors' tokenizer does;
* stage 2 starts from every stage-2 pre-token cut into bytes with stage 1's merges
  applied, in order, wherever they fit, then counts pairs and merges as BPE does, with two
  limits on the token a merge would make (:func:`superword_allowed`): it may not hold a
  colon followed by a space (``":Ġ"``), and may not hold more than :data:`MAX_WORDS`
  (4) words, a word being a run of bytes other than the space. A pair that breaks a limit
  is passed over and never merged; the next best pair is taken in its place;
* encoding: the authors' tokenizer (and their ``encode.py``, which keeps only the first
  ``k`` merges to measure smaller vocabularies) cuts text with the stage-2 pre-tokenizer
  and applies all merges by rank, stage 1's and stage 2's alike. bpeviz does the same at
  every step: a SuperBPE training's corpus is the stage-2 pre-tokens, so ``at(k).encode``
  uses them for any ``k`` (before the transition, stage 1's merges on stage-2 pre-tokens:
  almost always the same tokens as plain byte-level BPE, since its merges never join a
  letter to a digit or a punctuation mark to a letter). The Hugging Face tokenizer that
  encodes the same way is ``Sequence[Split(pattern, "isolated"), ByteLevel(use_regex=
  false)]`` before the BPE model with all merges (:data:`SUPERBPE_HF_SPLIT`): a step's
  ``tokenizer.json`` export is exact (no file holds the transition or the stages: a
  saved training does).

Two things differ from the authors' fork, on purpose: pair ties follow bpeviz's
``tie_break`` (``"first"`` by default; ``"ids"`` is Hugging Face's rule, but the fork's
alphabet holds only the bytes the corpus has, so ids, and so ties, can differ), and a
stage-1 merge whose pair no longer occurs in stage 2's words is kept (the fork drops it
from the merge list), so step ``k`` is stage 1's merge ``k`` for every ``k <= T``.

>>> STAGE2_REGEX.findall("Hi, and the 12345 dogs!!  \\nok: yes")
['Hi, and the ', '123', '45', ' dogs', '!!', '  ', '\\nok: yes']
>>> superword_allowed(b", and the"), superword_allowed(b" a b c d e"), superword_allowed(b"x: y")
(True, False, False)
"""

from __future__ import annotations

from collections import Counter

import regex

from bpeviz.algorithms.base import Algorithm
from bpeviz.algorithms.bbpe import hf_alphabet_order
from bpeviz.engine import count as compiled_count
from bpeviz.engine import cut as compiled_cut
from bpeviz.text import pretokenize

#: the name of the stage-2 pre-tokenizer, as a corpus and the encoder know it
STAGE2 = "superbpe"
#: the authors' stage-2 pattern (their ``regex_string``), split with "isolated" behaviour
AUTHORS_PATTERN = r"\p{N}{1,3}| ?[^\s\p{L}\p{N}]{2,}[\r\n/]*| +(?!\S)"
#: one pass over the text giving the authors' pieces: a match, or the stretch up to the
#: next place where one starts (no match starts at a letter or at whitespace other than a
#: space, so runs of those are taken without looking)
STAGE2_PATTERN = rf"{AUTHORS_PATTERN}|(?:\p{{L}}+|[^\S ]+|(?!{AUTHORS_PATTERN})[\s\S])+"
STAGE2_REGEX = regex.compile(STAGE2_PATTERN)
# Inside one line the ``[\r\n/]*`` of the authors' pattern can take at most the line's
# final "\n", so ``[\r/]*\n?`` matches the same; a stretch between matches ends at a line
# break. So this pattern cuts the whole text as the authors' pattern cuts each line.
_IN_LINE = r"\p{N}{1,3}| ?[^\s\p{L}\p{N}]{2,}[\r/]*\n?| +(?!\S)"
_LINES_REGEX = regex.compile(
    rf"{_IN_LINE}|(?:\p{{L}}+|[^\S \n]+|(?!{_IN_LINE})[^\n])+\n?|\n")
#: the Hugging Face Split that cuts text as :data:`STAGE2_REGEX` does (a tokenizer.json
#: puts a ByteLevel pre-tokenizer without its regex after it, as the authors' does)
SUPERBPE_HF_SPLIT = {"type": "Split", "pattern": {"Regex": AUTHORS_PATTERN},
                     "behavior": "Isolated", "invert": False}
#: a stage-2 token may hold at most this many words (runs of bytes other than a space)
MAX_WORDS = 4
_WORD = regex.compile(rb"[^ ]+")


def training_words(text: str) -> list[str]:
    """The stage-2 words training counts: each line (with its ``\\n``) cut alone.

    >>> training_words("ok!!\\n\\nyes"), STAGE2_REGEX.findall("ok!!\\n\\nyes")
    (['ok', '!!\\n', '\\n', 'yes'], ['ok', '!!\\n\\n', 'yes'])
    """
    cut = compiled_cut(text, "superbpe-lines")  # the same words, about 10x faster
    return _LINES_REGEX.findall(text) if cut is None else cut


def training_counts(text: str) -> dict[str, int]:
    """How often each of :func:`training_words` occurs, in order of first appearance.

    >>> training_counts("to be, or not to be, that is\\nto be")
    {'to be, or not to be, that is\\n': 1, 'to be': 1}
    """
    found = compiled_count(text, "superbpe-lines")  # a string per distinct word only
    return dict(Counter(training_words(text))) if found is None else found


def superword_allowed(token: bytes) -> bool:
    """Whether stage 2 may make ``token``: no colon followed by a space, at most
    :data:`MAX_WORDS` words (the authors' "mw4" and "colon" limits)."""
    return b": " not in token and len(_WORD.findall(token)) <= MAX_WORDS


def crosses_space(token: bytes) -> bool:
    """A superword: a space inside the token, after some other byte (``"Ġthe"`` holds its
    leading space only, ``"ĠofĠthe"`` crosses one).

    >>> crosses_space(b" the"), crosses_space(b" of the"), crosses_space(b"  ")
    (False, True, False)
    """
    return b" " in token.lstrip(b" ")


# the stage-2 pre-tokenizer, known by name to corpora and the encoder; not listed among
# the pre-tokenizers a user picks for other algorithms (no export format writes it)
pretokenize._PATTERNS.setdefault(STAGE2, STAGE2_REGEX)

SUPERBPE = Algorithm(
    name="superbpe",
    label="SuperBPE",
    short_label="SuperBPE",
    help=("Byte-level BPE in two stages: up to the transition point, ordinary merges inside "
          "words; after it, training resumes on text no longer cut at spaces, so merges join "
          "whole words into superwords (\", and the\"), up to four words each."),
    units="bytes",
    unit_word="byte",
    split_words=("SuperBPE cuts text at digits and runs of punctuation only (single spaces "
                 "stay inside), and every piece into its bytes (UTF-8)"),
    encode_words=("To cut a text, the tokenizer cuts it at digits and runs of punctuation, "
                  "not at spaces, then replays all its merges, the earliest first, wherever "
                  "they fit, so a phrase can become one token."),
    # what a corpus for it is cut into: lines, which keep the spaces both stages need
    # (the training's own corpus is the stage-2 words, STAGE2, which encoding uses)
    pretokenizer="none",
    encoder="merges",
    # tokenizer.json holds a step's tokenizer exactly (a Split with the stage-2 pattern
    # before ByteLevel, as the authors' files); tiktoken's and GPT-2's files cut text with
    # GPT-2's pattern; bpeviz.save keeps both stages' words (superbpe_saved)
    export_formats=("hf",),
    hf_model="byte-level BPE",
    trainer="bpeviz.algorithms.superbpe_train.train_superbpe",
    sizes=("merges",),
    settings=("transition", "tie_break", "min_frequency"),
    # its reference is a fork of Hugging Face's trainer: byte-level ids in HF's order
    tie_order=hf_alphabet_order,
)
