"""Vocabulary: every token at the chosen step, how each was built, charts and downloads."""

import pandas as pd
import streamlit as st

from bpeviz import ui
from bpeviz.analysis import views
from bpeviz.analysis.curves import curve_landmarks
from bpeviz.formats import FORMATS
from bpeviz.formats.hf import lossy_decoding
from bpeviz.present import figures, glossary, render
from bpeviz.text import display
from bpeviz.ui import health_view, opened, stage
from bpeviz.ui.page_setup import own_view

ctx = opened.on_corpus(ui.page("Vocabulary"))


def open_file_section() -> None:
    st.subheader("Open a tokenizer file")
    st.caption("Open a tokenizer written by bpeviz, Hugging Face, tiktoken or GPT-2 and "
               "try it on the Tokenize page.")
    ui.import_widget()


st.title("The vocabulary")  # the page's title, whichever view it shows, then the choice
if health_view.chosen():  # the Health view: any training (Unigram's rounds too), or the file
    health_view.draw(ctx)
    open_file_section()
    st.stop()
own_view(ctx, "Vocabulary")  # an algorithm with its own view of the page (Unigram's pieces)
training, byte_style, strong = ctx.training, ctx.byte_style, ctx.presentation
st.caption(ui.md_escape(
    f"{ui.algorithm_labels()[ctx.algorithm]} on {ctx.corpus_name}. {training.stop_message}"))
LOSSY = lossy_decoding(training)
if LOSSY:  # said before anyone downloads it, and again at the download
    st.warning(ui.md_escape(LOSSY), icon=":material/space_bar:")


#: the merge tree's token list holds at most this many choices
TREE_CHOICES = 500
KINDS = ("special", "base", "merged")
FREQUENCY_HELP = ("How often the token occurs in the corpus tokenized at this step (every "
                  "word cut with this step's merges). Not the count it was created with: "
                  "a later merge that builds a longer token from it takes those "
                  "occurrences, so a token can fall to 0 (absorbed into longer tokens).")
CREATED_HELP = ("The count it was created with: how often its pair occurred when the "
                "token was made (the merge's count); "
                "None for special tokens and base symbols, made by no merge.")
TOKEN_HELP = ("The token as the other pages draw it: · is a space, ⟨ZWJ⟩ an invisible "
              "character by its short name, ◌ the dotted circle a combining mark sits on "
              "when no letter carries it.")
NAMES_HELP = ("Each combining mark (a vowel sign, a virama, an accent) and invisible "
              "character (a joiner, a variation selector, a direction mark) the token "
              "holds, named by its Unicode name; empty when it holds none.")


def with_creation_counts(frame):
    """``frame`` with the count each merged token was created with, beside its frequency
    at this step."""
    merges = training.merges
    created = frame["created at step"].tolist()
    counts = [int(merges[s - 1].count) if kind == "merged" and 0 < s <= len(merges) else None
              for s, kind in zip(created, frame["kind"].tolist())]
    frame = frame.copy()
    frame.insert(frame.columns.get_loc("frequency") + 1, "created with count",
                 pd.array(counts, dtype="Int64"))
    return frame


def legend_symbols(ids) -> list:
    """The symbols the legend explains for the table's rows ``ids``: each token a note
    may be about, and for a byte-level token the combining marks and invisible
    characters it holds whole (its cell shows bytes, its names column names those
    characters, as Tokenize's legend names them in the text).

    Printable ASCII without a space, a word-piece prefix or the end-of-word marker is
    left out: no note is about it, and passing 50,000 such tokens to the glossary took
    a quarter of a second on every step."""
    vocab = training.vocab
    prefix, marker = ctx.alg.continuing_prefix, training.options.marker
    found = []
    for i in ids:
        symbol = vocab[i]
        if isinstance(symbol, bytes):
            found.append(symbol)
            if not symbol.isascii():
                # whitespace left out: a lone space-like character would read as text
                found += [ch for ch in symbol.decode("utf-8", "ignore") if not ch.isspace()
                          and (display.is_mark(ch) or display.is_invisible(ch))]
        elif (not (symbol.isascii() and symbol.isprintable()) or " " in symbol
              or (prefix and symbol.startswith(prefix))
              or (marker and symbol.endswith(marker))):
            found.append(symbol)
    return found


