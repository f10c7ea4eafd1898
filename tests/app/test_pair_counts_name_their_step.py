"""Explore shows two pair counts on one screen: Why this merge's (the pairs merge K was
chosen among, at step K-1) and the heatmap's (the pairs at step K). Each says its step."""

from __future__ import annotations

import html
import re

from tests.support.app import heatmap_caption_text, html_text, ok, open_page, plain
from tests.support.trainings import reference


def _captions(at) -> list[str]:
    """The captions, the sentences under "Why this merge?" (in the panel's view) and the
    one under the heatmap (in its panel's view)."""
    notes = [html.unescape(re.sub(r"<[^>]+>", "", n))
             for n in re.findall(r'<p class="bv-muted bv-note">(.*?)</p>', html_text(at))]
    return [plain(c.value) for c in at.caption] + notes + [heatmap_caption_text(at)]


def test_why_this_merge_and_the_heatmap_name_the_step_of_their_pair_counts():
    at = ok(open_page("pages/1_Explore.py", step=10))
    captions = _captions(at)
    why = [c for c in captions if c.startswith("Counted at step 9, before merge 10")]
    heat = [c for c in captions if "of each pair at step 10, after merge 10" in c]
    assert why and heat, captions
    why_pairs = int(why[0].split("the ")[1].split(" pairs")[0].replace(",", ""))
    heat_pairs = int(heat[0].split("(")[1].split(" pairs")[0].replace(",", ""))
    trained = reference()  # the counts are the engine's at those two steps
    assert why_pairs == len(trained.at(9).pairs)
    assert heat_pairs == len(trained.at(10).pairs)
    assert f"{heat_pairs:,} pairs in all at step 10" in heat[0]


def test_at_step_zero_the_heatmap_says_before_any_merge():
    at = ok(open_page("pages/1_Explore.py", step=0))
    assert any("of each pair at step 0, before any merge" in c for c in _captions(at))
