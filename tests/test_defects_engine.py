"""Issue 12, items 1-6: defects an outside audit found in the engine and the file formats."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import tiktoken
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, formats, load, save, train
from bpeviz.algorithms import initial_symbols, join
from bpeviz.core.training import _MergeLoop, base_vocabulary, make_options, replay
from bpeviz.engine.inputs import INT64_MAX, _weighted_counts
from tests.reference import apply_merge, pair_table

ROOT = Path(__file__).parent.parent
ENGINES = ["compiled", "python"]


def run_engine(corpus, options, engine):
    loop = _MergeLoop(corpus, options, base_vocabulary(corpus, options), engine=engine)
    loop.run()
    return loop.result()


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bpeviz", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


# -- 1. counts past 64 bits ---------------------------------------------------------------
def exact_bpe(table: dict[str, int], merges: int) -> list[tuple[str, str, int]]:
    """Recount every step with Python ints; highest count, ties to the first occurrence."""
    splits = [initial_symbols(w, "bpe", None, "separate") for w in table]
    counts = list(table.values())
    out = []
    for _ in range(merges):
        pairs = pair_table(splits, counts)
        if not pairs:
            break
        top = max(pairs.values())
        left, right = next(p for p, c in pairs.items() if c == top)
        out.append((left, right, top))
        token = join(left, right, "bpe")
        splits = [apply_merge(s, left, right, token) for s in splits]
    return out


def merges_of(training):
    return [(m.left, m.right, m.count) for m in training.merges]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("table", [
    {"ab": 2**62, "abab": 2**62},                      # a+b: 3 * 2**62, past int64
    {"ab": 2**62, "abab": 2**62, "ba": 2**62},          # the CLI's KeyError case
    {"ab": 10**23, "ba": 1},                            # a count past 64 bits
    {"ab": 2**53, "cd": 2**53 + 1},                     # equal as doubles, not as ints
    {"cd": 2**62 - 1, "ab": 2**62},
    {"abc": (2**63 - 5) // 3, "ab": 2},                 # weighs exactly 2**63 - 1
    {"abc": (2**63 - 5) // 3, "ab": 3},                 # weighs 2**63 + 1
    {"ab": 2**62 - 1, "a": 1},                          # weighs 2**63 - 1
    {"ab": 2**62},                                      # weighs 2**63
])
def test_huge_counts_train_exactly_in_both_engines(engine, table):
    options = make_options("bpe", merges=4)
    got = run_engine(Corpus.from_counts(table), options, engine)
    assert merges_of(got) == exact_bpe(table, 4)
    assert got.initial_tokens == sum(len(w) * c for w, c in table.items())
    assert got.token_counts()[-1] == sum(
        len(split) * c for split, c in zip(got.at().splits.values(), table.values()))


def test_the_int64_boundary_decides_the_engine():
    fits, total = _weighted_counts([(2**63 - 5) // 3, 2], np.array([3, 2]))
    assert total == INT64_MAX and str(fits.dtype) == "int64"
    past, total = _weighted_counts([2**62], np.array([2]))
    assert total == INT64_MAX + 1 and past.dtype == object
    fits, total = _weighted_counts([2**62 - 1, 1], np.array([2, 1]))
    assert total == INT64_MAX and str(fits.dtype) == "int64"
    big, total = _weighted_counts([10**23], np.array([2]))
    assert big.dtype == object and total == 2 * 10**23


counts_past_64_bits = st.dictionaries(
    st.text(alphabet="abc", min_size=1, max_size=6),
    st.one_of(st.integers(1, 5), st.integers(2**52, 2**54), st.integers(2**60, 2**66)),
    min_size=1, max_size=6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts_past_64_bits, st.sampled_from(["bpe", "wordpiece"]),
       st.sampled_from(["first", "ids"]), st.integers(1, 8))
def test_engines_agree_on_huge_counts(table, algorithm, tie_break, n):
    options = make_options(algorithm, merges=n, tie_break=tie_break)
    corpus = Corpus.from_counts(table)
    compiled, python = (run_engine(corpus, options, e) for e in ENGINES)
    assert compiled.merges == python.merges
    assert compiled.vocab == python.vocab and compiled.stop_reason == python.stop_reason
    if algorithm == "bpe" and tie_break == "first":
        assert merges_of(python) == exact_bpe(table, n)


def test_a_training_saved_by_the_python_engine_loads_under_the_compiled_one(tmp_path,
                                                                            monkeypatch):
    table = {"ab": 2**62, "abab": 2**62, "ba": 2**62, "xy": 10**23}
    monkeypatch.setenv("BPEVIZ_ENGINE", "python")
    saved = train(Corpus.from_counts(table), "bpe", merges=4)
    save(saved, str(tmp_path / "t.json"))
    monkeypatch.setenv("BPEVIZ_ENGINE", "compiled")
    assert merges_of(load(tmp_path / "t.json")) == merges_of(saved) == exact_bpe(table, 4)


@pytest.mark.parametrize("rows, first", [
    ([("ab", 2**62), ("abab", 2**62), ("ba", 2**62)], ("a", "b", 3 * 2**62)),
    ([("ab", 10**23), ("ba", 7)], ("a", "b", 10**23)),
])
def test_the_cli_trains_counts_files_past_64_bits(tmp_path, rows, first):
    path = tmp_path / "counts.tsv"
    path.write_text("".join(f"{w}\t{c}\n" for w, c in rows), encoding="utf-8")
    out = tmp_path / "t.json"
    result = run_cli("train", str(path), "--merges", "3", "--out", str(out), "--quiet")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    merges = json.loads(out.read_text())["merges"]
    assert tuple(merges[0][:3]) == first
    assert merges_of(load(out))[0] == first


# -- 2. tiktoken exports that would encode differently ------------------------------------
def tiktoken_encoding(files):
    config = json.loads(files["tiktoken.json"])
    ranks = {base64.b64decode(token): int(rank) for token, rank in
             (line.split() for line in files["tokenizer.tiktoken"].splitlines())}
    return tiktoken.Encoding(config["name"], pat_str=config["pat_str"], mergeable_ranks=ranks,
                             special_tokens={}, explicit_n_vocab=config["explicit_n_vocab"])


def replayed_bbpe(pairs):
    options = make_options("bbpe", merges=len(pairs))
    return replay(Corpus.from_text("abc", "gpt2"), options, pairs)


def test_the_audits_merge_list_is_refused_for_tiktoken_with_the_reason():
    training = replayed_bbpe([(b"b", b"c"), (b"a", b"b"), (b"ab", b"c")])
    formats.export(training.at(2), "tiktoken")  # the first two merges alone are fine
    with pytest.raises(ValueError, match=r"merge 3 makes b'abc' as b'ab' \+ b'c', but "
                                         r"tiktoken would make it from b'a' \+ b'bc'"):
        formats.export(training.at(), "tiktoken")


def test_a_token_made_twice_is_refused_for_tiktoken():
    training = replayed_bbpe([(b"a", b"b"), (b"b", b"c"), (b"ab", b"c"), (b"a", b"bc")])
    with pytest.raises(ValueError, match=r"merge 4 makes b'abc'.*already made it"):
        formats.export(training.at(), "tiktoken")


def test_the_cli_refuses_such_an_export_in_one_line(tmp_path):
    path = tmp_path / "t.json"
    save(replayed_bbpe([(b"b", b"c"), (b"a", b"b"), (b"ab", b"c")]), str(path))
    result = run_cli("export", "--training", str(path), "--format", "tiktoken",
                     "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "cannot be exported to tiktoken" in result.stderr
    assert not (tmp_path / "out").exists()


@st.composite
def merge_lists(draw):
    """Random merges over a few byte symbols (any pair of known tokens, in any order)."""
    vocab = [b"a", b"b", b"c", "é".encode()[:1], "é".encode()[1:]]
    pairs = []
    for _ in range(draw(st.integers(1, 9))):
        left, right = draw(st.sampled_from(vocab)), draw(st.sampled_from(vocab))
        pairs.append((left, right))
        if left + right not in vocab:
            vocab.append(left + right)
    return pairs


texts = st.text(alphabet="abcé ", max_size=16)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(merge_lists(), st.lists(texts, min_size=1, max_size=5))
def test_an_accepted_tiktoken_export_encodes_like_bpeviz(pairs, samples):
    training = replayed_bbpe(pairs)
    for step in range(len(pairs) + 1):
        snap = training.at(step)
        try:
            files = formats.export(snap, "tiktoken")
        except ValueError as err:
            assert "cannot be exported to tiktoken" in str(err)
            continue
        enc = tiktoken_encoding(files)
        tokens = [t for t in snap.vocab if len(t) > 1]
        for text in [*samples, *(t.decode("utf-8", "replace") for t in tokens),
                     "".join(t.decode("utf-8", "replace") for t in tokens)]:
            assert enc.encode_ordinary(text) == snap.encode(text).ids, (pairs, step, text)


# -- 3. word<TAB>count files: a header line, and bad lines named -------------------------
@pytest.mark.parametrize("bad, why", [
    ("lower\tsix", "the count 'six' is not a whole number"),
    ("lower\t²", "the count '²' is not a whole number"),
    ("lower\t-3", "the count -3 is negative"),
    ("lower\t2.5", "the count 2.5 is not a whole number"),
    ("lower\t0", "the count is 0"),
    ("lower 2", "no tab between the word and its count"),
])
@pytest.mark.parametrize("header", ["", "word\tcount\n"])
def test_a_bad_line_in_a_counts_file_is_named(tmp_path, header, bad, why):
    path = tmp_path / "counts.tsv"
    path.write_text(f"{header}low\t5\n{bad}\nnewest\t6\nwidest\t3\n", encoding="utf-8")
    line = 3 if header else 2
    with pytest.raises(ValueError) as err:
        Corpus.from_file(path)  # format "auto"
    message = str(err.value)
    assert message.startswith(f"{path}, line {line}: {why}") and "\n" not in message
    result = run_cli("train", str(path), "--merges", "2", "--out", str(tmp_path / "t.json"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr == f"error: {message}\n"
    assert not (tmp_path / "t.json").exists()


@pytest.mark.parametrize("header", ["word\tcount", "token\tfrequency", "word\tcount_star()"])
@pytest.mark.parametrize("fmt", ["auto", "counts"])
def test_one_header_line_is_skipped(header, fmt):
    data = f"{header}\r\nlow\t5\r\nlower\t2\r\n".encode()
    corpus = Corpus.from_bytes(data, fmt=fmt, name="counts.tsv")
    assert corpus.words == ("low", "lower") and corpus.counts == (5, 2)
    assert corpus.pretokenizer == "counts"


@pytest.mark.parametrize("text", [
    "Chapter\t1\nIt was a dark and stormy night.\n",   # one tab line in two: text
    "low low lower\nnewest newest\n",
    "a\tb\nc\td\n",                                   # a table of words, no counts
    "word\tcount\n",                                  # a header alone
])
def test_text_that_is_not_mostly_counts_stays_text(text):
    corpus = Corpus.from_bytes(text.encode(), fmt="auto")
    assert corpus.pretokenizer == "whitespace"
    assert corpus == Corpus.from_text(text)


def test_the_app_names_the_bad_line_in_the_page_and_the_sidebar():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state["source"] = "upload"
    at.session_state["upload"] = ("counts.tsv", b"word\tcount\nlow\t5\nlower\tsix\nnew\t2\n")
    at.run()
    assert not at.exception
    expected = "counts.tsv, line 3: the count 'six' is not a whole number"
    unescaped = [e.value.replace("\\", "") for e in at.error]
    assert any(expected in m for m in unescaped), unescaped
    assert any(expected in e.value.replace("\\", "") for e in at.sidebar.error)


# -- 4. errors name the file the user gave, not a hidden temporary file -------------------
@pytest.mark.parametrize("out, why", [
    ("missing/dir/t.json", "the folder {tmp}/missing/dir does not exist"),
    ("a-folder", "it is a folder"),
    ("a-file/t.json", "{tmp}/a-file is a file, not a folder"),
])
def test_an_unwritable_out_names_the_target(tmp_path, out, why):
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "a-file").write_text("x")
    corpus = tmp_path / "c.txt"
    corpus.write_text("low lower lowest", encoding="utf-8")
    target = tmp_path / out
    saved = tmp_path / "saved.json"
    save(train(Corpus.from_text("low lower"), "bpe", merges=2), str(saved))
    runs = [["train", str(corpus), "--merges", "2", "--quiet", "--out", str(target)]]
    if out != "a-folder":  # (an export into an existing folder writes its files there)
        runs.append(["export", "--training", str(saved), "--format", "training",
                     "--out", str(target)])
    for args in runs:
        result = run_cli(*args)
        assert result.returncode == 2
        assert result.stderr == f"error: cannot write {target}: {why.format(tmp=tmp_path)}\n"
    assert [p.name for p in tmp_path.rglob(".*")] == []  # no temporary file left behind


def test_a_permission_error_names_the_target_and_keeps_its_class(tmp_path, monkeypatch):
    from bpeviz.core import serialize

    def refuse(prefix, dir):  # as an unwritable folder does (root is never refused)
        raise PermissionError(13, "Permission denied", f"{dir}/{prefix}abc123")

    monkeypatch.setattr(serialize.tempfile, "mkstemp", refuse)
    with pytest.raises(PermissionError) as err:
        serialize.write_atomic(tmp_path / "t.json", "{}")
    assert str(err.value).startswith(f"cannot write {tmp_path / 't.json'}: Permission denied")
    assert "abc123" not in str(err.value)


# -- 5. files renamed by the browser are recognised by their content ----------------------
def browser_name(name: str, n: int) -> str:
    """What a browser calls the n-th download of ``name``: ``vocab (1).json``."""
    stem, dot, ext = name.partition(".")
    return f"{stem} ({n}).{ext}" if dot else f"{name} ({n})"


@pytest.mark.parametrize("algorithm, fmt", [
    ("bbpe", "gpt2"), ("bpe", "gpt2"), ("bbpe", "hf"), ("bpe", "hf"), ("wordpiece", "hf"),
    ("wordpiece", "vocab"), ("bbpe", "tiktoken"), ("bpe", "training"),
])
@pytest.mark.parametrize("rename", ["browser", "nameless"])
def test_renamed_tokenizer_files_open_by_content(algorithm, fmt, rename):
    from bpeviz.formats import import_files

    pretok = "gpt2" if algorithm == "bbpe" else "whitespace"
    text = "low lower lowest newer newest wider widest"
    snap = train(Corpus.from_text(text, pretok), algorithm, merges=12).at()
    files = formats.export(snap, fmt)
    if rename == "browser":
        given = {browser_name(name, 2): content for name, content in files.items()}
    else:
        given = {f"download-{i}": content for i, content in enumerate(files.values())}
    opened = import_files(given).at()
    sample = "lowest widest newer lower"
    assert opened.encode(sample).ids == snap.encode(sample).ids
    assert opened.vocab == snap.vocab


def test_a_renamed_file_that_is_malformed_says_how_it_was_read():
    from bpeviz.formats import import_files

    with pytest.raises(ValueError, match=r"merges.txt, line 2: .*\(read vocab \(1\).json as "
                                         r"vocab.json, merges \(1\).txt as merges.txt\)"):
        import_files({"vocab (1).json": '{"a": 0, "b": 1, "ab": 2}',
                      "merges (1).txt": "#version: 0.2\na b c\n"})


def test_content_no_format_knows_is_still_refused():
    from bpeviz.formats import import_files

    with pytest.raises(ValueError, match="cannot tell the format"):
        import_files({"notes (1).txt": "some words here\nand more words", "x.md": "# title"})


# -- 6. a lone surrogate encodes as U+FFFD, as tiktoken does --------------------------------
@pytest.fixture(scope="module")
def bbpe_with_replacement_tokens():
    text = ("hello world, the replacement character \ufffd\ufffd and x\ufffdy. " * 4
            + "café 中文 😀 " * 3)
    training = train(Corpus.from_text(text, "gpt2"), "bbpe", merges=60)
    files = formats.export(training.at(), "tiktoken")
    return training, tiktoken_encoding(files)


def as_tiktoken(text: str) -> bytes:
    """The bytes tiktoken encodes a Python string as (its Encoding.encode does this when
    the string holds surrogates): pairs joined, lone surrogates as U+FFFD."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode()


