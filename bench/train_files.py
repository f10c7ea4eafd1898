"""Training on a folder of files, end to end: ``python -m bpeviz train FOLDER`` against
Hugging Face ``tokenizers`` training the same files with the same pre-tokenizer.

    python -m bench.train_files                    # 1,000 MB, 32,000 byte-level merges
    python -m bench.train_files --size 50 --merges 2000

The corpus is real text on this machine, no made-up words: every UTF-8 text file of the
installed Python standard library (docs, then sources), then of the packages installed
beside bpeviz (``site-packages``: ``.py``, ``.pyi``, ``.md``, ``.rst``, ``.txt``), then
``/usr/share/doc`` (``.txt`` and ``README*``), in sorted path order, written into files of
10 MB. When that text runs out before ``--size`` MB, it is written again from its start
(the report says how many distinct MB it holds): repeating adds bytes, not distinct
pre-tokens, and training cost grows with the distinct pre-tokens.

bpeviz runs as a user runs it, the command line with its defaults (counting on every
core, then the compiled merge loop; ``--tie-break ids``, Hugging Face's tie rule);
Hugging Face trains a ``BPE`` model with ``ByteLevel(add_prefix_space=False)`` and its
256-character alphabet, ``min_frequency=0``, no special tokens, its own threads. Each runs
in a process of its own; wall time, CPU time and peak memory (the resident memory of the
process and its children, summed, sampled every 0.1 s) are measured, then the merge lists
are compared. Not a unit test: it prints, and ``--json`` keeps the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

import psutil

from bench.data import MB, cache_dir

ROOT = Path(__file__).resolve().parent.parent
FILE_MB = 10
SUFFIXES = (".py", ".pyi", ".md", ".rst", ".txt")


def sources() -> list[Path]:
    """The real text files, in the order they are written."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    site = Path(sysconfig.get_paths()["purelib"])

    def files(root: Path, keep) -> list[Path]:
        if not root.is_dir():
            return []
        return sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                      and keep(p))

    out = files(stdlib, lambda p: "site-packages" not in p.parts
                and p.suffix in (".txt", ".rst"))
    out += files(stdlib, lambda p: "site-packages" not in p.parts and p.suffix == ".py")
    out += files(site, lambda p: p.suffix in SUFFIXES)
    out += files(Path("/usr/share/doc"), lambda p: p.suffix == ".txt"
                 or (p.name.startswith("README") and not p.name.endswith(".gz")))
    return out


def corpus_folder(size: int) -> tuple[Path, float]:
    """A folder of about ``size`` MB in files of 10 MB, and the distinct MB it holds."""
    folder = cache_dir() / f"train-files-{size}"
    note = folder / "distinct-mb"
    if note.exists() and sum(p.stat().st_size for p in folder.glob("*.txt")) >= size * MB:
        return folder, float(note.read_text())
    folder.mkdir(exist_ok=True)
    for old in folder.glob("*.txt"):
        old.unlink()
    written, distinct, index, chunk = 0, 0, 0, []
    passes = 0
    while written < size * MB:
        for path in sources():
            try:
                data = path.read_text(encoding="utf-8").encode("utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            if not data.strip():
                continue
            chunk.append(data if data.endswith(b"\n") else data + b"\n")
            if passes == 0:
                distinct += len(chunk[-1])
            if sum(len(c) for c in chunk) >= FILE_MB * MB:
                blob = b"".join(chunk)
                (folder / f"part{index:04d}.txt").write_bytes(blob)
                written += len(blob)
                index += 1
                chunk = []
                if written >= size * MB:
                    break
        passes += 1
        if passes > 1000:
            raise SystemExit("no text found to build the corpus from")
    note.write_text(f"{distinct / MB:.1f}")
    return folder, distinct / MB


def measured(cmd: list[str], env: dict[str, str] | None = None) -> dict[str, float]:
    """Run ``cmd``; its wall and CPU seconds and peak resident memory (MB, the process and
    its children summed, sampled every 0.1 s)."""
    started = time.perf_counter()
    proc = psutil.Popen(cmd, cwd=ROOT, env={**os.environ, **(env or {})},
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak, cpu = 0, {}
    while proc.poll() is None:
        try:
            family = [proc, *proc.children(recursive=True)]
            rss = 0
            for p in family:
                try:
                    rss += p.memory_info().rss
                    t = p.cpu_times()
                    cpu[p.pid] = t.user + t.system + t.children_user + t.children_system
                except psutil.NoSuchProcess:
                    pass
            peak = max(peak, rss)
        except psutil.NoSuchProcess:
            break
        time.sleep(0.1)
    out, err = proc.communicate()
    wall = time.perf_counter() - started
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd[:4])} failed ({proc.returncode}):\n{err[-2000:]}")
    return {"wall": wall, "cpu": sum(cpu.values()), "peak_mb": peak / MB, "stdout": out}


