"""BPE over characters (Sennrich et al., 2016): the most frequent pair is merged.

>>> BPE.initial_symbols("low", marker="</w>"), BPE.join("lo", "w</w>")
(['l', 'o', 'w', '</w>'], 'low</w>')
"""

from bpeviz.algorithms.base import Algorithm

BPE = Algorithm(
    name="bpe",
    label="BPE (characters)",
    help=("Starts from the characters of each word and merges the most frequent pair of "
          "neighbours, again and again. Characters never seen in training become [UNK]."),
    units="characters",
    takes_marker=True,
    settings=("marker", "marker_style", "tie_break", "min_frequency"),
    special_tokens=("[UNK]",),
    pretokenizer="whitespace",
    encoder="merges",
    export_formats=("hf", "gpt2", "training"),
    short_label="BPE",
    lesson_sample="low",
    lesson_order=1,
)
