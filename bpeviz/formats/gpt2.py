"""GPT-2 style ``vocab.json`` + ``merges.txt`` (BPE and byte-level BPE).

``vocab.json`` maps each token to its id; ``merges.txt`` lists the merges in rank
order, one ``left right`` pair per line after a ``#version`` line. Byte-level tokens
are spelled with GPT-2's byte characters (``Ġ`` for a space). Both files say nothing
about pre-tokenization or an end-of-word marker, so the export adds ``bpeviz.json``;
without it an import assumes GPT-2's pattern for a byte-level vocabulary (one that
holds all 256 byte characters) and whitespace splitting without a marker otherwise.
Hugging Face loads the pair with ``tokenizers.models.BPE.from_file``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bpeviz.algorithms import BBPE, BPE
from bpeviz.algorithms import get as get_algorithm
from bpeviz.formats._common import (
    NOT_JSON,
    SIDECAR,
    Lone,
    Opener,
    build_training,
    check_id,
    check_size,
    dumps,
    first_lines,
    parse_json,
    read_sidecar,
    sidecar,
    vocab_items,
)
from bpeviz.text.display import gpt2_byte_chars
from bpeviz.text.symbols import Symbol

if TYPE_CHECKING:
    from bpeviz.core.snapshot import Snapshot
    from bpeviz.core.training import Training

#: the format's name in exports, what it holds, and the file names it reads and writes
NAME = "gpt2"
ABOUT = "vocab.json + merges.txt (BPE, byte-level BPE)"
VOCAB = "vocab.json"
MERGES = "merges.txt"
FILES = (VOCAB, MERGES)
VERSION_LINE = "#version: 0.2"


def export(snapshot: Snapshot) -> dict[str, str]:
    """``vocab.json``, ``merges.txt`` and ``bpeviz.json`` at the snapshot's step."""
    training = snapshot.training
    alg = get_algorithm(training.algorithm)
    alg.check_export("gpt2", f"{alg.label} encodes by {alg.encoder.replace('_', ' ')}, not "
                     "by the BPE merges vocab.json + merges.txt hold")

    def spell(symbol: Symbol) -> str:  # as the record spells its symbols in GPT-2's files
        return alg.symbol_to_json(symbol, "gpt2")

    vocab = {spell(token): i for token, i in vocab_items(snapshot)}
    lines = [VERSION_LINE]
    for merge in training.merges[: snapshot.step]:
        left, right = spell(merge.left), spell(merge.right)
        for part in (left, right):
            if not part or any(ch.isspace() for ch in part):
                raise ValueError(f"merge {merge.step} holds {part!r}, which merges.txt cannot "
                                 "write (it separates tokens by spaces); export as 'hf'")
        lines.append(f"{left} {right}")
    return {VOCAB: dumps(vocab), MERGES: "\n".join(lines) + "\n", SIDECAR: sidecar(snapshot)}


def import_files(files: Mapping[str, str]) -> Training:
    """Open ``vocab.json`` + ``merges.txt`` (and ``bpeviz.json`` if given)."""
    settings = read_sidecar(files)
    vocab = parse_json(files[VOCAB], VOCAB)
    if not isinstance(vocab, dict):
        raise ValueError(f"{VOCAB} should be a JSON object mapping each token to its id")
    check_size(len(vocab), VOCAB)
    for token, i in vocab.items():
        check_id(i, f"{VOCAB}: the id of {token!r}")
    merges = parse_merges(files[MERGES])
    algorithm = settings.get("algorithm") or (BBPE if _byte_level(vocab) else BPE).name
    alg = get_algorithm(algorithm)
    if "gpt2" not in alg.export_formats:
        raise ValueError(f"{SIDECAR} says {algorithm}, but vocab.json + merges.txt is BPE")
    symbols: dict[Symbol, int] = {}  # the tokens as the record reads its symbols
    for token, i in vocab.items():
        try:
            key = alg.symbol_from_json(token, "gpt2")
        except ValueError:  # not in GPT-2's byte characters: a special token such as
            key = token.encode("utf-8")  # <|endoftext|>, kept as its bytes
        if symbols.setdefault(key, i) != i:
            raise ValueError(f"{VOCAB}: two tokens stand for the bytes {key!r}")
    try:
        pairs = [(alg.symbol_from_json(a, "gpt2"), alg.symbol_from_json(b, "gpt2"))
                 for a, b in merges]
    except ValueError as err:
        raise ValueError(f"{MERGES}: {err}") from None
    return build_training(algorithm=algorithm, vocab=symbols, merges=pairs,
                          pretokenizer=settings.get("pretokenizer", alg.pretokenizer),
                          marker=settings.get("marker"),
                          marker_style=settings.get("marker_style", "separate"),
                          special_tokens=[t for t in ("[UNK]", "<unk>") if t in vocab],
                          source=f"{VOCAB} + {MERGES}")


def opens(files: Mapping[str, str], lone: Lone | None) -> Opener | None:
    """``vocab.json`` with its ``merges.txt`` (a ``merges.txt`` alone is incomplete)."""
    if VOCAB in files and MERGES in files:
        return lambda: import_files(files)
    if MERGES in files:
        raise ValueError(f"{MERGES} needs its {VOCAB}; give both files")
    return None


def recognise(name: str, text: str, data: Any) -> str | None:
    """``vocab.json`` for a JSON object of token -> id; ``merges.txt`` for a text whose
    first line is ``#version ...`` (as GPT-2's, Hugging Face's and bpeviz's are)."""
    if isinstance(data, dict):
        ids = list(data.values())[:1000]
        if ids and all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
            return VOCAB
        return None
    if data is not NOT_JSON:
        return None
    lines = first_lines(text)
    if lines and lines[0].startswith("#version"):
        return MERGES
    return None


def parse_merges(text: str) -> list[tuple[str, str]]:
    """``left right`` lines; a first line starting with ``#version`` is skipped."""
    lines = text.split("\n")
    check_size(len(lines), MERGES)
    merges = []
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        if (number == 1 and line.startswith("#version")) or not line:
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not all(parts):
            raise ValueError(f"{MERGES}, line {number}: expected two tokens separated by one "
                             f"space, got {line[:60]!r}")
        merges.append((parts[0], parts[1]))
    return merges


def _byte_level(vocab: Mapping[str, int]) -> bool:
    """True when the vocabulary holds all 256 of GPT-2's byte characters."""
    return all(ch in vocab for ch in gpt2_byte_chars())

