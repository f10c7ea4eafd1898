"""The counting tasks of :mod:`bpeviz.data.tasks` on a Dask cluster: ``local:N`` starts a
local cluster of N worker processes, ``tcp://HOST:PORT`` connects to a running
scheduler. Each task is counted by :func:`bpeviz.data.tasks.count_task`, the function the
process pool runs, and the tables are added up pairwise (a tree reduction), the earlier
task's table first, so the words keep the order of their first appearance.

Dask (``dask`` and ``distributed``) is imported here only, when a cluster is asked for.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence
from typing import Any

from bpeviz.data.tasks import Part, count_task, merge_counts


# A table travels as one pickled blob: Dask would otherwise serialize a dict (and a
# list) entry by entry, which took ten times as long as the counting itself.
def count_blob(task: Sequence[Part], pretokenizer: str, field: str) -> bytes:
    """:func:`count_task`'s table, pickled."""
    return pickle.dumps(count_task(task, pretokenizer, field), pickle.HIGHEST_PROTOCOL)


def merge_blobs(first: bytes, second: bytes) -> bytes:
    """Two pickled tables added up, ``first``'s words first."""
    return pickle.dumps(merge_counts(pickle.loads(first), pickle.loads(second)),
                        pickle.HIGHEST_PROTOCOL)


def _connect(address: str) -> tuple[Any, Any]:
    """A client for ``address`` and the local cluster it started (None for a scheduler
    that was already running)."""
    import dask.config
    from dask.distributed import Client, LocalCluster

    if address.startswith("local:"):
        try:
            workers = int(address.partition(":")[2])
        except ValueError:
            workers = 0
        if workers < 1:
            raise ValueError(f"--dask {address}: give local:N with N worker processes, "
                             "at least 1")
        # the workers' statistical profiler wakes every 10 ms and takes the GIL from
        # the counting; these tasks are not worth profiling
        with dask.config.set({"distributed.worker.profile.enabled": False}):
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
        return Client(cluster), cluster
    if "://" not in address:
        raise ValueError(f"--dask {address}: give local:N or a scheduler's address, "
                         "tcp://HOST:PORT")
    try:
        return Client(address, timeout="20s"), None
    except OSError as err:
        raise ValueError(f"--dask {address}: cannot reach the scheduler ({err})") from None


def count_on_dask(tasks: Sequence[Sequence[Part]], pretokenizer: str, field: str,
                  address: str, progress: Callable[[int], object] | None = None
                  ) -> dict[str, int]:
    """The tasks' pre-token counts, added up on the cluster ``address``."""
    if not tasks:
        return {}
    from dask.distributed import as_completed

    client, cluster = _connect(address)
    try:
        counted = client.map(count_blob, [list(t) for t in tasks], pretokenizer=pretokenizer,
                             field=field, pure=False)
        sizes = {f.key: sum(p.size for p in t) for f, t in zip(counted, tasks)}
        level = list(counted)
        while len(level) > 1:  # pairwise, in order: the earlier table first
            level = [client.submit(merge_blobs, *level[i:i + 2], pure=False)
                     if i + 1 < len(level) else level[i] for i in range(0, len(level), 2)]
        for done in as_completed(counted):
            if progress is not None:
                progress(sizes[done.key])
        return pickle.loads(level[0].result())
    finally:
        _close(client, cluster)


def _close(client: Any, cluster: Any) -> None:
    """Close the client and a cluster it started, without the connection errors that
    workers log while they shut down (the counts are in by then)."""
    import logging

    quiet = [logging.getLogger(name) for name in ("distributed", "tornado")]
    levels = [log.level for log in quiet]
    for log in quiet:
        log.setLevel(logging.CRITICAL)
    try:
        client.close()
        if cluster is not None:
            cluster.close()
    finally:
        for log, level in zip(quiet, levels):
            log.setLevel(level)
