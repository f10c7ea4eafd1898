"""Command line: ``python -m bpeviz train|encode|export|explain|health|slides|count ...``.

Every algorithm trains and saves the same way (``train --algorithm bpe|bbpe|wordpiece|
unigram --out T.json``; parity-aware BPE on one text per language, ``--language LANG=FILE``,
see :mod:`bpeviz.cli_parity`), and ``--training`` opens a saved training of any of them, a
tokenizer file or a SentencePiece Unigram ``.model``. Errors in the input are reported
in one line on stderr with exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from bpeviz import algorithms, cli_count, cli_parity, formats
from bpeviz.cli_health import add_health
from bpeviz.core.training import SCORINGS, TIE_BREAKS, Training, train
from bpeviz.text.corpus import Corpus
from bpeviz.text.pretokenize import PRETOKENIZERS


class _Progress:
    """A one-line progress bar on stderr, redrawn at most ten times a second."""

    def __init__(self, stream=sys.stderr) -> None:
        self.stream = stream
        self.started = time.monotonic()
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.last < 0.1 and done < total:
            return
        self.last = now
        width = 30
        filled = int(width * done / total) if total else width
        rate = done / max(now - self.started, 1e-9)
        self.stream.write(f"\rtraining [{'#' * filled}{'.' * (width - filled)}] "
                          f"{done}/{total} merges, {rate:,.0f}/s")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def _add_train(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("train", help="train on texts or a word<TAB>count file (parity: "
                                     "one per language, --language LANG=FILE)")
    p.add_argument("input", nargs="*", metavar="DATA",
                   help="a UTF-8 text file or a word<TAB>count file; or files, folders and "
                        "globs of text (.txt, .gz, .zst), JSON Lines and Parquet, counted on "
                        "every core; or a counts file of 'count' (not with --language)")
    p.add_argument("--algorithm", choices=algorithms.names(), default="bpe")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--merges", type=int, help="number of merges (default 1000)")
    size.add_argument("--vocab-size", type=int, help="stop at this vocabulary size")
    p.add_argument("--pretokenizer", choices=list(PRETOKENIZERS), default=None,
                   help="default: gpt2 for bbpe, whitespace otherwise")
    p.add_argument("--format", choices=["auto", "text", "counts"], default="auto",
                   help="input format (auto: counts when most lines are word<TAB>count; "
                        "one header line is skipped, a bad line is named)")
    p.add_argument("--tie-break", choices=TIE_BREAKS, default="first")
    p.add_argument("--marker", default=None, help="BPE end-of-word marker, e.g. '</w>'")
    p.add_argument("--marker-style", choices=["separate", "glued"], default="separate")
    p.add_argument("--scoring", choices=SCORINGS, default="score", help="WordPiece scoring")
    p.add_argument("--min-frequency", type=int, default=0)
    variants = {a: _choices(algorithms.get(a), "variant") for a in algorithms.names()}
    p.add_argument("--variant", default=None,
                   choices=list(dict.fromkeys(v for vs in variants.values() for v in vs)),
                   help="the trainer's variant, which the algorithm says: " + "; ".join(
                       f"{_called(algorithms.get(a))}: {' (default) or '.join(vs)}"
                       for a, vs in variants.items() if vs))
    cli_parity.add_language_options(p)
    p.add_argument("--transition", type=int, default=None, metavar="T",
                   help="SuperBPE: the merges of its first stage, inside words (default: "
                        "90%% of --merges); the rest cross spaces")
    p.add_argument("--threshold", type=float, default=None, metavar="X",
                   help="PickyBPE: the Intersection over Self above which a token is "
                        "removed (default 0.9)")
    p.add_argument("--out", required=True,
                   help="where to write the training (JSON, every step; --training of the "
                        "other commands and bpeviz.load read it); for unigram too, every "
                        "pruning round ('export --format hf' writes a round's "
                        "tokenizer.json)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    cli_count.add_data_options(p)
    p.set_defaults(run=_run_train, defaults={name: p.get_default(name) for name in TRAIN_OPTIONS})


#: the options of ``train`` that are keywords of ``bpeviz.train`` of the same name (the
#: sizes are the record's ``sizes``, the others its ``settings``)
TRAIN_OPTIONS = ("merges", "vocab_size", "tie_break", "marker", "marker_style", "scoring",
                 "min_frequency", "variant", "global_merges", "ratio", "window_size", "alpha",
                 "transition", "threshold")
#: the record's ``sizes`` and the options that give them
SIZES = {"merges": "merges", "vocab": "vocab_size"}


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _called(alg: algorithms.Algorithm) -> str:
    """The algorithm's name in a sentence ("Unigram", not "Unigram (SentencePiece)")."""
    return alg.short.split(" (")[0]


