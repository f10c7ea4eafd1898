"""SuperBPE vs byte-level BPE: training time and tokens on held-out text.

    python -m bench.superbpe                 # 1 and 5 MB, 5,000 merges, transition 4,000
    python -m bench.superbpe 1:2000:1000     # MB:merges:transition triples

Both train on the same stdlib text (``bench.data``); byte-level BPE on GPT-2's
pre-tokens, SuperBPE from the text itself (its two word tables are cut inside the timed
call). Tokens are counted on the next 0.2 MB of the same source, not trained on.
Times are the best of 3 runs.

It also prints what no stage 2 that keeps a split log of one node per symbol can go
below: stage 1 alone (byte-level BPE to the transition, from the text), plus one
byte-level BPE merge over SuperBPE's stage-2 words (its start, its pair count and its
log), as a ratio to byte-level BPE's whole training.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

import bpeviz
from bench.data import corpus_text, describe
from bpeviz import Corpus


def best(run: Callable[[], Any], repeats: int = 3) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def compare(size_mb: float, merges: int, transition: int) -> None:
    text, held = corpus_text(size_mb), corpus_text(0.2, offset=size_mb)
    plain_s, plain = best(lambda: bpeviz.train(Corpus.from_text(text, "gpt2"),
                                               algorithm="bbpe", merges=merges))
    super_s, sup = best(lambda: bpeviz.train(text, algorithm="superbpe", merges=merges,
                                             transition=transition))
    stage1_s, _ = best(lambda: bpeviz.train(Corpus.from_text(text, "gpt2"), algorithm="bbpe",
                                            merges=transition))
    words = sup.corpus  # the stage-2 words, as SuperBPE cut them
    one_s, _ = best(lambda: bpeviz.train(words, algorithm="bbpe", merges=1))
    theirs, ours = len(plain.at().encode(held)), len(sup.at().encode(held))
    size = len(held.encode())
    print(f"{describe(size_mb)}, {merges:,} merges, transition {transition:,}: "
          f"bbpe {plain_s:.2f} s, superbpe {super_s:.2f} s ({super_s / plain_s:.1f}x); "
          f"held-out {size:,} bytes: bbpe {theirs:,} tokens ({size / theirs:.2f} bytes a "
          f"token), superbpe {ours:,} ({size / ours:.2f})")
    print(f"  floor: stage 1 alone {stage1_s:.2f} s + one merge over the {len(words.words):,} "
          f"stage-2 words ({sum(map(len, words.words)):,} characters) {one_s:.2f} s = "
          f"{stage1_s + one_s:.2f} s, {(stage1_s + one_s) / plain_s:.1f}x byte-level BPE")


def main(argv: list[str]) -> None:
    triples = [a.split(":") for a in argv] or [["1", "5000", "4000"], ["5", "5000", "4000"]]
    for size, merges, transition in triples:
        compare(float(size), int(merges), int(transition))


if __name__ == "__main__":
    main(sys.argv[1:])
