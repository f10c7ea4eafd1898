"""The pre-tokens of tiktoken's patterns (GPT-2's, cl100k's, o200k's) are tiktoken's on
every Unicode code point.

Which characters ``\\p{L}``, ``\\p{N}``, ``\\s`` and o200k's cased classes hold depends on
the regex engine's Unicode tables: tiktoken cuts with Rust's ``fancy-regex``, bpeviz
with the pinned ``regex`` module (and, for GPT-2's pattern, a compiled scanner built from
it). tiktoken does not expose its pre-tokenizer, so it is read through its encoder: an
encoding of the pattern whose only merges are a lead byte ("a", "A", "1" or a space)
followed by any byte. A probe ``lead + c`` then comes out as one token exactly when
``c`` is in the lead's pre-token (no other merge can take the lead first): after "a" a
lower-case letter (any letter, in GPT-2's and cl100k's patterns), after "A" an
upper-case one in o200k's, after "1" a digit, after a space anything but whitespace.
bpeviz's cuts of the same probes must say the same for every code point.
"""

from __future__ import annotations

import numpy as np
import pytest
import regex
import tiktoken

from bpeviz.engine import compiled_module
from bpeviz.text.pretokenize import CL100K_PATTERN, GPT2_PATTERN, O200K_PATTERN, words

PATTERNS = {"gpt2": GPT2_PATTERN, "cl100k": CL100K_PATTERN, "o200k": O200K_PATTERN}
#: a probe: lead + the character + tail, then a line break; the tail keeps what follows
#: the character out of the lead's pre-token ("!" after a space: a letter or digit stays
#: with the space alone)
PROBES = {"after a": ("a", ""), "after A": ("A", ""), "digit": ("1", ""),
          "not whitespace": (" ", "!")}
CODE_POINTS = np.array([c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF])


def probe_encoding(pattern: str, lead: str) -> tiktoken.Encoding:
    ranks = {bytes([i]): i for i in range(256)}
    for x in range(256):  # the lead's merges, the only ones
        ranks[lead.encode() + bytes([x])] = len(ranks)
    return tiktoken.Encoding("probe", pat_str=pattern, mergeable_ranks=ranks,
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


def tiktoken_joins(pattern: str, lead: str, tail: str) -> np.ndarray:
    encoding = probe_encoding(pattern, lead)
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
def theirs() -> dict[tuple[str, str], np.ndarray]:
    """tiktoken's answer for each (pattern, probe), made once."""
    return {}


def tiktokens(theirs, name: str, kind: str) -> np.ndarray:
    if (name, kind) not in theirs:
        theirs[name, kind] = tiktoken_joins(PATTERNS[name], *PROBES[kind])
    return theirs[name, kind]


# "A" tells more than "a" only in o200k's pattern, the one with cased classes; the
# compiled scanner cuts GPT-2's pattern only
@pytest.mark.parametrize("name, kind, cut", [
    (name, kind, cut) for name in PATTERNS for kind in PROBES
    for cut in (("regex", "compiled") if name == "gpt2" else ("regex",))
    if name == "o200k" or kind != "after A"])
def test_every_code_point_is_cut_as_tiktoken_cuts_it(theirs, name, kind, cut):
    if cut == "compiled" and compiled_module() is None:
        pytest.skip("the compiled scanner is not built")
    lead, tail = PROBES[kind]
    text = probe_text(lead, tail)
    pieces = (regex.compile(PATTERNS[name]).findall(text) if cut == "regex"
              else words(text, name))
    ours = bpeviz_joins(pieces, lead, tail)
    apart = CODE_POINTS[ours != tiktokens(theirs, name, kind)]
    assert not len(apart), (f"{len(apart)} code points cut apart from tiktoken ({name}, "
                            f"{kind}), the first: {[f'U+{c:04X}' for c in apart[:10].tolist()]}")


def test_the_probes_tell_the_classes_apart(theirs):
    # what tiktoken's o200k cuts say of a few characters: (after a, after A, digit, not
    # whitespace); "a" joins lower-case letters and marks, "A" upper-case ones too; o200k's
    # digits take no space before them
    index = {chr(c): i for i, c in enumerate(CODE_POINTS.tolist()) if c < 0x3100}
    said = {ch: tuple(bool(tiktokens(theirs, "o200k", kind)[index[ch]]) for kind in PROBES)
            for ch in "bBé٣\u3000!\u0301 \n"}
    assert said == {"b": (True, True, False, True), "B": (False, True, False, True),
                    "é": (True, True, False, True), "٣": (False, False, True, False),
                    "\u3000": (False, False, False, False), "!": (False, False, False, True),
                    "\u0301": (True, True, False, True), " ": (False, False, False, False),
                    "\n": (False, False, False, True)}  # " \n": o200k's \s*[\r\n]+
    gpt2_letters = tiktokens(theirs, "gpt2", "after a")
    assert gpt2_letters[index["B"]] and gpt2_letters.sum() > 100_000, (
        "GPT-2's pattern joins any letter, by the thousand")
