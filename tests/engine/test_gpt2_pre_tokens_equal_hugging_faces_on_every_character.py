"""GPT-2's pre-tokens are Hugging Face's on every Unicode code point.

Which characters ``\\p{L}`` and ``\\p{N}`` hold depends on the regex engine's Unicode
version. Hugging Face ``tokenizers`` (Oniguruma) classifies with Unicode 16; the ``regex``
module follows each new Unicode version, and a release on a newer one makes letters of
thousands more code points, so pre-tokens (and, on text that holds them, the merges)
would part from Hugging Face's. The pinned ``regex`` and the compiled scanner's class
table must agree with ``ByteLevel``'s cuts on every character: each is probed as
``" a" + c + c + "1"``, whose cut tells a letter, a digit, whitespace and the rest apart.
"""

from __future__ import annotations

import pytest
import regex
from tokenizers import pre_tokenizers

from bpeviz.engine import compiled_module
from bpeviz.text.pretokenize import GPT2_PATTERN, words

CHUNK = 1 << 15


def _probe(start: int) -> str:
    return "".join(f" a{chr(c)}{chr(c)}1" for c in range(start, min(start + CHUNK, 0x110000))
                   if not 0xD800 <= c <= 0xDFFF)


def _hf_spans(text: str) -> list[tuple[int, int]]:
    cut = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    return [span for _, span in cut.pre_tokenize_str(text)]


def _spans(pieces: list[str]) -> list[tuple[int, int]]:
    spans, at = [], 0
    for piece in pieces:
        spans.append((at, at + len(piece)))
        at += len(piece)
    return spans


@pytest.mark.parametrize("start", range(0, 0x110000, CHUNK * 4))
def test_every_code_point_is_cut_as_hugging_face_cuts_it(start):
    pattern = regex.compile(GPT2_PATTERN)
    for first in range(start, min(start + CHUNK * 4, 0x110000), CHUNK):
        text = _probe(first)
        theirs = _hf_spans(text)
        assert _spans(pattern.findall(text)) == theirs, f"regex, from U+{first:04X}"
        if compiled_module() is not None:
            assert _spans(words(text, "gpt2")) == theirs, f"compiled, from U+{first:04X}"


def test_the_probe_tells_the_classes_apart():
    # the probe's shapes: a letter joins the "a", a digit the "1", whitespace stands alone
    # twice, anything else once as a pair
    shapes = {c: [text for text in regex.compile(GPT2_PATTERN).findall(f" a{c}{c}1")]
              for c in "bé٣\u3000!"}
    assert shapes == {"b": [" abb", "1"], "é": [" aéé", "1"], "٣": [" a", "٣٣1"],
                      "\u3000": [" a", "\u3000", "\u3000", "1"], "!": [" a", "!!", "1"]}
