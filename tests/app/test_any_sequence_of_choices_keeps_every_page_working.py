"""Any sequence of choices a user (or a busy browser) makes keeps every page working.

A Hypothesis state machine drives the app under Streamlit's AppTest: each rule changes a
widget the page shows to one of its options (the sidebar's corpus, training and display
settings, Compare's columns, the pages' own boxes), moves the step (a typed step, the
step bar's report), pastes or uploads a corpus, opens a tokenizer file, switches page,
or replays a request that crossed the last run (a select box, radio or segmented control
holding a label an earlier run showed, or the widget values the browser showed before the
last run; Streamlit hands a select box's or radio's label it cannot map to the page as
the value itself). Widgets are found by key in the page as it is now and their options
read from the widget itself, so the machine follows the app as it changes.

After every rule: no exception (neither Streamlit's box nor the app's own "Something went
wrong"), the page shows its title (or one of the app's explanations of why it cannot),
every setting a widget shows is the one the session holds and the link names, and the
step is within the training shown.

The run is random: the seed is printed (and added to a failure) with how to rerun it
(``pytest --hypothesis-seed=N`` or ``BPEVIZ_MACHINE_SEED=N``); ``BPEVIZ_MACHINE_STEPS``
and ``BPEVIZ_MACHINE_EXAMPLES`` make a run longer.
"""

from __future__ import annotations

import json
import logging
import os
import random
import time
from pathlib import Path

import hypothesis
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from streamlit.testing.v1 import AppTest

from bpeviz import formats, train
from bpeviz.core.limits import LIMITS
from bpeviz.formats import import_files
from bpeviz.samples import load_sample
from bpeviz.ui import state as app_state
from bpeviz.ui import train_options
from tests.support import APP

#: each page and the titles it shows (Explore's for a training that prunes, Unigram, and
#: one that also removes tokens, PickyBPE)
TITLES = {
    "app.py": ("bpeviz: watch a tokenizer learn its vocabulary",),
    "pages/0_Learn.py": ("Learn tokenization in seven steps",),
    "pages/1_Explore.py": ("Explore the merges", "Explore the pruning rounds",
                           "Explore the merges and removals"),
    "pages/2_Tokenize.py": ("Tokenize any text",),
    "pages/3_Compare.py": ("Compare configurations",),
    "pages/4_Vocabulary.py": ("The vocabulary",),
}
SETTINGS = app_state.SETTINGS
#: the settings the sidebar draws (the corpus, the training, the display)
SIDEBAR = {"source", "sample", "algo", "size_by", "merges", "vocab", "pretok", "marker",
           "marker_style", "scoring", "tie", "min_freq", "bytes", "present", "uvariant",
           "uvocab", "ukeep", "threshold"}
CHOICE_TYPES = ("selectbox", "radio", "segmented_control")
NUMBER_TYPES = ("number_input",)
TEXT_TYPES = ("text_area", "text_input")
TOGGLE_TYPES = ("toggle", "checkbox")
STEP_BOXES = ("stage_box_", "step_box_", "cmp_box_", "uround_box_")
#: widgets bound to a setting under another key than "w_" + its name
BOUND_ELSEWHERE = {"word_search": "search"}
#: text boxes a rule types into (not "Open by name": it downloads)
TEXT_KEYS = ("w_paste", "w_text", "word_search", "vocab_search", "merge_search",
             "uword_search", "upiece_search")
#: buttons a rule clicks (none that downloads, prepares files or leaves the page)
BUTTONS = ("prev_", "next_", "learn_prev_", "learn_next_", "paste_train", "forget_upload",
           "forget_import")
HOSTILE = ('<script>alert(1)</script> <img src=x onerror=alert(1)> $x$ **bold** </span> '
           '[link](javascript:alert(1)) :red[red] <b>b</b> & &amp;')
MULTILINGUAL = ("naïve café crème 苹果 香蕉 苹果 русский текст русский العربية العربية "
                "हिन्दी हिन्दी ภาษาไทย 😀👍🏽 😀👍🏽 Ǆemal x\u0301y")
TEXTS = ["low lower lowest newer wider " * 3, HOSTILE, MULTILINGUAL,
         "low\t5\nlower\t2\nnewest\t6\nwidest\t3\n", "a", "", "   \n\t", "aaaa aaaa aaaa",
         HOSTILE + " " + MULTILINGUAL]
