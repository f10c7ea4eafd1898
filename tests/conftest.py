"""Shared fixtures: the merge engine a test runs on, and one real ``streamlit run app.py``
server for the browser tests.

``engine`` runs a test twice, once on the compiled merge loop and encoder (``bpeviz.engine._merge``)
and once on the pure-Python ones; a module opts in with
``pytestmark = pytest.mark.usefixtures("engine")``. Where the C extension is not built the
compiled run is skipped, except under CI (``CI`` set), where that is a failure; the
``compiled`` fixture does the same for tests of the extension alone (test_engines.py).

The server starts on first use (only tests that ask for ``server`` pay for it) and is
shared by every browser test module of the session; its log goes to a temporary folder.
"""

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

ROOT = Path(__file__).resolve().parent.parent


def in_ci() -> bool:
    """True under CI (GitHub Actions and most others set ``CI=true``)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require_compiled() -> None:
    """Skip when ``bpeviz.engine._merge`` is not built; under CI fail instead (CI builds it)."""
    from bpeviz import engine

    if engine._compiled is None:
        message = ("the compiled merge loop bpeviz.engine._merge is not built "
                   "(python setup.py build_ext --inplace)")
        if in_ci():
            pytest.fail(f"{message}; CI must build it", pytrace=False)
        pytest.skip(message)


@pytest.fixture
def compiled() -> None:
    """For tests of the C extension itself: skipped where it is not built, failed under CI."""
    require_compiled()


@pytest.fixture
def node() -> str:
    """The path of Node.js, for tests that run the browser's own JavaScript: skipped where
    it is missing, failed under CI (.ci/run installs it)."""
    import shutil

    found = shutil.which("node")
    if found is None:
        if in_ci():
            pytest.fail("Node.js is not installed; CI must install it", pytrace=False)
        pytest.skip("needs Node.js")
    return found


@pytest.fixture(params=["compiled", "python"])
def engine(request, monkeypatch) -> str:
    """Run the test on one engine: "compiled" (bpeviz.engine._merge) or "python".

    The choice is ``BPEVIZ_ENGINE`` (read by training, snapshots and encoders at each
    call); for "python" the compiled module is also hidden, so no C code can run.
    Cached encoders are kept per engine (bpeviz.core.encoding.encoder), so none crosses over.
    """
    from bpeviz import engine as engines

    if request.param == "compiled":
        require_compiled()
    else:
        monkeypatch.setattr(engines, "_compiled", None)
    monkeypatch.setenv("BPEVIZ_ENGINE", request.param)
    yield request.param


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
         "--server.port", str(port), "--browser.gatherUsageStats", "false"],
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


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The URL of the session's shared ``streamlit run app.py``."""
    with streamlit_server(tmp_path_factory.mktemp("streamlit")) as url:
        yield url


@pytest.fixture
def own_server(tmp_path_factory):
    """A server of the test's own (a load test leaves nothing behind for the others),
    tracing what Python does for each session's step bar (bpeviz.ui.trace)."""
    with streamlit_server(tmp_path_factory.mktemp("streamlit_own"),
                          env={"BPEVIZ_TRACE": "1"}) as url:
        yield url


def pytest_sessionfinish(session, exitstatus):
    from tests.browser_support import close_shared_browser

    close_shared_browser()
