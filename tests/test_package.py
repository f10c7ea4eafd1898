"""The package's public names survive importing its submodules."""

import importlib
import subprocess
import sys


def test_importing_the_replay_module_keeps_bpeviz_replay_the_function():
    code = ("import bpeviz, bpeviz.replay; from bpeviz import replay; "
            "from bpeviz.replay import replay_on; import bpeviz.training as t; "
            "assert replay is t.replay and bpeviz.replay is t.replay, replay; "
            "assert callable(replay_on)")
    subprocess.run([sys.executable, "-c", code], check=True)
    module = importlib.import_module("bpeviz.replay")
    import bpeviz

    assert bpeviz.replay is not module and callable(bpeviz.replay)