UPLOADS = [("corpus.txt", ("the cat sat on the mat " * 10).encode()),
           ("hostile.txt", (HOSTILE + "\n" + MULTILINGUAL).encode()),
           ("counts.tsv", b"low\t5\nlower\t2\nnewest\t6\nwidest\t3\n"),
           ("latin1.txt", "café crème".encode("latin-1")),
           ("empty.txt", b"")]
NUMBERS = st.one_of(st.sampled_from([0, 1, 2, 3, 5, 10, 20, 40]), st.integers(0, 300),
                    st.sampled_from([LIMITS.merges, LIMITS.merges + 1, app_state.MAX_TYPED]))
TOTAL_STEPS = int(os.environ.get("BPEVIZ_MACHINE_STEPS", "30"))
#: an example runs about 22 of its 30 steps on average (Hypothesis ends some early)
EXAMPLES = int(os.environ.get("BPEVIZ_MACHINE_EXAMPLES", "18"))
#: rule applications a run makes at least (with the default steps and examples)
AT_LEAST = 300 if TOTAL_STEPS * EXAMPLES >= 540 else 0
#: at most this many runs (each from the next seed) to reach AT_LEAST
RUNS = 4


def _opened_files() -> dict[str, tuple[str, object]]:
    """Tokenizer files as the tokenizer-file box opens them: (names, training)."""
    bbpe = train(load_sample("tour", "gpt2"), **train_options("bbpe", merges=30))
    bpe = train(load_sample("low", "whitespace"), **train_options("bpe", merges=8,
                                                                  marker="</w>"))
    wordpiece = train(load_sample("tour", "whitespace"), **train_options("wordpiece",
                                                                          merges=25))
    found = {}
    # a training.json holds its corpus: Explore and Vocabulary offer to explore it there
    for label, training, fmt in (("bbpe hf", bbpe, "hf"), ("bbpe tiktoken", bbpe, "tiktoken"),
                                 ("bpe gpt2", bpe, "gpt2"), ("wordpiece vocab", wordpiece,
                                                             "vocab"),
                                 ("wordpiece training", wordpiece, "training")):
        files = formats.export(training.at(len(training.merges)), fmt)
        found[label] = (", ".join(files), import_files(
            {name: text.encode() if isinstance(text, str) else text
             for name, text in files.items()}))
    return found


OPENED = _opened_files()


class Failures(logging.Handler):
    """The exceptions the server logs (Streamlit redacts them on the page), newest last."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            tb = error.__traceback__
            while tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
            where = (f" at {Path(tb.tb_frame.f_code.co_filename).name}:{tb.tb_lineno}"
                     if tb is not None else "")
            self.seen.append(f"{type(error).__name__}: {error}{where}")


FAILURES = Failures()


def logged(count: int) -> str:
    """What the server logged since ``count`` exceptions had been seen."""
    new = FAILURES.seen[count:]
    return f" (the server logged: {'; '.join(new)})" if new else ""


# -- reading the page -------------------------------------------------------------------


def widgets(at: AppTest, types: tuple[str, ...]) -> list:
    return [el for kind in types for el in at.get(kind) if getattr(el, "key", None)]


def by_key(at: AppTest, key: str, types: tuple[str, ...]):
    return next((el for el in widgets(at, types) if el.key == key), None)


def setting_of(key: str) -> str | None:
    """The setting a widget key is bound to, if any."""
    if key in BOUND_ELSEWHERE:
        return BOUND_ELSEWHERE[key]
    if key.startswith("w_") and key[2:] in SETTINGS:
        return key[2:]
    return None


def is_compare(key: str) -> bool:
    name = setting_of(key) or ""
    return name.startswith(("c1_", "c2_", "c3_", "cmp_"))


def is_sidebar(key: str) -> bool:
    return setting_of(key) in SIDEBAR


def is_algorithm(key: str) -> bool:
    return (setting_of(key) or "").endswith("algo") and not key.startswith("w_learn")


def is_page(key: str) -> bool:
    return not is_sidebar(key) and not is_compare(key)


def enabled(el) -> bool:
    return not getattr(el.proto, "disabled", False)


def components(at: AppTest) -> list[tuple[str, dict]]:
    """The stage components' data: (element id, data)."""
    found = []
    for el in at.get("bidi_component"):
        data = json.loads(el.proto.json or "null")
        if isinstance(data, dict):
            found.append((el.proto.id, data))
    return found