def _pick_row() -> None:
    event = st.session_state.get("vocab_table")
    rows = event.selection.rows if event else []
    shown = st.session_state.get("_vocab_shown_ids", [])
    if rows and rows[0] < len(shown):
        ui.put("tree_token", int(shown[rows[0]]))


@st.fragment
def vocabulary() -> None:
    step = stage.controls(training, empty_note=True)
    # Streamlit widgets only Python draws: dimmed, with a note of their step, while the
    # bar is at another (they follow when the step settles)
    with stage.drawn_views(training, "vocabulary"):
        snap = ctx.at(step)
        frame = views.vocab_frame(snap, byte_style)
        # on a projector the type is larger: the table takes the page's width, the tree goes
        # under it (beside it, the table scrolled sideways and its third kind was cut)
        table_col, tree_col = ((st.container(), st.container()) if strong
                               else st.columns([3, 2], gap="large"))
        with table_col:
            st.subheader(f"{len(frame):,} tokens at step {step}")
            c1, c2 = st.columns([1, 1], vertical_alignment="bottom")
            search = c1.text_input("Search tokens", key="vocab_search", max_chars=100,
                                   placeholder="substring of the token")
            # pills: the three kinds are always whole (a multiselect cut the third chip off)
            kinds = c2.pills("Kinds", KINDS, selection_mode="multi", default=list(KINDS),
                             key="vocab_kinds", help="Which tokens the table lists: special "
                             "tokens, base symbols (the initial alphabet), merged tokens.")
            frame = with_creation_counts(frame)
            shown = frame[frame["kind"].isin(kinds or [])]
            if search:
                shown = shown[shown["token"].str.contains(search, regex=False, case=False)]
            shown = shown.sort_values("id", ascending=False, kind="stable")
            st.session_state["_vocab_shown_ids"] = shown["id"].tolist()
            st.dataframe(
                shown, hide_index=True, width="stretch", height=440, key="vocab_table",
                on_select=_pick_row, selection_mode="single-row",
                column_config={
                    "id": st.column_config.NumberColumn("id", format="%d", width=50),
                    "token": st.column_config.TextColumn("token", help=TOKEN_HELP),
                    # a projector's larger type needs wider columns for "merged", "created"
                    "kind": st.column_config.TextColumn("kind", width=80 if strong else 65),
                    "created at step": st.column_config.NumberColumn(
                        "created", format="%d", width=82 if strong else 60,
                        help="The step that made it (0: special or base)"),
                    "frequency": st.column_config.NumberColumn(
                        f"in corpus at {step}", help=FREQUENCY_HELP),
                    "created with count": st.column_config.NumberColumn(
                        "made with", help=CREATED_HELP),
                    "names": st.column_config.TextColumn("names", help=NAMES_HELP),
                })
            st.caption(ui.md_escape(
                f"Newest first. Select a row to see how that token was built. “In corpus at "
                f"{step}”: how often the token occurs when the whole corpus is cut at step "
                f"{step}; “made with”: the count it was created with. It can be 0 for a token "
                "created with a count of 2 or more: later merges took all its occurrences into "
                "longer tokens."))
            legend = glossary.legend_html(glossary.notes(
                training, legend_symbols(shown["id"]), byte_style))
            if legend:  # the marks in the table's cells, explained beside it
                st.html(legend)
        with tree_col:
            st.subheader("Merge tree")
            newest, oldest = len(snap.vocab) - 1, training.n_base
            if newest < oldest:
                st.info("No merged token yet at this step: move the step on.")
            else:
                current = ui.get("tree_token") if "tree_token" in st.session_state else None
                if not (isinstance(current, int) and oldest <= current <= newest):
                    ui.put("tree_token", newest)
                # the choices: the newest merged tokens the table shows (its search and kinds),
                # at most TREE_CHOICES of them, and the one picked (50,000 choices would travel
                # to the browser on every step)
                choices = [int(i) for i in shown["id"] if oldest <= i <= newest][:TREE_CHOICES]
                if ui.get("tree_token") not in choices:
                    choices.insert(0, ui.get("tree_token"))
                labels = views.token_label_list(training, byte_style)  # (once per training)
                ui.bound(st.selectbox, "Token", "tree_token", choices,
                         format_func=lambda i: f"{labels[i]}  (id {i})")
                if newest - oldest + 1 > len(choices):
                    st.caption(f"The list holds the {TREE_CHOICES:,} newest merged tokens the "
                               "table shows: search the table or select a row to reach others.")
                node = views.merge_tree(training, ui.get("tree_token"))
                st.html(render.merge_tree_html(node, byte_style, strong,
                                               glossary.ChipNotes(training, byte_style)))
                st.caption("Each merged token splits into the two tokens it was made from, "
                           "down to the initial symbols.")
        charts(step, frame)
        downloads(snap)


