"""``python -m bpeviz count DATA... --out counts.parquet``: the pre-tokens of a corpus on
disk, counted on every core (see :mod:`bpeviz.data`), written as Parquet (``word``,
``count``; the pre-tokenizer in the file's metadata) or as ``word<TAB>count`` lines; and
the corpus ``train DATA...`` trains on: folders, globs and several files read the same
way, a counts file read as counts. :mod:`bpeviz.cli` adds the command and calls
:func:`corpus_from_data`.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence

from bpeviz.core.files import write_atomic
from bpeviz.data.count import count_pretokens
from bpeviz.data.sources import FORMATS, Source, expand, format_of, is_counts_parquet
from bpeviz.text.corpus import Corpus, looks_like_counts
from bpeviz.text.pretokenize import PRETOKENIZERS

#: the file name endings ``count --out`` writes
OUTPUTS = (".parquet", ".tsv", ".txt")
#: the Parquet metadata key that keeps the pre-tokenizer of the counted words
PRETOKENIZER_KEY = b"bpeviz.pretokenizer"
#: a single text file up to this size is read whole by ``train``, as it always was (its
#: format guessed from all of it); a larger one is streamed unless it looks like counts
WHOLE_FILE = 64 << 20
#: the characters that end a line for ``str.splitlines``: a word holding one cannot be
#: written as a ``word<TAB>count`` line
LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")


def add_data_options(p: argparse.ArgumentParser) -> None:
    """The options of reading DATA: ``--text-field``, ``--workers``, ``--dask``."""
    p.add_argument("--text-field", default="text", metavar="NAME",
                   help="the field of a JSON Lines record, or the column of a Parquet "
                        "file, that holds the text (default: text)")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="count in N processes (default: every core)")
    p.add_argument("--dask", default=None, metavar="local:N|tcp://HOST:PORT",
                   help="count on Dask: a local cluster of N worker processes, or the "
                        "scheduler at this address")


def add_count(sub: argparse._SubParsersAction) -> None:
    formats = ", ".join(FORMATS)
    p = sub.add_parser("count", help="count the pre-tokens of files, folders and globs "
                                     f"({formats}) on every core")
    p.add_argument("data", nargs="+", metavar="DATA",
                   help=f"files, folders (read recursively) or globs of {formats} files")
    p.add_argument("--pretokenizer", choices=list(PRETOKENIZERS), default="gpt2")
    p.add_argument("--out", required=True, metavar="FILE",
                   help="counts.parquet (columns word, count), or .tsv/.txt "
                        "(word<TAB>count lines); words in order of first appearance")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_data_options(p)
    p.set_defaults(run=run_count)


def _bar(sources: Sequence[Source], quiet: bool) -> tuple[Callable[[int], object] | None,
                                                           Callable[[], None]]:
    """A progress bar on stderr of the bytes read (MB/s, time left): its update and its
    close."""
    if quiet:
        return None, lambda: None
    from tqdm import tqdm

    bar = tqdm(total=sum(s.size for s in sources), unit="B", unit_scale=True,
               unit_divisor=1000, desc="counting", file=sys.stderr, dynamic_ncols=True)
    return bar.update, bar.close


def _counted(args: argparse.Namespace, data: Sequence[str], pretokenizer: str
             ) -> tuple[dict[str, int], list[Source], float]:
    sources = expand(data)
    update, close = _bar(sources, args.quiet)
    started = time.monotonic()
    try:
        counts = count_pretokens(sources, pretokenizer, workers=args.workers,
                                 text_field=args.text_field, progress=update, dask=args.dask)
    finally:
        close()
    return counts, sources, time.monotonic() - started


def run_count(args: argparse.Namespace) -> int:
    out = args.out
    if not out.lower().endswith(OUTPUTS):
        raise ValueError(f"--out {out}: write counts to a {' or '.join(OUTPUTS)} file")
    if os.path.isdir(out):
        raise ValueError(f"--out {out}: is a folder; name a file")
    folder = os.path.dirname(out) or "."
    if not os.path.isdir(folder):  # said before the counting, not after it
        raise ValueError(f"cannot write {out}: the folder {folder} does not exist")
    counts, sources, seconds = _counted(args, args.data, args.pretokenizer)
    left_out = _write_counts(counts, out, args.pretokenizer)
    size = sum(s.size for s in sources)
    print(f"counted {sum(counts.values()):,} pre-tokens ({len(counts):,} distinct) in "
          f"{len(sources):,} file{'s' * (len(sources) != 1)}, {size / 1e6:,.1f} MB in "
          f"{seconds:,.1f} s ({size / 1e6 / max(seconds, 1e-9):,.1f} MB/s); wrote {out}",
          file=sys.stderr)
    if left_out:
        print(f"warning: {left_out:,} pre-tokens hold a line break, which a "
              "word<TAB>count line cannot: they are not in the file (--out FILE.parquet "
              "keeps every one)", file=sys.stderr)
    return 0


def _write_counts(counts: dict[str, int], out: str, pretokenizer: str) -> int:
    """Write the table to ``out`` (through :func:`bpeviz.core.files.write_atomic`: a
    failure leaves any old file); the number of words left out of a ``word<TAB>count``
    file."""
    if out.lower().endswith(".parquet"):
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.table({"word": pa.array(list(counts), pa.string()),
                          "count": pa.array(list(counts.values()), pa.int64())})
        table = table.replace_schema_metadata({PRETOKENIZER_KEY: pretokenizer.encode()})
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink)
        write_atomic(out, sink.getvalue().to_pybytes())
        return 0
    lines = [f"{word}\t{count}\n" for word, count in counts.items()
             if LINE_BREAKS.isdisjoint(word)]
    write_atomic(out, "".join(lines))
    return len(counts) - len(lines)


def read_counts_parquet(path: str) -> Corpus:
    """A corpus from a counts Parquet file: its words with the pre-tokenizer that cut
    them (kept by ``count``), else as counts."""
    import pyarrow.parquet as pq

    table = pq.read_table(path, columns=["word", "count"])
    words, counts = table.column("word").to_pylist(), table.column("count").to_pylist()
    if any(not isinstance(w, str) or not w for w in words) or any(
            not isinstance(c, int) or c < 1 for c in counts):
        return Corpus.from_counts(zip(words, counts))  # it names the bad row
    if len(set(words)) != len(words):
        return Corpus.from_counts(zip(words, counts))  # repeats added up
    kept = (table.schema.metadata or {}).get(PRETOKENIZER_KEY, b"").decode()
    return Corpus(tuple(words), tuple(counts), kept if kept in PRETOKENIZERS else "counts")


def data_name(data: Sequence[str]) -> str | None:
    """What a training is called after its DATA (None without any)."""
    if not data:
        return None
    return ", ".join(os.path.basename(os.path.normpath(d)) for d in data)


def _read_whole(path: str, fmt: str) -> bool:
    """Whether ``train`` reads this one file as it always did (``Corpus.from_file``:
    a text or ``word<TAB>count`` file, its format guessed from all of it)."""
    found = format_of(path)
    if found is not None and found != ("text", ""):
        return False
    if fmt == "counts" or found is None or os.path.getsize(path) <= WHOLE_FILE:
        return True
    if fmt == "text":
        return False
    with open(path, "rb") as f:  # a big .txt: a counts table, or text to stream?
        head = f.read(1 << 20).decode("utf-8", "ignore")
    return looks_like_counts(head[:head.rfind("\n") + 1] or head)


def corpus_from_data(data: Sequence[str], args: argparse.Namespace,
                     pretokenizer: str) -> Corpus:
    """The corpus ``train`` trains on: one text or ``word<TAB>count`` file as before, a
    counts Parquet file as counts, else the pre-tokens of every DATA file counted
    (folders, globs, compressed text, JSON Lines, Parquet)."""
    if len(data) == 1 and os.path.isfile(data[0]):
        path = data[0]
        if path.lower().endswith(".parquet") and is_counts_parquet(path):
            return read_counts_parquet(path)
        if _read_whole(path, args.format):
            return Corpus.from_file(path, pretokenizer=pretokenizer, fmt=args.format)
    if args.format == "counts":
        raise ValueError("--format counts reads one word<TAB>count file; DATA names "
                         f"{' '.join(data)}")
    counts, _, _ = _counted(args, data, pretokenizer)
    return Corpus(tuple(counts), tuple(counts.values()), pretokenizer)