def plain(value):
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def same(shown, held) -> bool:
    if isinstance(shown, (list, tuple)) and isinstance(held, (list, tuple)):
        return list(shown) == list(held)
    if isinstance(shown, list) and len(shown) == 1:  # a slider's single value
        return shown[0] == held
    return shown == held


def run_with(at: AppTest, el, label: str) -> AppTest:
    """Rerun with the widget states the browser shows, ``el`` (a select box, radio or
    segmented control) holding the text ``label``, as a browser sends it."""
    states = at._tree.get_widget_states()
    found = [w for w in states.widgets if w.id == el.id]
    entry = found[0] if found else states.widgets.add()
    entry.id = el.id
    if el.type == "button_group":
        entry.string_array_value.data[:] = [label]
    else:
        entry.string_value = label
    at._run(states)
    return at


# -- the machine ------------------------------------------------------------------------


APPLIED = {"rules": 0}


class AnyUser(RuleBasedStateMachine):
    """A user who changes anything the pages offer, in any order, on a busy server."""

    @initialize(page=st.sampled_from(list(TITLES)))
    def open_app(self, page):
        self.at = AppTest.from_file(APP, default_timeout=120)
        self.page = "app.py"
        self.labels: dict[str, set[str]] = {}
        self.earlier_states = None
        self._run(lambda at: at.run())
        if page != "app.py":
            self._go(page)

    # the plumbing: every run goes through _run, which remembers what the page showed

    def _run(self, act) -> None:
        before = self.at._tree.get_widget_states() if self.at._tree is not None else None
        self.logged = len(FAILURES.seen)
        act(self.at)
        self.earlier_states = before
        for el in widgets(self.at, CHOICE_TYPES):
            self.labels.setdefault(el.key, set()).update(el.options)

    def _go(self, page: str) -> None:
        self.page = page
        self._run(lambda at: at.switch_page(page).run())

    def _count(self) -> None:
        APPLIED["rules"] += 1

    def _keys(self, types, keep) -> list[str]:
        return sorted({el.key for el in widgets(self.at, types) if keep(el)})

    def _choices(self, keep) -> list[str]:
        return self._keys(CHOICE_TYPES, lambda el: enabled(el) and el.options and keep(el.key))

    # -- widgets ------------------------------------------------------------------------

    def _choose(self, data, keep) -> None:
        key = data.draw(st.sampled_from(self._choices(keep)), label="widget")
        el = by_key(self.at, key, CHOICE_TYPES)
        label = data.draw(st.sampled_from(list(el.options)), label="option")
        self._count()
        self._run(lambda at: run_with(at, el, label))

    @precondition(lambda self: self._choices(is_algorithm))
    @rule(data=st.data())
    def algorithm(self, data):
        """The sidebar's algorithm or a Compare column's (a rule of its own: most other
        boxes' options and labels follow it)."""
        self._choose(data, is_algorithm)

    @precondition(lambda self: self._choices(is_sidebar))
    @rule(data=st.data())
    def sidebar_option(self, data):
        """Algorithm (Unigram too), pre-tokenizer, marker and its style, scoring, tie rule,
        train until, bytes, sample, corpus source, Unigram's trainer and share kept."""
        self._choose(data, is_sidebar)

    @precondition(lambda self: self._choices(is_compare))
    @rule(data=st.data())
    def compare_option(self, data):
        """A Compare column's algorithm, pre-tokenizer, marker, scoring, tie rule, source;
        how many columns; what moves them; the metric."""
        self._choose(data, is_compare)

    @precondition(lambda self: self._choices(is_page))
    @rule(data=st.data())
    def page_option(self, data):
        """The pages' own boxes: Explore's pair and sort, Vocabulary's token, Learn's
        lesson, Unigram's word..."""
        self._choose(data, is_page)

    def _numbers(self) -> list[str]:
        return self._keys(NUMBER_TYPES, lambda el: enabled(el)
                          and not el.key.startswith(STEP_BOXES))

    @precondition(lambda self: self._numbers())
    @rule(data=st.data(), value=NUMBERS)
    def number(self, data, value):
        """Merges, vocabulary size (0, 1, big), minimum frequency, Compare's sizes, the
        opened file's step, a page number..."""
        key = data.draw(st.sampled_from(self._numbers()), label="widget")
        box = by_key(self.at, key, NUMBER_TYPES)
        value = min(max(value, box.min if box.min is not None else value),
                    box.max if box.max is not None else value)
        self._count()
        self._run(lambda at: box.set_value(value).run())

    def _toggles(self) -> list[str]:
        return self._keys(TOGGLE_TYPES, enabled)

    @precondition(lambda self: self._toggles())
    @rule(data=st.data())
    def flip(self, data):
        """Presentation mode, replay the opened file, whitespace, "changed only"..."""
        key = data.draw(st.sampled_from(self._toggles()), label="widget")
        el = by_key(self.at, key, TOGGLE_TYPES)
        self._count()
        self._run(lambda at: el.set_value(not el.value).run())

    def _texts(self) -> list[str]:
        return self._keys(TEXT_TYPES, lambda el: enabled(el) and el.key in TEXT_KEYS)

    @precondition(lambda self: self._texts())
    @rule(data=st.data(), text=st.sampled_from(TEXTS))
    def type_text(self, data, text):
        """A text typed into a box: the corpus to paste, the text to tokenize, a search."""
        key = data.draw(st.sampled_from(self._texts()), label="widget")
        el = by_key(self.at, key, TEXT_TYPES)
        self._count()
        self._run(lambda at: el.input(text).run())

    @precondition(lambda self: by_key(self.at, "w_source", CHOICE_TYPES) is not None)
    @rule(text=st.sampled_from(TEXTS))
    def paste(self, text):
        """Choose Paste as the corpus and paste a text into the box."""
        self._count()
        source = by_key(self.at, "w_source", CHOICE_TYPES)
        if by_key(self.at, "w_paste", TEXT_TYPES) is None:
            self._run(lambda at: run_with(at, source, "Paste"))
        box = by_key(self.at, "w_paste", TEXT_TYPES)
        if box is not None:
            self._run(lambda at: box.input(text).run())

    @rule(upload=st.sampled_from(UPLOADS))
    def upload(self, upload):
        """A file in the corpus uploader (what its callback stores), Upload chosen."""
        self._count()
        source = by_key(self.at, "w_source", CHOICE_TYPES)

        def act(at):
            at.session_state["upload"] = upload
            if source is not None:
                run_with(at, source, "Upload")
            else:
                at.session_state["source"] = "upload"
                at.run()
        self._run(act)

    @rule(which=st.sampled_from(sorted(OPENED)))
    def open_tokenizer_file(self, which):
        """A tokenizer file opened (what the tokenizer-file box's callback stores)."""
        names, training = OPENED[which]
        self._count()

        def act(at):
            at.session_state["imported"] = (names, training)
            at.session_state["import_box"] = (at.session_state["import_box"] + 1
                                              if "import_box" in at.session_state else 1)
            at.session_state["imp_step"] = len(training.merges)
            at.session_state["tok_source"] = "imported"
            at.run()
        self._run(act)

    def _buttons(self) -> list[str]:
        return sorted({el.key for el in self.at.button
                       if el.key and el.key.startswith(BUTTONS) and enabled(el)})

    @precondition(lambda self: self._buttons())
    @rule(data=st.data())
    def click(self, data):
        """◀ ▶, the lesson's Previous/Next, Train, forget the upload or the opened file."""
        key = data.draw(st.sampled_from(self._buttons()), label="button")
        el = next(b for b in self.at.button if b.key == key)
        self._count()
        self._run(lambda at: el.click().run())

    # -- the step -----------------------------------------------------------------------

    def _step_boxes(self) -> list[str]:
        return self._keys(NUMBER_TYPES, lambda el: el.key.startswith(STEP_BOXES))

    @precondition(lambda self: self._step_boxes())
    @rule(data=st.data())
    def type_step(self, data):
        """A step (a round, a position) typed into the box beside the step bar."""
        key = data.draw(st.sampled_from(self._step_boxes()), label="box")
        box = by_key(self.at, key, NUMBER_TYPES)
        lo = int(box.min) if box.min is not None else 0
        hi = int(box.max) if box.max is not None else 300
        value = data.draw(st.one_of(st.sampled_from([lo, hi]), st.integers(lo, hi)),
                          label="step")
        self._count()
        self._run(lambda at: box.set_value(value).run())

    @precondition(lambda self: self.page in ("pages/1_Explore.py", "pages/2_Tokenize.py",
                                             "pages/4_Vocabulary.py"))
    @rule(data=st.data())
    def bar_reports_a_step(self, data):
        """The step bar's report of where the user stopped (stage._from_browser); a bar
        still showing an older training may report a step past the current one's end."""
        hi = max([d["n"] for _, d in components(self.at)
                  if d.get("role") == "controls" and "unit" not in d] or [0])
        value = data.draw(st.one_of(st.integers(0, hi), st.integers(0, hi + 250)),
                          label="step")
        self._count()

        def act(at):
            at.session_state["step"] = value
            at.run()
        self._run(act)

    # -- pages ----------------------------------------------------------------------------

    @rule(page=st.sampled_from(list(TITLES)))
    def switch_page(self, page):
        self._count()
        self._go(page)

    # -- requests that crossed the last run ---------------------------------------------

    def _stale(self, keep) -> dict[str, list[str]]:
        """Select boxes, radios and segmented controls shown now (``keep``: by key), each
        with the labels an earlier run showed that it does not show now."""
        found = {}
        for el in widgets(self.at, CHOICE_TYPES):
            old = sorted(self.labels.get(el.key, set()) - set(el.options))
            if old and keep(el.key):
                found[el.key] = old
        return found

    def _stale_label(self, data, keep) -> None:
        stale = self._stale(keep)
        key = data.draw(st.sampled_from(sorted(stale)), label="select box")
        label = data.draw(st.sampled_from(stale[key]), label="label shown before")
        el = by_key(self.at, key, CHOICE_TYPES)
        self._count()
        self._run(lambda at: run_with(at, el, label))

    @precondition(lambda self: self._stale(lambda key: not is_page(key)))
    @rule(data=st.data())
    def stale_label(self, data):
        """A request the browser sent before it had the last run's reply: a settings box
        (or radio) holds the label (its text) of an earlier run, e.g. the pre-tokenizer's "auto:
        whitespace" after the algorithm became byte-level BPE ("auto: GPT-2 regex")."""
        self._stale_label(data, lambda key: not is_page(key))

    @precondition(lambda self: self._stale(is_page))
    @rule(data=st.data())
    def stale_page_label(self, data):
        """The same for a page's own box (a pair "t + o" of another step, a token)."""
        self._stale_label(data, is_page)

    @precondition(lambda self: self.earlier_states is not None)
    @rule()
    def replay_the_request_before_the_last_run(self):
        """The widgets the browser showed before the last run, sent again (a request that
        crossed the last run's reply)."""
        states = self.earlier_states
        self._count()
        self._run(lambda at: at._run(states))

    # -- what must hold after every rule ------------------------------------------------

    @invariant()
    def no_exception_and_a_title(self):
        at = self.at
        assert not at.exception, f"{self.page}: Streamlit's error box: " + "; ".join(
            f"{e.proto.type} {e.proto.message}" for e in at.exception) + logged(self.logged)
        errors = [e.value for e in at.error]
        failed = [m for m in errors if "Something went wrong" in m]
        assert not failed, f"{self.page}: the page failed: {failed}{logged(self.logged)}"
        titles = [t.value for t in at.title]
        if titles:
            assert len(titles) == 1 and titles[0] in TITLES[self.page], (self.page, titles)
        else:  # the page stopped early, saying why (no corpus, a limit, a pruning training)
            assert at.info or at.error, (
                f"{self.page}: no title and no explanation; markdown: "
                f"{[m.value[:80] for m in at.markdown][:5]}")

    @invariant()
    def widgets_show_the_settings_of_the_session_and_the_link(self):
        at = self.at
        held = at.session_state
        for el in widgets(at, CHOICE_TYPES + NUMBER_TYPES + TEXT_TYPES + TOGGLE_TYPES
                          + ("slider",)):
            name = setting_of(el.key)
            if name is None or name not in held:
                continue
            assert same(el.value, held[name]), (
                f"{self.page}: widget {el.key} shows {el.value!r}, the session holds "
                f"{name}={held[name]!r}")
        params = {k: plain(v) for k, v in dict(at.query_params).items()}
        for name, setting in SETTINGS.items():
            if not setting.url:
                continue
            value = held.get(name, setting.default)
            if name in params:
                try:
                    linked = setting.parse(params[name])
                except (ValueError, TypeError) as err:
                    raise AssertionError(f"{self.page}: the link's {name}={params[name]!r} "
                                         f"is not a valid value ({err!r})") from None
                assert same(linked, value), (
                    f"{self.page}: the link says {name}={params[name]!r}, the session "
                    f"holds {value!r}")
                continue
            assert not getattr(setting, "always", False), (
                f"{self.page}: the link leaves out {name}, which every link names: {params}")
            excused = (  # a text not typed, a pair not picked, a text too long for a link
                (setting.only_if is not None and held.get(setting.only_if) in (None, False))
                or (setting.max_len is not None and len(str(value)) > setting.max_len))
            assert excused or value == setting.default, (
                f"{self.page}: {name}={value!r} is not at its default "
                f"{setting.default!r} but the link leaves it out: {params}")

    def shows_opened_file(self) -> bool:
        """The page steps through an opened tokenizer file (its own step setting):
        Tokenize cutting with it, or Vocabulary's Health view of it (replay off)."""
        held = self.at.session_state
        try:
            if self.page == "pages/2_Tokenize.py":
                return held["tok_source"] == "imported"
            if self.page == "pages/4_Vocabulary.py":
                return (held["vocab_view"] == "health" and held["tok_source"] == "imported"
                        and not held["replay"])
        except KeyError:
            return False
        return False

    @invariant()
    def the_step_is_within_the_training(self):
        at = self.at
        for _, data in components(at):
            if data.get("role") != "controls":
                continue
            lo, n, step = data.get("lo", 0), data["n"], data["step"]
            assert lo <= step <= n, f"{self.page}: the bar shows {step} outside {lo}..{n}"
            if "unit" not in data:  # a merge step: the page's, or an opened file's own
                setting = "imp_step" if self.shows_opened_file() else "step"
                assert step == at.session_state[setting], (
                    f"{self.page}: the bar shows step {step}, the session holds "
                    f"{setting}={at.session_state[setting]}")
        slider = by_key(at, "w_step", ("slider",))
        if slider is not None:  # Vocabulary
            step = at.session_state["step"]
            assert slider.min <= step <= slider.max, (
                f"{self.page}: step {step} outside the training's 0..{slider.max}")
        for box in widgets(at, NUMBER_TYPES):
            if box.key.startswith(("stage_box_", "step_box_")):
                drawn = int(box.key.rsplit("_", 1)[1])
                assert drawn == at.session_state["step"] == box.value, (
                    f"{self.page}: box {box.key} shows {box.value}, the session holds "
                    f"step {at.session_state['step']}")
                assert box.min <= drawn <= box.max, (
                    f"{self.page}: step {drawn} outside the training's 0..{box.max}")


