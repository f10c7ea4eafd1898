"""Unigram vs sentencepiece: shared pieces and training time on the stdlib's text.

    python -m bench.unigram                    # 0.1 MB at 1,000 and 2,000; 1 MB at 2,000
    python -m bench.unigram 1:2000 1:8000      # MB:vocabulary pairs
    python -m bench.unigram 5:8000 --before /tmp/wt-before   # also another checkout's bpeviz
    python -m bench.unigram 100:8000           # past the stdlib's 32 MB: bench.train_files' text
    python -m bench.unigram 100:8000 --apart   # each trainer in a process of its own: its
                                               # peak resident memory too

Up to the stdlib's size (about 32 MB) the text is ``bench.data``'s; a larger corpus is
the first ``size`` MB of ``bench.train_files``' folder (the stdlib, the installed
packages' text files and ``/usr/share/doc``; 178 MB of it distinct), written as one file.

Both train on the same file with ``normalization_rule_name="identity"``,
``character_coverage=1.0``, ``byte_fallback=False``, ``split_digits=False`` and otherwise
sentencepiece's defaults (16 threads); bpeviz emulates the 16 threads' float32 sums.
``--before DIR`` times the bpeviz of another checkout (built, e.g. a ``git worktree`` of
the commit before a change) in a process of its own, right after these two, says whether
its final pieces and scores are the same, and prints the load average, since the times
are only comparable measured side by side.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from bench.data import MB, available_bytes, cache_dir, corpus_path, describe
from bench.spm_train import train_spm
from bpeviz.unigram.spm_input import sentencepiece_input
from bpeviz.unigram.trainer import train_sentencepiece

# run in the other checkout: its training time and final pieces, as JSON
_BEFORE = """
import json, sys, time
from pathlib import Path
from bpeviz.unigram.spm_input import sentencepiece_input
from bpeviz.unigram.trainer import train_sentencepiece
start = time.perf_counter()
training = train_sentencepiece(sentencepiece_input(Path(sys.argv[1]).read_text(encoding="utf-8")),
                               int(sys.argv[2]))
print(json.dumps({"time": time.perf_counter() - start, "pieces": list(training.final.pieces),
                  "scores": list(training.final.model.scores)}))
"""


# run in a process of its own (--apart): one trainer's time, peak memory and pieces, as JSON
_APART = """
import json, resource, sys, time
from pathlib import Path
path, vocab, which = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
start = time.perf_counter()
if which == "sentencepiece":
    from bench.spm_train import train_spm
    took, pieces = train_spm(path, vocab)
else:
    from bpeviz.unigram.spm_input import sentencepiece_input
    from bpeviz.unigram.trainer import train_sentencepiece
    training = train_sentencepiece(sentencepiece_input(path.read_text(encoding="utf-8")), vocab)
    took = time.perf_counter() - start
    pieces = list(training.final.pieces)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"time": took, "peak": peak, "pieces": pieces}))
"""


def apart(size_mb: float, vocab_size: int) -> None:
    """Each trainer in a process of its own, one after the other: time, peak resident
    memory (the process's, input reading included) and the pieces shared."""
    path, what = corpus(size_mb)
    load = os.getloadavg()[0]
    got = {}
    for which in ("sentencepiece", "bpeviz"):
        run = subprocess.run([sys.executable, "-c", _APART, str(path), str(vocab_size), which],
                             env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)},
                             capture_output=True, text=True, check=True)
        got[which] = json.loads(run.stdout.strip().splitlines()[-1])
    ours, theirs = got["bpeviz"], got["sentencepiece"]
    shared = len(set(ours["pieces"]) & set(theirs["pieces"]))
    print(f"{what}, vocabulary {vocab_size:,}, each trainer in a process of its own: "
          f"{shared}/{len(theirs['pieces'])} pieces shared, same order "
          f"{ours['pieces'] == theirs['pieces']}; bpeviz {ours['time']:.1f} s, peak "
          f"{ours['peak'] / MB:,.0f} MB; sentencepiece {theirs['time']:.1f} s, peak "
          f"{theirs['peak'] / MB:,.0f} MB; time {ours['time'] / theirs['time']:.2f}x, memory "
          f"{ours['peak'] / theirs['peak']:.2f}x; load average {load:.2f} -> "
          f"{os.getloadavg()[0]:.2f}")


#: bench.train_files writes whole 10 MB files: ask for one more than the size
FILE_ROOM = 10


def corpus(size_mb: float) -> tuple[Path, str]:
    """The file to train on, and what it holds."""
    if size_mb * MB <= available_bytes():
        return corpus_path(size_mb), describe(size_mb)
    from bench.train_files import corpus_folder

    path = cache_dir() / f"unigram-files-{size_mb:g}.txt"
    folder, distinct = corpus_folder(int(size_mb + FILE_ROOM))
    if not path.exists():
        with path.open("wb") as out:
            left = int(size_mb * MB)
            for part in sorted(folder.glob("*.txt")):
                data = part.read_bytes()
                if len(data) >= left:  # cut at a line end
                    data = data[:data.rfind(b"\n", 0, left) + 1]
                out.write(data)
                left -= len(data)
                if left <= 0:
                    break
    size = path.stat().st_size
    return path, (f"{size / MB:.2f} MB of real text (bench.train_files: the stdlib, the "
                  f"installed packages' text files, /usr/share/doc; "
                  f"{min(size / MB, distinct):.0f} MB of it distinct)")


def compare(size_mb: float, vocab_size: int, before: Path | None = None) -> None:
    path, what = corpus(size_mb)
    load = os.getloadavg()[0]
    spm_time, theirs = train_spm(path, vocab_size)
    start = time.perf_counter()
    training = train_sentencepiece(sentencepiece_input(path.read_text(encoding="utf-8")),
                                   vocab_size)
    ours_time = time.perf_counter() - start
    ours = training.final.pieces
    shared = len(set(ours) & set(theirs))
    print(f"{what}, vocabulary {vocab_size:,}: {shared}/{len(theirs)} pieces shared "
          f"({shared / len(theirs):.2%}), same order {list(ours) == theirs}; "
          f"{len(training.steps) - 1} rounds; bpeviz {ours_time:.1f} s, "
          f"sentencepiece {spm_time:.1f} s ({ours_time / spm_time:.2f}x)")
    if before is not None:
        run = subprocess.run([sys.executable, "-c", _BEFORE, str(path), str(vocab_size)],
                             cwd=before, env={**os.environ, "PYTHONPATH": str(before)},
                             capture_output=True, text=True, check=True)
        old = json.loads(run.stdout.strip().splitlines()[-1])
        same = old["pieces"] == list(ours) and old["scores"] == list(training.final.model.scores)
        print(f"  before ({before}): {old['time']:.1f} s ({old['time'] / spm_time:.2f}x "
              f"sentencepiece), same pieces and scores {same}; load average "
              f"{load:.2f} -> {os.getloadavg()[0]:.2f}")


def main(argv: list[str]) -> None:
    before = None
    separate = "--apart" in argv
    argv = [a for a in argv if a != "--apart"]
    if "--before" in argv:
        at = argv.index("--before")
        before = Path(argv[at + 1])
        argv = argv[:at] + argv[at + 2:]
    pairs = [a.split(":") for a in argv] or [["0.1", "1000"], ["0.1", "2000"], ["1", "2000"]]
    for size, vocab in pairs:
        if separate:
            apart(float(size), int(vocab))
        else:
            compare(float(size), int(vocab), before)


if __name__ == "__main__":
    main(sys.argv[1:])
