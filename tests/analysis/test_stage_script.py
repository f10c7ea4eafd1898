"""The stage's script, joined from its ES modules (bpeviz.present.stage_script.bundle),
and the one table of its keys (bpeviz/ui/stepper/src/keys.json).

The joiner is checked on small module trees (order, what it drops, what it refuses); the
joined script is checked in Node: it loads as one module, exports what the old single
file exported, and passes the unit tests of the modules (BPEVIZ_STEPPER runs the mount
tests on it). Python's captions and the script read the same key table.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from bpeviz.present import stage_script
from bpeviz.present.stage_script import BundleError, bundle
from tests.support import ROOT

STEPPER = ROOT / "bpeviz" / "ui" / "stepper"


def tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_modules_are_joined_after_what_they_import_imports_and_exports_gone(tmp_path):
    src = tree(tmp_path, {
        "main.mjs": 'import { b } from "./b.mjs";\nimport { a, A } from "./a.mjs";\n'
                    "export default function main() { return a() + b(); }\nexport { A };\n",
        "b.mjs": 'import {\n  a,\n} from "./a.mjs";\nexport function b() { return a(); }\n',
        "a.mjs": "export const A = 1;\nexport function a() { return A; }\n"
                 "function hidden() {}\nexport { hidden };\n",
    })
    js = bundle(src, "main.mjs")
    assert [line for line in js.splitlines() if line.startswith("// -- ")] == [
        "// -- a.mjs", "// -- b.mjs", "// -- main.mjs"], "each once, after its imports"
    assert "import" not in js
    assert "export const" not in js and "export function" not in js and "export { hidden" \
        not in js, "only the entry keeps its exports"
    assert "export default function main()" in js and "export { A };" in js


def test_json_data_becomes_a_constant(tmp_path):
    src = tree(tmp_path, {
        "main.mjs": 'import DATA from "./d.json" with { type: "json" };\n'
                    "export default function main() { return DATA.x; }\n",
        "d.json": '{"x": "ü", "y": [1, 2]}',
    })
    js = bundle(src, "main.mjs")
    assert 'const DATA = {"x": "ü", "y": [1, 2]};' in js


@pytest.mark.parametrize(("files", "said"), [
    ({"main.mjs": 'import { a } from "./a.mjs";\nexport default a;\n',
      "a.mjs": 'import { m } from "./main.mjs";\nexport const a = 1;\nexport const m2 = m;\n'},
     "import cycle"),
    ({"main.mjs": 'import { a as b } from "./a.mjs";\nexport default b;\n',
      "a.mjs": "export const a = 1;\n"}, "plain names"),
    ({"main.mjs": 'import * as all from "./a.mjs";\nexport default all;\n',
      "a.mjs": "export const a = 1;\n"}, "does not understand"),
    ({"main.mjs": 'import { b } from "./a.mjs";\nexport default b;\n',
      "a.mjs": "export const a = 1;\n"}, "does not export: b"),
    ({"main.mjs": 'import { a } from "./a.mjs";\nconst a2 = 1;\nfunction x() {}\n'
                  "export default a + a2 + x;\n",
      "a.mjs": "export const a = 1;\nfunction x() {}\n"}, "x is declared in both"),
    ({"main.mjs": 'import { a } from "a";\nexport default a;\n'}, "beside it"),
    ({"main.mjs": 'import { a } from "./a.mjs";\nexport default a;\n',
      "a.mjs": "export const a = 1;\nexport default a;\n"}, "only the entry module"),
    ({"main.mjs": 'import { a } from "./gone.mjs";\nexport default a;\n'}, "no module gone"),
])
def test_what_cannot_be_joined_is_refused(tmp_path, files, said):
    with pytest.raises(BundleError, match=said):
        bundle(tree(tmp_path, files), "main.mjs")


def test_no_javascript_file_of_the_stepper_is_over_400_lines():
    files = [*STEPPER.rglob("*.js"), *STEPPER.rglob("*.mjs")]
    assert len(files) > 15
    long = {str(p.relative_to(STEPPER)): n for p in files
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400}
    assert not long


def test_the_script_holds_every_module_once_and_no_closing_script_tag():
    js = stage_script.script()
    modules = sorted(p.name for p in (STEPPER / "src").glob("*.mjs"))
    assert sorted(line[6:] for line in js.splitlines() if line.startswith("// -- ")
                  and line.endswith(".mjs")) == modules, "every module is used, once"
    assert "</script" not in js.lower()
    assert js.count("export default mount;") == 1


def write_script(tmp_path: Path) -> Path:
    path = tmp_path / "stage.mjs"
    path.write_text(stage_script.script(), encoding="utf-8")
    return path


def test_the_script_loads_as_one_module_in_node_and_exports_what_tests_use(tmp_path, node):
    path = write_script(tmp_path)
    probe = ("globalThis.window = {}; const m = await import(process.argv[1]);"
             "console.log(JSON.stringify([Object.keys(m).sort(),"
             " typeof window.bpevizStage, m.keyRows('round', 'rounds')]));")
    done = subprocess.run([node, "--input-type=module", "-e", probe, path.as_uri()],
                          capture_output=True, text=True, timeout=60, check=True)
    names, mounted, rows = json.loads(done.stdout)
    assert {"default", "buildCompare", "cutMarks", "cutAt", "runAt", "marksAt",
            "keyAction", "keyRows", "visibleText", "hexText", "namesTitle"} <= set(names)
    assert mounted == "function", "window.bpevizStage: what the offline slides call"
    assert [tuple(r) for r in rows] == stage_script.key_rows("round"), \
        "Python's rows of the keys are the script's"


def test_the_modules_unit_tests_pass_on_the_joined_script(tmp_path, node):
    """The mount tests (robust, scripts, ...) load the script BPEVIZ_STEPPER names: the
    joined one here, so the script the browser gets passes what the modules pass."""
    path = write_script(tmp_path)
    done = subprocess.run([node, "--test", str(STEPPER / "tests")], cwd=ROOT,
                          env={**os.environ, "BPEVIZ_STEPPER": str(path)},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout


def test_python_captions_read_the_key_table():
    caption = stage_script.keys_caption("position")
    assert caption.startswith("Keys anywhere on the page (not in a text box): ← / → one "
                              "position, Shift + ← / → ten, ")
    assert "Space play" in caption and "? the keys" in caption
    assert "Page" not in caption, "the clicker's keys are left out of the short caption"
    assert [stage_script.key_name(b) for b in ("prev", "next", "play", "help")] == [
        "←", "→", "Space", "?"]
    with pytest.raises(KeyError):
        stage_script.key_name("nothing")
    rows = stage_script.key_rows()
    assert rows[0] == ("← / →", "one merge back / on") and len(rows) == 6
