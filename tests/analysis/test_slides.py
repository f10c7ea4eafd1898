"""The offline slides file (bpeviz.present.slides, ``python -m bpeviz slides``): one file, no
reference outside it, user text only as escaped data, small."""

from __future__ import annotations

import re
import subprocess
import sys

from bpeviz import Corpus, train
from bpeviz.present.slides import slides_html
from bpeviz.samples import load_sample
from bpeviz.ui import train_options
from tests.support import ROOT
from tests.support.slides import data_of

HOSTILE = '</script><script>window.__pwned=1</script> <img src=x onerror=alert(1)> &amp; \u2028'


def test_user_text_travels_only_as_data_that_cannot_close_its_script():
    training = train(Corpus.from_text(HOSTILE + " low lower"), merges=5)
    page = slides_html(training, text=HOSTILE, words=5)
    assert "</script><script>window" not in page and "\\u003c/script\\u003e" in page
    assert page.count("</script>") == 3, "the data, the stepper and the boot script only"
    assert "<img" not in page
    data = data_of(page)
    assert data["bv-tokens"]["text"] == HOSTILE
    assert any("onerror" in w[1] for w in data["bv-words"]["words"])


def test_nothing_outside_the_file_is_referenced():
    page = slides_html(train(load_sample("tour"), **train_options("bpe", merges=50)),
                       text="hello")
    assert not re.search(r"""(src|href)\s*=|url\(|@import|https?://""", page)
    assert "default-src 'none'" in page


def test_500_merges_make_a_small_file():
    training = train(load_sample("tour"), **train_options("bpe", merges=500))
    page = slides_html(training, text="The tokenizer learns tokens: 自然语言处理", words=12)
    size = len(page.encode("utf-8"))
    assert size < 300_000, size
    assert len(data_of(page)["bv-card"]["mergeCols"]["token"]) == 500  # (compact columns)


def test_the_command_line_reports_a_bad_training_file_in_one_line(tmp_path):
    bad = tmp_path / "t.json"
    bad.write_text("{not json")
    done = subprocess.run([sys.executable, "-m", "bpeviz", "slides", "--training", str(bad),
                           "--out", str(tmp_path / "x.html")], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.startswith("error:") and len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.html").exists()
