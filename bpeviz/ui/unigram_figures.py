"""The figures of a Unigram training (plotly, no streamlit): the loss and the vocabulary
size over the pruning rounds, and a word's lattice of pieces. Every label is escaped for
the chart (``render.chart_text``) and isolated (``display.isolate``: a right-to-left
piece does not reorder the numbers beside it)."""

from __future__ import annotations

import math

import plotly.graph_objects as go

from bpeviz.present import render
from bpeviz.text import display

#: a word's lattice is drawn up to this many arcs (each is a line of the figure)
LATTICE_ARCS = 400
#: the loss curve and the pieces curve, told apart in both themes (not only by the dash)
LOSS_COLOUR, PIECES_COLOUR = "#3b8eea", "#f28e2b"
#: lattice arcs off the best path: a mid grey that keeps 3:1 contrast on white and on
#: the dark theme's background; the best path in red
ARC_COLOUR, BEST_COLOUR = "rgba(128,128,128,0.95)", "#e0303a"
#: arcs off the best path are labelled with their piece (and log-probability) up to these
#: counts; the best path's always are
ARC_LABELS, ARC_SCORES = 40, 20
#: a longer word's lattice is drawn for its first this many characters (the best split
#: and the table of segmentations cover the whole word)
LATTICE_CHARS = 24


def loss_figure(training, k: int) -> go.Figure:
    """The loss and the vocabulary size at every round, round ``k`` marked."""
    rounds = list(range(len(training)))
    fig = go.Figure()
    fig.add_scatter(x=rounds, y=[s.loss for s in training.steps], mode="lines+markers",
                    name="loss", line={"color": LOSS_COLOUR})
    fig.add_scatter(x=rounds, y=[len(s.pieces) for s in training.steps], mode="lines+markers",
                    name="pieces", yaxis="y2", line={"dash": "dot", "color": PIECES_COLOUR})
    fig.add_vline(x=k, line_dash="dash", line_color="gray")
    fig.update_layout(height=280, margin={"l": 10, "r": 10, "t": 30, "b": 10},
                      xaxis={"title": "pruning round", "dtick": 1},
                      yaxis={"title": "loss (lower is better)"},
                      yaxis2={"title": "pieces", "overlaying": "y", "side": "right"},
                      legend={"orientation": "h", "y": 1.15})
    return fig


#: how far (in pixels) a label sits from its arc's top (or bottom), so the thick best
#: path never runs through its own label
BEST_LABEL_GAP = 7


def lattice_figure(found, byte_style: str = "gpt2", strong: bool = False) -> go.Figure:
    """The lattice as arcs over the word's characters: one arc per piece occurrence,
    higher for longer pieces, labelled with the piece (and its log-probability when
    there are few arcs). The best path is drawn thick and red above the row of
    characters, every other arc below it (their labels under their arcs), so that no
    label ever lies on the red path: a best-path label sits just above its own arc's
    top, the others below the characters, where no red arc goes."""
    fig = go.Figure()
    word = found.word
    labelled, scored = len(found.nodes) <= ARC_LABELS, len(found.nodes) <= ARC_SCORES
    tops: dict[bool, tuple[list[float], list[float], list[str]]] = {
        False: ([], [], []), True: ([], [], [])}
    heights = {True: [0.5], False: [0.5]}
    for start, end, _, _, best in found.nodes:
        heights[best].append((end - start) / 2)
    up, down = max(heights[True]), max(heights[False])
    height_px = 320 if strong else 280
    y_range = [-(down * 1.22 + 0.35), up * 1.22 + 0.3]
    per_px = (y_range[1] - y_range[0]) / (height_px - 20)  # y units per pixel
    for start, end, piece, score, best in sorted(found.nodes, key=lambda n: n[4]):
        xs = [start + (end - start) * t / 20 for t in range(21)]
        height = (end - start) / 2
        sign = 1 if best else -1  # the best path above the characters, the rest below
        ys = [sign * height * math.sin(math.pi * t / 20) for t in range(21)]
        # isolated: a right-to-left piece keeps its place before its log-probability
        shown = display.isolate(render.chart_text(display.label(piece) if piece is not None
                                                  else "<unk>"))
        fig.add_scatter(x=xs, y=ys, mode="lines", showlegend=False,
                        line={"width": 5 if best else 1.6,
                              "color": BEST_COLOUR if best else ARC_COLOUR},
                        hovertext=f"{shown} · log-prob {score:.3f}" + (" · best path" if best
                                                                     else ""),
                        hoverinfo="text")
        top_x, top_y, text = tops[best]
        top_x.append((start + end) / 2)
        top_y.append(sign * (height + BEST_LABEL_GAP * per_px))
        # a crowded drawing (many arcs: one-character arcs side by side) puts the best
        # path's log-probability under its piece, so neighbouring labels do not run together
        text.append(f"{shown}{' ' if scored else '<br>'}{score:.2f}" if scored or best
                    else shown)
    size = 17 if strong else 13
    for best, (top_x, top_y, text) in tops.items():
        # the best path is always labelled (piece and log-probability); the other arcs
        # only while there are few enough to read, else on hover
        if best or labelled:
            fig.add_scatter(x=top_x, y=top_y, mode="text", text=text, showlegend=False,
                            textposition="top center" if best else "bottom center",
                            hoverinfo="skip",
                            textfont={"size": size + 2 if best else size,
                                      **({"color": BEST_COLOUR} if best else {})})
    fig.add_scatter(x=[i + 0.5 for i in range(len(word))], y=[0.0] * len(word),
                    mode="text",
                    text=[display.isolate(render.chart_text(display.label(ch))) for ch in word],
                    textposition="middle center", textfont={"size": 20 if strong else 16},
                    showlegend=False, hoverinfo="skip")
    fig.update_layout(height=height_px,
                      margin={"l": 10, "r": 10, "t": 10, "b": 10},
                      xaxis={"visible": False, "range": [-0.3, len(word) + 0.3]},
                      yaxis={"visible": False, "range": y_range})
    return fig
