"""GPT-2's pre-tokens are tiktoken's on every Unicode code point.

Which characters ``\\p{L}``, ``\\p{N}`` and ``\\s`` hold depends on the regex engine's
Unicode tables: tiktoken cuts with Rust's ``fancy-regex``, bpeviz with the pinned
``regex`` module (and a compiled scanner built from it). tiktoken does not expose its
pre-tokenizer, so it is read through its encoder: an encoding of the GPT-2 pattern whose
only merges are a lead byte ("a", "1" or a space) followed by any byte. A probe
``lead + c`` then comes out as one token exactly when ``c`` is in the lead's pre-token
(no other merge can take the lead first), which tells a letter (after "a"), a digit
(after "1") and anything but whitespace (after a space) apart. bpeviz's cuts of the same
probes must say the same for every code point, for the regex and the compiled scanner.
"""

from __future__ import annotations

import numpy as np
import pytest
import regex
import tiktoken

from bpeviz.engine import compiled_module
from bpeviz.text.pretokenize import GPT2_PATTERN, words

#: a probe: lead + the character + tail, then a line break; the tail keeps what follows
#: the character out of the lead's pre-token ("!" after a space: a letter or digit stays
#: with the space alone)
PROBES = {"letter": ("a", ""), "digit": ("1", ""), "not whitespace": (" ", "!")}
CODE_POINTS = np.array([c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF])


def probe_encoding() -> tiktoken.Encoding:
    ranks = {bytes([i]): i for i in range(256)}
    for lead, _ in PROBES.values():  # the lead's merges rank below any other
        for x in range(256):
            ranks.setdefault(lead.encode() + bytes([x]), len(ranks))
    return tiktoken.Encoding("probe", pat_str=GPT2_PATTERN, mergeable_ranks=ranks,
                             special_tokens={})


def utf8_length(code_points: np.ndarray) -> np.ndarray:
    return 1 + (code_points >= 0x80) + (code_points >= 0x800) + (code_points >= 0x10000)


def probe_text(lead: str, tail: str) -> str:
    return "".join(f"{lead}{chr(c)}{tail}\n" for c in CODE_POINTS.tolist())


def joined(starts: np.ndarray, lengths: np.ndarray, probes: np.ndarray) -> np.ndarray:
    """For each probe's first unit (offset into the text), whether a piece starts there
    and is longer than the lead alone (``lengths`` in the same units)."""
    at = np.searchsorted(starts, probes)
    at = np.minimum(at, len(starts) - 1)
    return (starts[at] == probes) & (lengths[at] >= 2)


def tiktoken_joins(encoding: tiktoken.Encoding, lead: str, tail: str) -> np.ndarray:
    tokens = np.array(encoding.encode_ordinary(probe_text(lead, tail)))
    size = np.array([len(encoding.decode_single_token_bytes(t))
                     for t in range(encoding.n_vocab)])
    lengths = size[tokens]
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    per_probe = len(lead.encode()) + utf8_length(CODE_POINTS) + len(tail.encode()) + 1
    return joined(starts, lengths, np.concatenate([[0], np.cumsum(per_probe)[:-1]]))


def bpeviz_joins(pieces: list[str], lead: str, tail: str) -> np.ndarray:
    lengths = np.array([len(p) for p in pieces])
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    per_probe = len(lead) + 1 + len(tail) + 1  # one character each: no surrogates here
    return joined(starts, lengths, np.arange(len(CODE_POINTS)) * per_probe)


@pytest.fixture(scope="module")
def theirs() -> dict[str, np.ndarray]:
    encoding = probe_encoding()
    return {kind: tiktoken_joins(encoding, lead, tail) for kind, (lead, tail) in PROBES.items()}


@pytest.mark.parametrize("cut", ["regex", "compiled"])
@pytest.mark.parametrize("kind", list(PROBES))
def test_every_code_point_is_cut_as_tiktoken_cuts_it(theirs, kind, cut):
    if cut == "compiled" and compiled_module() is None:
        pytest.skip("the compiled scanner is not built")
    lead, tail = PROBES[kind]
    text = probe_text(lead, tail)
    pieces = regex.compile(GPT2_PATTERN).findall(text) if cut == "regex" else words(text, "gpt2")
    ours = bpeviz_joins(pieces, lead, tail)
    apart = CODE_POINTS[ours != theirs[kind]]
    assert not len(apart), (f"{len(apart)} code points cut apart from tiktoken ({kind}), "
                            f"the first: {[f'U+{c:04X}' for c in apart[:10].tolist()]}")


def test_the_probes_tell_the_classes_apart(theirs):
    # what tiktoken's cuts say of a few characters: (letter, digit, not whitespace)
    index = {chr(c): i for i, c in enumerate(CODE_POINTS.tolist()) if c < 0x3100}
    said = {ch: tuple(bool(theirs[kind][index[ch]]) for kind in PROBES)
            for ch in "bé٣\u3000!a1 \n"}
    assert said == {"b": (True, False, True), "é": (True, False, True),
                    "٣": (False, True, True), "\u3000": (False, False, False),
                    "!": (False, False, True), "a": (True, False, True),
                    "1": (False, True, True), " ": (False, False, False),
                    "\n": (False, False, False)}
    assert sum(theirs["letter"]) > 100_000, "letters are found by the thousand"
