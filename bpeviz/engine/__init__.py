"""The merge loop's wing: the compiled module, its pure-Python twin, and the choice.

``bpeviz.engine._merge`` (``_merge.c``, built by ``python setup.py build_ext --inplace``)
runs the merge loop, the snapshot kernels and the encoder in C; :mod:`bpeviz.engine.python`
is the same loop in Python, the reference the compiled one is tested against (as
tiktoken keeps ``_educational.py`` beside its fast path). Everything that may use the
compiled module asks :func:`compiled_module`, so ``BPEVIZ_ENGINE=python`` (or hiding the
module, as the tests' ``engine`` fixture does) switches every caller at once.

>>> default_engine() in ENGINES
True
>>> compiled_module("python") is None
True
"""

from __future__ import annotations

import os
from functools import cache
from types import ModuleType

import numpy as np
import regex

from bpeviz.text import pretokenize

try:  # the compiled merge loop, built by `python setup.py build_ext --inplace`
    from bpeviz.engine import _merge as _compiled
except ImportError:  # not built: the pure-Python loop gives the same results, slower
    _compiled = None

#: "compiled" (bpeviz.engine._merge, a C extension) or "python" (the reference loop)
ENGINES = ("compiled", "python")
#: the scores the compiled merge loop computes itself, by the code its State takes; an
#: algorithm whose ``score_kind`` is not here trains on the Python loop
COMPILED_SCORES = {"count": 0, "count_over_parts": 1}


def default_engine() -> str:
    """The engine used when none is named: ``BPEVIZ_ENGINE`` if set, else compiled if built."""
    return os.environ.get("BPEVIZ_ENGINE") or ("compiled" if _compiled else "python")


def compiled_module(engine: str | None = None) -> ModuleType | None:
    """The compiled module if ``engine`` (default: :func:`default_engine`) is "compiled"
    and the module is built, else None (the caller runs its Python path)."""
    if (engine or default_engine()) != "compiled":
        return None
    return _compiled


@cache
def char_classes() -> bytes:
    """One byte per code point for the compiled pre-tokenizers: 1 ``\\p{L}``, 2 ``\\p{N}``,
    4 ``\\s``, 8 ``[\\s\\x1c-\\x1f]``, as the ``regex`` module matches them (so the same
    Unicode version as the patterns in :mod:`bpeviz.text.pretokenize`)."""
    every = np.arange(0x110000, dtype=np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
    table = np.zeros(0x110000, dtype=np.uint8)
    for bit, pattern in ((1, r"\p{L}+"), (2, r"\p{N}+"), (4, r"\s+"), (8, r"[\s\x1c-\x1f]+")):
        for match in regex.finditer(pattern, every):
            table[match.start() : match.end()] |= bit
    return table.tobytes()


#: the compiled scanners' codes (``cut`` in ``_merge.c``)
_CUTS = {"gpt2": 1, "superbpe-lines": 3}


def cut(text: str, pattern: str) -> list[str] | None:
    """``text``'s words by the compiled scanner for ``pattern`` ("gpt2": GPT-2's pattern;
    "superbpe-lines": SuperBPE's stage-2 training words), or None when the compiled module
    is not in use (the caller runs its regex, which gives the same words: the scanners
    are tested against it)."""
    compiled = compiled_module()
    if compiled is None:
        return None
    return compiled.cut(text, _CUTS[pattern], char_classes())  # type: ignore[no-any-return]


def count(text: str, pattern: str) -> dict[str, int] | None:
    """How often each of ``text``'s words occurs (``collections.Counter(cut(text,
    pattern))``, words in order of first appearance), counted in C so that only each
    distinct word becomes a string; None when the compiled module is not in use."""
    compiled = compiled_module()
    if compiled is None:
        return None
    return compiled.count(text, _CUTS[pattern], char_classes())  # type: ignore[no-any-return]


if pretokenize.GPT2_PATTERN == pretokenize.COMPILED_GPT2:  # what gpt2_end in _merge.c cuts
    pretokenize.FAST_CUTS["gpt2"] = lambda text: cut(text, "gpt2")
    pretokenize.FAST_COUNTS["gpt2"] = lambda text: count(text, "gpt2")