with_surrogates = st.text(alphabet=st.sampled_from(
    ["a", "x", "y", " ", "\ufffd", "中", "😀", ",", "\n", "\ud800", "\udbff", "\udc00",
     "\udfff", "\udc80", "\ud83d", "\ude00"]), max_size=24)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(with_surrogates)
def test_surrogates_encode_like_tiktoken_in_both_encoders(bbpe_with_replacement_tokens,
                                                              text):
    from bpeviz.core.encoding import _Encoder

    training, enc = bbpe_with_replacement_tokens
    expected = enc.encode_ordinary(text)
    for name in ENGINES:
        encoder = _Encoder(training, len(training.merges), name)
        assert (encoder._coder is not None) == (name == "compiled")
        tokens = encoder.encode(text)
        assert tokens.ids == expected, name
        assert encoder.encode_ids(text) == expected
        # offsets still point into the text as given, one character per surrogate
        assert b"".join(t.bytes for t in tokens) == as_tiktoken(text)
        for t in tokens:
            if not t.partial:
                assert as_tiktoken(text[t.start : t.end]) == t.bytes


def test_the_audits_surrogate_gives_ef_bf_bd(bbpe_with_replacement_tokens):
    training, _ = bbpe_with_replacement_tokens
    for name in ENGINES:
        from bpeviz.core.encoding import _Encoder

        tokens = _Encoder(training, 0, name).encode("\ud800")
        assert [t.bytes for t in tokens] == [b"\xef", b"\xbf", b"\xbd"]
        assert [(t.start, t.end, t.partial) for t in tokens] == [(0, 1, True)] * 3
        pair = _Encoder(training, 0, name).encode("a\ud83d\ude00")  # 😀 as two code points
        assert [t.bytes for t in pair] == [b"a", *(bytes((b,)) for b in "😀".encode())]
        assert [(t.start, t.end, t.partial) for t in pair] == [(0, 1, False)] + [(1, 3, True)] * 4


def test_training_reads_a_surrogate_as_ufffd_in_both_engines():
    corpus = Corpus.from_counts([("a" + chr(0xD800), 3), ("a\ufffd", 2)])
    options = make_options("bbpe", merges=3)
    compiled, python = (run_engine(corpus, options, e) for e in ENGINES)
    assert compiled.merges == python.merges
    first = python.merges[0]
    assert (first.left, first.right, first.count) == (b"a", b"\xef", 5)  # both words
    assert python.vocab[-1] == b"a\xef\xbf\xbd"
    assert not any(b"\xed" in token for token in python.vocab[256:])


@pytest.mark.parametrize("count, refused", [(2**50, False), (10**23, True)])
def test_the_app_refuses_counts_its_charts_would_round(count, refused):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state["source"] = "upload"
    at.session_state["upload"] = ("counts.tsv", f"ab\t{count}\nabc\t7\n".encode())
    at.run()
    assert not at.exception
    at.switch_page("pages/1_Explore.py").run()
    assert not at.exception, [e.value for e in at.exception]
    messages = [e.value for e in at.error]
    assert any("Counts too large for the live explorer" in m for m in messages) == refused
    assert not any("unexpectedly" in m for m in messages)