def _choices(alg: algorithms.Algorithm, name: str) -> tuple[str, ...]:
    """The values ``alg`` takes for the setting ``name`` when its own trainer limits them
    (the trainer's module's ``VARIANTS`` for "variant"); () when any value goes."""
    if not alg.trainer or name not in alg.settings:
        return ()
    module = importlib.import_module(alg.trainer.rpartition(".")[0])
    return tuple(getattr(module, name.upper() + "S", ()))


def _takes(alg: algorithms.Algorithm, args: argparse.Namespace, names: Sequence[str]) -> bool:
    """Whether ``alg`` takes all these options, with the values given."""
    taken = {SIZES[s] for s in alg.sizes} | set(alg.settings)
    return all(name in taken and (getattr(args, name) in _choices(alg, name)
                                  or not _choices(alg, name)) for name in names)


def _train_keywords(args: argparse.Namespace,
                    parser_defaults: dict[str, object]) -> dict[str, Any]:
    """The keywords of ``bpeviz.train`` the options give: those set away from their
    defaults; a ValueError naming those the algorithm's record does not take (or a value
    its trainer does not, as a variant of another algorithm's)."""
    alg = algorithms.get(args.algorithm)
    given = {name for name in TRAIN_OPTIONS if getattr(args, name) != parser_defaults[name]}
    refused = [name for name in TRAIN_OPTIONS if name in given and not _takes(alg, args, [name])]
    if refused:
        takers = [algorithms.get(a) for a in algorithms.names()
                  if _takes(algorithms.get(a), args, refused)]
        if len(refused) == 1 and _choices(alg, refused[0]):  # a value it does not take
            value = getattr(args, refused[0])
            raise ValueError(f"{_flag(refused[0])} {value}: {_called(alg)} takes "
                             f"{' or '.join(_choices(alg, refused[0]))}"
                             + "".join(f"; {value} is {_called(t)}'s (--algorithm {t.name})"
                                       for t in takers))
        if len(refused) == 1 and len(takers) == 1:
            raise ValueError(f"{_flag(refused[0])} is a {_called(takers[0])} option; use it "
                             f"with --algorithm {takers[0].name}")
        kinds = {t.step for t in takers}
        kind = f"{kinds.pop()} " if len(kinds) == 1 else ""
        sizes = " or ".join(_flag(SIZES[s]) for s in alg.sizes)
        raise ValueError(f"{', '.join(map(_flag, refused))}: {kind}option"
                         f"{'s' if len(refused) > 1 else ''} that {_called(alg)} does not "
                         f"take (it is trained to {sizes})")
    keywords = {name: getattr(args, name) for name in sorted(given)}
    if not {"merges", "vocab_size"} & given:  # how long to train: the record's first size
        if alg.sizes[0] != "merges":
            raise ValueError(f"{_called(alg)} needs {_flag(SIZES[alg.sizes[0]])} (how large "
                             "its vocabulary ends)")
        keywords["merges"] = 1000
    return keywords


