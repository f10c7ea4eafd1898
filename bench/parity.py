"""Parity-aware BPE vs byte-level BPE on the same text: training time (and Hugging Face's
``ParityBpeTrainer`` on the same corpora, for reference).

    python -m bench.parity                  # 2 and 6 MB, 5,000 merges
    python -m bench.parity 1:2000           # MB:merges pairs

The corpora are real text (``bench.data``: the installed stdlib's docs, then its
sources), cut into three "languages" of equal size, consecutive stretches of that text
(prose, then prose and code, then code), each with the next 50 KB of its stretch as its
dev text. Parity-aware BPE trains on the three with their dev texts (the base variant);
byte-level BPE trains on the three joined, with GPT-2's pre-tokens, the ``ids`` tie rule
and the same number of merges. Times are the best of ``repeats`` runs. Not a unit test:
it prints.
"""

from __future__ import annotations

import sys

import bpeviz
from bench.data import corpus_text, describe
from bench.superbpe import best
from bpeviz import Corpus

DEV_MB = 0.05


def languages(size_mb: float) -> tuple[dict[str, str], dict[str, str]]:
    """Three consecutive stretches of the corpus, each followed by its dev text."""
    part = size_mb / 3
    train, dev = {}, {}
    for i, name in enumerate(("first", "second", "third")):
        start = i * (part + DEV_MB)
        train[name] = corpus_text(part, offset=start)
        dev[name] = corpus_text(DEV_MB, offset=start + part)
    return train, dev


def hf_parity(train: dict[str, str], dev: dict[str, str], merges: int) -> None:
    from tokenizers import Tokenizer, models, pre_tokenizers
    from tokenizers.trainers import ParityBpeTrainer

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = ParityBpeTrainer(num_merges=merges, show_progress=False)
    trainer.train_from_iterator(tok, train_iterators=[iter([t]) for t in train.values()],
                                dev_iterators=[iter([dev[k]]) for k in train])


def compare(size_mb: float, merges: int, repeats: int = 3) -> None:
    train, dev = languages(size_mb)
    joined = "".join(train.values())
    plain_s, _ = best(lambda: bpeviz.train(Corpus.from_text(joined, "gpt2"), algorithm="bbpe",
                                           merges=merges, tie_break="ids"), repeats)
    parity_s, parity = best(lambda: bpeviz.train(train, algorithm="parity", merges=merges,
                                                 dev=dev), repeats)
    picks = parity.languages_picked() if hasattr(parity, "languages_picked") else None
    line = (f"{describe(size_mb + 3 * DEV_MB)} as 3 languages of {size_mb / 3:.2f} MB, "
            f"{merges:,} merges: byte-level BPE {plain_s:.2f} s, parity-aware BPE "
            f"{parity_s:.2f} s ({parity_s / plain_s:.2f}x; target <= 2x)")
    try:
        hf_s, _ = best(lambda: hf_parity(train, dev, merges), 1)
        line += f"; Hugging Face's ParityBpeTrainer {hf_s:.2f} s ({parity_s / hf_s:.2f}x of it)"
    except (ImportError, AttributeError, TypeError) as err:
        line += f"; Hugging Face's ParityBpeTrainer not run ({err})"
    if picks:
        line += f"; merges per language {picks}"
    print(line, flush=True)


def main(argv: list[str]) -> None:
    pairs = [a.split(":") for a in argv] or [["2", "5000"], ["6", "5000"]]
    for size, merges in pairs:
        compare(float(size), int(merges))


if __name__ == "__main__":
    main(sys.argv[1:])
