"""A real ``streamlit run app.py`` for the browser tests (the fixtures are in
tests/browser/conftest.py; a load test starts one of its own with this)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support import ROOT


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server(str):
    """A server's URL (the string) and its log file (``.log``)."""

    log: Path


@contextlib.contextmanager
def streamlit_server(log_dir: Path, env: dict[str, str] | None = None):
    """A running ``streamlit run app.py`` (headless, no usage statistics): its URL, a
    :class:`Server`; ``env``: more environment variables for it."""
    port = free_port()
    url = Server(f"http://127.0.0.1:{port}")
    url.log = log_dir / "server.log"
    log = open(url.log, "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--browser.gatherUsageStats", "false",
         # the code of the start for the whole run: a module rebuilt or saved meanwhile
         # (work beside the tests) is not reloaded halfway, leaving two copies of a class
         "--server.fileWatcherType", "none"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})})
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.read().decode().strip() == "ok":
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"streamlit did not start: see {log.name}")
        time.sleep(0.3)
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
