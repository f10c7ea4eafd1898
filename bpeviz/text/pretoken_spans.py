"""Pre-token spans with the rule that cut each: where BPE's merges can never reach across.

A regex pre-tokenizer (:mod:`bpeviz.text.pretokenize`) is an alternation: GPT-2's
pattern tries ``'s``, ``'t``, …, `` ?\\p{L}+``, `` ?\\p{N}+``, … in order at each
position, and the first alternative that matches cuts the next pre-token. Merges only
ever join symbols inside one pre-token, so these cuts are boundaries no token crosses.

:func:`pretoken_spans` returns every piece of a text in order: each pre-token with the
alternative that matched it (:class:`PretokenSpan`: its index in the pattern, the
alternative's source text and a short description), and the text between pre-tokens
(whitespace that the ``whitespace`` pre-tokenizer drops) as a gap with no rule, so the
pieces put together give back the text.

>>> [(p.text, p.rule) for p in pretoken_spans("I'm 42", "gpt2")]
[('I', ' ?\\\\p{L}+'), ("'m", "'m"), (' 42', ' ?\\\\p{N}+')]
>>> [(p.text, p.is_gap) for p in pretoken_spans("hug  me", "whitespace")]
[('hug', False), ('  ', True), ('me', False)]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import regex

from bpeviz.text.pretokenize import _PATTERNS, BERT_PATTERN, O200K_PATTERN, check_pretokenizer


@dataclass(frozen=True)
class PretokenSpan:
    """One piece of a text: a pre-token and the rule that cut it, or a gap (no rule)."""

    start: int
    end: int
    text: str
    #: the index of the pattern's alternative that matched (-1: a gap, no pre-token)
    rule_index: int
    #: the alternative's source text ("" for a gap)
    rule: str
    #: what the alternative matches, in words
    description: str

    @property
    def is_gap(self) -> bool:
        return self.rule_index < 0


#: what the alternatives of the known patterns match, by their source text
DESCRIPTIONS = {
    "'s": "the contraction 's", "'t": "the contraction 't", "'re": "the contraction 're",
    "'ve": "the contraction 've", "'m": "the contraction 'm", "'ll": "the contraction 'll",
    "'d": "the contraction 'd",
    r" ?\p{L}+": "letters, with at most one space in front",
    r" ?\p{N}+": "digits, with at most one space in front",
    r" ?[^\s\p{L}\p{N}]+": "symbols and punctuation, with at most one space in front",
    r"\s+(?!\S)": "whitespace not followed by a word (its last space goes to the next word)",
    r"\s+": "whitespace",
    r"[^\s\x1c-\x1f]+": "a run of characters between whitespace",
    r"[^\n]*\n": "a line with its line break",
    r"[^\n]+": "the last line (no line break)",
    r"'(?i:[sdmt]|ll|ve|re)": "a contraction ('s, 't, 'll…, any case)",
    r"[^\r\n\p{L}\p{N}]?+\p{L}++": "letters, with at most one non-letter in front",
    r"\p{N}{1,3}+": "up to three digits",
    r"\p{N}{1,3}": "up to three digits",
    r" ?[^\s\p{L}\p{N}]++[\r\n]*+": "symbols and punctuation (then line breaks)",
    r" ?[^\s\p{L}\p{N}]+[\r\n/]*": "symbols and punctuation (then line breaks or /)",
    r"\s++$": "whitespace at the end of the text",
    r"\s*[\r\n]": "whitespace up to a line break",
    r"\s*[\r\n]+": "whitespace up to line breaks",
    r"\s": "one whitespace character",
}

def _add_known() -> None:
    """Descriptions of the alternatives too long to spell above (o200k's words, BERT's)."""
    o200k, bert = alternatives(O200K_PATTERN), alternatives(BERT_PATTERN)
    DESCRIPTIONS.update({
        o200k[0]: "a word ending in lower case (a non-letter may lead, a contraction may "
                  "follow)",
        o200k[1]: "a word in upper case (a non-letter may lead, a contraction may follow)",
        bert[0]: "one CJK ideograph", bert[1]: "one punctuation character",
        bert[2]: "a run of characters between whitespace and punctuation"})


GAP = "between pre-tokens: dropped, no token"
_KNOWN: list[bool] = []


def alternatives(pattern: str) -> list[str]:
    """The top-level alternatives of ``pattern`` (``|`` outside groups, classes and
    escapes).

    >>> alternatives(r"a|(b|c)|[|]|\\|")
    ['a', '(b|c)', '[|]', '\\\\|']
    """
    parts, depth, in_class, start, i = [], 0, False, 0, 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            if ch == "]":
                in_class = False
        elif ch == "[":
            in_class = True
            if pattern[i + 1:i + 2] == "]":  # "[]...]": a literal ] first
                i += 1
            elif pattern[i + 1:i + 3] == "^]":
                i += 2
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
        i += 1
    parts.append(pattern[start:])
    return parts


def describe(rule: str) -> str:
    """What an alternative matches, in words (its source text when unknown)."""
    if not _KNOWN:
        _add_known()
        _KNOWN.append(True)
    return DESCRIPTIONS.get(rule, f"the rule {rule}")


@cache
def _tagged(name: str) -> tuple[regex.Pattern, tuple[str, ...]]:
    """The pre-tokenizer's pattern with each alternative in a group of its own (the same
    matches: an alternation tries its alternatives in order either way)."""
    pattern = _PATTERNS[check_pretokenizer(name)]
    rules = tuple(alternatives(pattern.pattern))
    tagged = "|".join(f"(?P<r{n}>{rule})" for n, rule in enumerate(rules))
    return regex.compile(tagged, pattern.flags & ~regex.VERSION0 & ~regex.UNICODE), rules


def rules(name: str) -> tuple[str, ...]:
    """The alternatives of pre-tokenizer ``name``'s pattern, in the order they are tried."""
    return _tagged(name)[1]


def pretoken_spans(text: str, name: str) -> list[PretokenSpan]:
    """Every piece of ``text`` in order: each pre-token of pre-tokenizer ``name`` with
    the alternative that matched it, and each stretch between pre-tokens as a gap.
    ``metaspace``'s words are their spans with ``▁`` in front (see
    :func:`bpeviz.text.pretokenize.words`): the spans here are the text's own."""
    pattern, alts = _tagged(name)
    out: list[PretokenSpan] = []
    at = 0
    for match in pattern.finditer(text):
        start, end = match.span()
        if start > at:
            out.append(PretokenSpan(at, start, text[at:start], -1, "", GAP))
        index = int(match.lastgroup[1:]) if match.lastgroup else next(
            n for n in range(len(alts)) if match.group(f"r{n}") is not None)
        out.append(PretokenSpan(start, end, text[start:end], index, alts[index],
                                describe(alts[index])))
        at = end
    if at < len(text):
        out.append(PretokenSpan(at, len(text), text[at:], -1, "", GAP))
    return out


__all__ = ["GAP", "PretokenSpan", "alternatives", "describe", "pretoken_spans", "rules"]
