"""The stage component: steps through the merges in the browser (Streamlit components v2).

The browser gets the history of the view once (every merge, and for the words on screen
the steps at which each of their tokens appears and goes), then redraws the step bar,
the merge card and the word splits by itself while the slider is dragged, a key is held
or Play runs; no Python rerun per step. Python hears of the step on release or pause (a
trigger, debounced by the browser), never while Play runs (a rerun's drawing would hold
the browser's main thread that Play needs), stores it in the ``step`` setting and
redraws the rest of the page (metrics, tables, heatmap) for it.

The JavaScript is ES modules by role in ``stepper/src/``, joined into one script at
import (:mod:`bpeviz.present.stage_script`); it and the CSS (``stepper/stepper.css``)
are read at import: nothing comes from a CDN. User text (words, tokens) travels only in
``data`` and the script draws it with ``textContent``.

The script catches its own errors (the bar keeps working) and reports each one with the
trigger ``error``; every element of the stage is mounted with a callback that writes it
to the server log (:func:`log_browser_error`).

In a page (not a doctest: it needs a running script)::

    step = stage.controls(training)          # the bar: ◀ slider ▶, step, Play, speed, keys
    stage.card(training, "gpt2")             # the merge card of the browser's step
    stage.words(training, rows, "gpt2")      # the splits of a page of words
"""

from __future__ import annotations

import logging
import re
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pandas as pd
import streamlit as st

import bpeviz.ui.state as state
import bpeviz.ui.trace as trace
from bpeviz.core import protocol
from bpeviz.core.training import Training
from bpeviz.present import render_languages, stage_data, stage_script, step_panels
from bpeviz.present.render import md_escape
from bpeviz.present.text_history import any_text_history, stage_tokens
from bpeviz.ui.state import get, put

JS = stage_script.script()
CSS = stage_script.css()
NAME = "bpeviz_stage"
KEY = "stage"
SPEEDS = ("1", "2", "4", "10")
log = logging.getLogger("bpeviz.ui")


def keys_caption(unit: str = "merge", units: str | None = None) -> str:
    """The bar's keys in a sentence for a caption, for steps called ``unit`` (from the
    key table that also drives the bar's keys, its ``?`` list and its buttons' titles)."""
    return stage_script.keys_caption(unit, units)


def _component() -> Any:
    # registering the same definition again is a no-op (Streamlit compares them); do it
    # on every run so that a fresh runtime (a test, a restarted server) has it too
    return st.components.v2.component(NAME, css=CSS, js=JS, isolate_styles=False)


#: the key prefix of a container of views Python draws for the settled step below the
#: first screen; the stage script (sync.mjs) looks for its class, "st-key-" + the key
SETTLES = "bv_settles"


def settles_key(name: str) -> str:
    """The key of a container holding views that follow the step when it settles, below
    the first screen: while none of them is in view, the browser reports the step to
    Python only once the keys have stopped (a rerun's drawing then never lands between a
    speaker's keys), and at once when one is scrolled into view."""
    return f"{SETTLES}_{name}"


#: set by a step report sent while some of the views below the first screen were in view
BELOW_FIRST = "_bv_below_first"


def below_first() -> bool:
    """Whether this run should fill the views below the first screen before the first
    screen: the step came from a bar whose page had some of them in view, so a person is
    watching them; the browser draws a rerun's parts in the order they come, and the
    first screen already shows the step (the browser drew it). Once per report."""
    return bool(st.session_state.pop(BELOW_FIRST, False))


def mount(key: str, data: Any, **callbacks: Any) -> Any:
    """One element of the stage (``data["role"]`` says which), its script's own errors
    logged (:func:`log_browser_error`)."""
    return _component()(key=key, data=data, on_error_change=lambda: _browser_error(key),
                        **callbacks)


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _one_line(value: Any, limit: int) -> str:
    text = _CONTROL.sub(" ", str(value if value is not None else ""))[:limit]
    return text.replace("\n", " ")


