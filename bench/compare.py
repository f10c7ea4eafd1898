"""Benchmarks for Compare in lockstep: replaying merges on another text, and
what Compare computes per position and per curve.

    python -m bench.compare            # 30,000 byte-level merges trained on 5 MB
    python -m bench.compare --quick    # 5,000 merges on 1 MB
    python -m bench.compare --page     # only the Compare page rerun (Streamlit AppTest)

Prints the inputs, times (median of the repeats) and ratios, measured in this run; not a
unit test.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from bench.data import MB, corpus_text, describe
from bpeviz import Corpus, train
from bpeviz.analysis.compare import compare
from bpeviz.analysis.curves import metric_curve, sample_steps
from bpeviz.core.recount import replay_on


def timed(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_page(moves: int) -> None:
    """Compare's rerun after the position moves (the browser reports it): three
    configurations at the app's merge limit on a pasted corpus at the app's size limit, a
    text at the input limit."""
    import random
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    from bpeviz.core.limits import LIMITS

    corpus = corpus_text(1)[: LIMITS.text_chars]
    text = corpus_text(1, offset=1)[: LIMITS.input_chars]
    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"),
                           default_timeout=600)
    state = {"source": "paste", "paste": corpus, "cmp_n": 3, "text": text, "text_edited": True,
             **{f"c{i}_merges": LIMITS.merges for i in (1, 2, 3)}}
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    start = time.perf_counter()
    at.switch_page("pages/3_Compare.py").run()
    first = time.perf_counter() - start
    if at.exception:
        print(f"Compare raised {at.exception[0].value}")
        return
    rng = random.Random(11)
    times = []
    for step in [rng.randint(0, LIMITS.merges) for _ in range(moves)]:
        start = time.perf_counter()
        # the position Python hears from the browser (or the box beside the bar)
        next(b for b in at.number_input if b.key.startswith("cmp_box_")).set_value(step).run()
        times.append(time.perf_counter() - start)
    times.sort()
    p50, p95 = times[len(times) // 2], times[min(len(times) - 1, int(0.95 * len(times)))]
    print(f"Compare page, 3 configurations x {LIMITS.merges:,} merges, corpus "
          f"{len(corpus):,} characters, text {len(text):,} characters: first run (training, "
          f"curves) {first:.1f} s; rerun after a slider move p50 {p50 * 1000:.0f} ms, "
          f"p95 {p95 * 1000:.0f} ms ({moves} moves)")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.compare")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--page", action="store_true")
    args = parser.parse_args()
    if args.page:
        bench_page(10 if args.quick else 30)
        return
    size, merges, repeats = (1, 5_000, 1) if args.quick else (5, 30_000, 3)
    print(f"training: {describe(size)}; replayed on: {describe(1, offset=size)}")
    text = corpus_text(size)
    other = corpus_text(1, offset=size)
    start = time.perf_counter()
    training = train(Corpus.from_text(text, "gpt2"), "bbpe", merges=merges)
    trained_in = time.perf_counter() - start
    print(f"byte-level BPE, {len(training.merges):,} merges trained in {trained_in:.2f} s")
    corpus = Corpus.from_text(other, "gpt2")
    replay = timed(lambda: replay_on(training, corpus), repeats)
    print(f"replay of {len(training.merges):,} merges on 1 MB ({len(corpus.words):,} distinct "
          f"words): {replay:.2f} s ({replay / trained_in:.2f}x the training's time)")
    snippet = other[:20_000]
    wordpiece = train(Corpus.from_text(text[: 1 * MB]), "wordpiece", merges=min(merges, 5_000))
    bpe = train(Corpus.from_text(text[: 1 * MB]), "bpe", merges=min(merges, 5_000))
    configs = [("bbpe", training), ("bpe", bpe), ("wordpiece", wordpiece)]
    for step in (0, 1_000, 5_000):
        at = [(name, t.at(min(step, len(t.merges)))) for name, t in configs]
        seconds = timed(lambda at=at: compare(at, snippet), repeats)
        print(f"compare 3 configurations on 20,000 characters at step {step:,}: "
              f"{seconds * 1000:.0f} ms (encoders of the step included on the first run)")
    for name, t in configs:
        seconds = timed(lambda t=t: metric_curve(t, snippet), 1)
        print(f"metric curve, {name}, {len(sample_steps(len(t.merges)))} steps of "
              f"{len(t.merges):,}, 20,000 characters: {seconds:.2f} s")
    bench_page(10 if args.quick else 30)


if __name__ == "__main__":
    main()
