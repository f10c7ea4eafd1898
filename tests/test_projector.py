"""Projector settings without a browser (issue 10, item 4): no Deploy button, and a
presentation heatmap that fits a 1280x720 screen while its labels stay legible."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bpeviz.analysis import views
from bpeviz.present import figures
from tests.test_app_defects import many_symbols_training

ROOT = Path(__file__).parent.parent

READ = """
import json
from streamlit import config
config.get_config_options(force_reparse=True)
print(json.dumps({"client.toolbarMode": config.get_option("client.toolbarMode")}))
"""


def test_streamlit_hides_the_deploy_button_and_developer_menu():
    out = subprocess.run([sys.executable, "-c", READ], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=120)
    options = json.loads(out.stdout.strip().splitlines()[-1])
    assert options["client.toolbarMode"] in ("viewer", "minimal")


@pytest.mark.parametrize("top_n", [5, 12, 20, 24])
def test_presentation_heatmap_fits_a_720_px_screen(top_n):
    grid = views.pair_grid(many_symbols_training("bpe").at(0), top_n)
    layout = figures.heatmap_figure(grid, "bpe", presentation=True).to_plotly_json()["layout"]
    assert layout["height"] <= figures.HEATMAP_FIT_PRESENTATION <= 720 - 80
    assert layout["xaxis"]["tickfont"]["size"] >= 14  # still legible from the back row
    # more symbols than fit: legibility wins (cells never below the presentation minimum)
    big = figures.heatmap_figure(views.pair_grid(many_symbols_training("bpe").at(0), 60),
                                "bpe", presentation=True).to_plotly_json()["layout"]
    assert big["height"] >= 60 * figures.CELL_MIN_PRESENTATION
