"""Streamlit glue for Compare: each configuration's widgets, the one control that moves
every configuration, and cached metric curves. The comparing itself is
:mod:`bpeviz.analysis.compare`; the drawing, :mod:`bpeviz.present.render_compare`."""

from __future__ import annotations

import contextlib
import json
import weakref
from dataclasses import dataclass
from typing import Any

import streamlit as st

import bpeviz.ui.stage as stage
import bpeviz.ui.state as state
from bpeviz import algorithms
from bpeviz.analysis import compare as cmp
from bpeviz.analysis.curves import metric_curve
from bpeviz.core import protocol
from bpeviz.core.training import Training, takes_languages
from bpeviz.present import compare_history
from bpeviz.present.render import md_escape
from bpeviz.present.render_compare import CONFIG_LETTERS, colour
from bpeviz.text.display import mark_table
from bpeviz.text.owned import OwnedCache
from bpeviz.ui.context import Context, train_variant
from bpeviz.ui.labels import PRETOKENIZER_LABELS, PRETOKENIZER_SHORT, algorithm_labels
from bpeviz.ui.settings import training_settings
from bpeviz.ui.state import bound, get, put
from bpeviz.ui.tokenizer_file import imported


@dataclass(frozen=True)
class Configuration:
    """One column of Compare: its label (as the legend, table and charts show it), the
    training it cuts with and whether it is an opened file."""

    label: str
    training: Training
    opened: bool = False


def configuration(ctx: Context, i: int) -> Configuration:
    """Draw configuration ``i``'s widgets (1-based); train it (cached) or take the opened
    tokenizer file. Raises ValueError with a message for the user."""
    letter = CONFIG_LETTERS[i - 1]
    opened = imported()
    if opened is None and get(f"c{i}_source") == "opened":
        put(f"c{i}_source", "train")
    if opened is not None:
        bound(st.radio, "Tokenizer", f"c{i}_source", ["train", "opened"], horizontal=True,
              format_func={"train": "train on the corpus",
                           "opened": f"the opened file ({opened[0]})"}.get)
    if opened is not None and get(f"c{i}_source") == "opened":
        names, training = opened
        st.caption(f"{algorithm_labels()[training.algorithm]}: {len(training.vocab):,} tokens, "
                   f"{len(training.merges):,} merges, cut with the "
                   f"{PRETOKENIZER_LABELS[cmp_pretokenizer(training)]} pre-tokenizer.")
        return Configuration(f"{letter}: {names} (opened file)", training, opened=True)
    chosen = training_settings(f"c{i}_", compact=True)
    if ctx.languages is None and takes_languages(chosen.algorithm):
        # its trainer balances languages, and the sidebar gave one text: say what it gets
        st.caption(one_language_note(chosen.algorithm))
    training = train_variant(ctx, chosen, f"Training {letter}")
    return Configuration(f"{letter}: {chosen.description}", training)


def one_language_note(algorithm: str) -> str:
    """What a configuration that trains one corpus per language gets when the sidebar
    gave one corpus, and how to give it more."""
    label = algorithm_labels()[algorithm]
    return (f"{label} balances the merges between languages; the sidebar's corpus is "
            "one text, so here it trains as one language, which gets every merge. Choose "
            f"{label} in the sidebar to give it one corpus per language.")


def summary(i: int) -> str:
    """Configuration ``i``'s settings in one line (1-based), from the session's settings as
    its widgets will show them: the label of the fold its widgets are in, so that a glance
    says what each configuration is, "**A** · Byte-level BPE · 300 merges · GPT-2 regex"."""
    letter = CONFIG_LETTERS[i - 1]
    opened = imported()
    if opened is not None and get(f"c{i}_source") == "opened":
        return f"**{letter}** · the opened file ({md_escape(opened[0])})"
    labels = algorithm_labels()
    algorithm = get(f"c{i}_algo")
    if algorithm not in labels:
        algorithm = next(iter(labels))
    alg = algorithms.get(algorithm)
    if alg.sizes[0] == "merges":
        size = f"{get(f'c{i}_merges'):,} merges"
    else:
        size = f"{get(f'c{i}_vocab'):,} tokens"
    pretokenizer = alg.pretokenizer_for(get(f"c{i}_pretok"))
    pretok = PRETOKENIZER_SHORT.get(pretokenizer, pretokenizer)
    return md_escape(f"{letter} · {labels[algorithm]} · {size} · {pretok}").replace(
        f"{letter} ·", f"**{letter}** ·", 1)


def cmp_pretokenizer(training: Training) -> str:
    name = training.corpus.pretokenizer
    return "whitespace" if name == "counts" else name


@dataclass(frozen=True)
class Position:
    """Where the one control is (as Python last heard it): ``mode`` "step" or "vocab",
    ``value`` (a step, or a vocabulary size) in ``lo..hi``, each configuration's step
    there and a note for each (empty, or why the step is not exactly the chosen one);
    ``hist`` names the control's range for the browser."""

    mode: str
    value: int
    lo: int
    hi: int
    steps: list[int]
    notes: list[str]
    hist: str