def charts(step: int, frame) -> None:
    st.subheader("Charts")
    a, b, c = st.columns(3)
    config = {"displaylogo": False, "typesetMath": False}
    with a:
        st.markdown("**Merge strength by step**")
        st.plotly_chart(figures.training_strength_figure(training, byte_style, step, strong),
                        config=config, key="chart_strength")
        run = figures.strength_run(len(training.merges))
        st.caption(f"One bar per merge: the {ctx.alg.value_name()} of the pair it merged."
                   if run == 1 else
                   f"{len(training.merges):,} merges in bars of {run}: each bar is the "
                   f"merge with the highest {ctx.alg.value_name()} among {run} merges in a "
                   "row (hover names it and the run).")
    with b:
        st.markdown("**Corpus tokens by step**")
        st.plotly_chart(figures.token_count_figure({"corpus tokens": training.token_counts()},
                                                  step, strong, landmarks={
                                                      "corpus tokens":
                                                      curve_landmarks(training)}),
                        config=config, key="chart_tokens")
    with c:
        st.markdown("**Token lengths at this step**")
        st.plotly_chart(figures.length_figure(frame, strong), config=config, key="chart_lengths")


#: past this many tokens the files are written only when asked (50,000: about 9 s a step)
LAZY_DOWNLOADS = 5_000


def downloads(snap) -> None:
    st.subheader("Download")
    st.caption(f"The vocabulary and merges at step {snap.step}, in the format other tools "
               "read. A format that cannot hold this training says why.")
    if len(snap.vocab) > LAZY_DOWNLOADS and not st.toggle(
            "Prepare the downloads at this step", key="vocab_downloads",
            help=f"Writing {len(snap.vocab):,} tokens in every format takes seconds, so it "
                 "is done only when asked."):
        return
    cols = st.columns(len(FORMATS))
    for col, (fmt, about) in zip(cols, FORMATS.items()):
        with col:
            st.markdown(f"**{fmt}**")
            st.caption(ui.md_escape(about))
            try:
                files = ui.export_files(snap, fmt)
            except ValueError as err:
                st.caption(ui.md_escape(f"Not available: {err}"))
                continue
            if fmt == "hf" and LOSSY:
                st.caption(":orange[:material/warning: Decodes without the spaces between "
                           "words: see the note at the top of the page.]")
            for filename, content in files.items():
                st.download_button(filename, content, file_name=filename,
                                   mime="application/json" if filename.endswith(".json")
                                   else "text/plain", key=f"dl_{fmt}_{filename}",
                                   icon=":material/download:", on_click="ignore")


vocabulary()
open_file_section()
