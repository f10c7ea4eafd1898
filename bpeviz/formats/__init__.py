"""Tokenizer files in and out: Hugging Face, tiktoken, vocab.txt, GPT-2, bpeviz trainings.

Export the vocabulary and merges of any step::

    files = formats.export(training.at(100), "hf")    # {"tokenizer.json": "..."}
    write_files(files, "out/")                  # atomically, one file per entry

and open what other tools wrote, as a :class:`~bpeviz.core.training.Training` whose steps
are the file's merges in rank order (a vocab.txt, which has none, opens at step 0)::

    training = import_files({"tokenizer.json": text})
    training = import_path("gpt2-dir/")         # vocab.json + merges.txt in a folder
    training.at().encode("any text")

========== ======================================== ====================================
format     files                                    algorithms
========== ======================================== ====================================
hf         tokenizer.json                           BPE (no or glued marker), BBPE, WordPiece
tiktoken   tokenizer.tiktoken + tiktoken.json       BBPE
vocab      vocab.txt + bpeviz.json                  WordPiece
gpt2       vocab.json + merges.txt + bpeviz.json    BPE, BBPE
pickybpe   pickybpe.json (its package's model)      PickyBPE (exported only)
training   training.json (replayable, all steps)    all
========== ======================================== ====================================

Two more open (not exported here): a SentencePiece Unigram ``.model``, as a training
of one step that encodes as ``sentencepiece`` does
(:func:`bpeviz.unigram.spm.open_model`), and a Unigram training saved by
``bpeviz.save`` (every pruning round; :mod:`bpeviz.unigram.saved`). A Unigram step
exports as ``hf`` (a ``tokenizer.json`` with a Unigram model).

``bpeviz.json`` records what the plain files cannot (pre-tokenizer, end-of-word marker);
imports read it when it is there. An export that cannot encode exactly like bpeviz
raises ValueError instead (a separate ``</w>`` to Hugging Face, say, or to tiktoken a
merge list it would apply differently: see :func:`tiktoken_ranks.check_reproducible`).
An imported file that bpeviz cannot open, or that is malformed, raises ValueError naming
the problem.

The ``training`` export is the whole training, whatever the step, so it reloads to the
same explorer state (with :func:`bpeviz.load` or :func:`import_files`).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from bpeviz.core.files import write_atomic
from bpeviz.core.serialize import FORMAT as TRAINING_FORMAT
from bpeviz.formats import gpt2, hf, pickybpe_model, tiktoken_ranks, training_json, vocab_txt
from bpeviz.formats._common import NOT_JSON, SIDECAR, Lone, Opener, recognise_sidecar
from bpeviz.text.corpus import decode_utf8

if TYPE_CHECKING:
    from bpeviz.core.snapshot import Snapshot
    from bpeviz.core.training import Training
    from bpeviz.unigram.model import UnigramTraining
    from bpeviz.unigram.spm import OpenedModel

#: The format modules, in the order exports are listed. Each declares ``NAME`` (the
#: export's name), ``ABOUT`` (what it holds), ``FILES`` (the file names it reads and
#: writes), ``export(snapshot)`` and ``recognise(name, text, data)``. A new format is a
#: module and a line here (an algorithm lists the formats that hold it exactly:
#: ``Algorithm.export_formats``).
MODULES = (hf, tiktoken_ranks, vocab_txt, gpt2, pickybpe_model, training_json)
_BY_NAME = {m.NAME: m for m in MODULES}
#: Export formats and what each holds.
FORMATS: dict[str, str] = {m.NAME: m.ABOUT for m in MODULES}
TRAINING_FILE = training_json.FILENAME
#: Largest file an import reads (the GPT-4o rank file is about 3.6 MB).
MAX_FILE_BYTES = 64_000_000


def export(snapshot: Snapshot, fmt: str) -> dict[str, str]:
    """File name -> content of ``snapshot`` in format ``fmt`` (see :data:`FORMATS`).

    >>> from bpeviz import Corpus, train
    >>> t = train(Corpus.from_text("hug pug hug"), "wordpiece", merges=2)
    >>> files = export(t.at(), "vocab")
    >>> sorted(files), files["vocab.txt"].split()[:6]
    (['bpeviz.json', 'vocab.txt'], ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', '##g'])
    """
    module = _BY_NAME.get(fmt) if isinstance(fmt, str) else None
    if module is None:
        raise ValueError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    from bpeviz.unigram.model import UnigramStep
    from bpeviz.unigram.spm import ModelStep

    if isinstance(snapshot, UnigramStep):  # a pruning round: its pieces and scores
        from bpeviz.algorithms import get as get_algorithm
        from bpeviz.unigram.hf_export import to_hf_json

        get_algorithm("unigram").check_export(
            fmt, f"{module.ABOUT.split(' (')[0]} does not hold a Unigram model")
        return {"tokenizer.json": to_hf_json(snapshot.model)}
    if isinstance(snapshot, ModelStep):
        raise ValueError(f"{snapshot.training.name} is a SentencePiece model, already a "
                         "tokenizer file: bpeviz exports the steps it trains (Hugging Face's "
                         "tokenizers converts a .model to a tokenizer.json)")
    from bpeviz.core.training import Training

    training = getattr(snapshot, "training", None)
    if training is not None and not isinstance(training, Training):
        # an algorithm whose trainer is its own (PickyBPE): only the formats it lists
        from bpeviz.algorithms import get as get_algorithm

        alg = get_algorithm(training.algorithm)
        alg.check_export(fmt, f"{module.ABOUT.split(' (')[0]} does not hold {alg.label}")
    return module.export(snapshot)  # type: ignore[no-any-return]


def import_files(files: Mapping[str, str | bytes]) -> Training | UnigramTraining | OpenedModel:
    """Open tokenizer files, given as ``{file name: content}``, as a training.

    The names decide the format (only the last part of a path counts):
    ``*.tiktoken`` (+ ``tiktoken.json``), ``vocab.json`` + ``merges.txt``,
    ``vocab.txt``, a SentencePiece ``*.model`` (a Unigram model, opened as a training
    of one step), or one JSON file: a Hugging Face tokenizer or a bpeviz training, of
    merges or of Unigram's pruning rounds (told apart by their content).
    ``bpeviz.json`` may come with any of them. A file with another name
    (``vocab (1).json``, as a browser renames a second download) is recognised by its
    content (see :data:`RECOGNISERS`) and read under the usual name. Given
    several formats at once (a model folder often holds both ``tokenizer.json`` and
    ``vocab.txt``), the first in that list is opened.
    """
    models = [name for name in files if PurePath(name).suffix == ".model"]
    if models:
        return _open_spm(files, models)
    texts = {PurePath(name).name: _text(content, name) for name, content in files.items()}
    texts, renamed = _recognise(texts)
    try:
        return _import(texts)
    except ValueError as err:
        if not renamed:
            raise
        read_as = ", ".join(f"{old} as {new}" for old, new in renamed.items())
        raise ValueError(f"{err} (read {read_as})") from None


def _open_spm(files: Mapping[str, str | bytes], models: list[str]) -> OpenedModel:
    """A SentencePiece ``.model``, alone (a ``bpeviz.json`` beside it is ignored), opened
    as a training of one step; a ValueError naming the file when it is not a usable
    Unigram model (never "not UTF-8 text")."""
    from bpeviz.unigram.spm import open_model

    others = [PurePath(n).name for n in files
              if n not in models and PurePath(n).name != SIDECAR]
    if len(models) > 1 or others:
        raise ValueError(f"{', '.join(PurePath(n).name for n in [*models, *others])}: a "
                         "SentencePiece .model is a tokenizer on its own; open one file")
    name = models[0]
    content = files[name]
    if isinstance(content, str):
        content = content.encode("utf-8", "surrogateescape")
    if len(content) > MAX_FILE_BYTES:
        raise ValueError(f"{PurePath(name).name} is {len(content):,} bytes; bpeviz opens "
                         f"files up to {MAX_FILE_BYTES:,} bytes")
    return open_model(bytes(content), PurePath(name).name)


def _unigram_opens(files: dict[str, str], lone: Lone | None) -> Opener | None:
    """A Unigram training saved by ``bpeviz.save`` (told by its content, any name)."""
    from bpeviz.unigram.saved import FORMAT as UNIGRAM_FORMAT

    if lone is None or not lone.json_like:
        return None
    data = lone.data
    if not isinstance(data, dict) or data.get("format") != UNIGRAM_FORMAT:
        return None

    def opener() -> UnigramTraining:
        from bpeviz.unigram.saved import training_from_dict

        return training_from_dict(data)

    return opener  # type: ignore[return-value]


#: Who opens a set of files, most specific first: each ``opens(files, lone)`` returns the
#: function that reads them when they are its format's (None otherwise; ValueError when
#: they are, but incomplete). ``lone`` is the one file besides the companions, if one.
OPENERS = (tiktoken_ranks.opens, gpt2.opens, vocab_txt.opens, tiktoken_ranks.opens_by_content,
           training_json.opens, _unigram_opens, hf.opens)


def _import(texts: dict[str, str]) -> Training | UnigramTraining:
    """:func:`import_files` once every file has its format's usual name."""
    if not texts:
        raise ValueError("no files given: give a tokenizer.json, vocab.txt, vocab.json + "
                         "merges.txt, a .tiktoken rank file or a training.json")
    candidates = [n for n in texts if n not in (SIDECAR, tiktoken_ranks.CONFIG)]
    lone = None
    if len(candidates) == 1:
        lone = Lone(candidates[0], texts[candidates[0]])
    for opens in OPENERS:
        opener = opens(texts, lone)
        if opener is not None:
            return opener()
    raise ValueError(_why_not(texts, lone))


def _why_not(texts: dict[str, str], lone: Lone | None) -> str:
    """Why no format opens these files."""
    if lone is None:
        return ("cannot tell the format from the files "
                f"{', '.join(sorted(texts))}; give a tokenizer.json, vocab.txt, vocab.json + "
                "merges.txt, a .tiktoken rank file (+ tiktoken.json) or a training.json")
    if not lone.json_like:
        return (f"{lone.name} is neither JSON (tokenizer.json, training.json) nor a "
                "tiktoken rank file")
    if lone.name == gpt2.VOCAB:
        return f"{gpt2.VOCAB} needs its {gpt2.MERGES}; give both files"
    if lone.name == pickybpe_model.FILENAME or pickybpe_model.is_model(lone.data):
        return f"{lone.name} {pickybpe_model.NOT_OPENED}"
    return (f"{lone.name} is neither a Hugging Face tokenizer.json (no \"model\") nor a "
            f"bpeviz training (no \"format\": \"{TRAINING_FORMAT}\")")


#: ``recognise(name, text, data)`` of each format, most specific first: the usual file
#: name for a file's content, or None. ``data`` is the parsed JSON, or ``NOT_JSON``.
RECOGNISERS = (tiktoken_ranks.recognise, training_json.recognise, recognise_sidecar,
               hf.recognise, gpt2.recognise, vocab_txt.recognise, pickybpe_model.recognise)


def _recognise(texts: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    r"""Give each file whose name says nothing its format's usual name, by content.

    Returns the files and ``{given name: usual name}`` for those renamed. A name already
    taken, or content no format recognises, keeps the given name.

    >>> _recognise({"vocab (1).json": '{"a": 0}', "merges (1).txt": "#version: 0.2\na b"})[1]
    {'vocab (1).json': 'vocab.json', 'merges (1).txt': 'merges.txt'}
    """
    known = set(_KNOWN_NAMES)
    out: dict[str, str] = {}
    renamed: dict[str, str] = {}
    for name, text in texts.items():
        usual = None
        if name not in known and not name.endswith(tiktoken_ranks.SUFFIX):
            data = NOT_JSON
            if text.lstrip()[:1] in ("{", "["):
                with contextlib.suppress(ValueError, RecursionError):
                    data = json.loads(text)
            usual = next((u for r in RECOGNISERS if (u := r(name, text, data))), None)
        if usual and usual not in texts and usual not in out:
            renamed[name] = usual
            name = usual
        out[name] = text
    return out, renamed


def import_path(path: str | os.PathLike[str]) -> Training | UnigramTraining | OpenedModel:
    """Open a tokenizer file, or a folder holding one format's files (see
    :func:`import_files`)."""
    path = Path(path)
    if path.is_dir():
        names = {*_KNOWN_NAMES}
        chosen = [p for p in path.iterdir()
                  if p.is_file() and (p.name in names or p.suffix == tiktoken_ranks.SUFFIX)]
        if not chosen:  # a SentencePiece model, when the folder holds nothing else
            chosen = [p for p in path.iterdir() if p.is_file() and p.suffix == ".model"]
        if not chosen:
            raise ValueError(f"{path} holds no tokenizer files ({', '.join(sorted(names))}, "
                             "*.tiktoken, *.model)")
        return import_files({p.name: _read(p) for p in chosen})
    return import_files({path.name: _read(path)})


def write_files(files: Mapping[str, str], out: str | os.PathLike[str]) -> list[Path]:
    """Write an export: a single file to ``out`` (or into it, if it is a folder); several
    files into the folder ``out`` (made if missing). Every file is written atomically."""
    out = Path(out)
    if len(files) == 1 and not out.is_dir():
        targets = {out: next(iter(files.values()))}
    else:
        out.mkdir(parents=True, exist_ok=True)
        targets = {out / name: content for name, content in files.items()}
    for target, content in targets.items():
        write_atomic(target, content)
    return list(targets)


#: every file name some format reads (a rank file may have any name ending in .tiktoken)
_KNOWN_NAMES = tuple(dict.fromkeys(
    [n for m in MODULES for n in m.FILES if n != tiktoken_ranks.RANKS] + [SIDECAR]))


def _read(path: Path) -> bytes:
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise ValueError(f"{path} is {size:,} bytes; bpeviz opens files up to "
                         f"{MAX_FILE_BYTES:,} bytes")
    return path.read_bytes()


def _text(content: str | bytes, name: str) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, bytes | bytearray):
        if len(content) > MAX_FILE_BYTES:
            raise ValueError(f"{name} is {len(content):,} bytes; bpeviz opens files up to "
                             f"{MAX_FILE_BYTES:,} bytes")
        return decode_utf8(bytes(content), name)
    raise ValueError(f"{name}: expected text or bytes, got {type(content).__name__}")


__all__ = ["FORMATS", "export", "import_files", "import_path", "write_files"]