def _run_train(args: argparse.Namespace) -> int:
    """Train any algorithm through ``bpeviz.train`` (which picks its trainer) and save
    the training, every step."""
    from bpeviz.core.protocol import last_step, step_name
    from bpeviz.core.serialize import save_training

    alg = algorithms.get(args.algorithm)
    keywords = _train_keywords(args, args.defaults)
    data, args.input = args.input, cli_count.data_name(args.input)  # None: no DATA
    cli_parity.check_languages(args, alg, _called)
    pretokenizer = args.pretokenizer or alg.pretokenizer
    corpus: Corpus | dict[str, Corpus]
    if args.language:  # one corpus per language (the algorithm's trainer takes them)
        corpus, dev = cli_parity.corpora(args, pretokenizer)
        if dev is not None:
            keywords["dev"] = dev
    else:
        corpus = cli_count.corpus_from_data(data, args, pretokenizer)
    if "ratio" in keywords:  # LANG=X options, one per language
        keywords["ratio"] = cli_parity.ratios(keywords["ratio"], list(corpus)
                                              if isinstance(corpus, dict) else [])
    # a bar for the merge loop; a record's own trainer (its ``trainer``) reports only its end
    quiet = args.quiet or bool(alg.trainer)
    training = train(corpus, args.algorithm, progress=None if quiet else _Progress(),  # type: ignore[arg-type]
                     **keywords)
    # the corpus's file name goes with the training: the slides are titled with it
    save_training(training, args.out, corpus_name=cli_parity.corpus_name(args))
    steps, name = last_step(training), step_name(training)
    hint = "; 'export --format hf' writes a step's tokenizer.json" * ("hf" in alg.export_formats)
    print(f"{training.stop_message} {steps:,} {name}{'' if steps == 1 else 's'}, "
          f"vocabulary: {training.vocab_size_at(steps):,} tokens. Saved to {args.out} "
          f"(every {name}{hint})", file=sys.stderr)
    for line in cli_parity.summary(training):  # how each language fared, if it has them
        print(line, file=sys.stderr)
    return 0


def _add_step_source(p: argparse.ArgumentParser) -> None:
    p.add_argument("--training", required=True, metavar="PATH",
                   help="a training saved by 'train' (any algorithm, Unigram too), or a "
                        "tokenizer file or folder to import (tokenizer.json, vocab.txt, "
                        "vocab.json + merges.txt, *.tiktoken, a SentencePiece Unigram "
                        "*.model: one step, 0)")
    p.add_argument("--step", type=int, default=None, metavar="K",
                   help="use the state after K steps: merges, or Unigram's pruning rounds "
                        "(default: the last step)")


def _opened(args: argparse.Namespace) -> tuple[Any, Any]:
    """The training ``--training`` names and its step ``--step`` (any kind of training:
    each answers :mod:`bpeviz.core.protocol`)."""
    training, _ = _open(args.training)
    return training, training.at(args.step)


def _open(path: str) -> tuple[Any, str | None]:
    """The training or tokenizer file ``path``, and the name of the corpus a saved
    training holds (None for a tokenizer file): a training saved by bpeviz (in any
    algorithm's format) is read once, however large; anything else is what
    :func:`bpeviz.formats.import_path` opens."""
    from bpeviz.core.serialize import saved_training
    from bpeviz.formats import import_path

    if os.path.isfile(path):
        try:
            with open(path, "rb") as f:
                data = json.loads(f.read())
        except ValueError:  # not JSON (nor UTF-8): a tokenizer file of another kind
            data = None
        opened = saved_training(data)  # a garbled saved training says so
        if opened is not None:
            return opened
    return import_path(path), None


