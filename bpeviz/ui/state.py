"""Session and URL state: one store per setting, widgets kept in sync with it.

Every setting lives in ``st.session_state[name]`` (plain state, so it survives page
switches). Its widget has the key ``"w_" + name``; the widget's value is copied to the
store by an ``on_change`` callback, and the store is copied back into the widget before
it is drawn on a new page (``persist_state`` alone loses values on a direct page-to-page
switch in AppTest). Settings marked ``url`` are read from the query string once per
session and written back on every run, so a link reopens the same view. The corpus
text never goes into the URL: only the sample id.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

import bpeviz.ui.trace as trace
from bpeviz import algorithms
from bpeviz.core.limits import LIMITS
from bpeviz.core.training import SCORINGS, TIE_BREAKS
from bpeviz.samples import DEFAULT_SAMPLE, SAMPLES


@dataclass(frozen=True)
class Setting:
    """A setting's default and what values it accepts (from a widget or a URL)."""

    default: Any
    choices: tuple[Any, ...] | Callable[[], tuple[Any, ...]] | None = None  # or a function
    lo: int | None = None
    hi: int | None = None
    url: bool = True
    #: "pair" (two ids, ``12,34`` in the URL) or "int" for a setting whose default is None
    kind: str = ""
    max_len: int | None = None  # longer values stay out of the URL (and are refused from it)
    #: in every link, even at its default (the step: a shared link names the merge it shows)
    always: bool = False
    #: the session flag that must be set (not None, not False) for the value to go into
    #: the URL: a text the user typed (not a sample's), a pair the user picked
    only_if: str | None = None

    def parse(self, raw: str) -> Any:
        """A value from the query string; ValueError when it is not acceptable.

        >>> Setting(None, kind="pair").parse("12,34")
        (12, 34)
        """
        if self.max_len is not None and len(raw) > self.max_len:
            raise ValueError(raw)
        if self.kind == "pair":
            left, right = (int(x) for x in raw.split(","))
            if left < 0 or right < 0:
                raise ValueError(raw)
            return (left, right)
        if self.kind == "int":
            value = int(raw)
            if value < (self.lo or 0):
                raise ValueError(raw)
            return value
        if isinstance(self.default, bool):
            if raw.lower() in ("1", "true", "yes", "on"):
                return True
            if raw.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(raw)
        if isinstance(self.default, float):
            value = float(raw)
            if not self.accepts(value):
                raise ValueError(raw)
            return value
        if isinstance(self.default, int):
            value = int(raw)
            lo = self.lo if self.lo is not None else value
            hi = self.hi if self.hi is not None else value
            if not lo <= value <= hi:
                raise ValueError(raw)
            return value
        if self.choices is not None and raw not in self.options():
            raise ValueError(raw)
        return raw

    def options(self) -> tuple[Any, ...]:  # the choices now (a function's: the registered)
        return self.choices() if callable(self.choices) else self.choices or ()

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` (from a widget, the step bar or code) is a valid value.

        >>> Setting(200, lo=0, hi=1000).accepts(1001), Setting("a", ("a", "b")).accepts("b")
        (False, True)
        >>> Setting("auto", ("auto", "gpt2")).accepts("auto: whitespace")
        False
        """
        if value is None:
            return self.default is None
        if self.kind == "pair":
            return (isinstance(value, (tuple, list)) and len(value) == 2
                    and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0
                            for x in value))
        if isinstance(self.default, bool):
            return isinstance(value, bool)
        if isinstance(self.default, float):
            return (isinstance(value, numbers.Real) and not isinstance(value, bool)
                    and math.isfinite(value) and (self.lo is None or value >= self.lo)
                    and (self.hi is None or value <= self.hi))
        if self.kind == "int" or isinstance(self.default, int):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                return False
            return ((self.lo is None or value >= self.lo)
                    and (self.hi is None or value <= self.hi))
        if self.choices is not None:
            return value in self.options()
        return isinstance(value, str) and type(value) is type(self.default)


PRETOKENIZER_CHOICES = ("auto", "whitespace", "gpt2", "none", "cl100k", "o200k", "metaspace",
                        "bert")
MARKERS = ("none", "</w>", "_")
DEFAULT_STEP = 10
MAX_TYPED = 1_000_000  # what a number box accepts; the interactive limit is checked after
#: PickyBPE's removal thresholds offered (its paper tries 0.6 to 0.9)
THRESHOLDS = ("0.5", "0.6", "0.7", "0.8", "0.9", "0.95", "0.99")
TEXT_IN_URL = 200  # characters: a longer text (a pasted corpus) never goes into a link

SETTINGS: dict[str, Setting] = {
    "source": Setting("sample", ("sample", "paste", "upload")),
    "sample": Setting(DEFAULT_SAMPLE, tuple(SAMPLES)),
    "algo": Setting("bpe", algorithms.offered),
    "size_by": Setting("merges", ("merges", "vocab")),
    "merges": Setting(200, lo=0, hi=MAX_TYPED),
    "vocab": Setting(1000, lo=1, hi=MAX_TYPED),
    "pretok": Setting("auto", PRETOKENIZER_CHOICES),
    "marker": Setting("none", MARKERS),
    "marker_style": Setting("separate", ("separate", "glued")),
    "scoring": Setting("score", SCORINGS),
    "tie": Setting("first", TIE_BREAKS),
    "min_freq": Setting(0, lo=0, hi=MAX_TYPED),
    "transition": Setting(None, kind="int", lo=0),  # SuperBPE's stage 1 (None: its default)
    # parity-aware BPE's own settings (bpeviz.ui.language_settings)
    "pvariant": Setting("base", ("base", "window")),
    "global_merges": Setting(0, lo=0, hi=MAX_TYPED),
    "ratio": Setting("", max_len=200),
    "window_size": Setting(100, lo=1, hi=MAX_TYPED),
    "alpha": Setting(2.0, lo=0.1, hi=100),
    # PickyBPE: the Intersection over Self above which a token is removed
    "threshold": Setting("0.9", THRESHOLDS),
    "bytes": Setting("gpt2", ("gpt2", "hex")),
    "present": Setting(False),
    "step": Setting(DEFAULT_STEP, lo=0, hi=MAX_TYPED, always=True),
    "top_n": Setting(20, lo=2, hi=LIMITS.heatmap_symbols),
    "cmp_n": Setting(2, lo=2, hi=LIMITS.compare),
    "speed": Setting("1", ("1", "2", "4", "10")),  # steps/s of Play
    "pair": Setting(None, kind="pair", only_if="pair_step"),
    "pair_step": Setting(None, kind="int"),  # the step "pair" was picked at
    "text": Setting("", max_len=TEXT_IN_URL, only_if="text_edited"),  # in links if typed
    "search": Setting("", max_len=200),  # Explore's word search
    "paste": Setting("", url=False),
    # the languages of a corpus given per language (parity-aware BPE), their texts
    # kept apart (bpeviz.ui.languages)
    "langs": Setting("en, hi", url=False),
    "lang_dev": Setting(False, url=False),  # and a dev text per language
    # the parallel sample's last paragraph held out as every language's dev text
    "sample_dev": Setting(False),
    "imp_step": Setting(0, url=False),
    "tree_token": Setting(0, url=False),
    "tok_source": Setting("training", ("training", "imported"), url=False),
    "replay": Setting(False, url=False),  # explore the opened tokenizer on the corpus
    "own_corpus": Setting(False, url=False),  # explore an opened training on its corpus
    # Unigram: the trainer's variant, the pruning round shown, the lattice's word
    "uvariant": Setting("sentencepiece", ("sentencepiece", "course")),
    # Unigram's size (None: chosen for the corpus, unigram.teaching), the share a round keeps
    "uvocab": Setting(None, kind="int", lo=1),
    "ukeep": Setting("auto", ("auto", "0.75", "0.8", "0.9", "0.95")),
    "uround": Setting(MAX_TYPED, lo=0, hi=MAX_TYPED),
    "vocab_view": Setting("tokens", ("tokens", "health")), "pretokens": Setting(False),
    "health_kind": Setting("unused", ("unreachable", "unused", "near_duplicates", "partial")),
}
for _i, _algo in enumerate(algorithms.ALGORITHMS[:LIMITS.compare], 1):  # A, B, C: one each
    SETTINGS.update({
        f"c{_i}_algo": Setting(_algo, algorithms.offered),
        f"c{_i}_merges": Setting(200, lo=0, hi=MAX_TYPED),
        f"c{_i}_pretok": Setting("auto", PRETOKENIZER_CHOICES),
        f"c{_i}_marker": Setting("none", MARKERS),
        f"c{_i}_scoring": Setting("score", SCORINGS),
        f"c{_i}_tie": Setting("first", TIE_BREAKS),
        f"c{_i}_source": Setting("train", ("train", "opened"), url=False),
        # Unigram: to a vocabulary size (400 on the default sample: BPE's 200 merges' range)
        f"c{_i}_vocab": Setting(400, lo=1, hi=MAX_TYPED),
        f"c{_i}_uvariant": Setting("sentencepiece", ("sentencepiece", "course")),
        f"c{_i}_threshold": Setting("0.9", THRESHOLDS),  # PickyBPE's
    })
# Compare: one position for every configuration (a step, or a vocabulary size), the view
SETTINGS.update({
    "cmp_mode": Setting("step", ("step", "vocab")),
    "cmp_step": Setting(MAX_TYPED, lo=0, hi=MAX_TYPED),
    "cmp_vocab": Setting(MAX_TYPED, lo=0, hi=MAX_TYPED),
    "cmp_only": Setting(False, url=False),
    "cmp_metric": Setting("fertility", ("tokens", "chars_per_token", "bytes_per_token",
                                        "fertility", "split_share", "unk_rate")),
    "cmp_x": Setting("step", ("step", "vocab_size")),
    "cmp_script": Setting("all", url=False),
})

ss = st.session_state


def start_run(page: str) -> list[str]:
    """Call first on every page: load the URL once per session, note page switches.

    Returns the names of URL parameters that were ignored because they were invalid.
    """
    ignored = []
    back_or_forward = _history_navigation()
    if not ss.get("_url_loaded") or back_or_forward:
        for name, setting in SETTINGS.items():
            if not setting.url:
                continue
            if name not in st.query_params:
                # the view Back returns to had this at its default, unless the setting
                # stays out of links for other reasons (a long or untyped text)
                if back_or_forward and setting.only_if is None and setting.max_len is None:
                    ss[name] = setting.default
                continue
            try:
                ss[name] = setting.parse(st.query_params[name])
                if setting.only_if and setting.only_if not in SETTINGS:
                    ss[setting.only_if] = True  # e.g. a linked text counts as typed
            except (ValueError, TypeError):
                ignored.append(name)
        if ("vocab" in st.query_params and "uvocab" not in st.query_params
                and ss.get("algo") == "unigram" and "vocab" not in ignored):
            ss["uvocab"] = ss["vocab"]  # a link from before "uvocab": Unigram used "vocab"
        ss["_url_loaded"] = True
    for name, setting in SETTINGS.items():
        ss.setdefault(name, setting.default)
    settle_all()
    if ss.get("_page") != page:
        ss["_widget_page"] = {}  # every widget is drawn afresh on a new page
    ss["_page"] = page
    ss["_run"] = ss.get("_run", 0) + 1  # full runs; fragment reruns do not count
    trace.event("run", page=page.replace(" ", "_"), run=ss["_run"], step=ss.get("step"))
    forget_replaced_widgets()
    return ignored


def _history_navigation() -> bool:
    """Whether this run was started by the browser's Back or Forward button: Streamlit
    then runs the page of the history entry with that entry's query string, and the
    settings are read from it again (a link is read only once otherwise)."""
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    return bool(getattr(ctx, "is_history_navigation", False))


def forget_replaced_widgets() -> int:
    """Drop what Streamlit keeps of keyed widgets that a newer widget with the same key
    replaced; returns how many were dropped.

    Streamlit 1.67 keeps the metadata of every widget id a session ever drew (its
    ``WStates.remove_stale_widgets`` drops a stale widget's value, not its metadata).
    A widget whose id depends on its content, such as the Explore heatmap (a new
    ``plotly_chart`` id for every figure), so leaves one entry per step shown, each
    holding its ``on_select`` callback: with a callback defined in a page, the whole
    page run (its training) stayed alive. An entry is dropped only when its key now
    names another widget id and it holds no value (it can never be drawn again).
    Reaches into Streamlit's internals: does nothing if they change.
    """
    try:
        from streamlit.runtime.state.common import is_element_id, user_key_from_element_id
        from streamlit.runtime.state.session_state_proxy import get_session_state

        safe = get_session_state()
        with safe._lock:
            session = safe._state
            widgets = session._new_widget_state
            current = session._key_id_mapper._key_id_mapping
            replaced = [
                wid for wid in widgets.widget_metadata
                if is_element_id(wid) and (key := user_key_from_element_id(wid)) is not None
                and (new := current.get(key)) is not None and new != wid
                and wid not in widgets.states and wid not in session._old_state
            ]
            for wid in replaced:
                del widgets.widget_metadata[wid]
        return len(replaced)
    except (AttributeError, TypeError, KeyError, RuntimeError):  # other Streamlit internals
        return 0


def get(name: str) -> Any:
    return ss[name] if name in ss else SETTINGS[name].default


def put(name: str, value: Any) -> None:
    """Set a setting (callbacks only, or before its widget is drawn)."""
    ss[name] = value


def box_to(box_key: str, name: str, drawn: int) -> None:
    """The callback of a number box drawn afresh for each value (key ``box_key``, showing
    ``drawn``): a value typed into it sets ``name``. The box's own value is no change. A
    request the browser sent before it had the last run's reply carries the boxes it still
    shows; once that run has dropped such a box's value, Streamlit counts its unchanged
    value as a change, and the step went back to it (a step the bar had reported was
    lost so in a run of six concurrent sessions). Streamlit 1.67 does so (its
    ``SessionState._widget_changed`` compares with an old value that is gone); a near
    relative upstream is streamlit#8365, callbacks given the values of a run that was
    interrupted."""
    value = ss.get(box_key)
    taken = value is not None and int(value) != drawn
    trace.event("box", box=box_key, value=value, taken=taken)
    if taken:
        ss[name] = settle(name, int(value))


def write_url(extra: Sequence[str] = ()) -> None:
    """Put the URL settings that differ from their defaults into the query string."""
    params = url_params(extra)
    if dict(st.query_params) != params:
        st.query_params.from_dict(params)


def url_params(extra: Sequence[str] = ()) -> dict[str, str]:
    """The query string of the view the session shows: the URL settings that differ from
    their defaults (and those named in ``extra``). Page links carry it, so that a page
    switch is one browser history entry that names the whole view."""
    params = {}
    for name, setting in SETTINGS.items():
        if setting.url and (get(name) != setting.default or setting.always or name in extra):
            value = get(name)
            if setting.only_if and ss.get(setting.only_if) in (None, False):
                continue
            if setting.kind == "pair":
                # a selectbox whose options changed under a queued rerun hands back its
                # label ("t + o"), not a pair: such a value stays out of the link
                if not (isinstance(value, (tuple, list)) and len(value) == 2
                        and all(isinstance(x, int) for x in value)):
                    continue
                value = ",".join(str(int(x)) for x in value)
            if setting.max_len is not None and len(str(value)) > setting.max_len:
                continue
            params[name] = ("1" if value else "0") if isinstance(value, bool) else str(value)
    return params


def set_url_step(step: int) -> None:
    """Put the step the page shows into the query string. The whole query string is
    written in one order: Streamlit makes a browser history entry of every change of its
    text, so the same view in another order would be a second entry for Back to stop at."""
    put("step", step)
    write_url()


# -- widgets bound to the store ---------------------------------------------------------


def _widget_fits(spec: tuple, value: Any) -> bool:
    """Whether ``value`` fits a widget as it was drawn (``spec`` from :func:`_spec`)."""
    kind = spec[0]
    if kind == "choices":
        return value in spec[1]
    if kind == "range":
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            return value is None and spec[3]
        return ((spec[1] is None or value >= spec[1]) and (spec[2] is None or value <= spec[2]))
    return True


def _spec(widget: Callable[..., Any], args: tuple, kwargs: dict[str, Any]) -> tuple:
    """What values a widget can hold, as drawn: its options, or its bounds."""
    options = kwargs.get("options", args[0] if args else None)
    if options is not None:
        return ("choices", tuple(options))
    if getattr(widget, "__name__", "") in ("number_input", "slider"):
        return ("range", kwargs.get("min_value"), kwargs.get("max_value"),
                kwargs.get("placeholder") is not None)
    return ("any",)


def settle(name: str, value: Any, spec: tuple = ("any",)) -> Any:
    """The valid value of setting ``name`` for ``value``, which may come from a widget,
    a link, the step bar or code: ``value`` itself when it fits both the setting and the
    widget as drawn (``spec``); otherwise the stored value if that fits, else the
    setting's default, with a note (:func:`notes`) saying what was reset. Never raises.

    A select box whose option labels changed under a request in flight hands back the
    old label instead of an option (Streamlit returns the text it cannot map): such a
    value is not the user's choice and is never stored.
    """
    setting = SETTINGS.get(name)

    def fits(candidate: Any) -> bool:
        return ((setting is None or setting.accepts(candidate))
                and _widget_fits(spec, candidate))

    if fits(value):
        return value
    stored = ss.get(name, setting.default if setting else None)
    if stored is not value and fits(stored):
        trace.event("ignored", setting=name, value=repr(value)[:40])
        return stored
    fallback = setting.default if setting is not None else stored
    if spec[0] == "range" and isinstance(stored, numbers.Real) and not fits(fallback):
        fallback = min(max(stored, spec[1] if spec[1] is not None else stored),
                       spec[2] if spec[2] is not None else stored)
    elif spec[0] == "choices" and not fits(fallback) and spec[1]:
        fallback = spec[1][0]
    note_reset(name, value, fallback)
    return fallback


def note_reset(name: str, value: Any, to: Any) -> None:
    """Remember that setting ``name`` was reset from ``value`` to ``to`` (shown by the
    page, once, by :func:`notes`)."""
    label = ss.get("_labels", {}).get(name, name)
    shown = repr(value) if not isinstance(value, str) else f"“{value[:40]}”"
    ss.setdefault("_notes", []).append(f"{label}: {shown} does not fit here, so it was set "
                                       f"to {to!r}")
    trace.event("reset", setting=name, value=repr(value)[:40], to=repr(to)[:40])


def notes() -> list[str]:
    """The resets made since the last call (each said once)."""
    return ss.pop("_notes", [])


def settle_all() -> None:
    """Make every stored setting valid before any code reads it (a value stored by an
    older run, a callback, or a link): what no longer fits goes back to its default."""
    for name, setting in SETTINGS.items():
        if name in ss and not setting.accepts(ss[name]):
            note_reset(name, ss[name], setting.default)
            ss[name] = setting.default


def _copy(widget_key: str, name: str, then: Callable[[], None] | None = None) -> None:
    spec = ss.get("_spec", {}).get(widget_key, ("any",))
    ss[name] = settle(name, ss[widget_key], spec)
    if then is not None:
        then()


def _prepare(name: str, widget_key: str, shape: object = None,
             spec: tuple = ("any",)) -> Any:
    """Reconcile a widget with its setting before the widget is drawn; return the value
    it must show.

    If the user moved the widget since it was last drawn, the widget wins (even when its
    callback was lost to an interrupted run); otherwise the setting wins (code moved it:
    a Next button, autoplay, a page switch, a link). A widget the browser mounts afresh
    (first drawn on this page, not drawn in the previous run, or with other options or
    bounds) is always given the setting's value. Either value goes through
    :func:`settle` first: a widget never shows, and the store never takes, a value that
    does not fit.
    """
    seen = ss.setdefault("_seen", {})
    pages = ss.setdefault("_widget_page", {})
    shapes = ss.setdefault("_shape", {})
    drawn = ss.setdefault("_drawn_in", {})
    run = ss.get("_run", 0)
    switched = (pages.get(widget_key) != ss.get("_page") or shapes.get(widget_key) != shape
                or drawn.get(widget_key, -1) < run - 1)  # skipped a run: remounted
    pages[widget_key] = ss.get("_page")
    shapes[widget_key] = shape
    drawn[widget_key] = run
    ss.setdefault("_spec", {})[widget_key] = spec
    value = settle(name, get(name), spec)
    if (not switched and widget_key in ss and widget_key in seen
            and ss[widget_key] != seen[widget_key]):
        value = settle(name, ss[widget_key], spec)
    if value != get(name):
        ss[name] = value
    if switched or widget_key not in ss or ss[widget_key] != value:
        ss[widget_key] = value
    seen[widget_key] = value
    return value


#: a longer text is not sent again as a box's starting value on every run (a 10 MB paste
#: would be); the box gets it when it is mounted afresh, as every widget does
START_CHARS = 100_000
#: the argument that gives each kind of widget its starting value
_STARTS = {"selectbox": "index", "radio": "index", "segmented_control": "default",
           "pills": "default", "number_input": "value", "slider": "value",
           "text_input": "value", "text_area": "value", "toggle": "value",
           "checkbox": "value"}


def bound(widget: Callable[..., Any], label: str, name: str, *args: Any,
          then: Callable[[], None] | None = None, widget_key: str | None = None,
          **kwargs: Any) -> Any:
    """Draw ``widget`` for setting ``name``; its value is kept in the store.

    Two widgets may show the same setting (a slider and a number box) with different
    ``widget_key``s; the default widget key is ``"w_" + name``. The widget is also
    given the setting's value as its starting value: a browser that mounts it from a
    reply it got late (a busy server) shows the setting, never the widget's minimum.

    >>> bound(st.selectbox, "Algorithm", "algo", algorithms.offered())  # doctest: +SKIP
    """
    shape = repr((args, kwargs.get("options"), kwargs.get("min_value"),
                  kwargs.get("max_value")))
    spec = _spec(widget, args, kwargs)
    ss.setdefault("_labels", {})[name] = label
    widget_key = widget_key or "w_" + name
    value = _prepare(name, widget_key, shape, spec)
    start = _STARTS.get(getattr(widget, "__name__", ""))
    if start == "index":
        if spec[0] == "choices" and value in spec[1]:
            kwargs.setdefault("index", list(spec[1]).index(value))
    elif start is not None and not (isinstance(value, str) and len(value) > START_CHARS):
        kwargs.setdefault(start, value)
    widget(label, *args, key=widget_key, on_change=_copy, args=(widget_key, name, then),
           **kwargs)
    return get(name)


def clamp(name: str, lo: int, hi: int) -> int:
    """Keep an integer setting inside [lo, hi] (before its widget is drawn)."""
    value = min(max(int(get(name)), lo), hi)
    if value != get(name):
        ss[name] = value
    return value
