"""Saving a Unigram training as JSON and loading it back, exactly.

The file holds what the trainer read (the words with their counts, and for
SentencePiece's trainer what follows each word, which its seed depends on), the variant
and every option; loading trains again (the trainers are deterministic) and checks that
the final pieces and their scores come out as the file says, as loading a merge
training replays its merges and checks their counts.

>>> import os, tempfile
>>> from bpeviz.core.serialize import load, save_training
>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_text("hug pug hug pun bun hugs"), algorithm="unigram",
...           vocab_size=12, variant="course")
>>> path = os.path.join(tempfile.mkdtemp(), "unigram.json")
>>> save_training(t, path)   # bpeviz.save
>>> load(path) == t
True
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, replace
from typing import Any

from bpeviz.unigram.model import UnigramTraining

FORMAT = "bpeviz.unigram.training"
VERSION = 1


def training_to_dict(training: UnigramTraining,
                     corpus_name: str | None = None) -> dict[str, Any]:
    """A JSON-ready description of ``training`` (``corpus_name``: what the corpus is
    called, kept as ``corpus.name`` as a merge training's file keeps it)."""
    from bpeviz.unigram.spm_input import SentencePieceInput

    source = training.source
    if isinstance(source, SentencePieceInput):
        corpus: dict[str, Any] = {"words": list(source.words), "counts": list(source.counts),
                                  "ends": list(source.ends),
                                  "line_ends": list(source.line_ends),
                                  "last_word": source.last_word}
    elif isinstance(source, dict) and training.variant == "course":
        corpus = {"words": list(source), "counts": [int(c) for c in source.values()]}
    else:
        raise ValueError("this Unigram training does not hold what its trainer read (it "
                         "was not made by train_unigram or bpeviz.train), so it cannot "
                         "be saved")
    if corpus_name:
        corpus["name"] = corpus_name
    options = {k: v for k, v in training.options.items() if k not in ("plan", "auto")}
    if "specials" in options:
        options["specials"] = list(options["specials"])  # type: ignore[call-overload]
    plan = training.options.get("plan")
    return {
        "format": FORMAT,
        "version": VERSION,
        "variant": training.variant,
        "options": options,
        **({"auto": list(training.options.get("auto") or ()),  # type: ignore[call-overload]
            "plan": asdict(plan)} if plan is not None else {}),
        "corpus": corpus,
        "stop_reason": training.stop_reason,
        "final": [[p, s] for p, s in zip(training.final.pieces,
                                         training.final.model.log_probs)],
    }


def training_from_dict(data: Any) -> UnigramTraining:
    """Train again from :func:`training_to_dict`'s output and check the result against
    the file's final pieces; ValueError if the file is malformed or does not match."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f'not a bpeviz Unigram training file (no "format": "{FORMAT}")')
    if data.get("version") != VERSION:
        raise ValueError(f"unsupported Unigram training file version {data.get('version')!r}")
    try:
        variant = data["variant"]
        options = dict(data["options"])
        vocab_size = options.pop("vocab_size")
        corpus = data["corpus"]
        words = tuple(corpus["words"])
        counts = tuple(int(c) for c in corpus["counts"])
        final = [(str(p), float(s)) for p, s in data["final"]]
        if len(words) != len(counts) or not all(isinstance(w, str) for w in words):
            raise TypeError("corpus words and counts do not pair up")
        if "specials" in options:
            options["specials"] = tuple(options["specials"])
        if variant == "course":
            from bpeviz.unigram.course import train_course

            training = train_course(dict(zip(words, counts)), vocab_size, **options)
        elif variant == "sentencepiece":
            from bpeviz.unigram.spm_input import SentencePieceInput
            from bpeviz.unigram.trainer import train_sentencepiece

            source = SentencePieceInput(words, counts, tuple(int(e) for e in corpus["ends"]),
                                        tuple(int(e) for e in corpus["line_ends"]),
                                        corpus["last_word"])
            training = train_sentencepiece(source, vocab_size, **options)
        else:
            raise ValueError(f"unknown Unigram variant {variant!r} in the file")
        plan = data.get("plan")
    except (KeyError, TypeError, IndexError, AttributeError) as err:
        raise ValueError(f"the Unigram training file is missing or garbles a field: "
                         f"{err}") from None
    ours = list(zip(training.final.pieces, training.final.model.log_probs))
    if ours != final:
        differ = next((i for i, (a, b) in enumerate(zip(ours, final)) if a != b),
                      min(len(ours), len(final)))
        raise ValueError(f"training again on the file's corpus gives another final "
                         f"vocabulary than the file says (from piece {differ}, of "
                         f"{len(ours):,} here and {len(final):,} in the file): the file is "
                         "corrupt")
    if plan is not None:
        from bpeviz.unigram.teaching import Plan

        training = replace(training, options={**training.options, "plan": Plan(**plan),
                                              "auto": tuple(data.get("auto") or ())})
    return training


def save_training(training: UnigramTraining, path: str | os.PathLike[str],
                  corpus_name: str | None = None) -> None:
    """Write ``training`` to ``path`` as JSON, atomically (what ``bpeviz.save`` does
    with a Unigram training)."""
    from bpeviz.core.files import write_atomic

    write_atomic(path, json.dumps(training_to_dict(training, corpus_name),
                                  ensure_ascii=False))
