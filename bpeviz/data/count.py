"""Counting the pre-tokens of a corpus on every core: ``count_pretokens(paths)``.

The tasks of :func:`bpeviz.data.tasks.plan` are counted by the processes of a pool (or
by Dask workers, see :mod:`bpeviz.data.dask_count`), and the tables are added up in task
order, so the words keep the order of their first appearance, as in
``Corpus.from_text``. Memory is bounded by the distinct pre-tokens: a task's table and
the running total, never the text.

>>> from pathlib import Path
>>> import bpeviz.samples
>>> sample = Path(bpeviz.samples.__file__).parent / "hug_pug_pun_bun_hugs.txt"
>>> count_pretokens([str(sample)], "whitespace", workers=1)
{'hug': 1, '10': 1, 'pug': 1, '5': 2, 'pun': 1, '12': 1, 'bun': 1, '4': 1, 'hugs': 1}
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence

from bpeviz.data.sources import Source, expand
from bpeviz.data.tasks import Part, add_counts, count_task, plan
from bpeviz.text.pretokenize import check_pretokenizer


def _pool_task(job: tuple[Sequence[Part], str, str]) -> tuple[dict[str, int], int]:
    task, pretokenizer, field = job
    return count_task(task, pretokenizer, field), sum(p.size for p in task)


def default_workers() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def count_pretokens(paths: Sequence[str] | Sequence[Source] | str, pretokenizer: str = "gpt2",
                    workers: int | None = None, text_field: str = "text",
                    progress: Callable[[int], object] | None = None,
                    dask: str | None = None) -> dict[str, int]:
    """The pre-tokens of every text the DATA ``paths`` name (or the sources
    :func:`bpeviz.data.sources.expand` gave for them), counted: ``{word: count}``
    in order of first appearance, equal to ``Corpus.from_text``'s word counts on the same
    text (each file, record or row is a text of its own).

    ``workers``: processes (default: every core; 1 counts in this process). ``dask``:
    ``"local:N"`` (a local cluster of N worker processes) or a scheduler's address
    ``"tcp://HOST:PORT"``, counting the same tasks there. ``progress(n)`` is called with
    the bytes (on disk) of each task counted."""
    check_pretokenizer(pretokenizer)
    if workers is not None and workers < 1:
        raise ValueError(f"--workers {workers}: give at least 1")
    sources = (list(paths) if isinstance(paths, list) and paths
               and all(isinstance(p, Source) for p in paths) else expand(paths))
    workers = workers or default_workers()
    if dask:
        from bpeviz.data.dask_count import count_on_dask

        tasks = plan(sources, pretokenizer, workers=max(workers, 4))
        return count_on_dask(tasks, pretokenizer, text_field, dask, progress)
    tasks = plan(sources, pretokenizer, workers)
    total: dict[str, int] = {}
    jobs = [(task, pretokenizer, text_field) for task in tasks]
    if workers == 1 or len(tasks) <= 1:
        results: Iterable[tuple[dict[str, int], int]] = map(_pool_task, jobs)
        return _reduce(results, total, progress)
    import multiprocessing

    with multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn").Pool(
            min(workers, len(tasks))) as pool:
        return _reduce(pool.imap(_pool_task, jobs), total, progress)


def _reduce(results: Iterable[tuple[dict[str, int], int]], total: dict[str, int],
            progress: Callable[[int], object] | None) -> dict[str, int]:
    for counts, size in results:  # in task order: first appearances stay first
        if total:
            add_counts(total, counts)
        else:  # the first table is the start of the total
            total.update(counts)
        if progress is not None:
            progress(size)
    return total
