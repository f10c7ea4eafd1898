"""PickyBPE: bpeviz's trainer against the ``pickybpe-bauwenst`` package's on the same text,
and against BPE (bpeviz's compiled merge loop) on the same words.

    python -m bench.picky                  # 0.2 MB to 2,000 and 0.5 MB to 3,000, threshold 0.9
    python -m bench.picky FILE:4000:0.9    # a file (or MB of stdlib text):size:threshold

The package's trainer as it ships fails on much real text (a division by zero in its
removal test, assertions its own approximations trip): it runs as the parity tests pin it
(``tests/engine/test_picky_bpe_matches_its_package.py``).

The text is real (``bench.data``: the stdlib's docs, then its sources), written to a file
that both trainers read; bpeviz runs once in this process, the package's trainer once in
a process of its own under ``python -O`` (its ``fit_from_file`` reads the file, trains and
writes its model). Not a unit test: it prints.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bpeviz
from bench.data import corpus_path, describe
from bpeviz import Corpus

SAMPLES = Path(bpeviz.__file__).parent / "samples"
ROOT = Path(__file__).resolve().parent.parent


def package_seconds(path: Path, vocab_size: int, threshold: float) -> float:
    """The package's trainer as the parity tests pin it (its ties broken by ids, its
    removal's counts read before the removal, its sets ordered; as it ships it fails on
    these texts), timed in a process of its own under ``python -O``."""
    code = ("import sys, time\n"
            "sys.path.insert(0, sys.argv[3])\n"
            "from unittest import mock\n"
            "import tests.engine.test_picky_bpe_matches_its_package as t\n"
            "with mock.patch.object(t.vocabularisation, 'set', t._OrderedSet, create=True):\n"
            f"    trainer = t._Reference(vocab_size={vocab_size}, picky_threshold={threshold})\n"
            "    trainer.ios_seen = []\n"
            "    s = time.perf_counter()\n"
            "    trainer.fit_from_file(sys.argv[1], sys.argv[2], logging_step=10**9)\n"
            "    print(time.perf_counter() - s)\n")
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run([sys.executable, "-O", "-c", code, str(path),
                              str(Path(tmp) / "model.json"), str(ROOT)],
                             capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def compare(source: str, vocab_size: int, threshold: float) -> None:
    path = Path(source) if not source.replace(".", "").isdigit() else corpus_path(float(source))
    text = path.read_text(encoding="utf-8")
    start = time.perf_counter()
    ours = bpeviz.train(text, algorithm="picky", vocab_size=vocab_size, threshold=threshold)
    ours_s = time.perf_counter() - start
    theirs_s = package_seconds(path, vocab_size, threshold)
    start = time.perf_counter()
    bpeviz.train(Corpus.from_text(text), algorithm="bpe", merges=len(ours.merges))
    bpe_s = time.perf_counter() - start
    removals = sum(1 for m in ours.merges if getattr(m, "kind", "merge") == "removal")
    name = describe(float(source)) if path != Path(source) else f"{path} ({len(text):,} characters)"
    print(f"{name}, vocabulary {vocab_size:,}, threshold {threshold:g}: "
          f"bpeviz {ours_s:.2f} s ({len(ours.merges):,} events, {removals:,} removals), "
          f"the pickybpe package {theirs_s:.2f} s: **{ours_s / theirs_s:.2f}x** its time "
          f"(target <= 2x); BPE's merge loop on the same words, as many steps: {bpe_s:.2f} s",
          flush=True)


def main(argv: list[str]) -> None:
    triples = [a.rsplit(":", 2) for a in argv] or [["0.2", "2000", "0.9"],
                                                    ["0.5", "3000", "0.9"]]
    for source, vocab, threshold in triples:
        compare(source, int(vocab), float(threshold))


if __name__ == "__main__":
    main(sys.argv[1:])
