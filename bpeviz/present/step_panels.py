"""Views drawn in Python for the steps around the bar's, so that the browser shows each
step's view in the same frame as the card, from what it already holds.

A view such as "Why this merge?" is HTML built by Python's renderers (user text escaped
there) for one step at a time, sent as a tree of plain data
(:mod:`bpeviz.present.html_tree`) that the browser builds without parsing HTML.
:func:`panel_window` builds it for the current step and then for the steps the bar is
likely to reach next (ahead first: Play and → go forward), within a time budget, each
kept per training; the browser swaps in the one of the bar's step, and says it is coming
when it holds none (the next Python run, when the step settles or Play pauses, sends
the window around the new step).
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from bpeviz.present.html_tree import html_tree
from bpeviz.text.owned import OwnedCache

#: steps built beyond the current one, forward and back
AHEAD, BEHIND = 24, 8
#: a view that is cheap to build is sent for a window up to WIDEN times as wide, as long
#: as the whole window takes at most WINDOW_SECONDS to build (most of it in a thread).
#: Each window the browser nears the edge of is a fragment rerun it asks for, and
#: Streamlit's drawing of that rerun (50-100 ms tasks) landed between a rapid run of
#: keys. On the default sample the merges rows take about 4 ms a step and "Why this
#: merge?" 25 ms; on a 10 MB corpus "Why" takes 0.3 s, and keeps the narrow window.
WIDEN = 4
WINDOW_SECONDS = 2.0
#: seconds a run may spend building steps other than the current one
BUDGET = 0.15
#: views kept per training (each a few kilobytes of HTML)
KEEP = 400

_VIEWS: OwnedCache[list[Any]] = OwnedCache("step panels", keep=KEEP)
#: per training and view: (seconds spent building its views, how many were built)
_COSTS: OwnedCache[tuple[float, int]] = OwnedCache("step panel costs", keep=KEEP)

log = logging.getLogger(__name__)

# The window's steps a run had no time for are built in a thread of their own, so that
# the browser's next ask finds them kept (on a 10 MB corpus one step's view takes 0.3 s,
# and a speaker's keys outran the windows the runs could build). One builder per owner
# and view: a newer window takes over from an older one, which stops at its next step.
_BUILDERS: dict[tuple[int, Hashable], int] = {}
_BUILDERS_LOCK = threading.Lock()
_GENERATIONS = itertools.count(1)


def window_steps(step: int, n: int, ahead: int = AHEAD, behind: int = BEHIND) -> Iterator[int]:
    """The steps of the window around ``step`` within 0..n, nearest first, three ahead
    for each one behind.

    >>> list(window_steps(5, 9, ahead=4, behind=2))
    [5, 6, 7, 8, 4, 9, 3]
    >>> list(window_steps(9, 9, ahead=4, behind=2))
    [9, 8, 7]
    """
    yield step
    forward = iter(range(step + 1, min(step + ahead, n) + 1))
    back = iter(range(step - 1, max(step - behind, 0) - 1, -1))
    while True:
        taken = [k for k in (next(forward, None), next(forward, None), next(forward, None),
                             next(back, None)) if k is not None]
        if not taken:
            return
        yield from taken


def _tree(view: Any) -> list[Any]:
    """A view as the browser builds it: HTML read into a tree, or a tree already."""
    return html_tree(view) if isinstance(view, str) else view


def panel_window(owner: Any, key: Hashable, step: int, n: int, render: Callable[[int], Any],
                 *, budget: float = BUDGET, ahead: int = AHEAD, behind: int = BEHIND,
                 background: bool = False, widen: bool = False) -> dict[str, list[Any]]:
    """``render(k)`` (HTML) as a tree for the steps of the window around ``step``
    (``str(k)`` keys): the current step always, the others while ``budget`` seconds last
    or when kept already (per ``owner``, a training, and ``key``, what the view depends on
    besides the step). ``background``: the steps left out are then built in a thread,
    nearest first, for the next call to find (:func:`build_in_background`). ``widen``:
    the window reaches further each way as this view's steps have been cheap to build
    so far (:func:`widened`).

    >>> class Training: ...
    >>> t = Training()
    >>> sorted(panel_window(t, "demo", 1, 2, lambda k: f"<p>{k}</p>").items())
    [('0', [['p', {}, '0']]), ('1', [['p', {}, '1']]), ('2', [['p', {}, '2']])]
    """
    start = time.perf_counter()
    # the current step first: building it tells what a step of this view costs
    views: dict[str, list[Any]] = {str(step): _view(owner, key, step, render)}
    if widen:
        ahead, behind = widened(build_cost(owner, key), ahead, behind)
    left: list[int] = []
    for k in window_steps(step, n, ahead, behind):
        if k == step:
            continue
        found = _VIEWS.peek(owner, (key, k))
        if found is None and time.perf_counter() - start > budget:
            left.append(k)  # not built yet, and out of time: a later run finds it
            continue
        views[str(k)] = found if found is not None else _view(owner, key, k, render)
    if background and left:
        build_in_background(owner, key, left, render)
    return views


def _view(owner: Any, key: Hashable, k: int, render: Callable[[int], Any]) -> list[Any]:
    """Step ``k``'s view, kept; the time a new one took is added to its cost."""
    def make() -> list[Any]:
        start = time.perf_counter()
        tree = _tree(render(k))
        spent = time.perf_counter() - start
        _COSTS.update(owner, key, lambda old: (spent, 1) if old is None
                      else (old[0] + spent, old[1] + 1))
        return tree

    return _VIEWS.get(owner, (key, k), make)


