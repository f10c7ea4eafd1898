"""Learn: a guided first lesson, seven steps on a tiny sample, every sentence computed."""

import streamlit as st

from bpeviz import algorithms, ui
from bpeviz.analysis.lesson import LESSON_SAMPLES, SMALL_SAMPLES
from bpeviz.present.render_explain import trace_html, why_merge_html
from bpeviz.present.render_lesson import lesson_step_html
from bpeviz.samples import SAMPLES
from bpeviz.ui import lesson as learn

byte_style, strong = learn.setup("Learn")
st.title("Learn tokenization in seven steps")
st.markdown(
    "Six short steps on a tiny corpus, then a seventh on what research changed. Every "
    "sentence below is computed from that corpus and its training, so another sample gives "
    "other words and other numbers. Start with BPE, then see what WordPiece and byte-level "
    "BPE do differently."
)

ALGORITHMS = {name: algorithms.get(name).short for name in LESSON_SAMPLES}  # in lesson order


def _new_algorithm() -> None:
    learn.switch_algorithm(ui.get("learn_algo"))


def _shift(delta: int, last: int) -> None:
    ui.put("learn_step", min(max(int(ui.get("learn_step")) + delta, 1), last))


left, right = st.columns([3, 2], vertical_alignment="bottom")
with left:
    algorithm = ui.bound(st.segmented_control, "Algorithm", "learn_algo", list(ALGORITHMS),
                            format_func=ALGORITHMS.get, required=True, then=_new_algorithm)
with right:
    sample_id = ui.bound(st.selectbox, "Sample", "learn_sample", list(SMALL_SAMPLES),
                            format_func=lambda s: SAMPLES[s].title,
                            help="Small corpora from the tutorials bpeviz follows; "
                                 f"{ALGORITHMS[algorithm]} starts on "
                                 f"“{SAMPLES[LESSON_SAMPLES[algorithm]].title}”.")

try:
    training = learn.training(algorithm, sample_id)
    lesson = learn.lesson(algorithm, sample_id)
except ValueError as err:
    ui.error(err)
    st.stop()
last = len(lesson.steps)
number = ui.clamp("learn_step", 1, last)
step = lesson.steps[number - 1]



def nav(where: str) -> None:
    """Previous / progress / Next (``where``: "top" or "bottom", for the widget keys)."""
    back, bar, forward = st.columns([2, 5, 2], vertical_alignment="bottom")
    back.button("◀ Previous", key=f"learn_prev_{where}", on_click=_shift, args=(-1, last),
                disabled=number <= 1, width="stretch")
    bar.progress(number / last, text=f"Step {number} of {last}")
    forward.button("Next ▶", key=f"learn_next_{where}", on_click=_shift, args=(1, last),
                   type="primary", disabled=number >= last, width="stretch")


nav("top")
ui.bound(st.segmented_control, "Jump to a step", "learn_step", list(range(1, last + 1)),
            format_func=lambda k: str(k) if strong else f"{k}. {lesson.steps[k - 1].title}",
            required=True,
            label_visibility="collapsed")
st.subheader(ui.md_escape(f"Step {number}: {step.title}"))
st.html(lesson_step_html(lesson, number, byte_style, strong))
if step.trace is not None:
    st.html(trace_html(step.trace, training, byte_style, strong))
legend = learn.legend_html(step, training, byte_style)
if legend:
    st.html(legend)
if step.explanation is not None:
    with st.expander("Every number behind this merge"):
        st.html(why_merge_html(step.explanation, algorithm, byte_style, strong))

nav("bottom")
with st.container():
    if st.button("🔍 Explore this on your own corpus", key="learn_explore"):
        learn.open_in_explore(algorithm, sample_id, step.merge_step)
    st.caption(ui.md_escape(
        f"Opens Explore with this sample and {ALGORITHMS[algorithm]} "
        + (f"at merge {step.merge_step} of {len(training.merges)}" if step.merge_step
           else f"before the first of its {len(training.merges)} merges")
        + "; then paste or upload your own text in its sidebar."))

if number == last:
    others = [a for a in ALGORITHMS if a != algorithm]
    st.success(f"That is {ALGORITHMS[algorithm]}. Now the same lesson with another "
               "algorithm:", icon="🎓")
    cols = st.columns(len(others))
    for col, other in zip(cols, others):
        col.button(f"Learn {ALGORITHMS[other]} on "
                   f"“{SAMPLES[LESSON_SAMPLES[other]].title}”", key=f"learn_go_{other}",
                   on_click=learn.switch_algorithm, args=(other,), width="stretch")
