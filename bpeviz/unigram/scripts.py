"""Unicode scripts of characters, for SentencePiece's "one script per piece" rule.

SentencePiece (``split_by_unicode_script``, on by default) never lets a piece mix two
scripts: ``"a,"`` is Latin + Common, so it is never a piece. Hiragana, Katakana and
U+30FC count as Han; combining marks (script Inherited) take the script of the
character before them. The ``regex`` module knows every character's script.

>>> script("a"), script(","), script("я"), script("漢")
('Latin', 'Common', 'Cyrillic', 'Han')
"""

from __future__ import annotations

from functools import cache

import regex


@cache
def _script_names() -> tuple[str, ...]:
    try:  # every script the installed regex module knows (its property table)
        from regex import _regex_core

        values = _regex_core.PROPERTIES["SCRIPT"][1]
        by_id: dict[int, str] = {}

        def rank(name: str) -> tuple[bool, int]:  # the long name, not the 4-letter code
            return (len(name) != 4, len(name))  # ("HAN" over "HANI", "LATIN" over "LATN")

        for name, value in values.items():
            if value not in by_id or rank(name) > rank(by_id[value]):
                by_id[value] = name
        return tuple(n.title() for n in by_id.values() if n not in ("UNKNOWN",))
    except Exception:  # pragma: no cover - a regex without that table
        return ("Latin", "Common", "Inherited", "Greek", "Cyrillic", "Han", "Hiragana",
                "Katakana", "Arabic", "Hebrew", "Hangul", "Thai", "Devanagari")


@cache
def _pattern() -> regex.Pattern[str]:
    names = _script_names()
    parts = [f"(?P<s{i}>\\p{{Script={n}}})" for i, n in enumerate(names)]
    return regex.compile("|".join(parts))


@cache
def script(char: str) -> str:
    """The Unicode script of one character (``"Unknown"`` for unassigned ones)."""
    match = _pattern().match(char)
    if match is None or match.lastgroup is None:
        return "Unknown"
    return _script_names()[int(match.lastgroup[1:])]