def log_browser_error(key: str, sent: Any) -> bool:
    """Write an error the stage script caught (``sent``: its report, ``{"where",
    "message", "stack"}``) to the server log; False when ``sent`` is no report. The text
    came from the browser: control characters go, the message stays on one line and
    every line of the stack is indented, so no line of it passes for a log record."""
    if not isinstance(sent, dict) or not sent.get("message"):
        return False
    stack = _CONTROL.sub(" ", str(sent.get("stack") or ""))[:4000]
    log.error("the step bar's script caught an error (%s, %s): %s%s", _one_line(key, 80),
              _one_line(sent.get("where"), 80), _one_line(sent.get("message"), 500),
              "".join(f"\n    {line}" for line in stack.splitlines()))
    return True


def _browser_error(key: str) -> None:
    log_browser_error(key, (st.session_state.get(key) or {}).get("error"))


def _history_id(training: Training, byte_style: str = "") -> str:
    return f"{id(training):x}:{len(training.merges)}:{byte_style}"


def _from_browser(key: str, setting: str, lo: int, hi: int) -> None:
    """The browser's position (and speed) after a release, a pause or a key burst."""
    sent = (st.session_state.get(key) or {}).get("step")
    if not isinstance(sent, dict):
        return
    try:
        value = int(sent.get("step"))
    except (TypeError, ValueError):
        return
    put(setting, state.settle(setting, min(max(value, lo), hi)))
    st.session_state[BELOW_FIRST] = sent.get("below") is True
    seq = sent.get("seq")
    trace.event("heard", key=key, step=value, seq=seq)
    if isinstance(seq, int):
        st.session_state[f"{key}_seq"] = max(seq, st.session_state.get(f"{key}_seq", 0))
    if sent.get("speed") in SPEEDS:
        put("speed", sent["speed"])


def bar(setting: str, lo: int, hi: int, history: str, *, key: str = KEY,
        words: dict[str, str] | None = None, box: str | None = None, box_key: str = "",
        box_help: str = "", landmarks: list[tuple[Any, ...]] | None = None) -> int:
    """The step bar (◀ slider ▶, Play, speeds, page-wide keys) over ``lo..hi``, bound to
    ``setting``, and beside it, when ``box`` names it, a box Python owns for a typed
    value; returns the position Python knows. Explore's merges, Unigram's rounds and
    Compare's positions all step with it. ``history`` names what the browser steps
    through (a new one resets the bar); ``words``: what a step is called (``unit``,
    ``units``, ``name``; a merge by default); ``box_key``: the box's key prefix;
    ``landmarks``: steps where a phase starts, with its name (ticks on the slider, the
    phase of the bar's step named beside Play; a third item, its kind, styles it: a
    PickyBPE removal in red)."""
    value = state.clamp(setting, lo, hi)
    if get("speed") not in SPEEDS:
        put("speed", "1")
    data = {"role": "controls", "step": value, "lo": lo, "n": hi, "speed": get("speed"),
            "seq": st.session_state.get(f"{key}_seq", 0), "hist": history, **(words or {}),
            "landmarks": [list(m) for m in landmarks or []],
            # the box's key prefix: the browser writes the bar's step into it as it moves
            "box": box_key if box else ""}
    if trace.on():
        data["sid"] = trace.session()
        trace.event("bar", key=key, step=value, seq=data["seq"])
    if box:
        # on a projector the type is larger: the box's column is wider, so that its label
        # ("Go to round") keeps one line at 1280 px
        bar_area, box_area = st.columns([5, 1] if get("present") else [6, 1],
                                        vertical_alignment="center")
    else:
        bar_area, box_area = st.container(), None
    with bar_area:
        mount(key, data, on_step_change=lambda: _from_browser(key, setting, lo, hi))
    if box_area is not None:
        with box_area:
            # the box shows the position Python knows: a fresh box per value, whose
            # callback takes only a value other than its own (state.box_to)
            typed = f"{box_key}{value}"
            if st.session_state.get(typed, value) != value:
                # a box of this key, typed into when the step was last here, kept that
                # value (a fragment's rerun keeps what it did not draw): show the step
                del st.session_state[typed]
            st.number_input(box, min_value=lo, max_value=hi, value=value, key=typed,
                            on_change=state.box_to, args=(typed, setting, value),
                            help=box_help)
    return value


