"""Streamlit glue for the explorer: the shared sidebar, cached training, step controls.

This package is the only part of ``bpeviz`` that imports streamlit. A page starts with
``ctx = ui.page("Explore")``: it sets the page up, draws the sidebar (corpus and
training settings, shared by every page), trains (cached) and returns a
:class:`~bpeviz.ui.context.Context`; on bad input it shows a message and stops the page,
never a traceback.

The names below are the pages' door to the package (``ui.page``, ``ui.bound``,
``ui.error``...); each is defined in one module, and the modules import one another,
never this package (whose names load when a page first asks for them). From the bottom
up: :mod:`~bpeviz.ui.trace`, :mod:`~bpeviz.ui.state`
(settings, links), :mod:`~bpeviz.ui.labels` (what the app calls things),
:mod:`~bpeviz.ui.messages`, :mod:`~bpeviz.ui.training` (cached trainings), the settings
widgets (:mod:`~bpeviz.ui.unigram_settings`, :mod:`~bpeviz.ui.settings`),
:mod:`~bpeviz.ui.context`, :mod:`~bpeviz.ui.tokenizer_file` and
:mod:`~bpeviz.ui.page_setup`; the pages' own views (:mod:`~bpeviz.ui.opened`,
:mod:`~bpeviz.ui.compare`, :mod:`~bpeviz.ui.unigram`, :mod:`~bpeviz.ui.lesson`...) on top.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bpeviz.present.render import md_escape
    from bpeviz.ui.context import Context, export_files
    from bpeviz.ui.explore import pair_box_key, pair_boxed
    from bpeviz.ui.labels import ALGORITHM_LABELS, algorithm_labels, pretokenizer_for
    from bpeviz.ui.messages import error, unspaced_warning, warning
    from bpeviz.ui.page_setup import page
    from bpeviz.ui.settings import train_options
    from bpeviz.ui.state import bound, clamp, get, put
    from bpeviz.ui.tokenizer_file import import_widget, imported
    from bpeviz.ui.training import merges_arrow, snapshot

# each name of the door and the module that defines it: loaded when a page first asks,
# so that a module of this package importing a sibling never loads the whole package
_HOMES = {
    "ALGORITHM_LABELS": "bpeviz.ui.labels",
    "Context": "bpeviz.ui.context",
    "algorithm_labels": "bpeviz.ui.labels",
    "bound": "bpeviz.ui.state",
    "clamp": "bpeviz.ui.state",
    "error": "bpeviz.ui.messages",
    "export_files": "bpeviz.ui.context",
    "get": "bpeviz.ui.state",
    "import_widget": "bpeviz.ui.tokenizer_file",
    "imported": "bpeviz.ui.tokenizer_file",
    "md_escape": "bpeviz.present.render",
    "merges_arrow": "bpeviz.ui.training",
    "page": "bpeviz.ui.page_setup",
    "pair_box_key": "bpeviz.ui.explore",
    "pair_boxed": "bpeviz.ui.explore",
    "pretokenizer_for": "bpeviz.ui.labels",
    "put": "bpeviz.ui.state",
    "snapshot": "bpeviz.ui.training",
    "train_options": "bpeviz.ui.settings",
    "unspaced_warning": "bpeviz.ui.messages",
    "warning": "bpeviz.ui.messages",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])


__all__ = [
    "ALGORITHM_LABELS",
    "Context",
    "algorithm_labels",
    "bound",
    "clamp",
    "error",
    "export_files",
    "get",
    "import_widget",
    "imported",
    "md_escape",
    "merges_arrow",
    "page",
    "pair_box_key",
    "pair_boxed",
    "pretokenizer_for",
    "put",
    "snapshot",
    "train_options",
    "unspaced_warning",
    "warning",
]
