"""The views of the steps around the bar's ("Why this merge?", the merges rows): what a
run has no time for is built in a thread of its own, nearest first, so that the browser's
next ask finds it kept; a newer window for the same view takes over from an older one."""

from __future__ import annotations

import threading
import time

from bpeviz.present import step_panels
from bpeviz.present.html_tree import html_tree


class Owner:
    """A stand-in for a training: views are kept on it."""


def slow(calls: list[int], delay: float = 0.02, gate: threading.Event | None = None):
    def render(k: int) -> str:
        if gate is not None:
            gate.wait(10)
        calls.append(k)
        time.sleep(delay)
        return f"<p>step {k}</p>"
    return render


def kept(owner, key, steps) -> list[int]:
    return [k for k in steps if step_panels._VIEWS.peek(owner, (key, k)) is not None]


def wait_until(check, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "the background builder did not finish"
        time.sleep(0.01)


def test_the_steps_a_run_had_no_time_for_are_kept_for_the_next_ask():
    owner, calls = Owner(), []
    window = list(step_panels.window_steps(50, 200, ahead=10, behind=4))
    first = step_panels.panel_window(owner, "why", 50, 200, slow(calls), budget=0.0,
                                     ahead=10, behind=4, background=True)
    assert list(first) == ["50"], "out of time at once: only the bar's step"
    wait_until(lambda: kept(owner, "why", window) == window)
    assert calls[0] == 50 and calls[1:] == window[1:], "nearest first, each built once"
    again = step_panels.panel_window(owner, "why", 50, 200, slow(calls), budget=0.0,
                                     ahead=10, behind=4, background=True)
    assert sorted(map(int, again)) == sorted(window)
    assert again["57"] == html_tree("<p>step 57</p>")
    assert len(calls) == len(window), "the second ask built nothing"


def test_without_background_the_steps_left_out_stay_unbuilt():
    owner, calls = Owner(), []
    step_panels.panel_window(owner, "why", 5, 100, slow(calls), budget=0.0, ahead=6,
                             behind=2)
    time.sleep(0.3)
    assert calls == [5]
    assert kept(owner, "why", range(101)) == [5]


def test_a_newer_window_takes_over_from_an_older_one():
    owner, calls, gate = Owner(), [], threading.Event()
    old = step_panels.build_in_background(owner, "why", list(range(1, 40)),
                                          slow(calls, gate=gate))
    new = step_panels.build_in_background(owner, "why", [100, 101, 102], slow(calls))
    new.join(10)
    gate.set()  # the old builder was waiting inside its first step
    old.join(10)
    assert not old.is_alive() and not new.is_alive()
    assert kept(owner, "why", [100, 101, 102]) == [100, 101, 102]
    assert kept(owner, "why", range(2, 40)) == [], "the old one stopped after its step"


def test_a_view_that_fails_ends_its_builder_and_the_next_run_still_draws():
    owner = Owner()

    def render(k: int) -> str:
        if k == 3:
            raise ValueError("no view at step 3")
        return f"<p>{k}</p>"

    step_panels.build_in_background(owner, "why", [1, 2, 3, 4], render).join(10)
    assert kept(owner, "why", [1, 2, 3, 4]) == [1, 2]
    got = step_panels.panel_window(owner, "why", 4, 10, render, ahead=1, behind=0)
    assert got == {"4": html_tree("<p>4</p>"), "5": html_tree("<p>5</p>")}