def widened(cost: float | None, ahead: int, behind: int) -> tuple[int, int]:
    """How far a window reaches ahead and behind for views that cost ``cost`` seconds
    each to build (None: not known yet): up to ``WIDEN`` times as far, as long as the
    whole window takes at most ``WINDOW_SECONDS``; never less than asked.

    >>> widened(None, 24, 8), widened(0.001, 24, 8), widened(0.025, 24, 8)
    ((24, 8), (96, 32), (58, 19))
    >>> widened(0.3, 24, 8)
    (24, 8)
    """
    if cost is None:
        return ahead, behind
    whole = cost * (ahead + behind + 1)  # seconds to build the window as asked
    factor = WIDEN if whole <= 0 else min(WIDEN, max(1.0, WINDOW_SECONDS / whole))
    return round(ahead * factor), round(behind * factor)


def build_cost(owner: Any, key: Hashable) -> float | None:
    """The mean time (seconds) the views of ``owner``'s ``key`` took to build, or None
    before any was built.

    >>> class Training: ...
    >>> t = Training()
    >>> build_cost(t, "demo") is None
    True
    >>> _ = panel_window(t, "demo", 0, 3, lambda k: f"<p>{k}</p>")
    >>> build_cost(t, "demo") < 0.01
    True
    """
    found = _COSTS.peek(owner, key)
    return None if found is None else found[0] / found[1]


def build_in_background(owner: Any, key: Hashable, steps: list[int],
                        render: Callable[[int], Any]) -> threading.Thread:
    """Build and keep the views of ``steps`` (in that order) in a daemon thread, which
    stops early when a newer call for the same ``owner`` and ``key`` takes over; an error
    in ``render`` ends it (logged: the page's own run draws that step and says why)."""
    slot = (id(owner), key)
    with _BUILDERS_LOCK:
        generation = _BUILDERS[slot] = next(_GENERATIONS)

    def current() -> bool:
        with _BUILDERS_LOCK:
            return _BUILDERS.get(slot) == generation

    def build() -> None:
        try:
            for k in steps:
                if not current():
                    return
                if _VIEWS.peek(owner, (key, k)) is None:
                    _view(owner, key, k, render)
        except Exception:  # a view the page's own run draws (or says why it cannot)
            log.debug("building the view of a step ahead failed", exc_info=True)
        finally:
            with _BUILDERS_LOCK:
                if _BUILDERS.get(slot) == generation:
                    del _BUILDERS[slot]

    thread = threading.Thread(target=build, name="bpeviz-step-views", daemon=True)
    thread.start()
    return thread