def positions(configurations: list[Configuration], mode_area: Any = None) -> Position:
    """Draw the control that moves every configuration (the stage component's bar: the
    browser steps it, keys included, and reports the settled position); return where it is.
    ``mode_area``: a container for the choice of what moves them (a column beside other
    controls, on a projector), else in the flow.

    Configurations whose steps are of different kinds (merges and pruning rounds, as
    their records say) are moved by vocabulary size only: step 10 of a merging training
    (10 tokens added) and round 10 of a pruning one (ten rounds of removals from a large
    seed) are not the same point of anything."""
    trainings = [c.training for c in configurations]
    kinds = list(dict.fromkeys(map(step_name, trainings)))
    with mode_area if mode_area is not None else contextlib.nullcontext():
        if len(kinds) == 1:
            mode = bound(st.segmented_control, "Move every configuration by", "cmp_mode",
                         ["step", "vocab"], required=True,
                         format_func={"step": f"the same {kinds[0]}",
                                      "vocab": "the same vocabulary size"}.get)
        else:
            mode = "vocab"
            st.caption(md_escape(
                f"Every configuration is moved by vocabulary size: {_kinds(trainings)}, so "
                "one step number would not mean the same point."))
    ids = ",".join(f"{id(t):x}" for t in trainings)
    if mode == "step":
        return _same_step(trainings, kinds[0], f"cmp:step:{ids}")
    if len(kinds) == 1:
        _to_url("cmp_mode")
    return _same_vocab_size(trainings, f"cmp:vocab:{ids}")


def _kinds(trainings: list[Training]) -> str:
    """What a step of each configuration is and where its steps take the vocabulary,
    grouped by kind: "A's steps are merges (its vocabulary goes from 260 to 500 tokens);
    B's steps are pruning rounds (its vocabulary goes from 2,000 to 400 tokens)"."""
    by_kind: dict[str, list[int]] = {}
    for i, training in enumerate(trainings):
        by_kind.setdefault(protocol.step_name(training), []).append(i)
    parts = []
    for kind, members in by_kind.items():
        ends = [protocol.vocab_sizes(trainings[i])[[0, -1]].tolist() for i in members]
        goes = " and ".join(f"from {a:,} to {b:,}" for a, b in ends)
        whose = ("its vocabulary goes" if len(members) == 1 else "their vocabularies go")
        letters = " and ".join(CONFIG_LETTERS[i] + "'s" for i in members)
        parts.append(f"{letters} steps are {kind}s ({whose} {goes} tokens)")
    return "; ".join(parts)


def _same_step(trainings: list[Training], name: str, hist: str) -> Position:
    """One step for every configuration (all of one step kind: ``name``)."""
    lasts = [cmp.last_step(t) for t in trainings]
    last = max(lasts)
    if last == 0:
        st.info(f"No configuration went past step 0 (no {name} made): every one is at "
                "step 0.")
        return Position("step", 0, 0, 0, [0] * len(trainings), [""] * len(trainings), hist)
    word = "merges" if name == "merge step" else f"{name}s"
    step = _bar("cmp_step", 0, last, hist=f"{hist}:{last}", name=name[0].upper() + name[1:],
                unit=name, units=word, box="Go to step",
                help=f"Each configuration shows its state after this many {word} (or its "
                     "last, if it made fewer). Type a step and press Enter; the bar on the "
                     "left and this box move together.")
    _to_url("cmp_mode", "cmp_step")
    steps = [min(step, n) for n in lasts]
    notes = [f"made only {n:,} {word}: shown at its last {name}"
             if n < step else "" for n in lasts]
    return Position("step", step, 0, last, steps, notes, f"{hist}:{last}")


def _same_vocab_size(trainings: list[Training], hist: str) -> Position:
    """One vocabulary size for every configuration: each goes to its own step for it
    (:func:`bpeviz.analysis.compare.step_for_vocab_size`)."""
    ranges = [cmp.vocab_range(t) for t in trainings]
    lo, hi = min(r[0] for r in ranges), max(r[1] for r in ranges)
    hist = f"{hist}:{lo}:{hi}"
    if lo >= hi:
        st.info("Every configuration has the same vocabulary size at every step.")
        found = [cmp.step_for_vocab_size(t, lo) for t in trainings]
        return Position("vocab", lo, lo, lo, [f.step for f in found], [""] * len(found), hist)
    shared_lo, shared_hi = max(r[0] for r in ranges), min(r[1] for r in ranges)
    if get("cmp_vocab") > hi and shared_lo <= shared_hi:
        put("cmp_vocab", shared_hi)  # first shown: the largest size every one reaches
    target = _bar("cmp_vocab", lo, hi, hist=hist, name="Vocabulary size", unit="token",
                  units="tokens", box="Go to size",
                  help="Each configuration shows the step at which its vocabulary has the "
                       "most tokens without passing this size: the last such merge step, "
                       "or the pruning round closest below (special tokens and alphabet "
                       "included). Type a size and press Enter.")
    letters = CONFIG_LETTERS[: len(trainings)]
    spans = "; ".join(f"{letter} {a:,} to {b:,}" for letter, (a, b) in zip(letters, ranges))
    if shared_lo <= shared_hi:
        st.caption(f"Every configuration has a step between {shared_lo:,} and {shared_hi:,} "
                   f"tokens (vocabulary sizes: {spans}).")
    else:
        st.caption(f"No vocabulary size is within every configuration's range ({spans}): "
                   "some are shown at their nearest step. Change the merges or the "
                   "vocabulary size of a configuration to make the ranges meet.")
    _to_url("cmp_vocab")
    found = [cmp.step_for_vocab_size(t, target) for t in trainings]
    return Position("vocab", target, lo, hi, [f.step for f in found], [f.note for f in found],
                    hist)


