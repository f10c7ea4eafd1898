"""WordPiece (BERT): pairs ranked by a score, text encoded by longest match.

The score of a pair is ``count(ab) / (count(a) x count(b))``: how much more often the
two appear together than their own counts predict.

>>> WORDPIECE.initial_symbols("hug"), WORDPIECE.join("##u", "##g"), WORDPIECE.score(6, 3, 4)
(['h', '##u', '##g'], '##ug', 0.5)
"""

from bpeviz.algorithms.base import Algorithm
from bpeviz.text.symbols import WORDPIECE_PREFIX as PREFIX  # the mark on pieces inside a word


def score(pair: int, left: int, right: int) -> float:
    """WordPiece's score of a pair: its count over the product of its parts' counts.

    Named ``score_kind="count_over_parts"`` below, so the compiled merge loop computes it
    natively; the Python loop calls this function.
    """
    return pair / (left * right)


WORDPIECE = Algorithm(
    name="wordpiece",
    label="WordPiece",
    help=("BERT's algorithm: merges the pair with the best score, count(ab) / (count(a) × "
          "count(b)), and encodes a word by the longest pieces in the vocabulary, from the "
          "left; ## marks a piece inside a word."),
    units="characters",
    continuing_prefix=PREFIX,
    special_tokens=("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"),
    score=score,
    score_kind="count_over_parts",
    settings=("scoring", "tie_break", "min_frequency"),
    score_words="count({pair}) / (count({left}) × count({right}))",
    score_numbers="{count} / ({left_count} × {right_count})",
    count_ranking_note="as Hugging Face's WordPieceTrainer does",
    score_why=("its symbols are everywhere. A pair wins when its two symbols seldom appear "
               "apart, even when the pair itself is rare."),
    split_words=("WordPiece cuts every word into its characters and writes ## before each "
                 "character that is not the first of its word"),
    encode_words=("WordPiece does not replay its merges: from the left, it takes the longest "
                  "piece of the vocabulary that starts the word, then the longest that "
                  "continues it (a piece inside the word has ##)."),
    trace_words=("WordPiece cuts “{word}” by longest match from the left: at each position it "
                 "tries the longest piece first and keeps the first one in the vocabulary (at "
                 "step {step}); ## marks a piece inside the word."),
    unknown_words=("WordPiece found no piece for some part of that word, so the whole word "
                   "became one unknown token."),
    pretokenizer="whitespace",
    encoder="longest_match",
    export_formats=("hf", "vocab", "training"),
    hf_model="WordPiece",
    lesson_sample="hug",
    lesson_order=2,
)
