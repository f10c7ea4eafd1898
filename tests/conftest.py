"""Fixtures every layer uses: the merge engine a test runs on, and Node.js.

``engine`` runs a test twice, once on the compiled merge loop and encoder (``bpeviz.engine._merge``)
and once on the pure-Python ones; a module opts in with
``pytestmark = pytest.mark.usefixtures("engine")``. Where the C extension is not built the
compiled run is skipped, except under CI (``CI`` set), where that is a failure; the
``compiled`` fixture does the same for tests of the extension alone
(tests/engine/test_compiled_engine_matches_python.py).

The browser tests' fixtures (a real server, Chromium) are in tests/browser/conftest.py;
helpers shared by test modules are in tests/support/.
"""

from __future__ import annotations

import os

import pytest


def in_ci() -> bool:
    """True under CI (GitHub Actions and most others set ``CI=true``)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require_built(built: bool, what: str) -> None:
    """Skip when the C extension ``what`` names is not built; under CI fail instead (CI
    builds it)."""
    if not built:
        message = f"{what} is not built (python setup.py build_ext --inplace)"
        if in_ci():
            pytest.fail(f"{message}; CI must build it", pytrace=False)
        pytest.skip(message)


def require_compiled() -> None:
    """Skip when ``bpeviz.engine._merge`` is not built; under CI fail instead (CI builds it)."""
    from bpeviz import engine

    require_built(engine._compiled is not None,
                  "the compiled merge loop bpeviz.engine._merge")


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
