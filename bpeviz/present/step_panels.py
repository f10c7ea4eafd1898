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

import time
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from bpeviz.present.html_tree import html_tree
from bpeviz.text.owned import OwnedCache

#: steps built beyond the current one, forward and back
AHEAD, BEHIND = 24, 8
#: seconds a run may spend building steps other than the current one
BUDGET = 0.15
#: views kept per training (each a few kilobytes of HTML)
KEEP = 400

_VIEWS: OwnedCache[list[Any]] = OwnedCache("step panels", keep=KEEP)


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


def panel_window(owner: Any, key: Hashable, step: int, n: int, render: Callable[[int], str],
                 *, budget: float = BUDGET, ahead: int = AHEAD,
                 behind: int = BEHIND) -> dict[str, list[Any]]:
    """``render(k)`` (HTML) as a tree for the steps of the window around ``step``
    (``str(k)`` keys): the current step always, the others while ``budget`` seconds last
    or when kept already (per ``owner``, a training, and ``key``, what the view depends on
    besides the step).

    >>> class Training: ...
    >>> t = Training()
    >>> sorted(panel_window(t, "demo", 1, 2, lambda k: f"<p>{k}</p>").items())
    [('0', [['p', {}, '0']]), ('1', [['p', {}, '1']]), ('2', [['p', {}, '2']])]
    """
    start = time.perf_counter()
    views: dict[str, list[Any]] = {}
    for k in window_steps(step, n, ahead, behind):
        found = _VIEWS.peek(owner, (key, k))
        if found is None and k != step and time.perf_counter() - start > budget:
            continue  # not built yet, and out of time: a later run builds it
        views[str(k)] = found if found is not None else _VIEWS.get(
            owner, (key, k), lambda k=k: html_tree(render(k)))
    return views
