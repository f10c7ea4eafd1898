"""A view that is cheap to build (the merges rows, "Why this merge?" on a small corpus)
is sent for a wider window of steps, so the browser seldom asks for more (each ask is a
fragment rerun whose drawing lands between a rapid run of keys), as wide as a few
seconds of building allow; a slow one keeps the narrow window, which a thread could
otherwise spend a minute building."""

from __future__ import annotations

import time

import pytest

from bpeviz.present import step_panels


class Owner:
    """A stand-in for a training: views are kept on it."""


def render_taking(seconds: float):
    def render(k: int) -> str:
        if seconds:
            time.sleep(seconds)
        return f"<p>step {k}</p>"
    return render


def held(window: dict) -> list[int]:
    return sorted(int(k) for k in window)


def test_a_cheap_view_is_sent_for_a_window_widen_times_as_wide():
    narrow = held(step_panels.panel_window(Owner(), "why", 100, 1000, render_taking(0),
                                           ahead=6, behind=2, budget=60))
    wide = held(step_panels.panel_window(Owner(), "why", 100, 1000, render_taking(0),
                                         ahead=6, behind=2, budget=60, widen=True))
    assert narrow == list(range(98, 107))
    w = step_panels.WIDEN
    assert wide == list(range(100 - 2 * w, 100 + 6 * w + 1))


def test_a_slow_view_keeps_the_narrow_window_even_when_asked_to_widen(monkeypatch):
    # five views of 20 ms are a window of 0.1 s: over a budget of 0.05 s, so not widened
    monkeypatch.setattr(step_panels, "WINDOW_SECONDS", 0.05)
    owner = Owner()
    got = held(step_panels.panel_window(owner, "why", 10, 1000, render_taking(0.02),
                                        ahead=3, behind=1, budget=60, widen=True))
    assert got == list(range(9, 14))
    assert step_panels.build_cost(owner, "why") >= 0.02


def test_the_window_widens_only_as_far_as_its_time_allows(monkeypatch):
    # views of about 10 ms in a window of 4 + 2 + 1 steps with 0.15 s to build it in
    # all: about twice as wide (never WIDEN times: that would take 0.28 s)
    monkeypatch.setattr(step_panels, "WINDOW_SECONDS", 0.15)
    owner = Owner()
    step_panels.panel_window(owner, "why", 50, 1000, render_taking(0.01), ahead=4,
                             behind=2, budget=60)
    cost = step_panels.build_cost(owner, "why")
    ahead, behind = step_panels.widened(cost, 4, 2)
    assert 4 < ahead < 4 * step_panels.WIDEN and 2 <= behind < 2 * step_panels.WIDEN
    assert (ahead + behind + 1) * cost <= 0.15 * 1.1
    got = held(step_panels.panel_window(owner, "why", 50, 1000, render_taking(0.01),
                                        ahead=4, behind=2, budget=60, widen=True))
    assert got == list(range(50 - behind, 50 + ahead + 1))


@pytest.mark.parametrize("step, expected", [(0, (0, 24)), (1000, (992, 1000))])
def test_a_wide_window_stays_within_the_training(step, expected):
    got = held(step_panels.panel_window(Owner(), "why", step, 1000, render_taking(0),
                                        ahead=6, behind=2, budget=60, widen=True))
    assert (got[0], got[-1]) == expected
    assert got == list(range(got[0], got[-1] + 1))


def test_the_cost_is_the_mean_of_the_views_built_and_kept_ones_add_nothing():
    owner = Owner()
    step_panels.panel_window(owner, "why", 5, 10, render_taking(0.02), ahead=1, behind=0)
    first = step_panels.build_cost(owner, "why")
    assert 0.015 < first < 0.2
    step_panels.panel_window(owner, "why", 5, 10, render_taking(0), ahead=1, behind=0)
    assert step_panels.build_cost(owner, "why") == first, "nothing new was built"
    step_panels.panel_window(owner, "why", 8, 10, render_taking(0), ahead=1, behind=0)
    assert step_panels.build_cost(owner, "why") < first, "two quick ones lower the mean"
