"""Saving a training as JSON and loading it back, exactly.

The file holds the corpus, the options and the merges; loading replays the merges on
the corpus and checks that every recorded count comes out the same. A Unigram training
is saved and loaded the same way (:mod:`bpeviz.unigram.saved`: its file holds what the
trainer read, loading trains again and checks the result), and :func:`load` also opens
a SentencePiece ``.model``: the layer above wires those in (:data:`OWN_SAVERS`,
:data:`OWN_OPENERS`, :data:`OWN_FORMATS`), as this layer imports none of Unigram's.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bpeviz.algorithms import get as get_algorithm
from bpeviz.core.files import write_atomic
from bpeviz.text.corpus import Corpus
from bpeviz.text.symbols import Symbol

if TYPE_CHECKING:
    from bpeviz.core.protocol import AnyTraining
    from bpeviz.core.training import Training

FORMAT = "bpeviz.core.training"
VERSION = 1

#: How the trainings this layer does not define are saved and opened, registered from
#: above (``bpeviz/__init__.py`` wires Unigram's): ``saver(training, path, corpus_name)``
#: by the training's class,
OWN_SAVERS: dict[type, Callable[[Any, str | os.PathLike[str], str | None], None]] = {}
#: ``opener(path)`` by the suffix of a file that is not JSON (a SentencePiece ``.model``),
OWN_OPENERS: dict[str, Callable[[str | os.PathLike[str]], AnyTraining]] = {}
#: and ``from_dict(data)`` by the ``"format"`` a JSON training file names.
OWN_FORMATS: dict[str, Callable[[Any], AnyTraining]] = {}


def _sym_in(value: Any, algorithm: str) -> Symbol:
    if not isinstance(value, str):
        raise ValueError(f"a token must be a string in the file, got {value!r}")
    return get_algorithm(algorithm).symbol_from_json(value)  # as the record spells it


def training_to_dict(training: Training, corpus_name: str | None = None) -> dict[str, Any]:
    """A JSON-ready description of ``training`` (``corpus_name``: what the corpus is
    called, such as its file's name, kept as ``corpus.name`` for the slides' title).

    An imported tokenizer (see :mod:`bpeviz.formats`) has no corpus to derive its base
    vocabulary from, so its file also holds ``"base"`` (and ``"extra"``: tokens listed
    after the merged ones, such as GPT-2's ``<|endoftext|>``).
    """
    from bpeviz.core.training import base_vocabulary

    out = get_algorithm(training.algorithm).symbol_to_json  # as the record spells a symbol
    data = {
        "format": FORMAT,
        "version": VERSION,
        "options": training.options.to_dict(),
        "corpus": {
            "pretokenizer": training.corpus.pretokenizer,
            "words": list(training.corpus.words),
            "counts": list(training.corpus.counts),
            **({"name": corpus_name} if corpus_name else {}),
        },
        "stop_reason": training.stop_reason,
        "merges": [[out(m.left), out(m.right), m.count, m.score]
                   for m in training.merges],
    }
    base = list(training.vocab[: training.n_base])
    if base != base_vocabulary(training.corpus, training.options):
        data["base"] = [out(s) for s in base]
    extra = training.vocab[training.vocab_sizes[-1] :]
    if extra:
        data["extra"] = [out(s) for s in extra]
    return data


def training_from_dict(data: Any) -> Training:
    """Rebuild a training from :func:`training_to_dict`'s output; ValueError if malformed."""
    from bpeviz.core.training import Training, make_options, replay

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a bpeviz training file (no \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise ValueError(f"unsupported training file version {data.get('version')!r}")
    try:
        opts = dict(data["options"])
        corpus_data = data["corpus"]
        corpus = Corpus(tuple(corpus_data["words"]), tuple(int(c) for c in corpus_data["counts"]),
                        corpus_data["pretokenizer"])
        algorithm = opts["algorithm"]
        options = make_options(
            algorithm, merges=opts.get("merges"), vocab_size=opts.get("vocab_size"),
            tie_break=opts["tie_break"], marker=opts.get("marker"),
            marker_style=opts.get("marker_style", "separate"), scoring=opts["scoring"],
            min_frequency=opts.get("min_frequency", 0),
            special_tokens=opts.get("special_tokens", []),
        ) if (opts.get("merges") is None) != (opts.get("vocab_size") is None) else None
        if options is None:
            raise ValueError("the options must hold exactly one of merges and vocab_size")
        rows = data["merges"]
        pairs = [(_sym_in(r[0], algorithm), _sym_in(r[1], algorithm)) for r in rows]
        stop_reason = data["stop_reason"]
        base = data.get("base")
        if base is not None:
            base = [_sym_in(s, algorithm) for s in base]
        extra = tuple(_sym_in(s, algorithm) for s in data.get("extra", ()))
    except (KeyError, TypeError, IndexError) as err:
        raise ValueError(f"the training file is missing or garbles a field: {err}") from None
    replayed = replay(corpus, options, pairs, base=base)
    for merge, row in zip(replayed.merges, rows):
        if merge.count != row[2]:
            raise ValueError(
                f"merge {merge.step} ({merge.left!r} + {merge.right!r}) has count "
                f"{merge.count} on this corpus, but the file says {row[2]}: the file is corrupt"
            )
    return Training(
        corpus=replayed.corpus, options=options, merges=replayed.merges,
        vocab=replayed.vocab + extra,
        n_base=replayed.n_base, stop_reason=stop_reason, vocab_sizes=replayed.vocab_sizes,
        initial_tokens=replayed.initial_tokens, _log=replayed._log,
    )


def save_training(training: AnyTraining, path: str | os.PathLike[str],
                  corpus_name: str | None = None) -> None:
    """Write ``training`` to ``path`` (atomically) so that :func:`load` reads it back: a
    merge training or a Unigram one as JSON (:mod:`bpeviz.unigram.saved`), an opened
    ``.model`` as the model's own bytes (the savers of :data:`OWN_SAVERS`)."""
    for kind, saver in OWN_SAVERS.items():
        if isinstance(training, kind):
            saver(training, path, corpus_name)
            return
    data = training_to_dict(training, corpus_name)  # type: ignore[arg-type]
    write_atomic(path, json.dumps(data, ensure_ascii=False))


def _corpus_name(data: Any) -> str | None:
    """The corpus's name a saved training's JSON holds, or None: ``corpus.name``, or
    ``name`` in the research algorithms' own formats (which keep several corpora)."""
    if not isinstance(data, dict):
        return None
    corpus = data.get("corpus")
    name = (corpus.get("name") if isinstance(corpus, dict) else None) or data.get("name")
    return name if isinstance(name, str) and name.strip() else None


def saved_corpus_name(path: str | os.PathLike[str]) -> str | None:
    """The corpus's name a saved training holds (``corpus.name``), or None: a file saved
    without one, a tokenizer file, or not JSON."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return _corpus_name(data)


def saved_training(data: Any) -> tuple[AnyTraining, str | None] | None:
    """The training a saved file's parsed JSON holds and its corpus's name, or None when
    the JSON is not a saved training (a tokenizer file, say)."""
    kind = data.get("format") if isinstance(data, dict) else None
    if not isinstance(kind, str):
        return None
    from_dict = training_from_dict if kind == FORMAT else OWN_FORMATS.get(kind)
    return None if from_dict is None else (from_dict(data), _corpus_name(data))


def load(path: str | os.PathLike[str]) -> AnyTraining:
    """Load a training saved with :func:`save_training` (``bpeviz.save``), a merge
    training or a Unigram one, or open a SentencePiece Unigram ``.model`` (a training of
    one step: :func:`bpeviz.unigram.spm.open_model`). Each answers
    :mod:`bpeviz.core.protocol`; what is not a merge training is read by the opener
    (:data:`OWN_OPENERS`) or the reader (:data:`OWN_FORMATS`) registered for it."""
    return load_named(path)[0]


def load_named(path: str | os.PathLike[str]) -> tuple[AnyTraining, str | None]:
    """:func:`load`, and the corpus's name the file holds (:func:`saved_corpus_name`),
    the file read once."""
    opener = OWN_OPENERS.get(Path(path).suffix)
    if opener is not None:
        return opener(path), None
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"{path} is not a JSON training file (nor a SentencePiece .model): "
                         f"{err}") from None
    # anything else is read as a merge training, whose reader says what is wrong with it
    return saved_training(data) or (training_from_dict(data), _corpus_name(data))
