"""PickyBPE's own model file: the JSON ``pickybpe``'s trainer writes and its
``PickyBPESegmenter.from_pretrained`` opens (its tokens, with the parts each was made of,
every merge and every removal in order, and the ids of the vocabulary present), for a
PickyBPE step.

It is the only file that holds a PickyBPE tokenizer: a removal has no place in a BPE
model's merge list, so a ``tokenizer.json`` or a rank file would cut some words otherwise.
Exported at step k, it holds the first k events, and the segmenter opening it cuts text
as bpeviz does at that step (tested against the package). ``freq`` is each token's
count in the training words at that step (0 for a token removed), as the package counts.
bpeviz does not open these files: they do not hold the corpus a training steps through.

>>> from bpeviz import train
>>> t = train("low lower lowest low low", algorithm="picky", merges=4, threshold=0.5)
>>> data = json.loads(export(t.at())[FILENAME])
>>> [m["new_token"]["str"] for m in data["merges"]], [s["token"]["str"] for s in data["splits"]]
(['lo', '▁lo', '▁low', '▁lowe'], ['lo', '▁lo'])
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any

from bpeviz.algorithms import get as get_algorithm
from bpeviz.algorithms.picky import PICKY

if TYPE_CHECKING:
    from bpeviz.algorithms.picky_model import PickyStep

#: the format's name in exports, what it holds, and the file it writes
NAME = "pickybpe"
ABOUT = "PickyBPE's model file, which its package's segmenter opens (merges and removals)"
FILENAME = "pickybpe.json"
FILES = (FILENAME,)


def export(snapshot: Any) -> dict[str, str]:
    """``pickybpe.json``: the step's tokens, events and vocabulary, as the package writes."""
    from bpeviz.algorithms.picky_model import PickyStep

    if not isinstance(snapshot, PickyStep):  # another algorithm's step: where it goes
        get_algorithm(snapshot.training.algorithm).check_export(
            NAME, "PickyBPE's model file holds PickyBPE's merges and removals")
        raise ValueError("PickyBPE's model file holds a PickyBPE step")
    return {FILENAME: json.dumps(model(snapshot), ensure_ascii=False)}


def model(step: PickyStep) -> dict[str, Any]:
    """The model file's content (what the package's ``_dump`` writes) at ``step``."""
    training = step.training
    events = training.events[:step.step]
    vocab, present = training.vocab, step.present
    parts: dict[int, tuple[int, int]] = {}  # a token's parts: those it was first made of
    for e in events:
        if e.kind == "merge":
            parts.setdefault(e.token_id, (e.left_id, e.right_id))
    made = range(max([training.n_base - 1, *parts]) + 1)
    freq: Counter[int] = Counter()
    for word, count in zip(training.words, training.counts):
        for i in step.encode_word(word):
            freq[i] += count

    def walk(i: int) -> list[int]:
        if i < training.n_base or i in present:
            return [i]
        left, right = parts[i]
        return walk(left) + walk(right)

    records = {i: {"id": i, "str": vocab[i], "freq": freq[i] if i in present else 0,
                   "special": i < len(PICKY.special_tokens), "present": i in present,
                   "left": parts[i][0] if i in parts else None,
                   "right": parts[i][1] if i in parts else None,
                   "split": walk(i)} for i in made}
    ints = {i: n for n, i in enumerate(sorted(present))}
    return {
        "tokens": [records[i] for i in made],
        "id2int": ints,
        "int2id": {n: i for i, n in ints.items()},
        "merges": [{"id": k, "pair": [records[e.left_id], records[e.right_id]],
                    "new_token": records[e.token_id]}
                   for k, e in enumerate(events) if e.kind == "merge"],
        "splits": [{"id": k, "token": records[e.token_id],
                    "split": [records[p] for p in e.part_ids]}
                   for k, e in enumerate(events) if e.kind == "removal"],
    }


def is_model(data: Any) -> bool:
    """Whether parsed JSON is a PickyBPE model file."""
    return isinstance(data, dict) and {"tokens", "merges", "splits", "id2int"} <= set(data)


def recognise(name: str, text: str, data: Any) -> str | None:
    """``pickybpe.json`` when ``data`` is a PickyBPE model file (which bpeviz names, to
    say it does not open one: see the module's docstring)."""
    return FILENAME if is_model(data) else None


#: what an import of one says
NOT_OPENED = ("is a PickyBPE model file: bpeviz writes these for the package's "
              "segmenter but does not open them, as they hold no corpus to step through; "
              "train PickyBPE on your text in bpeviz instead")
