"""Tokens the normalizer of an opened Hugging Face ``tokenizer.json`` makes impossible
(for :mod:`bpeviz.analysis.health`).

bpeviz opens a ``tokenizer.json`` with a normalizer but encodes text as typed (the file
opens with a note saying so); the normalizer is kept on the training
(``training.normalizer``). Hugging Face normalizes the whole text before anything else,
so a token whose own text the normalizer changes, even inside a longer text, is never
produced: with ``Lowercase`` every token holding an upper-case letter, with ``NFKC`` a
token holding ``ﬁ``, with ``Replace(" ", "▁")`` a token holding a space. A token is
impossible when the normalizer changes its text both alone and inside a longer text
(alone, a combining mark that starts it stays; inside, ``Prepend`` and ``Strip`` leave it).

The normalizers read here: ``Lowercase``, ``NFC``, ``NFD``, ``NFKC``, ``NFKD``,
``StripAccents``, ``Replace`` (a string or a regular expression), ``Prepend``,
``Strip``, ``BertNormalizer`` and ``Sequence`` of them. Any other is refused by
:func:`normalizer_from` with a ValueError naming it (health then says the tokens it
makes impossible are not looked for).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

import regex

from bpeviz.algorithms import get as get_algorithm
from bpeviz.analysis.health_reach import checked_ids, q

#: the normalizer types :func:`normalizer_from` reads
READ = ("Lowercase", "NFC", "NFD", "NFKC", "NFKD", "StripAccents", "Replace", "Prepend",
        "Strip", "BertNormalizer", "Sequence")
#: written around a token's text, so a normalizer that acts on the whole text's ends
#: (Prepend, Strip) leaves the token's own text as it would be inside a longer one
_AROUND = "x"

Step = tuple[str, Callable[[str], str]]


def _lowercase(text: str) -> str:
    return "".join(c.lower() for c in text)  # one character at a time, as Rust's


def _strip_accents(text: str) -> str:
    return "".join(c for c in text if unicodedata.category(c) != "Mn")


def _is_chinese(c: str) -> bool:
    o = ord(c)
    return (0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0x20000 <= o <= 0x2A6DF
            or 0x2A700 <= o <= 0x2B73F or 0x2B740 <= o <= 0x2B81F or 0x2B920 <= o <= 0x2CEAF
            or 0xF900 <= o <= 0xFAFF or 0x2F800 <= o <= 0x2FA1F)


def _bert(spec: dict[str, Any]) -> Callable[[str], str]:
    clean = spec.get("clean_text", True)
    chinese = spec.get("handle_chinese_chars", True)
    lower = spec.get("lowercase", True)
    strip = spec.get("strip_accents")
    strip = lower if strip is None else strip

    def run(text: str) -> str:
        if clean:
            text = "".join(
                " " if c in "\t\n\r " or unicodedata.category(c) == "Zs" else c
                for c in text if c not in "\0\ufffd"
                and (c in "\t\n\r" or unicodedata.category(c) not in ("Cc", "Cf", "Cn", "Co")))
        if chinese:
            text = "".join(f" {c} " if _is_chinese(c) else c for c in text)
        if strip:
            text = _strip_accents(unicodedata.normalize("NFD", text))
        return _lowercase(text) if lower else text

    return run


def _replace(spec: dict[str, Any]) -> Callable[[str], str]:
    pattern, content = spec.get("pattern"), spec.get("content")
    if not isinstance(content, str) or not isinstance(pattern, dict):
        raise ValueError(f"the normalizer Replace needs a pattern and a content, got {spec!r}")
    if isinstance(pattern.get("String"), str):
        literal = pattern["String"]
        return lambda text: text.replace(literal, content) if literal else text
    if isinstance(pattern.get("Regex"), str):
        compiled = regex.compile(pattern["Regex"])
        return lambda text: compiled.sub(lambda _: content, text)
    raise ValueError(f"the normalizer Replace's pattern is neither a String nor a Regex: "
                     f"{pattern!r}")


def _steps(spec: Any) -> list[Step]:
    kind = spec.get("type") if isinstance(spec, dict) else None
    if kind == "Sequence":
        return [s for part in spec.get("normalizers") or [] for s in _steps(part)]
    if kind in ("NFC", "NFD", "NFKC", "NFKD"):
        form = kind
        return [(kind, lambda text: unicodedata.normalize(form, text))]
    if kind == "Lowercase":
        return [(kind, _lowercase)]
    if kind == "StripAccents":
        return [(kind, _strip_accents)]
    if kind == "Replace":
        return [(f"Replace({spec.get('pattern')!r} → {spec.get('content')!r})", _replace(spec))]
    if kind == "Prepend":
        prepend = spec.get("prepend", "")
        return [(f"Prepend({prepend!r})", lambda text: prepend + text if text else text)]
    if kind == "Strip":
        left, right = spec.get("strip_left", True), spec.get("strip_right", True)

        def strip(text: str) -> str:
            text = text.lstrip() if left else text
            return text.rstrip() if right else text
        return [("Strip", strip)]
    if kind == "BertNormalizer":
        return [(kind, _bert(spec))]
    raise ValueError(f"the normalizer {kind!r} is not read by bpeviz (it reads "
                     f"{', '.join(READ)})" if kind else
                     f"a normalizer without a type: {spec!r}")


def normalizer_from(spec: Any) -> Callable[[str], str]:
    """The normalizer a ``tokenizer.json``'s ``"normalizer"`` object describes, as a
    function of a text; ValueError for a type bpeviz does not read.

    >>> lower = normalizer_from({"type": "Sequence", "normalizers": [
    ...     {"type": "NFKC"}, {"type": "Lowercase"}]})
    >>> lower("Ｆile ﬁ")
    'file fi'
    """
    steps = _steps(spec)

    def run(text: str) -> str:
        for _, step in steps:
            text = step(text)
        return text

    return run


def normalizer_reasons(training: Any, step: int) -> dict[int, str]:
    """The tokens known at ``step`` whose own text the training's normalizer (an opened
    ``tokenizer.json``'s) changes even inside a longer text: id -> reason naming the
    normalizer that changes it. Empty without a normalizer; ValueError for one bpeviz
    does not read."""
    spec = getattr(training, "normalizer", None)
    if not spec:
        return {}
    steps = _steps(spec)
    alg = get_algorithm(training.algorithm)
    marker = training.options.marker
    out: dict[int, str] = {}
    for i in checked_ids(training, step):
        text = alg.bare(training.vocab[i], marker)
        if not text:  # bytes that are not whole characters: nothing to normalize
            continue
        forms = (text, _AROUND + text + _AROUND)  # alone, and inside a longer text
        for name, change in steps:
            forms = tuple(change(form) for form in forms)
            if all(text not in form for form in forms):
                part, whole = change(text), normalizer_from(spec)(text)
                out[i] = (f"the normalizer {name} turns its text {q(text)} into {q(part)}: "
                          "no normalized text holds it"
                          + (f" (the whole normalizer gives {q(whole)})" if whole != part
                             else ""))
                break
    return out


__all__ = ["READ", "normalizer_from", "normalizer_reasons"]
