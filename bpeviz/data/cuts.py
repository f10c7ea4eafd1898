"""Where a text may be cut so that its pieces, pre-tokenized one by one, give the same
pre-tokens as the whole text.

A cut right after an ASCII letter or digit and right before ASCII whitespace is safe for
every regex pre-tokenizer of :mod:`bpeviz.text.pretokenize`: no pre-token holds both a
letter or digit and the whitespace after it (GPT-2's, cl100k's and o200k's whitespace
joins the word *after* it, punctuation may swallow a line break but a letter never does),
the only look-ahead (``\\s+(?!\\S)``) looks at whitespace runs that lie wholly on one side,
and the patterns look behind nowhere. Cutting after a line break instead would change
GPT-2's ``"\\n  x"`` (``"\\n "``, ``" x"``) into ``"\\n"``, ``" "``, ``" x"``. The
``none`` pre-tokenizer (a line is a word) and SuperBPE's stage 2 (``superbpe``, registered
by its algorithm: its pieces never cross a line end) are cut right after a line break.
A pre-tokenizer not named here is never cut: its text is counted whole, which is always
right but holds a whole file in memory.

Cuts are searched in bytes: both bytes are ASCII, so a cut never splits a UTF-8
character, and a line break is preferred (a cut before a space is the fallback for very
long lines).

>>> last_cut(b"low lower\\nnew", "gpt2")
9
>>> last_cut(b"low lower\\nnew", "none")
10
>>> next_cut(b"a, b\\r\\nc d", 0, "gpt2")
4
"""

from __future__ import annotations

import re

#: before a line break (``\r\n`` too), after a letter or digit
_BEFORE_LINE_BREAK = re.compile(rb"[0-9A-Za-z](?=\r?\n)")
#: before any ASCII whitespace, after a letter or digit (long lines)
_BEFORE_SPACE = re.compile(rb"[0-9A-Za-z](?=[ \t\r\n\x0b\x0c])")
#: how far back from the end a cut is looked for first
_TAIL = 1 << 16


_AFTER_LINE_BREAK = re.compile(rb"\n")
#: the pre-tokenizers cut after a letter or digit, before whitespace
WORD_CUT = frozenset({"whitespace", "gpt2", "metaspace", "cl100k", "o200k", "bert"})
#: the pre-tokenizers cut after a line break (their pre-tokens keep within a line)
LINE_CUT = frozenset({"none", "superbpe"})


def _patterns(pretokenizer: str) -> tuple[re.Pattern[bytes], ...]:
    if pretokenizer in LINE_CUT:
        return (_AFTER_LINE_BREAK,)
    if pretokenizer in WORD_CUT:
        return (_BEFORE_LINE_BREAK, _BEFORE_SPACE)
    return ()


def last_cut(buf: bytes, pretokenizer: str) -> int:
    """The last safe cut in ``buf`` (0 when there is none): ``buf[:cut]`` can be counted
    now, ``buf[cut:]`` waits for the bytes that follow it."""
    if pretokenizer in LINE_CUT:
        return buf.rfind(b"\n") + 1
    for pattern in _patterns(pretokenizer):
        for low in dict.fromkeys((max(0, len(buf) - _TAIL), 0)):
            last = None
            for last in pattern.finditer(buf, low):  # noqa: B007 (the last one is kept)
                pass
            if last is not None:
                return last.end()
    return 0


def next_cut(buf: bytes, start: int, pretokenizer: str) -> int | None:
    """The first safe cut at or after ``start`` (a line break preferred), or None."""
    for pattern in _patterns(pretokenizer):
        found = pattern.search(buf, max(start - 1, 0))
        while found is not None and found.end() < start:
            found = pattern.search(buf, found.end())
        if found is not None:
            return found.end()
    return None
