"""The public server's settings, as Streamlit itself reads them from
.streamlit/config.toml: among them no Deploy button and no developer menu, which would sit
on a projected page."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support import ROOT

READ_OPTIONS = """
import json
from streamlit import config
config.get_config_options(force_reparse=True)
names = ["server.maxUploadSize", "server.enableXsrfProtection", "browser.gatherUsageStats",
         "client.showErrorDetails"]
print(json.dumps({name: config.get_option(name) for name in names}))
"""


def test_streamlit_reads_our_server_settings():
    out = subprocess.run([sys.executable, "-c", READ_OPTIONS], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=120)
    options = json.loads(out.stdout.strip().splitlines()[-1])
    assert options["server.enableXsrfProtection"] is True
    assert options["browser.gatherUsageStats"] is False
    assert options["client.showErrorDetails"] == "none"  # no tracebacks for visitors
    assert 1 <= options["server.maxUploadSize"] <= 50  # MB: an upload limit, not the default 200


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
