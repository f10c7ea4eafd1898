"""Both merge engines, run directly (where a test compares them in one process rather
than through the ``engine`` fixture)."""

from __future__ import annotations

from bpeviz.core.training import _MergeLoop, base_vocabulary

ENGINES = ["compiled", "python"]


def run_engine(corpus, options, engine):
    loop = _MergeLoop(corpus, options, base_vocabulary(corpus, options), engine=engine)
    loop.run()
    return loop.result()
