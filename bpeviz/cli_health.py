"""``python -m bpeviz health``: what is wrong with a vocabulary (see
:mod:`bpeviz.analysis.health`): the summary, then each table, on the training's own
corpus or on ``--corpus``. :mod:`bpeviz.cli` adds the command."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bpeviz.analysis.health import KINDS, Health, health

#: rows of each table printed unless ``--all`` or ``--top``
TOP = 10
TITLES = {"unreachable": "Unreachable tokens", "unused": "Unused tokens",
          "near_duplicates": "Near-duplicates", "partial": "Partial characters"}


def add_health(sub: argparse._SubParsersAction,
               add_step_source: Callable[[argparse.ArgumentParser], None],
               opened: Callable[[argparse.Namespace], tuple[Any, Any]]) -> None:
    """The ``health`` command, with ``--training`` and ``--step`` as the other commands
    take them (``add_step_source``) and opened the same way (``opened``)."""
    p = sub.add_parser("health", help="what is wrong with the vocabulary of a step: "
                                      "unreachable, unused, near-duplicate and "
                                      "partial-character tokens")
    add_step_source(p)
    p.add_argument("--corpus", default=None, metavar="FILE",
                   help="a UTF-8 text to count unused tokens on (default: the training's own "
                        "corpus; a tokenizer file has none)")
    p.add_argument("--top", type=int, default=None, metavar="N",
                   help=f"print the first N rows of each table (default {TOP}; --json: all)")
    p.add_argument("--all", action="store_true", help="print every row of each table")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.set_defaults(run=lambda args: run_health(args, opened))


def _corpus_text(path: str | None) -> str | None:
    if path is None:
        return None
    file = Path(path)
    if not file.exists():
        raise ValueError(f"--corpus {path}: no such file")
    if file.is_dir():
        raise ValueError(f"--corpus {path} is a folder; give a text file")
    try:
        return file.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"--corpus {path} is not UTF-8 text ({err.reason} at byte "
                         f"{err.start:,})") from None


def run_health(args: argparse.Namespace,
               opened: Callable[[argparse.Namespace], tuple[Any, Any]]) -> int:
    if args.top is not None and args.top < 0:
        raise ValueError(f"--top must be 0 or more, got {args.top}")
    text = _corpus_text(args.corpus)  # checked before a long import
    _, step = opened(args)
    found = health(step, text)
    top = None if args.all else args.top if args.top is not None else (
        None if args.json else TOP)
    try:
        if args.json:
            print(json.dumps(found.to_dict(top), ensure_ascii=False, indent=1))
        else:
            print("\n".join(describe(found, top, os.path.basename(args.training))))
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (| head): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def describe(found: Health, top: int | None = TOP, name: str = "the tokenizer") -> list[str]:
    """The summary, then each table (its first ``top`` rows; None: all), as lines."""
    lines = [f"Vocabulary health of {name} at step {found.step:,} "
             f"({found.vocab_size:,} tokens):"]
    lines += [f"  {line}" for line in found.summary]
    for kind in KINDS:
        frame = found.table(kind)
        if not len(frame):
            continue
        lines += ["", f"{TITLES[kind]} ({len(frame):,}):"]
        shown = frame if top is None else frame.head(top)
        width = max(len(str(t)) for t in shown["token"]) if len(shown) else 0
        for row in shown.itertuples(index=False):
            extra = f"[{row.kind}] " if "kind" in frame.columns else ""
            lines.append(f"  {row.id:>7}  {row.token!s:<{min(width, 24)}}  {extra}{row.reason}")
        if len(shown) < len(frame):
            lines.append(f"  ... and {len(frame) - len(shown):,} more (--all prints every row)")
    return lines