# -- the position control and the cuts, stepped in the browser (bpeviz/ui/stage.py) -------
STAGE_KEY = "cmp_stage"


def _bar(setting: str, lo: int, hi: int, *, hist: str, name: str, unit: str, units: str,
         box: str, help: str) -> int:
    """The stage bar moving ``setting`` in ``lo..hi`` (◀ slider ▶, keys, Play) and a
    number box Python owns (:func:`bpeviz.ui.stage.bar`); returns the value Python has
    heard."""
    return stage.bar(setting, lo, hi, hist, key=STAGE_KEY,
                     words={"name": name, "unit": unit, "units": units},
                     box=box, box_key=f"cmp_box_{setting}_", box_help=help)


_HISTORIES: OwnedCache[tuple[dict[str, Any], list[Any]]] = OwnedCache(
    "compare_cut_history", keep=4)
#: session-state slot of the last cuts sent: (key, trainings (weak), data, JSON bytes)
_SENT = "_cmp_cuts_sent"


def cuts(configurations: list[Configuration], position: Position, text: str,
         byte_style: str = "gpt2", strong: bool = False, only: bool = False) -> dict[str, Any]:
    """Every configuration's cut of ``text`` at the browser's position, the differences
    marked and counted: drawn by the browser from each one's history of the text, so
    stepping needs no rerun. Returns the data sent (tests read it; it holds no position:
    the browser takes it from the stage bar).

    The data travels as JSON bytes made once per set of configurations, text and display:
    a position move sends the very same element again, so Streamlit's message cache sends
    the browser a reference to it instead of the histories (hundreds of kB for a page of
    text at 50,000 merges), and Python neither builds, serialises nor hashes it again."""
    key = (position.mode, position.hist, text, byte_style, strong, only,
           tuple(c.label for c in configurations))
    sent = st.session_state.get(_SENT)
    if (sent is None or sent[0] != key or len(sent[1]) != len(configurations)
            or any(ref() is not c.training for ref, c in zip(sent[1], configurations))):
        data = _cuts_data(configurations, position.mode, position.hist, text, byte_style,
                          strong, only)
        blob = json.dumps(data, separators=(",", ":")).encode("ascii")
        sent = (key, [weakref.ref(c.training) for c in configurations], data, blob)
        st.session_state[_SENT] = sent
    stage.mount(f"{STAGE_KEY}_cuts", sent[3])
    return sent[2]


def _cuts_data(configurations: list[Configuration], mode: str, hist: str, text: str,
               byte_style: str, strong: bool, only: bool) -> dict[str, Any]:
    pairs = [(c.label, c.training) for c in configurations]
    data = compare_history.lockstep_data(
        pairs, text, mode, byte_style,
        history=lambda t: _HISTORIES.get(t, text, lambda: compare_history.cut_history(t, text)))
    for i, config in enumerate(data["configs"]):
        config["letter"], config["colour"] = CONFIG_LETTERS[i], colour(i)
    data.update(role="compare", hist=hist, only=only, strong=strong, maxTokens=3000,
                marks=mark_table([text]))  # the text's marks, drawn and named
    return data


def step_name(training: Training) -> str:
    """What a step of ``training`` is, as the position control and the charts' axes say
    it: what the record calls a step, then what its number is called, once when they are
    one word ("merge step", "pruning round")."""
    kind, unit = protocol.step_name(training), cmp.step_unit(training)
    return unit if kind == unit else f"{kind} {unit}"


def _to_url(*names: str) -> None:
    """Put these settings into the link (the whole query string, in one order)."""
    state.write_url()


# -- metric curves, cached per training and text -------------------------------------------
_TEXTS_PER_TRAINING = 4
_CURVES: OwnedCache[list[dict[str, Any]]] = OwnedCache("compare_curves",
                                                       keep=_TEXTS_PER_TRAINING)


def curve(training: Training, text: str, by_script: bool = False) -> list[dict[str, Any]]:
    """:func:`bpeviz.analysis.curves.metric_curve` of ``text``, kept for a few texts per training
    (on the training: a Unigram training, a dataclass holding a dict, cannot be a key)."""
    return _CURVES.get(training, (text, by_script),
                       lambda: metric_curve(training, text, by_script=by_script))
