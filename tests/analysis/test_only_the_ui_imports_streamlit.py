"""The engine and the view helpers run without Streamlit (the CLI, the benchmarks and
notebooks import them): only bpeviz.ui imports it."""

from __future__ import annotations

from pathlib import Path

from tests.support import APP


def test_the_engine_and_its_view_helpers_do_not_import_streamlit():
    import subprocess
    import sys

    code = ("import sys, bpeviz, bpeviz.present.render, bpeviz.analysis.views, bpeviz.core.limits,"
            " bpeviz.samples;"
            "sys.exit('streamlit' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], cwd=Path(APP).parent).returncode == 0
