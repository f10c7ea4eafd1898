"""The bpeviz training (``training.json``): the whole training, replayable at every step.

Unlike the tokenizer formats it holds every merge whatever the snapshot's step, and the
corpus (or, for an imported tokenizer, its base vocabulary), so it reloads to the same
explorer state.

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_text("hug pug hug"), "bpe", merges=2)
>>> files = export(t.at(0))
>>> list(files), import_json(files[FILENAME]).merges == t.merges
(['training.json'], True)
>>> recognise("saved (1).json", files[FILENAME], json.loads(files[FILENAME]))
'training.json'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bpeviz.core.serialize import FORMAT, training_from_dict, training_to_dict
from bpeviz.formats._common import Lone, Opener, parse_json

if TYPE_CHECKING:
    from bpeviz.core.snapshot import Snapshot
    from bpeviz.core.training import Training

#: the format's name in exports, what it holds, and the file names it reads and writes
NAME = "training"
ABOUT = "the bpeviz training (JSON), reloadable at every step"
FILENAME = "training.json"
FILES = (FILENAME,)


def export(snapshot: Snapshot) -> dict[str, str]:
    """``training.json``: the snapshot's whole training (every step, not only this one)."""
    return {FILENAME: json.dumps(training_to_dict(snapshot.training), ensure_ascii=False)}


def is_training(data: Any) -> bool:
    """Whether parsed JSON is a bpeviz training (``"format": "bpeviz.core.training"``)."""
    return isinstance(data, dict) and data.get("format") == FORMAT


def opens(files: Mapping[str, str], lone: Lone | None) -> Opener | None:
    """A lone JSON file that is a bpeviz training, whatever its name."""
    if lone is None or not lone.json_like or not is_training(lone.data):
        return None
    return lambda: training_from_dict(lone.data)


def recognise(name: str, text: str, data: Any) -> str | None:
    """``training.json`` when ``data`` (the parsed file) is a bpeviz training."""
    return FILENAME if is_training(data) else None


def import_json(text: str, source: str = FILENAME) -> Training:
    """Open a saved training (the text of a ``training.json``)."""
    data = parse_json(text, source)
    if not is_training(data):
        raise ValueError(f"{source} is not a bpeviz training (no \"format\": \"{FORMAT}\")")
    return training_from_dict(data)
