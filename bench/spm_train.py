"""sentencepiece's Unigram trainer with the settings ``bench.unigram`` compares against
(identity normalization, full character coverage, no byte fallback, digits unsplit, its
other defaults), importing nothing of bpeviz: a process that runs only it measures only
sentencepiece's memory."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import sentencepiece as spm


def train_spm(path: str | Path, vocab_size: int) -> tuple[float, list[str]]:
    """Train on the file ``path``: the seconds it took and the pieces, in id order (the
    three special pieces left out)."""
    with tempfile.TemporaryDirectory() as tmp:
        prefix = str(Path(tmp) / "m")
        start = time.perf_counter()
        spm.SentencePieceTrainer.train(
            input=str(path), model_prefix=prefix, vocab_size=vocab_size, model_type="unigram",
            normalization_rule_name="identity", character_coverage=1.0, byte_fallback=False,
            split_digits=False, minloglevel=2)
        took = time.perf_counter() - start
        sp = spm.SentencePieceProcessor(model_file=prefix + ".model")
        return took, [sp.id_to_piece(i) for i in range(3, sp.get_piece_size())]