def _seed() -> int:
    """The run's seed: ``--hypothesis-seed``, else BPEVIZ_MACHINE_SEED, else a new one."""
    forced = hypothesis.core.global_force_seed
    if forced is not None:
        return int(forced)
    if os.environ.get("BPEVIZ_MACHINE_SEED"):
        return int(os.environ["BPEVIZ_MACHINE_SEED"])
    return random.SystemRandom().randrange(2**32)


def test_any_sequence_of_choices_keeps_every_page_working():
    """Runs of the machine, each from its own seed, until at least AT_LEAST rules were
    applied (Hypothesis ends some examples early, so one run may make fewer)."""
    first = _seed()
    APPLIED["rules"] = 0
    started = time.monotonic()
    loggers = [logging.getLogger()] + [  # Streamlit's own loggers may not propagate
        logger for logger in map(logging.getLogger, ("streamlit.error_util", "bpeviz.ui"))
        if not logger.propagate]
    for logger in loggers:
        logger.addHandler(FAILURES)
    try:
        for run in range(RUNS):
            seed = (first + run) % 2**32
            how = (f"seed {seed}: rerun this sequence with pytest --hypothesis-seed={seed} "
                   f"(or BPEVIZ_MACHINE_SEED={seed})")
            print(how, flush=True)
            machine = hypothesis.seed(seed)(type("AnyUserRun", (AnyUser,), {}))
            try:
                run_state_machine_as_test(machine, settings=settings(
                    max_examples=EXAMPLES, stateful_step_count=TOTAL_STEPS, deadline=None,
                    derandomize=False, database=None, print_blob=False,
                    suppress_health_check=list(HealthCheck)))
            except BaseException as err:
                err.add_note(how)
                raise
            if APPLIED["rules"] >= AT_LEAST:
                break
    finally:
        for logger in loggers:
            logger.removeHandler(FAILURES)
        print(f"{APPLIED['rules']} rule applications in {time.monotonic() - started:.0f} s",
              flush=True)
    assert APPLIED["rules"] >= AT_LEAST, f"only {APPLIED['rules']} rules were applied"


pytestmark = pytest.mark.filterwarnings("ignore")
