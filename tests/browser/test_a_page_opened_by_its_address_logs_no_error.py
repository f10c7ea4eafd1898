"""A page opened by its address logs no console error but Streamlit's own probe of
the page name as a base URL path (see bpeviz/ui/__init__.py)."""

from __future__ import annotations

import pytest

from tests.support.browser import go, no_error

pytestmark = pytest.mark.browser


def test_a_page_opened_directly_logs_only_streamlits_base_path_probe(narrow, server):
    """Streamlit tries the page name as a base URL path first (see bpeviz/ui/__init__.py):
    two 404s, then the root answers. Any other console error fails this test."""
    errors: list[str] = []
    missing: list[str] = []
    narrow.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    narrow.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
    for path in ("Explore?step=3", "Vocabulary", ""):
        go(narrow, server, path)
        no_error(narrow)
    probe = {f"{server}/{name}/_stcore/{end}" for name in ("Explore", "Vocabulary")
             for end in ("health", "host-config")}
    assert set(missing) <= probe, missing
    assert all("404" in e for e in errors) and len(errors) == len(missing), errors