def controls(training: Training, *, number_box: bool = True, setting: str = "step",
             empty_note: bool = False) -> int:
    """The step bar of the page (and a "Go to step" box Python owns); returns the step.

    Every page whose view steps through merges (Explore, Tokenize, Vocabulary, an opened
    tokenizer file) steps with this one bar. Keys anywhere on the page (not in a text
    box), as the key table says (``stepper/src/keys.json``; :func:`keys_caption`): ← → one
    step, Shift+← → ten, Home/End, Page Down/Up, Space play/pause, ``?`` the list of keys.
    ``setting``: the step setting it moves ("step", kept in the link, or an opened file's
    own); ``empty_note``: say so when the training made no merge.
    """
    last = len(training.merges)
    shared = setting == "step"
    if last == 0:
        if shared:
            state.set_url_step(0)  # the link names the step shown, even with no merge
        if empty_note:
            st.info(md_escape(f"No merges were made. {training.stop_message}"))
        return 0
    step = bar(setting, 0, last, _history_id(training),
               key=KEY if shared else f"{KEY}_{setting}",
               box="Go to step" if number_box else None,
               box_key="stage_box_" if shared else f"{setting}_box_",
               box_help="Type a step and press Enter. The bar on the left and this box "
                        "move together.",
               landmarks=protocol.landmarks(training))
    if shared:
        state.set_url_step(step)
    return step


#: the key prefix of a container of views only Python draws for its step; the stage
#: script (drawn.mjs) looks for its class, "st-key-" + the key
DRAWN = "bv_drawn"


@contextmanager
def drawn_views(training: Training, name: str) -> Iterator[Any]:
    """A container for views only Python can draw for the step (Streamlit widgets: a
    table, a chart): while the bar is at another step than the one they were drawn for
    (keys, Play; Python hears the step when it settles), the browser dims them and says
    which step they show and which follows (``stepper/src/drawn.mjs``), in the same
    frame as the bar's step."""
    with st.container(key=f"{DRAWN}_{name}") as box:
        mount(f"{KEY}_drawn_{name}", {"role": "drawn", "step": int(get("step")),
                                      "n": len(training.merges),
                                      "hist": _history_id(training)})
        yield box


def step_of(training: Training, setting: str = "step") -> int:
    """The step :func:`controls` will draw and return, known before it is drawn (for a
    page that fills what is below the first screen first: :func:`below_first`)."""
    return state.clamp(setting, 0, len(training.merges)) if training.merges else 0


def rounds(last: int, history: str, setting: str = "uround") -> int:
    """The step bar for pruning rounds 0..``last`` (Unigram), bound to ``setting``,
    with a "Go to round" box: the same bar, keys and Play as :func:`controls`, its steps
    named rounds; the round card and its numbers follow it in the browser, and the rest
    of the page redraws when Python hears the round (on release, after a key burst, on
    pause). ``history`` names the training (a new one resets the bar)."""
    k = bar(setting, 0, last, history, key=f"{KEY}_{setting}",
            words={"unit": "round", "units": "rounds", "name": "Round"},
            box="Go to round", box_key=f"{setting}_box_",
            box_help="Type a pruning round (0 = the seed) and press Enter. The bar on the "
                     "left and this box move together.")
    state.write_url()
    return k


def card(training: Training, byte_style: str = "gpt2", strong: bool = False) -> None:
    """The merge card (this merge and the next), following the browser's step."""
    step = int(get("step"))
    data = {"role": "card", "step": step, "n": len(training.merges),
            "hist": _history_id(training), "strong": strong,
            **stage_data.stage_merges(training, byte_style)}
    mount(f"{KEY}_card", data)