# Hugging Face's ``train(files)`` pre-tokenizes each line on its own, so whitespace across
# a line break (GPT-2's "\n   " + " def") is cut otherwise than in the whole text, which
# bpeviz counts: the files are given as pieces of about 1 MB cut where the whole text's
# pre-tokens stay whole (bpeviz.data.cuts), read as the trainer iterates
HF_CODE = """
import glob, json, sys
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from bpeviz.data.cuts import last_cut
folder, merges, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
PIECE = 1 << 20

def pieces():
    for name in sorted(glob.glob(folder + "/*.txt")):
        with open(name, "rb") as f:
            buf = b""
            while True:
                more = f.read(PIECE)
                buf += more
                cut = last_cut(buf, "gpt2") if more else len(buf)
                if cut:
                    yield buf[:cut].decode("utf-8")
                    buf = buf[cut:]
                if not more:
                    break

t = Tokenizer(models.BPE())
t.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
trainer = trainers.BpeTrainer(vocab_size=256 + merges, min_frequency=0, special_tokens=[],
                              show_progress=False,
                              initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
t.train_from_iterator(pieces(), trainer)
model = json.loads(t.to_str())["model"]
json.dump([m if isinstance(m, list) else m.split(" ") for m in model["merges"]],
          open(out, "w"))
"""

OURS_MERGES = """
import json, sys
from bpeviz import load
from bpeviz.text.display import bytes_to_gpt2
t = load(sys.argv[1])
json.dump([[bytes_to_gpt2(m.left), bytes_to_gpt2(m.right)] for m in t.merges],
          open(sys.argv[2], "w"))
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.train_files", description=__doc__)
    parser.add_argument("--size", type=int, default=1000, help="corpus MB (default 1,000)")
    parser.add_argument("--merges", type=int, default=32_000)
    parser.add_argument("--no-hf", action="store_true")
    parser.add_argument("--json", help="also write the figures here")
    parser.add_argument("--keep", help="a folder to keep both merge lists in (JSON)")
    args = parser.parse_args(argv)
    folder, distinct = corpus_folder(args.size)
    size = sum(p.stat().st_size for p in folder.glob("*.txt")) / MB
    load = os.getloadavg()
    print(f"corpus: {size:,.0f} MB in {len(list(folder.glob('*.txt')))} files of {FILE_MB} MB "
          f"({folder}), {distinct:,.0f} MB of it distinct text (stdlib, site-packages, "
          f"/usr/share/doc), the rest that text again; {os.cpu_count()} cores; load average "
          f"{load[0]:.1f} / {load[1]:.1f}", flush=True)
    results: dict[str, object] = {"size_mb": size, "distinct_mb": distinct,
                                  "merges": args.merges, "load_start": load}
    with tempfile.TemporaryDirectory() as tmp:
        saved = f"{tmp}/ours.json"
        ours = measured([sys.executable, "-m", "bpeviz", "train", str(folder), "--algorithm",
                         "bbpe", "--merges", str(args.merges), "--tie-break", "ids",
                         "--out", saved, "--quiet"])
        print(f"bpeviz train (GPT-2 pre-tokens counted on every core, {args.merges:,} merges): "
              f"{ours['wall']:,.1f} s wall, {ours['cpu']:,.1f} CPU s, peak "
              f"{ours['peak_mb']:,.0f} MB", flush=True)
        subprocess.run([sys.executable, "-c", OURS_MERGES, saved, f"{tmp}/ours-merges.json"],
                       cwd=ROOT, check=True)
        results["bpeviz"] = {k: v for k, v in ours.items() if k != "stdout"}
        if not args.no_hf:
            theirs = measured([sys.executable, "-c", HF_CODE, str(folder), str(args.merges),
                               f"{tmp}/hf-merges.json"])
            print(f"HF tokenizers BpeTrainer (ByteLevel, its own threads, the files in "
                  f"pieces of about 1 MB): "
                  f"{theirs['wall']:,.1f} s wall, {theirs['cpu']:,.1f} CPU s, peak "
                  f"{theirs['peak_mb']:,.0f} MB", flush=True)
            a = json.loads(Path(f"{tmp}/ours-merges.json").read_text(encoding="utf-8"))
            b = json.loads(Path(f"{tmp}/hf-merges.json").read_text(encoding="utf-8"))
            first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
            same = a == b
            print(f"ratios: time {ours['wall'] / theirs['wall']:.2f}x HF's (target <= 1.0x), "
                  f"peak memory {ours['peak_mb'] / theirs['peak_mb']:.2f}x HF's (target <= "
                  f"1.0x); merges {'identical' if same else 'DIFFER'} ({len(a):,} vs "
                  f"{len(b):,}" + ("" if same or first is None else f", first at {first + 1:,}")
                  + ")")
            results["hf"] = {k: v for k, v in theirs.items() if k != "stdout"}
            results["same_merges"] = same
            results["first_difference"] = None if first is None else first + 1
        if args.keep:
            import shutil

            Path(args.keep).mkdir(parents=True, exist_ok=True)
            for name in ("ours-merges.json", "hf-merges.json"):
                if Path(f"{tmp}/{name}").exists():
                    shutil.copy(f"{tmp}/{name}", Path(args.keep) / name)
    results["load_end"] = os.getloadavg()
    print(f"load average at end: {results['load_end'][0]:.1f}")  # type: ignore[index]
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
