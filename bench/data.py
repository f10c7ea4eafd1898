"""Benchmark input: real text from the installed Python standard library, never committed.

The corpus is the stdlib's documentation files (``*.txt``, ``*.rst``) followed by its
``.py`` sources, in sorted path order, each decoded as UTF-8 (files that are not UTF-8
are skipped), cut at a line end after ``offset`` bytes and ``size`` bytes long. It is
written once to a cache directory (``$BPEVIZ_BENCH_CACHE`` or the system temp dir).
"""

from __future__ import annotations

import hashlib
import os
import sysconfig
import tempfile
from functools import cache
from pathlib import Path

MB = 1_000_000
STDLIB = Path(sysconfig.get_paths()["stdlib"])


def cache_dir() -> Path:
    path = Path(os.environ.get("BPEVIZ_BENCH_CACHE") or Path(tempfile.gettempdir())
                / "bpeviz-bench")
    path.mkdir(parents=True, exist_ok=True)
    return path


@cache
def stdlib_files() -> tuple[Path, ...]:
    """Docs first, then sources; site-packages and caches excluded."""
    def keep(p: Path) -> bool:
        return "site-packages" not in p.parts and "__pycache__" not in p.parts and p.is_file()

    docs = sorted(p for ext in ("*.txt", "*.rst") for p in STDLIB.rglob(ext) if keep(p))
    sources = sorted(p for p in STDLIB.rglob("*.py") if keep(p))
    return tuple(docs + sources)


def available_bytes() -> int:
    return sum(p.stat().st_size for p in stdlib_files())


def corpus_path(size: float, offset: float = 0.0) -> Path:
    """A file of about ``size`` MB of stdlib text starting ``offset`` MB in."""
    start, length = int(offset * MB), int(size * MB)
    path = cache_dir() / f"stdlib-{sysconfig.get_python_version()}-{start}-{length}.txt"
    if path.exists():
        return path
    parts: list[bytes] = []
    total = 0
    for file in stdlib_files():
        try:
            data = file.read_text(encoding="utf-8").encode("utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        parts.append(data if data.endswith(b"\n") else data + b"\n")
        total += len(parts[-1])
        if total >= start + length:
            break
    blob = b"".join(parts)
    if len(blob) < start + length:
        raise SystemExit(f"the installed stdlib holds only {len(blob) / MB:.1f} MB of text; "
                         f"asked for {offset + size:g} MB")
    lo = blob.rfind(b"\n", 0, start) + 1 if start else 0
    hi = blob.rfind(b"\n", 0, start + length) + 1
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(blob[lo:hi])
    tmp.replace(path)
    return path


def corpus_text(size: float, offset: float = 0.0) -> str:
    return corpus_path(size, offset).read_text(encoding="utf-8")


def describe(size: float, offset: float = 0.0) -> str:
    path = corpus_path(size, offset)
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()[:12]
    where = f" from byte {offset * MB:,.0f}" if offset else ""
    return (f"{len(data) / MB:.2f} MB of Python {sysconfig.get_python_version()} stdlib "
            f"docs + sources{where} (sha256 {digest}, {path})")
