"""The compiled module's old import path: it now lives at ``bpeviz.engine._merge``."""

from bpeviz.engine._merge import *  # noqa: F403  (raises ImportError when it is not built)
