"""A health reason is a sentence the table cuts at its column's edge: the Health view
writes the chosen row's token and reason out in full under the table (the first row
until one is picked), escaped, for every kind that lists tokens."""

from __future__ import annotations

import html
import re

from bpeviz.analysis.health import KINDS, health
from tests.support.app import html_bodies, ok, open_page
from tests.support.trainings import reference

REASON = re.compile(r'<div class="bv-health-reason"[^>]*><strong><bdi>(.*?)</bdi></strong> '
                    r'<span class="bv-muted">\(id ([\d,]+)\)</span>: <bdi>(.*?)</bdi></div>')


def test_the_first_rows_reason_is_written_out_in_full_for_each_kind():
    found = health(reference("bpe").at(200))
    at = open_page("pages/4_Vocabulary.py", step=200, vocab_view="health")
    assert not at.error
    for kind in KINDS:
        ok(at.segmented_control(key="w_health_kind").set_value(kind).run())
        expected = found.table(kind)
        shown = [REASON.search(b) for b in html_bodies(at) if "bv-health-reason" in b]
        if expected.empty:
            assert not shown
            continue
        (match,) = shown
        assert int(match[2].replace(",", "")) == int(expected["id"].iloc[0])
        assert html.unescape(match[3]) == expected["reason"].iloc[0]


def test_the_full_reason_escapes_its_text():
    from bpeviz.ui.health_view import full_reason_html
    body = full_reason_html("<b>x</b>", 7, "`<script>` was used 1 time at step 2")
    assert "<script>" not in body and "<b>x" not in body and "&lt;script&gt;" in body
