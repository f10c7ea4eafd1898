"""``python -m bpeviz`` as a user runs it: a real subprocess in the repository."""

from __future__ import annotations

import subprocess
import sys

from tests.support import ROOT


def run_cli(*args: str, stdin: str | None = None,
            timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bpeviz", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=timeout, input=stdin)
