"""tiktoken's rank file (byte-level BPE only): export and import.

``tokenizer.tiktoken`` holds one ``<base64 token> <rank>`` line per token, the rank
being the token id; ``tiktoken.json`` holds the pattern and the rest of what
``tiktoken.Encoding`` needs::

    import base64, json, tiktoken
    config = json.load(open("tiktoken.json"))
    ranks = {base64.b64decode(tok): int(rank) for tok, rank in
             (line.split() for line in open("tokenizer.tiktoken") if line.strip())}
    enc = tiktoken.Encoding(config["name"], pat_str=config["pat_str"],
                            mergeable_ranks=ranks, special_tokens=config["special_tokens"])

A rank file has no merge list: on import each token's merge is recovered as tiktoken
would build it, by merging its bytes with the lower-ranked tokens until two parts are
left. Without ``tiktoken.json`` the GPT-2 pattern is assumed.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bpeviz.algorithms import BBPE
from bpeviz.algorithms import get as get_algorithm
from bpeviz.formats._common import (
    NOT_JSON,
    Lone,
    Opener,
    build_training,
    check_id,
    check_size,
    dumps,
    first_lines,
    parse_json,
    pretokenizer_of,
    vocab_items,
)
from bpeviz.formats.hf_pretokenizers import TIKTOKEN_GPT2_PATTERN
from bpeviz.text.pretokenize import BERT_PATTERN, CL100K_PATTERN, GPT2_PATTERN, O200K_PATTERN

if TYPE_CHECKING:
    from bpeviz.core.snapshot import Snapshot
    from bpeviz.core.training import Training

#: the format's name in exports, what it holds, and the file names it reads and writes
NAME = "tiktoken"
ABOUT = "tiktoken rank file + pattern (byte-level BPE)"
RANKS = "tokenizer.tiktoken"
CONFIG = "tiktoken.json"
FILES = (RANKS, CONFIG)
#: any file whose name ends so is a rank file
SUFFIX = ".tiktoken"
#: The pattern for each pre-tokenizer; tiktoken encodes only the matches, so the text
#: between them is dropped exactly as bpeviz drops it.
PATTERNS = {
    "gpt2": GPT2_PATTERN,
    "whitespace": r"[^\s\x1c-\x1f]+",
    "none": r"[^\n]*\n|[^\n]+",
    "cl100k": CL100K_PATTERN,
    "o200k": O200K_PATTERN,
    "bert": BERT_PATTERN,
}
#: tiktoken's r50k_base/gpt2 pattern, equivalent to GPT-2's (tiktoken_ext/openai_public.py)
R50K_PATTERN = (
    r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
)
_NAMES = {**{p: n for n, p in PATTERNS.items()}, TIKTOKEN_GPT2_PATTERN: "gpt2",
          R50K_PATTERN: "gpt2"}
#: Recovering a token's merge takes up to len(token)**2 steps; a file whose tokens add up
#: to more than this is refused (real rank files stay far below it).
MAX_RECOVERY_WORK = 10**8


def export(snapshot: Snapshot) -> dict[str, str]:
    """The rank file and ``tiktoken.json`` (name, pat_str, special_tokens)."""
    training = snapshot.training
    get_algorithm(training.algorithm).check_export(
        "tiktoken", "the tiktoken format holds byte-level BPE only")
    if pretokenizer_of(training) not in PATTERNS:
        raise ValueError(f"the {pretokenizer_of(training)!r} pre-tokenizer has no tiktoken "
                         "pattern (tiktoken cannot put \u2581 before words); export as 'hf'")
    items = vocab_items(snapshot)
    check_reproducible(snapshot, dict(items))  # type: ignore[arg-type]
    lines = "".join(f"{base64.b64encode(token).decode('ascii')} {i}\n"  # type: ignore[arg-type]
                    for token, i in items)
    config = {
        "name": f"bpeviz-step-{snapshot.step}",
        "pat_str": PATTERNS[pretokenizer_of(training)],
        "special_tokens": {},
        "explicit_n_vocab": len(items),
    }
    return {RANKS: lines, CONFIG: dumps(config)}


def check_reproducible(snapshot: Snapshot, ranks: Mapping[bytes, int]) -> None:
    """Refuse a rank table that tiktoken would encode with differently than bpeviz does.

    tiktoken keeps no merge list: it merges any adjacent pair whose concatenation is in
    the table, lowest rank first, whereas bpeviz (and Hugging Face) apply only the listed
    merges. The two agree when tiktoken, merging each token's bytes that way (with the
    tokens ranked below it), ends with exactly the token's own merge (see
    :func:`tiktoken_parts`). Trained merge lists pass; a replayed or imported list such as
    (b, c), (a, b), (ab, c) does not: tiktoken makes ``abc`` as a + bc.

    Raises ValueError naming the first merge tiktoken would make differently.
    """
    merges = snapshot.training.merges[: snapshot.step]
    made: dict[bytes, tuple[bytes, bytes]] = {}
    for merge in merges:  # the merge that makes each token (a repeated pair does nothing)
        pair = (merge.left, merge.right)
        first = made.setdefault(merge.token, pair)  # type: ignore[arg-type]
        if first != pair:
            raise ValueError(_not_reproducible(merge.step, pair, merge.token,
                                               f"merge {first[0]!r} + {first[1]!r} already "
                                               "made it, and a rank table keeps one way"))
    for merge in merges:
        pair = [merge.left, merge.right]
        parts = tiktoken_parts(merge.token, ranks, ranks[merge.token])  # type: ignore[arg-type]
        if parts != pair:
            how = " + ".join(map(repr, parts)) if len(parts) == 2 else (
                f"{len(parts)} pieces ({' + '.join(map(repr, parts))})")
            raise ValueError(_not_reproducible(merge.step, pair, merge.token,
                                               f"tiktoken would make it from {how}"))


def _not_reproducible(step: int, pair: tuple, token: bytes, why: str) -> str:
    return (f"this step cannot be exported to tiktoken: merge {step} makes {token!r} as "
            f"{pair[0]!r} + {pair[1]!r}, but {why}. tiktoken merges any two adjacent "
            "tokens whose concatenation it knows, so it would encode differently; "
            "export as 'hf' or 'gpt2', which keep the merge list")


def import_files(files: Mapping[str, str], ranks_name: str = RANKS) -> Training:
    """Open a rank file (and ``tiktoken.json`` if given) as a byte-level training.

    Without ``tiktoken.json``, OpenAI's published file names say the pattern
    (``cl100k_base.tiktoken``: cl100k, ``o200k_base.tiktoken``: o200k); otherwise GPT-2's.
    """
    stem = ranks_name.rsplit("/", 1)[-1].removesuffix(".tiktoken")
    name = {"cl100k_base": "cl100k", "o200k_base": "o200k"}.get(stem, "gpt2")
    vocab: dict[bytes, int] = {}
    if CONFIG in files:
        config = parse_json(files[CONFIG], CONFIG)
        if not isinstance(config, dict) or not isinstance(config.get("pat_str"), str):
            raise ValueError(f'{CONFIG} should be an object with a "pat_str" string')
        pattern = config["pat_str"]
        if pattern not in _NAMES:
            raise ValueError(f"{CONFIG}: the pattern {pattern[:80]!r} is not supported; "
                             "bpeviz pre-tokenizes with GPT-2's, whitespace or line patterns")
        name = _NAMES[pattern]
        specials = config.get("special_tokens") or {}
        if not isinstance(specials, dict):
            raise ValueError(f"{CONFIG}: special_tokens should be an object (text -> id)")
        for text, i in specials.items():
            vocab[text.encode("utf-8")] = check_id(i, f"{CONFIG}: special token {text!r}")
    ranks = parse_ranks(files[ranks_name], ranks_name)
    overlap = set(ranks).intersection(vocab)
    if overlap:
        raise ValueError(f"{CONFIG}: special token {min(overlap)!r} is also in the rank file")
    vocab.update(ranks)
    merges = recover_merges(ranks, ranks_name)
    return build_training(algorithm=BBPE.name, vocab=vocab, merges=merges, pretokenizer=name,
                          source=ranks_name)


def opens(files: Mapping[str, str], lone: Lone | None) -> Opener | None:
    """A ``*.tiktoken`` file (one only), with ``tiktoken.json`` if given."""
    ranks = [name for name in files if name.endswith(SUFFIX)]
    if len(ranks) > 1:
        raise ValueError(f"give one .tiktoken rank file, not {len(ranks)}")
    return (lambda: import_files(files, ranks[0])) if ranks else None


def opens_by_content(files: Mapping[str, str], lone: Lone | None) -> Opener | None:
    """A lone file of another name whose first line is ``<base64 token> <rank>``."""
    if lone is None or lone.json_like or not _looks_like_ranks(lone.text):
        return None
    return lambda: import_files({**files, RANKS: lone.text}, lone.name)


def _looks_like_ranks(text: str) -> bool:
    first = next((line for line in text.splitlines() if line.strip()), "")
    parts = first.split()
    return len(parts) == 2 and parts[1].isdigit()


def recognise(name: str, text: str, data: Any) -> str | None:
    """The rank file for ``<base64 token> <rank>`` lines; ``tiktoken.json`` for a JSON
    object with a ``"pat_str"``."""
    if isinstance(data, dict):
        return CONFIG if isinstance(data.get("pat_str"), str) else None
    if data is not NOT_JSON or name.endswith(".tiktoken"):
        return None
    lines = first_lines(text)
    for line in lines:
        parts = line.split()
        if len(parts) != 2 or not parts[1].isdigit():
            return None
        try:
            base64.b64decode(parts[0], validate=True)
        except (binascii.Error, ValueError):
            return None
    return RANKS if lines else None


def parse_ranks(text: str, source: str = RANKS) -> dict[bytes, int]:
    """``{token bytes: rank}`` from ``<base64> <rank>`` lines; errors name the line."""
    ranks: dict[bytes, int] = {}
    lines = text.splitlines()
    check_size(len(lines), source)
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2:
            raise ValueError(f"{source}, line {number}: expected '<base64 token> <rank>', "
                             f"got {line[:60]!r}")
        try:
            token = base64.b64decode(parts[0], validate=True)
        except (binascii.Error, ValueError):
            raise ValueError(f"{source}, line {number}: {parts[0][:40]!r} is not base64") from None
        if not token:
            raise ValueError(f"{source}, line {number}: an empty token")
        if not parts[1].isdigit() or len(parts[1]) > 10:
            raise ValueError(f"{source}, line {number}: the rank {parts[1][:20]!r} is not "
                             "a whole number in range")
        rank = check_id(int(parts[1]), f"{source}, line {number}: the rank")
        if token in ranks:
            raise ValueError(f"{source}, line {number}: the token {token!r} appears twice")
        ranks[token] = rank
    if not ranks:
        raise ValueError(f"{source} holds no tokens")
    return ranks


def recover_merges(ranks: Mapping[bytes, int], source: str = RANKS) -> list[tuple[bytes, bytes]]:
    """The merge that makes each multi-byte token, in rank order.

    A token is cut into bytes and merged as tiktoken merges (the adjacent pair whose
    concatenation has the lowest rank first), using only tokens ranked below it,
    until two parts are left: those are its merge.

    >>> recover_merges({b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"abc": 4})
    [(b'a', b'b'), (b'ab', b'c')]
    """
    work = sum(len(token) ** 2 for token in ranks)
    if work > MAX_RECOVERY_WORK:
        raise ValueError(f"{source}: its tokens are too long to recover the merges from "
                         f"(the longest has {max(map(len, ranks)):,} bytes)")
    merges = []
    for token, rank in sorted(ranks.items(), key=lambda item: item[1]):
        if len(token) < 2:
            continue
        parts = tiktoken_parts(token, ranks, rank)
        if len(parts) != 2 or any(ranks.get(p, rank) >= rank for p in parts):
            raise ValueError(f"{source}: the token {token!r} (rank {rank}) cannot be made by "
                             "merging two tokens of lower rank")
        merges.append((parts[0], parts[1]))
    return merges


def tiktoken_parts(token: bytes, ranks: Mapping[bytes, int], rank: int) -> list[bytes]:
    """Merge ``token``'s bytes as tiktoken does, with the tokens ranked below ``rank``:
    the adjacent pair whose concatenation has the lowest rank first (the leftmost of
    equals), until two parts are left or nothing merges.

    >>> tiktoken_parts(b"abc", {b"bc": 256, b"ab": 257, b"abc": 258}, 258)
    [b'a', b'bc']
    """
    parts = [token[i : i + 1] for i in range(len(token))]
    while len(parts) > 2:
        best, at = None, -1
        for i in range(len(parts) - 1):
            r = ranks.get(parts[i] + parts[i + 1])
            if r is not None and r < rank and (best is None or r < best):
                best, at = r, i
        if best is None:
            break
        parts[at : at + 2] = [parts[at] + parts[at + 1]]
    return parts
