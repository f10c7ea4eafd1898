"""Benchmarks for the live explorer at real size: 50,000 merges, 10 MB of text.

    python -m bench.realsize            # everything (about 5 minutes on 2 cores)
    python -m bench.realsize --quick    # fewer repeats and page moves
    python -m bench.realsize --only memory,payload,scrub,replay,explore,compare

Measures, on the installed Python standard library's docs and sources (bench/data.py):

- replay of 30,000 byte-level merges (trained on 5 MB) on 1 MB of other text;
- scrubbing at 30,000 merges: ``training.at(k)`` + ``splits`` + ``pairs`` at random steps;
- the resident memory one 10 MB / 50,000-merge training keeps (corpus + training + a
  snapshot), after a full collection and ``malloc_trim``, and the server bound it implies
  with the app's training caches (bpeviz/ui/training.py);
- the stage component's payload (every merge and label, sent to the browser once per
  page run) at 50,000 merges;
- an Explore, a Vocabulary and a Compare page rerun at 50,000 merges (Streamlit AppTest;
  each page script compiled once, as the live server does, unless ``--recompile``).

Prints the inputs, medians and p95s, measured in this run, in wall-clock time and, in
brackets, in CPU time of the process (on a shared machine the wall-clock p95 is mostly
waiting for a core); not a unit test.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import time
from pathlib import Path

from bench.data import corpus_text, describe
from bpeviz import Corpus, train
from bpeviz.present import stage_data

ROOT = Path(__file__).resolve().parent.parent


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def settle() -> float:
    from bpeviz.ui.training import release_memory

    release_memory()
    return rss_mb()


def quantiles(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def cpu_note(cpu: list[float]) -> str:
    """The same runs in CPU time of this process (all its threads): on a shared machine
    the wall-clock p95 is mostly waiting for a core; this is the work itself."""
    p50, p95 = quantiles(cpu)
    return f" [CPU p50 {p50:.0f} ms, p95 {p95:.0f} ms]"


def bench_replay(repeats: int) -> None:
    from bpeviz.core.recount import replay_on

    training = train(Corpus.from_text(corpus_text(5), "gpt2"), "bbpe", merges=30_000)
    corpus = Corpus.from_text(corpus_text(1, offset=5), "gpt2")
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        replay_on(training, corpus)
        times.append(time.perf_counter() - start)
    print(f"replay: {len(training.merges):,} byte-level merges (trained on 5 MB) on 1 MB "
          f"({len(corpus.words):,} distinct words): median {statistics.median(times):.2f} s "
          f"({repeats} runs)")


def bench_scrub(steps: int) -> None:
    for algorithm, pretokenizer in (("bpe", "whitespace"), ("bbpe", "gpt2")):
        training = train(Corpus.from_text(corpus_text(5), pretokenizer), algorithm,
                         merges=30_000)
        rng = random.Random(11)
        times, cpu = [], []
        for k in [rng.randint(0, len(training.merges)) for _ in range(steps)]:
            start, start_cpu = time.perf_counter(), time.process_time()
            snap = training.at(k)
            snap.splits, snap.pairs  # noqa: B018
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
        p50, p95 = quantiles(times)
        print(f"scrub, {algorithm} on 5 MB, {len(training.merges):,} merges, "
              f"{len(training.corpus.words):,} distinct words: at(k) + splits + pairs, "
              f"{steps} random steps: p50 {p50:.0f} ms, p95 {p95:.0f} ms{cpu_note(cpu)}")


def bench_memory() -> None:
    from bpeviz.ui import training as cache

    text = corpus_text(10)
    for algorithm, pretokenizer in (("bpe", "whitespace"), ("bbpe", "gpt2")):
        base = settle()
        corpus = Corpus.from_text(text, pretokenizer)
        training = train(corpus, algorithm, merges=50_000)
        snap = training.at(len(training.merges) // 2)
        snap.splits, snap.pairs  # noqa: B018
        kept = settle() - base
        print(f"memory, {algorithm} ({pretokenizer}) on {len(text):,} characters, "
              f"{len(training.merges):,} merges, {len(corpus.words):,} distinct words: "
              f"{kept:.0f} MB kept (corpus + training + one snapshot)")
        del corpus, training, snap
    print(f"training caches: {cache.CACHE_ENTRIES} small trainings (corpus under "
          f"{cache.BIG_SYMBOLS:,} distinct-word symbols) + {cache.BIG_ENTRIES} big ones per "
          "server")


def bench_payload() -> None:

    training = train(Corpus.from_text(corpus_text(5), "gpt2"), "bbpe", merges=50_000)
    for style in ("gpt2", "hex"):
        start = time.perf_counter()
        data = stage_data.stage_merges(training, style)
        built = time.perf_counter() - start
        start = time.perf_counter()
        size = len(json.dumps(data))
        dumped = time.perf_counter() - start
        print(f"stage payload ({style}), {len(training.merges):,} merges: {size / 1e6:.2f} MB "
              f"of JSON (built once in {built:.2f} s, serialised per run in "
              f"{dumped * 1000:.0f} ms)")


def _keep_compiled_scripts() -> None:
    """Compile each page script once, as the live server does (its ScriptCache lives as
    long as the server). AppTest makes a new, empty ScriptCache for every run, so each
    rerun would parse the page again and rewrite its syntax tree for st.write "magic",
    which no user waits for (about 5-10 ms of an Explore rerun here, from
    ``--recompile`` runs)."""
    from streamlit.testing.v1 import app_test, local_script_runner

    shared = app_test.ScriptCache()
    for module in (app_test, local_script_runner):
        module.ScriptCache = lambda: shared  # type: ignore[attr-defined]


def _timed_run(element: object, times: list[float], cpu: list[float]) -> None:
    start, start_cpu = time.perf_counter(), time.process_time()
    element.run()  # type: ignore[attr-defined]
    times.append((time.perf_counter() - start) * 1000)
    cpu.append((time.process_time() - start_cpu) * 1000)


def _app(state: dict) -> object:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=900)
    for key, value in state.items():
        at.session_state[key] = value
    return at


def bench_explore(moves: int) -> None:
    from bpeviz.core.limits import LIMITS

    text = corpus_text(10)[: LIMITS.text_chars]
    at = _app({"source": "paste", "paste": text, "algo": "bbpe", "merges": LIMITS.merges})
    at.run()
    start = time.perf_counter()
    at.switch_page("pages/1_Explore.py").run()
    first = time.perf_counter() - start
    if at.exception:
        print(f"Explore raised {at.exception[0].value}")
        return

    def box():
        return next(b for b in at.number_input if b.key.startswith("stage_box_"))

    last = int(box().max)
    rng = random.Random(4)
    times: list[float] = []
    cpu: list[float] = []
    for k in [rng.randint(0, last) for _ in range(moves)]:
        _timed_run(box().set_value(k), times, cpu)
    p50, p95 = quantiles(times)
    print(f"Explore, byte-level BPE, {last:,} merges on {len(text):,} characters: first run "
          f"(training) {first:.1f} s; rerun after a step change p50 {p50:.0f} ms, p95 "
          f"{p95:.0f} ms ({moves} steps){cpu_note(cpu)}")


def bench_vocabulary(moves: int) -> None:
    from bpeviz.core.limits import LIMITS

    text = corpus_text(10)[: LIMITS.text_chars]
    at = _app({"source": "paste", "paste": text, "algo": "bbpe", "merges": LIMITS.merges})
    at.run()
    at.switch_page("pages/4_Vocabulary.py").run()
    if at.exception:
        print(f"Vocabulary raised {at.exception[0].value}")
        return

    def box():
        return next(b for b in at.number_input if b.key.startswith("step_box_"))

    last = int(box().max)
    rng = random.Random(5)
    times: list[float] = []
    cpu: list[float] = []
    for k in [rng.randint(0, last) for _ in range(moves)]:
        _timed_run(box().set_value(k), times, cpu)
    p50, p95 = quantiles(times)
    print(f"Vocabulary, byte-level BPE, {last:,} merges on {len(text):,} characters: rerun "
          f"after a step change p50 {p50:.0f} ms, p95 {p95:.0f} ms ({moves} steps)"
          f"{cpu_note(cpu)}")


def bench_compare(moves: int) -> None:
    from bpeviz.core.limits import LIMITS

    corpus = corpus_text(10)[: LIMITS.text_chars]
    text = corpus_text(1, offset=10)[:2_000]
    at = _app({"source": "paste", "paste": corpus, "cmp_n": 2, "text": text,
               "text_edited": True, "c1_algo": "bbpe", "c2_algo": "bpe",
               **{f"c{i}_merges": LIMITS.merges for i in (1, 2)}})
    at.run()
    start = time.perf_counter()
    at.switch_page("pages/3_Compare.py").run()
    first = time.perf_counter() - start
    if at.exception:
        print(f"Compare raised {at.exception[0].value}")
        return
    rng = random.Random(11)
    times: list[float] = []
    cpu: list[float] = []
    for step in [rng.randint(0, LIMITS.merges) for _ in range(moves)]:
        # the position Python hears from the browser (or the box beside the bar)
        box = next(b for b in at.number_input if b.key.startswith("cmp_box_"))
        _timed_run(box.set_value(step), times, cpu)
    p50, p95 = quantiles(times)
    print(f"Compare, 2 configurations x {LIMITS.merges:,} merges on {len(corpus):,} "
          f"characters, text of {len(text):,} characters: first run (training, curves) "
          f"{first:.1f} s; rerun after a position move p50 {p50:.0f} ms, p95 {p95:.0f} ms "
          f"({moves} moves){cpu_note(cpu)}; cuts data {_cuts_size(at) / 1e3:,.1f} kB")
    for chars in (0, 5_000):
        other = corpus_text(1, offset=10)[:chars] if chars else "The tokenizer learns tokens"
        at.text_area(key="w_text").set_value(other).run()
        times, cpu = [], []
        for step in [rng.randint(0, LIMITS.merges) for _ in range(max(5, moves // 2))]:
            box = next(b for b in at.number_input if b.key.startswith("cmp_box_"))
            _timed_run(box.set_value(step), times, cpu)
        p50, p95 = quantiles(times)
        print(f"Compare, same, text of {len(other):,} characters: cuts data (histories, "
              f"step/size runs, labels) {_cuts_size(at) / 1e3:,.1f} kB; rerun after a "
              f"position move p50 {p50:.0f} ms, p95 {p95:.0f} ms{cpu_note(cpu)}")


def _cuts_size(at: object) -> int:
    """Bytes of the data of Compare's cuts component (JSON text or JSON bytes)."""
    for el in at.get("bidi_component"):  # type: ignore[attr-defined]
        raw = el.proto.bytes if el.proto.WhichOneof("data") == "bytes" else el.proto.json
        if '"role":"compare"' in str(raw[:4000]).replace(" ", "") or b'"compare"' in (
                raw if isinstance(raw, bytes) else raw.encode()):
            return len(raw)
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.realsize")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only",
                        default="replay,scrub,payload,memory,explore,vocabulary,compare")
    parser.add_argument("--recompile", action="store_true",
                        help="recompile each page script on every rerun, as AppTest does "
                             "(the figures before this option existed); default: compile "
                             "once, as the live server does")
    args = parser.parse_args()
    parts = set(args.only.split(","))
    if not args.recompile:
        _keep_compiled_scripts()
    print(f"corpus: {describe(10)}")
    if "replay" in parts:
        bench_replay(1 if args.quick else 3)
    if "scrub" in parts:
        bench_scrub(20 if args.quick else 50)
    if "payload" in parts:
        bench_payload()
    if "memory" in parts:
        bench_memory()
    gc.collect()
    if "explore" in parts:
        bench_explore(10 if args.quick else 30)
    if "vocabulary" in parts:
        bench_vocabulary(10 if args.quick else 30)
    if "compare" in parts:
        bench_compare(5 if args.quick else 20)


if __name__ == "__main__":
    main()
