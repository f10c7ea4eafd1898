"""A PickyBPE training on disk: ``bpeviz.save`` writes it, ``bpeviz.load`` trains it again.

The file holds the words trained on (each with the ``▁`` of the space before it), their
counts and the settings, and every event made (merge or removal, with its token), which
the training made again on loading must equal (else the file is refused as corrupt).

>>> import json, os, tempfile
>>> from bpeviz.algorithms.picky_train import train_picky
>>> t = train_picky("hug hugs pug pugs hugging bugging", merges=6, threshold=0.6)
>>> path = os.path.join(tempfile.mkdtemp(), "t.json")
>>> save_picky(t, path)
>>> u = picky_from_dict(json.load(open(path)))
>>> [(e.kind, e.token) for e in u.events] == [(e.kind, e.token) for e in t.events]
True
"""

from __future__ import annotations

import json
import os
from typing import Any

from bpeviz.algorithms.picky_model import PickyTraining
from bpeviz.algorithms.picky_train import train_picky
from bpeviz.core.files import write_atomic
from bpeviz.text.corpus import Corpus

#: the "format" of a saved PickyBPE training (:func:`save_picky`)
FORMAT = "bpeviz-picky-training"
#: the trainer's settings a file keeps (``PickyTraining.settings``)
SETTINGS = ("merges", "vocab_size", "threshold", "max_type_length", "character_coverage")


def save_picky(training: PickyTraining, path: str | os.PathLike[str],
               corpus_name: str | None = None) -> None:
    """Write ``training`` to ``path`` as JSON (what ``bpeviz.save`` does with one)."""
    write_atomic(path, json.dumps({
        "format": FORMAT, "version": 1, "name": corpus_name,
        "settings": {name: training.settings.get(name) for name in SETTINGS},
        "words": list(training.words), "counts": list(training.counts),
        "events": [[e.kind, e.token] for e in training.events],
    }, ensure_ascii=False))


def picky_from_dict(data: Any) -> PickyTraining:
    """The training a :func:`save_picky` file holds, trained again; ValueError if the
    file is malformed or its events are not the ones its words and settings make."""
    try:
        settings = {name: data["settings"][name] for name in SETTINGS}
        corpus = Corpus(tuple(str(w) for w in data["words"]),
                        tuple(int(c) for c in data["counts"]), "whitespace")
        made = [(str(kind), str(token)) for kind, token in data["events"]]
    except (KeyError, TypeError, ValueError) as err:
        raise ValueError(f"the PickyBPE training file is missing or garbles a field: {err}"
                         ) from None
    training = train_picky(corpus, **settings)
    if [(e.kind, e.token) for e in training.events] != made:
        raise ValueError("the PickyBPE training file is corrupt: its words and settings "
                         "make other merges and removals than the ones it lists")
    return training


__all__ = ["FORMAT", "picky_from_dict", "save_picky"]
