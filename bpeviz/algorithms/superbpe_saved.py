"""A SuperBPE training on disk: ``bpeviz.save`` writes it, ``bpeviz.load`` trains it again.

The file holds both stages' word tables (GPT-2's pre-tokens and the stage-2 words), the
settings, the merges an extended tokenizer inherited, and every merge made, which the
training made again on loading must equal (else the file is refused as corrupt).

>>> import os, tempfile
>>> from bpeviz.algorithms.superbpe_train import train_superbpe
>>> t = train_superbpe("of the cat, of the dog. of the sea", merges=9, transition=6)
>>> path = os.path.join(tempfile.mkdtemp(), "t.json")
>>> save_superbpe(t, path)
>>> u = superbpe_from_dict(json.load(open(path)))
>>> [m.token for m in u.merges] == [m.token for m in t.merges], u.transition, u.stage(7)
(True, 6, 2)
"""

from __future__ import annotations

import json
import os
from typing import Any

from bpeviz.algorithms.superbpe import STAGE2
from bpeviz.algorithms.superbpe_train import SuperBPETraining, stage2, train_corpora
from bpeviz.core.files import write_atomic
from bpeviz.text.corpus import Corpus

#: the "format" of a saved SuperBPE training (:func:`save_superbpe`)
FORMAT = "bpeviz-superbpe-training"


def _words(c: Corpus) -> dict[str, Any]:
    return {"pretokenizer": c.pretokenizer, "words": c.words, "counts": c.counts}


def _corpus(d: Any) -> Corpus:
    return Corpus(tuple(d["words"]), tuple(int(c) for c in d["counts"]), d["pretokenizer"])


def _pairs(merges: Any) -> list[list[str]]:
    return [[m.left.hex(), m.right.hex()] for m in merges]


def save_superbpe(training: SuperBPETraining, path: str | os.PathLike[str],
                  corpus_name: str | None = None) -> None:
    """Write ``training`` to ``path`` as JSON (what ``bpeviz.save`` does with one)."""
    o = training.options
    extended = training.stage1 is None and training.corpus.pretokenizer == STAGE2
    write_atomic(path, json.dumps({
        "format": FORMAT, "version": 1, "name": corpus_name,
        "settings": {"merges": o.merges, "transition": training.transition,
                     "tie_break": o.tie_break, "min_frequency": o.min_frequency},
        "stage1": None if training.stage1 is None else _words(training.stage1.corpus),
        "corpus": _words(training.corpus),
        "inherited": _pairs(training.merges[:training.transition]) if extended else None,
        "made": _pairs(training.merges),
    }, ensure_ascii=False))


def superbpe_from_dict(data: Any) -> SuperBPETraining:
    """The training a :func:`save_superbpe` file holds, trained again; ValueError if the
    file is malformed or its merges are not the ones its words and settings make."""
    try:
        s = data["settings"]
        corpus = _corpus(data["corpus"])
        keys = {"tie_break": s["tie_break"], "min_frequency": int(s["min_frequency"])}
        if data["inherited"] is not None:  # stage 2 on an existing tokenizer's merges
            inherited = [(bytes.fromhex(a), bytes.fromhex(b)) for a, b in data["inherited"]]
            training = stage2(corpus, inherited, int(s["merges"]), **keys)
        elif data["stage1"] is not None:
            training = train_corpora(_corpus(data["stage1"]), lambda: corpus,
                                     merges=int(s["merges"]),
                                     transition=int(s["transition"]), **keys)
        else:  # it never passed its transition: byte-level BPE on GPT-2's pre-tokens
            training = train_corpora(corpus, lambda: corpus, merges=int(s["merges"]),
                                     transition=int(s["merges"]), **keys)
        made = [(bytes.fromhex(a), bytes.fromhex(b)) for a, b in data["made"]]
    except (KeyError, TypeError, ValueError) as err:
        raise ValueError(f"the SuperBPE training file is missing or garbles a field: {err}"
                         ) from None
    if [(m.left, m.right) for m in training.merges] != made:
        raise ValueError("the SuperBPE training file's merges are not the ones its words "
                         "and settings make: the file is corrupt")
    return training