def _add_encode(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("encode", help="cut a text into the tokens of a step (JSON lines)")
    _add_step_source(p)
    p.add_argument("text", metavar="TEXT", help="the text to encode ('-' reads standard input)")
    p.add_argument("--dropout", type=float, default=0.0, metavar="P",
                   help="BPE-dropout: skip each candidate merge with probability P "
                        "(BPE and byte-level BPE; default 0, plain encoding)")
    p.add_argument("--alpha", type=float, default=None, metavar="A",
                   help="Unigram subword sampling: draw a cut with probability proportional "
                        "to P(cut) ** A (default: none, the best cut)")
    p.add_argument("--seed", type=int, default=None,
                   help="random seed for --dropout or --alpha (the same seed gives the same "
                        "tokens)")
    p.set_defaults(run=_run_encode)


def _sampling(training: Any, args: argparse.Namespace) -> dict[str, Any]:
    """The encoder's sampling options: BPE-dropout for merges, subword sampling for a
    Viterbi encoder (Unigram); a ValueError for the other one's option."""
    viterbi = algorithms.get(training.algorithm).encoder == "viterbi"
    if viterbi and args.dropout:
        raise ValueError("--dropout is BPE-dropout (BPE and byte-level BPE); a Unigram "
                         "tokenizer samples its cuts with --alpha")
    if args.alpha is not None and not viterbi:
        raise ValueError("--alpha is Unigram's subword sampling; merges are sampled with "
                         "--dropout (BPE and byte-level BPE)")
    if viterbi:
        return {"alpha": args.alpha, "seed": args.seed} if args.alpha is not None else {}
    return {"dropout": args.dropout, "seed": args.seed}


def _run_encode(args: argparse.Namespace) -> int:
    training, snapshot = _opened(args)
    options = _sampling(training, args)
    text = sys.stdin.read() if args.text == "-" else args.text
    out = sys.stdout
    try:
        for token in snapshot.encode(text, **options):
            out.write(json.dumps(token.to_dict(), ensure_ascii=False) + "\n")
        out.flush()
    except BrokenPipeError:  # the reader stopped early (| head): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _add_export(sub: argparse._SubParsersAction) -> None:
    from bpeviz.formats import FORMATS

    p = sub.add_parser("export", help="write the vocabulary and merges of a step as files "
                                      "(a Unigram round: its pieces, as hf)")
    _add_step_source(p)
    p.add_argument("--format", required=True, choices=list(FORMATS),
                   help="; ".join(f"{name}: {what}" for name, what in FORMATS.items()))
    p.add_argument("--out", required=True, metavar="PATH",
                   help="the file to write, or a folder (made if missing) for formats with "
                        "several files")
    p.set_defaults(run=_run_export)


def _run_export(args: argparse.Namespace) -> int:
    from bpeviz.formats import write_files

    training, snapshot = _opened(args)
    written = _own_export(training, snapshot, args)
    if written is None:
        written = write_files(formats.export(snapshot, args.format), args.out)
    if args.format == "hf" and isinstance(training, Training):  # merges: read its options
        from bpeviz.formats.hf import lossy_decoding

        lossy = lossy_decoding(training)
        if lossy:
            print(f"warning: {lossy}", file=sys.stderr)
    for path in written:
        print(f"wrote {path} ({path.stat().st_size:,} bytes)", file=sys.stderr)
    return 0


def _own_export(training: Any, snapshot: Any, args: argparse.Namespace) -> list[Any] | None:
    """An algorithm with its own trainer, in a format its record does not list: its own
    training file for "training" (``bpeviz.save``'s, which ``bpeviz.load`` and
    ``--training`` reopen: the merge loop's would not), else a ValueError saying why; None
    for what the formats write as usual."""
    from pathlib import Path

    from bpeviz.core.protocol import last_step
    from bpeviz.core.serialize import OWN_SAVERS, save_training
    from bpeviz.formats import FORMATS

    alg = algorithms.get(training.algorithm)
    own_file = args.format == "training" and type(training) in OWN_SAVERS
    if not alg.export_formats and not own_file:
        raise ValueError(f"--format {args.format}: no tokenizer format holds {_called(alg)} "
                         "(its steps remove tokens as well as make them); keep the training "
                         "with --format training")
    if not own_file and ((alg.export_formats and not isinstance(training, Training))
                         or not alg.trainer or args.format in alg.export_formats):
        return None
    where = " or ".join(f"'{f}'" for f in alg.export_formats) or "'training'"
    if args.format == "training" and type(training) in OWN_SAVERS:
        if snapshot.step != last_step(training):
            raise ValueError(f"a {_called(alg)} training file holds every merge: export it "
                             f"without --step (a step's tokenizer: {where})")
        out = Path(args.out) / "training.json" if Path(args.out).is_dir() else Path(args.out)
        save_training(training, out)
        return [out]
    raise ValueError(f"--format {args.format}: {FORMATS[args.format].split(' (')[0]} would "
                     f"reopen as a training of the merge loop, which does not train "
                     f"{_called(alg)} (its own trainer does); export it as {where}"
                     + (", or as 'training' (the whole training)"
                        if type(training) in OWN_SAVERS else ""))


def _add_explain(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("explain", help="why merge K was chosen (words, rivals, tie), or "
                                       "what Unigram's pruning round K removed; or how a "
                                       "word is cut at step K (--word)")
    _add_step_source(p)
    p.add_argument("--word", default=None, metavar="W",
                   help="trace how this word is cut at step K instead")
    p.add_argument("--json", action="store_true", help="print JSON instead of sentences")
    p.add_argument("--byte-style", choices=["gpt2", "hex"], default="gpt2",
                   help="how byte-level tokens are written in the sentences")
    p.add_argument("--words", type=int, default=8, metavar="N",
                   help="name at most N words behind the count, or N removed pieces "
                        "of a pruning round (default 8)")
    p.set_defaults(run=_run_explain)


def _run_explain(args: argparse.Namespace) -> int:
    from bpeviz.core.explain import describe, describe_trace, to_dict, trace_dict
    from bpeviz.unigram.views import (
        RoundExplanation,
        WordLattice,
        describe_lattice,
        lattice_dict,
    )

    training, snapshot = _opened(args)
    if args.word is not None:
        found = snapshot.trace(args.word)
        if isinstance(found, WordLattice):  # Unigram: the word's lattice
            lines, data = describe_lattice(found), lattice_dict(found)
        else:
            lines, data = describe_trace(found, args.byte_style), trace_dict(found)
    else:
        why = training.explain(snapshot.step)  # (default: the last step)
        if isinstance(why, RoundExplanation):  # a pruning round
            lines, data = why.describe(max(args.words, 1)), why.to_dict()
        elif isinstance(getattr(why, "why", None), str):  # an event saying itself (PickyBPE)
            lines = [why.why]
            data = {**dataclasses.asdict(why), "why": why.why}
        else:
            lines = describe(why, args.byte_style, max_words=max(args.words, 1))
            data = to_dict(why)
        chosen = cli_parity.why(training, snapshot.step)  # a training per language: whose
        if chosen is not None:
            lines = [*lines, chosen]
            data = {**data, "language": training.choice(snapshot.step).language,
                    "why_language": chosen}
        elif callable(getattr(training, "why", None)) and 1 <= snapshot.step <= len(
                training.merges):  # a training that says more of its steps (SuperBPE's stage)
            said = str(training.why(snapshot.step))
            lines, data = [*lines, said], {**data, "why_step": said}
    try:
        print(json.dumps(data, ensure_ascii=False, indent=1) if args.json else "\n".join(lines))
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (| head): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _add_slides(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("slides", help="write one self-contained HTML file that plays the "
                                      "merges (no network needed)")
    p.add_argument("--training", required=True, metavar="T.json",
                   help="a saved training (python -m bpeviz train --out) or a tokenizer file")
    p.add_argument("--out", required=True, metavar="FILE.html", help="the file to write")
    p.add_argument("--text", default=None,
                   help="a text to show cut into the tokens of each step ('-' reads stdin)")
    p.add_argument("--words", type=int, default=12, metavar="N",
                   help="show the splits of the N most frequent words (default 12)")
    p.add_argument("--byte-style", choices=["gpt2", "hex"], default="gpt2",
                   help="how byte-level tokens are drawn")
    p.set_defaults(run=_run_slides)


def _run_slides(args: argparse.Namespace) -> int:
    from bpeviz.present.slides import write_slides

    training, saved_name = _open(args.training)
    alg = algorithms.get(training.algorithm)
    # the slides draw a Training's merges, or the steps of one whose record draws them
    if not isinstance(training, Training) and not alg.step_views:
        raise ValueError(f"the slides play merges; {os.path.basename(args.training)} holds "
                         f"{alg.label}, whose steps are {alg.step}s (the app's Explore page "
                         "steps through them)")
    text = sys.stdin.read() if args.text == "-" else args.text
    # "Trained on" the corpus's name (kept in the file by ``train``), not the training
    # file's; a file without one (saved elsewhere, or a tokenizer file) is named as such
    name = saved_name or f"the corpus in {os.path.basename(args.training)}"
    size = write_slides(training, args.out, text=text, words=max(args.words, 0),
                        byte_style=args.byte_style, title=name)
    print(f"wrote {args.out} ({size:,} bytes, {len(training.merges):,} "
          f"{'merge' if isinstance(training, Training) else training.step_unit}s)",
          file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bpeviz", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    _add_train(sub)
    _add_encode(sub)
    _add_export(sub)
    _add_explain(sub)
    add_health(sub, _add_step_source, _opened)  # what is wrong with a vocabulary
    cli_count.add_count(sub)  # the pre-tokens of a corpus on disk
    _add_slides(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except (ValueError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