def panel(training: Any, name: str, key: Any, render: Callable[[int], Any], waiting: str = "",
          *, setting: str = "step", last: int | None = None, history: str | None = None,
          on_pick: Callable[[str, int | None], None] | None = None,
          costly: bool = False) -> None:
    """A view Python draws for one step (``render(k)``: HTML, user text escaped),
    shown by the browser at the bar's step: Python sends it for the steps around the
    current one (:func:`bpeviz.present.step_panels.panel_window`), and the browser swaps
    in the bar's, in the same frame as the card. When the bar nears the edge of what it
    holds (Play, a run of keys), the browser asks for the steps around its own (trigger
    ``want``): that reruns only this view's fragment, so nothing else on the page is
    redrawn and Play keeps its rate. ``key``: what the view depends on besides the step;
    ``waiting``: what the browser says at a step it holds no view of yet ("{step}" is
    that step). A bar of another setting (Unigram's rounds) names its ``setting``, its
    ``last`` step and its ``history``. ``on_pick(what, step)``: a click on an element
    of the view with ``data-pick`` (the heatmap's cells), what it names and the step the
    view was for; the whole page then runs again. ``costly``: a view of hundreds of
    elements a step (the pair heatmap): the browser neither builds the steps it holds
    ahead of time to measure them nor draws one out of view before the bar rests on a
    step (``stepper/src/sight.mjs``, REST_MS); a view that is not costly and is cheap to
    build gets a wider window of steps (``step_panels.panel_window``'s ``widen``), so the
    browser seldom has to ask for more."""
    # a page run centres the window on the step Python holds; the browser's asks only
    # move it in the fragment's own reruns
    st.session_state.pop(_wanted_key(name), None)
    _panel_part(training, name, key, render, waiting, setting, last, history, on_pick,
                costly)


def _wanted_key(name: str) -> str:
    return f"_bv_panel_wanted_{name}"


def _wanted(name: str) -> None:
    """The panel's ``want`` trigger: the step the browser's bar is at, as an int."""
    sent = (st.session_state.get(f"{KEY}_{name}") or {}).get("want")
    if isinstance(sent, (int, float)) and not isinstance(sent, bool) and sent == sent:
        st.session_state[_wanted_key(name)] = int(sent)


def _picked_key(name: str) -> str:
    return f"_bv_panel_picked_{name}"


def _picked(name: str, on_pick: Callable[[str, int | None], None]) -> None:
    """The panel's ``pick`` trigger: ``{"pick": what, "step": k}`` from the browser."""
    sent = (st.session_state.get(f"{KEY}_{name}") or {}).get("pick")
    if not isinstance(sent, dict) or not isinstance(sent.get("pick"), str):
        return
    step = sent.get("step")
    ok = isinstance(step, (int, float)) and not isinstance(step, bool) and step == step
    on_pick(sent["pick"], int(step) if ok else None)
    st.session_state[_picked_key(name)] = True


@st.fragment
def _panel_part(training: Any, name: str, key: Any, render: Callable[[int], Any],
                waiting: str, setting: str, last: int | None, history: str | None,
                on_pick: Callable[[str, int | None], None] | None = None,
                costly: bool = False) -> None:
    if st.session_state.pop(_picked_key(name), False):
        st.rerun()  # a pick changes views outside this fragment (Pair details)
    step = int(get(setting))
    last = len(training.merges) if last is None else last
    centre = st.session_state.get(_wanted_key(name), step)
    centre = max(0, min(int(centre), last))
    data = {"role": "panel", "step": step, "n": last,
            "hist": history or _history_id(training), "waiting": waiting,
            "views": step_panels.panel_window(training, (name, key), centre, last, render,
                                              background=True, widen=not costly)}
    if costly:
        data["costly"] = True
    callbacks = {} if on_pick is None else {"on_pick_change": lambda: _picked(name, on_pick)}
    mount(f"{KEY}_{name}", data, on_want_change=lambda: _wanted(name), **callbacks)


def numbers(metrics: list[dict[str, Any]], last: int, history: str, *, setting: str = "step",
            note: str | None = None, notes: list[str] | None = None,
            counts: list[int] | None = None, first: str | None = None,
            name: str = "numbers") -> None:
    """Metrics beside the card, drawn by the browser at the bar's step with their change
    from the step before: each ``{"label", "help", "values": a number per step, "good":
    "up" | "down", "digits", "least"}`` (the stage script's numbers role); under them
    ``notes[k]``, or ``note`` with "{step}", "{n}" and "{count}" (``counts[k]``) filled
    in, ``first`` instead at step 0."""
    data: dict[str, Any] = {"role": "numbers", "step": int(get(setting)), "n": last,
                            "hist": history, "metrics": metrics}
    if notes is not None:
        data["notes"] = notes
    elif note is not None:
        data["note"] = note
    if counts is not None:
        data["counts"] = counts
    if first is not None:
        data["first"] = first
    mount(f"{KEY}_{name}", data)


