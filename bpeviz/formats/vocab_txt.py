"""``vocab.txt`` (BERT / WordPiece): one token per line, the line number (from 0) being
its id.

A vocab.txt holds no merges, so an imported one opens with step 0 only, the whole
vocabulary known, and encodes by greedy longest match. ``bpeviz.json`` next to it says
how the text was pre-tokenized (whitespace when it is absent).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bpeviz.algorithms import WORDPIECE
from bpeviz.algorithms import get as get_algorithm
from bpeviz.core.encoding import UNK_TOKENS
from bpeviz.formats._common import (
    NOT_JSON,
    SIDECAR,
    Lone,
    Opener,
    build_training,
    check_size,
    first_lines,
    read_sidecar,
    sidecar,
    vocab_items,
)

if TYPE_CHECKING:
    from bpeviz.core.snapshot import Snapshot
    from bpeviz.core.training import Training

#: the format's name in exports, what it holds, and the file names it reads and writes
NAME = "vocab"
ABOUT = "vocab.txt (WordPiece)"
FILENAME = "vocab.txt"
FILES = (FILENAME,)
_BERT_SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")


def export(snapshot: Snapshot) -> dict[str, str]:
    """``vocab.txt`` and ``bpeviz.json`` for a WordPiece vocabulary."""
    get_algorithm(snapshot.training.algorithm).check_export(
        "vocab", "vocab.txt holds a WordPiece vocabulary (no merges)")
    items = vocab_items(snapshot)
    if [i for _, i in items] != list(range(len(items))):
        raise ValueError("vocab.txt needs the ids 0, 1, 2, ... without gaps")
    for token, _ in items:
        if not token or token != token.rstrip() or "\n" in token or "\r" in token:  # type: ignore[union-attr]
            raise ValueError(f"the token {token!r} cannot be a line of vocab.txt (it is empty, "
                             "holds a line break or ends with whitespace); export as 'hf'")
    return {FILENAME: "".join(f"{token}\n" for token, _ in items), SIDECAR: sidecar(snapshot)}


def opens(files: Mapping[str, str], lone: Lone | None) -> Opener | None:
    """``vocab.txt`` (with ``bpeviz.json`` if given)."""
    return (lambda: import_files(files)) if FILENAME in files else None


def recognise(name: str, text: str, data: Any) -> str | None:
    """``vocab.txt`` for a text of one token per line (two lines at least, no spaces)."""
    if data is not NOT_JSON:
        return None
    lines = first_lines(text, 200)
    return FILENAME if len(lines) > 1 and all(len(line.split()) == 1 for line in lines) else None


def import_files(files: Mapping[str, str]) -> Training:
    """Open ``vocab.txt`` (and ``bpeviz.json`` if given) as a step-0 WordPiece training."""
    settings = read_sidecar(files)
    if settings.get("algorithm", WORDPIECE.name) != WORDPIECE.name:
        raise ValueError(f"{SIDECAR} says {settings['algorithm']!r}, but vocab.txt is WordPiece")
    lines = files[FILENAME].split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    check_size(len(lines), FILENAME)
    vocab: dict[str, int] = {}
    for number, line in enumerate(lines, 1):
        token = line.rstrip()  # as Hugging Face reads it (BERT strips the line break)
        if not token:
            raise ValueError(f"{FILENAME}, line {number} is empty")
        if token in vocab:
            raise ValueError(f"{FILENAME}, line {number}: {token!r} is already on line "
                             f"{vocab[token] + 1}")
        vocab[token] = number - 1
    if not vocab:
        raise ValueError(f"{FILENAME} holds no tokens")
    specials = [t for t in vocab if t in _BERT_SPECIALS or t in UNK_TOKENS]
    return build_training(algorithm=WORDPIECE.name, vocab=vocab, merges=[],
                          pretokenizer=settings.get("pretokenizer", WORDPIECE.pretokenizer),
                          special_tokens=specials, source=FILENAME)
