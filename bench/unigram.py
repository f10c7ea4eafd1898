"""Unigram vs sentencepiece: shared pieces and training time on the stdlib's text.

    python -m bench.unigram                    # 0.1 MB at 1,000 and 2,000; 1 MB at 2,000
    python -m bench.unigram 1:2000 1:8000      # MB:vocabulary pairs

Both train on the same file with ``normalization_rule_name="identity"``,
``character_coverage=1.0``, ``byte_fallback=False``, ``split_digits=False`` and otherwise
sentencepiece's defaults (16 threads); bpeviz emulates the 16 threads' float32 sums.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import sentencepiece as spm

from bench.data import corpus_path, describe
from bpeviz.unigram.spm_input import sentencepiece_input
from bpeviz.unigram.trainer import train_sentencepiece


def compare(size_mb: float, vocab_size: int) -> None:
    path = corpus_path(size_mb)
    with tempfile.TemporaryDirectory() as tmp:
        prefix = str(Path(tmp) / "m")
        start = time.perf_counter()
        spm.SentencePieceTrainer.train(
            input=str(path), model_prefix=prefix, vocab_size=vocab_size, model_type="unigram",
            normalization_rule_name="identity", character_coverage=1.0, byte_fallback=False,
            split_digits=False, minloglevel=2)
        spm_time = time.perf_counter() - start
        sp = spm.SentencePieceProcessor(model_file=prefix + ".model")
        theirs = [sp.id_to_piece(i) for i in range(3, sp.get_piece_size())]
    start = time.perf_counter()
    training = train_sentencepiece(sentencepiece_input(path.read_text(encoding="utf-8")),
                                   vocab_size)
    ours_time = time.perf_counter() - start
    ours = training.final.pieces
    shared = len(set(ours) & set(theirs))
    print(f"{describe(size_mb)}, vocabulary {vocab_size:,}: {shared}/{len(theirs)} pieces shared "
          f"({shared / len(theirs):.2%}), same order {list(ours) == theirs}; "
          f"{len(training.steps) - 1} rounds; bpeviz {ours_time:.1f} s, "
          f"sentencepiece {spm_time:.1f} s")


def main(argv: list[str]) -> None:
    pairs = [a.split(":") for a in argv] or [["0.1", "1000"], ["0.1", "2000"], ["1", "2000"]]
    for size, vocab in pairs:
        compare(float(size), int(vocab))


if __name__ == "__main__":
    main(sys.argv[1:])