def merge_numbers(training: Training) -> None:
    """The vocabulary's size and the corpus's tokens at the bar's step (Explore)."""
    per_step = stage_data.stage_numbers(training)
    numbers([{"label": "Vocabulary", "help": "Tokens in the vocabulary at this step",
              "values": per_step["vocab"], "good": "up"},
             {"label": "Corpus tokens", "values": per_step["tokens"], "good": "down",
              "help": "The corpus cut into this step's tokens: how many tokens it takes"}],
            len(training.merges), _history_id(training),
            note="These numbers are for step {step} of {n}.")


def changed_words(training: Training) -> None:
    """How many words the bar's merge changed (Explore's word list), one line drawn by
    the browser at the bar's step, as the highlighted words below it are."""
    numbers([], len(training.merges), _history_id(training),
            counts=stage_data.changed_words_per_step(training),
            note="Merge {step} changed {count} of the corpus's words (highlighted below).",
            first="Step 0: no merge has changed a word yet.", name="changed_words")


def step_sentence(training: Training) -> None:
    """For a training that says something of each of its steps (``step_notes``: which
    language got the merge and on which numbers, or SuperBPE's stage and superwords), the
    bar's step's sentence, drawn by the browser with the card, at every key. Nothing for
    the others."""
    notes = protocol.step_notes(training)
    if notes is None:
        return
    numbers([], len(training.merges), _history_id(training), notes=notes,
            name="step_sentence")


def language_numbers(training: Training) -> None:
    """For a training on one corpus per language: each language's tokens at the bar's
    step, on the text its choices count, with their change. Nothing for one corpus."""
    languages = protocol.languages(training)
    if not languages:
        return
    per_language = render_languages.tokens(training)
    numbers([{"label": f"{lang} tokens", "good": "down",
              "values": per_language[lang].tolist(),
              "help": f"Tokens of the {lang} text at this step: on parallel texts, the "
                      "language that takes the most is served worst"}
             for lang in languages],
            len(training.merges), _history_id(training), name="languages",
            note="Each language's tokens at step {step} of {n}.")


def words(training: Training, rows: pd.DataFrame, byte_style: str = "gpt2",
          strong: bool = False, max_chips: int = 200) -> None:
    """The splits of the words of ``rows`` (a page of :func:`bpeviz.analysis.views.words_frame`),
    following the browser's step: changed words highlighted, new tokens outlined."""
    step = int(get("step"))
    data = {"role": "words", "step": step, "n": len(training.merges),
            "hist": _history_id(training), "strong": strong, "maxChips": max_chips,
            **stage_data.stage_words(training, rows, byte_style)}
    mount(f"{KEY}_words", data)


_HISTORIES: weakref.WeakKeyDictionary[Training, OrderedDict[str, dict[str, Any]]] = (
    weakref.WeakKeyDictionary())
_HISTORIES_LOCK = threading.Lock()


def _text_history(training: Training, text: str) -> dict[str, Any] | None:
    """:func:`bpeviz.present.text_history.any_text_history`, the last few texts of each
    training kept."""
    with _HISTORIES_LOCK:
        kept = _HISTORIES.setdefault(training, OrderedDict())
        found = kept.get(text)
        if found is not None:
            kept.move_to_end(text)
            return found
    found = any_text_history(training, text)
    with _HISTORIES_LOCK:
        kept = _HISTORIES.setdefault(training, OrderedDict())
        kept[text] = found
        while len(kept) > 4:
            kept.popitem(last=False)
    return found


def tokens(training: Training, text: str, byte_style: str = "gpt2", strong: bool = False,
           show_whitespace: bool = False, max_tokens: int = 3000) -> bool:
    """``text`` cut into the tokens of the browser's step (Tokenize): the text's tokens
    at every step travel once (:mod:`bpeviz.present.text_history`), the browser redraws them;
    the tokens a merge just made are outlined. False, and nothing drawn, when the training
    leaves this text to the settled step (its ``text_history`` gave None)."""
    history = _text_history(training, text)
    if history is None:
        return False
    data = {"role": "tokens", "step": int(get("step")), "n": len(training.merges),
            "hist": _history_id(training), "strong": strong, "showWs": show_whitespace,
            "maxTokens": max_tokens, **stage_tokens(training, text, byte_style, history)}
    mount(f"{KEY}_tokens", data)
    return True
