"""One measurement in a fresh process, so peak memory (maxrss) belongs to it alone.

    python -m bench.worker '{"task": "bpeviz", "mb": 5, "merges": 5000, ...}'

prints one JSON object: the timings in seconds and the memory in MB. ``rss_base`` is
the resident size after imports and reading the text, when the kernel's high-water mark
is reset (``/proc/self/clear_refs``); ``rss_peak`` is the high-water mark at the end:
their difference is the peak that training (and the snapshots asked for) cost.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import sys
import time
from typing import Any

os.environ.setdefault("RAYON_NUM_THREADS", "1")  # before tokenizers starts its pool


def _status_mb(field: str) -> float | None:
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    return None


def start_peak() -> float:
    """Reset the peak resident size (Linux) and return the current one, in MB."""
    gc.collect()
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as handle:
            handle.write("5")  # 5: reset the peak RSS (VmHWM) to the current RSS
    except OSError:  # no reset: the base is the high-water mark so far
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return _status_mb("VmRSS") or 0.0


def peak() -> float:
    hwm = _status_mb("VmHWM")
    return hwm if hwm is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_bpeviz(job: dict[str, Any]) -> dict[str, Any]:
    import numpy as np

    from bench.data import corpus_text
    from bpeviz import Corpus, train
    from bpeviz.engine import default_engine

    text = corpus_text(job["mb"], job.get("offset", 0.0))
    if job.get("engine"):
        os.environ["BPEVIZ_ENGINE"] = job["engine"]
    base = start_peak()
    if job.get("tracemalloc"):
        import tracemalloc

        tracemalloc.start()
    t0 = time.perf_counter()
    corpus = Corpus.from_text(text, job.get("pretokenizer", "whitespace"))
    t1 = time.perf_counter()
    training = train(corpus, job.get("algorithm", "bpe"), merges=job["merges"],
                     tie_break=job.get("tie_break", "ids"), scoring=job.get("scoring", "score"),
                     special_tokens=job.get("special_tokens", ()))
    t2 = time.perf_counter()
    snapshots = [training.at(k) for k in job.get("snapshots", ())]
    for snap in snapshots:  # every snapshot structure, kept alive together
        snap.splits, snap.pairs, snap.vocab, snap.changed_words  # noqa: B018
    t3 = time.perf_counter()
    out: dict[str, Any] = {
        "engine": default_engine(),
        "seconds_corpus": t1 - t0,
        "seconds_train": t2 - t1,
        "seconds": t2 - t0,
        "seconds_snapshots": t3 - t2,
        "rss_base": base,
        "rss_peak": peak(),
        "forest_mb": training._log.nbytes / 1e6,
        "merges": len(training.merges),
        "words": len(corpus.words),
        "symbols": int(training.initial_tokens),
        "unique_symbols": int(np.diff(training._log.word_start).sum()),
        "text_mb": len(text.encode("utf-8")) / 1e6,
    }
    if job.get("tracemalloc"):
        import tracemalloc

        out["traced_peak"] = tracemalloc.get_traced_memory()[1] / 1e6
        out["traced_now"] = tracemalloc.get_traced_memory()[0] / 1e6
    if job.get("merges_out"):
        with open(job["merges_out"], "w", encoding="utf-8") as handle:
            json.dump({"merges": [[m.left, m.right] for m in training.merges],
                       "vocab": list(training.vocab)}, handle)
    return out


def run_hf(job: dict[str, Any]) -> dict[str, Any]:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    from bench.data import corpus_text

    text = corpus_text(job["mb"], job.get("offset", 0.0))
    # bpeviz's base vocabulary (no special tokens): the characters of the words
    alphabet = sum(1 for ch in set(text) if ch.split())
    base = start_peak()
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    trainer = trainers.BpeTrainer(vocab_size=alphabet + job["merges"], min_frequency=0,
                                  special_tokens=[], show_progress=False)
    t0 = time.perf_counter()
    # lines (split on "\n" only, which both sides treat as whitespace) are HF's fastest input
    tokenizer.train_from_iterator(text.split("\n"), trainer)
    t1 = time.perf_counter()
    out = {"seconds": t1 - t0, "rss_base": base, "rss_peak": peak(),
           "threads": os.environ.get("RAYON_NUM_THREADS")}
    if job.get("merges_out"):
        model = json.loads(tokenizer.to_str())["model"]
        merges = [m if isinstance(m, list) else m.split(" ") for m in model["merges"]]
        with open(job["merges_out"], "w", encoding="utf-8") as handle:
            json.dump({"merges": merges, "vocab": sorted(model["vocab"],
                                                         key=model["vocab"].get)}, handle)
    return out


def main() -> None:
    job = json.loads(sys.argv[1])
    task = {"bpeviz": run_bpeviz, "hf": run_hf}[job["task"]]
    print(json.dumps(task(job)))


if __name__ == "__main__":
    main()
