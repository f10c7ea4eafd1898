"""Counting throughput: ``count_pretokens`` with one worker and with every core, a Dask
local cluster, and Hugging Face ``tokenizers`` training on the same files.

    python -m bench.count                  # 80 MB, GPT-2 pre-tokens
    python -m bench.count --size 20        # a smaller corpus
    python -m bench.count --no-dask --no-hf

The corpus is real text: the installed Python standard library's docs and sources (see
``bench.data``, about 32 MB on CPython 3.11), its first 30 MB written again and again as
files of 10 MB (a copy cut at a line end) into a folder until ``--size`` MB. Repeating it
adds bytes, not distinct words, so the memory per million distinct pre-tokens is measured
on the counted table itself (its words and counts as ``tracemalloc`` sees them, after a
round trip through pickle) and on a table of a million made-up distinct words.

Hugging Face trains a BPE with GPT-2's pre-tokenizer (``ByteLevel``) on the same files to
a vocabulary of 300 (a few merges: its time is almost all reading, pre-tokenizing and
counting), with ``RAYON_NUM_THREADS`` 1 and every core. Not a unit test: it prints.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

from bench.data import MB, cache_dir, corpus_path, describe
from bpeviz.data.count import count_pretokens, default_workers

ROOT = Path(__file__).resolve().parent.parent
SOURCE_MB = 30
FILE_MB = 10


def corpus_folder(size: int) -> Path:
    """A folder of ``size`` MB in files of 10 MB, each a stretch of the stdlib corpus."""
    folder = cache_dir() / f"count-corpus-{size}"
    if folder.is_dir() and sum(p.stat().st_size for p in folder.iterdir()) >= size * MB:
        return folder
    folder.mkdir(exist_ok=True)
    blob = corpus_path(SOURCE_MB).read_bytes()
    written, index = 0, 0
    while written < size * MB:
        start = (index * FILE_MB * MB) % len(blob)
        start = blob.rfind(b"\n", 0, start) + 1 if start else 0
        piece = (blob[start:] + blob)[:FILE_MB * MB]
        piece = piece[:piece.rfind(b"\n") + 1]
        tmp = folder / f".part{index:03d}.tmp"
        tmp.write_bytes(piece)
        tmp.replace(folder / f"part{index:03d}.txt")
        written += len(piece)
        index += 1
    return folder


def table_bytes(counts: dict[str, int]) -> int:
    """The memory of a word -> count table, as tracemalloc counts its allocations."""
    blob = pickle.dumps(counts, protocol=pickle.HIGHEST_PROTOCOL)
    tracemalloc.start()
    copy = pickle.loads(blob)
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del copy
    return size


def cpu_seconds() -> float:
    """CPU time of this process and of its children that ended (the pool's workers)."""
    return sum(r.ru_utime + r.ru_stime for r in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))


def timed(folder: Path, pretokenizer: str, **options) -> tuple[dict[str, int], float, float]:
    """The counts, the wall-clock seconds and the CPU seconds (this process and the pool's
    workers; a Dask cluster's workers are not children: not counted)."""
    started, cpu = time.perf_counter(), cpu_seconds()
    counts = count_pretokens([str(folder)], pretokenizer, **options)
    return counts, time.perf_counter() - started, cpu_seconds() - cpu


def hf_seconds(folder: Path, threads: int) -> tuple[float, float]:
    """HF's wall-clock and CPU seconds (its process's, threads included)."""
    code = ("import sys, time, glob\n"
            "from tokenizers import Tokenizer, models, pre_tokenizers, trainers\n"
            "t = Tokenizer(models.BPE())\n"
            "t.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)\n"
            "trainer = trainers.BpeTrainer(vocab_size=300, show_progress=False,\n"
            "    initial_alphabet=pre_tokenizers.ByteLevel.alphabet())\n"
            "files = sorted(glob.glob(sys.argv[1] + '/*.txt'))\n"
            "s, c = time.perf_counter(), time.process_time(); t.train(files, trainer)\n"
            "print(time.perf_counter() - s, time.process_time() - c)\n")
    out = subprocess.run([sys.executable, "-c", code, str(folder)], capture_output=True,
                         text=True, env={**os.environ, "RAYON_NUM_THREADS": str(threads)},
                         check=True)
    wall, cpu = out.stdout.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.count", description=__doc__)
    parser.add_argument("--size", type=int, default=80, help="corpus MB (default 80)")
    parser.add_argument("--pretokenizer", default="gpt2")
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--no-hf", action="store_true")
    args = parser.parse_args(argv)
    folder = corpus_folder(args.size)
    size = sum(p.stat().st_size for p in folder.glob("*.txt"))
    cores = default_workers()
    print(f"corpus: {size / MB:.1f} MB in {len(list(folder.glob('*.txt')))} files of "
          f"{FILE_MB} MB, cut from {describe(SOURCE_MB)}; {cores} cores; "
          f"pre-tokenizer {args.pretokenizer}")
    results = {}
    for workers in dict.fromkeys((1, cores)):
        counts, seconds, cpu = timed(folder, args.pretokenizer, workers=workers)
        results[f"workers={workers}"] = seconds
        print(f"count_pretokens, {workers} worker{'s' * (workers > 1)}: {seconds:.2f} s, "
              f"{size / MB / seconds:.1f} MB/s ({cpu:.1f} CPU s, {size / MB / cpu:.1f} MB "
              f"per CPU second; load average {os.getloadavg()[0]:.1f}); "
              f"{sum(counts.values()):,} pre-tokens, {len(counts):,} distinct")
    peak_self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1000
    peak_children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1000
    print(f"peak RSS: this process {peak_self:.0f} MB, the largest worker {peak_children:.0f} MB")
    table = table_bytes(counts)
    print(f"the table: {table / MB:.1f} MB for {len(counts):,} distinct pre-tokens, "
          f"{table / len(counts) * 1e6 / MB:.0f} MB per million")
    made_up = {f" word{i:07d}": i + 1 for i in range(1_000_000)}
    print(f"a table of a million made-up words (' word0000001', 12 characters): "
          f"{table_bytes(made_up) / MB:.0f} MB")
    del made_up
    if not args.no_dask:
        workers = max(cores, 2)
        counts_dask, seconds, _ = timed(folder, args.pretokenizer, dask=f"local:{workers}")
        assert list(counts_dask.items()) == list(counts.items())
        pool = results[f"workers={cores}"]
        print(f"Dask local:{workers} (cluster start included): {seconds:.2f} s, "
              f"{size / MB / seconds:.1f} MB/s; {seconds - pool:+.2f} s over the pool "
              "(identical counts)")
    if not args.no_hf:
        for threads in dict.fromkeys((1, cores)):
            seconds, cpu = hf_seconds(folder, threads)
            print(f"HF tokenizers BpeTrainer (ByteLevel, vocab 300), {threads} thread"
                  f"{'s' * (threads > 1)}: {seconds:.2f} s, {size / MB / seconds:.1f} MB/s "
                  f"({cpu:.1f} CPU s, {size / MB / cpu:.1f} MB per CPU second)")
    print(json.dumps({k: round(v, 3) for k, v in results.items()}))


if __name__ == "__main__":
    main()
