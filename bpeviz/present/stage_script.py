"""The stage's browser script as one piece, and the one table of its keys.

The step bar's code lives as ES modules by role in ``bpeviz/ui/stepper/src/`` (the entry
is ``main.mjs``; each imports the others with relative ``import`` lines). Streamlit's
components v2 takes a component's JavaScript as one string and the offline slides need
one inline script, so :func:`script` joins the modules into one ES module, with no build
tool: each module once, after the modules it imports (depth first from the entry), its
relative ``import`` lines dropped and its ``export`` keywords with them; the entry's own
exports stay (``export default mount`` is what components v2 calls). A JSON import
(``import KEYS from "./keys.json" with { type: "json" }``) becomes a constant holding
the data. All modules then share one scope, so a name declared at the top of two modules
is refused, as is an import of a name its module does not export, an import cycle, or any
import the joiner does not understand (``as``, ``* as``, a bare or absolute path).

The key table (``src/keys.json``) drives the script's key handler, its ``?`` list and
its buttons' titles; :data:`KEYS`, :func:`key_rows`, :func:`keys_caption` and
:func:`key_name` read it for Python's captions.

Nothing here imports streamlit: the slides (and the command line) use it too.

>>> js = script()
>>> js.count("export default mount;"), "\\nimport " in js
(1, False)
>>> key_rows("round")[:2]
[('← / →', 'one round back / on'), ('Shift + ← / →', 'ten rounds back / on')]
>>> print(keys_caption("position"))
Keys anywhere on the page (not in a text box): ← / → one position, Shift + ← / → ten, Home / End, Space play, ? the keys.
"""  # noqa: E501

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: the stage's modules (the entry: main.mjs) and its styles
STEPPER = Path(__file__).resolve().parent.parent / "ui" / "stepper"
SRC = STEPPER / "src"
ENTRY = "main.mjs"

# an import of a module: `import { a, b } from "./x.mjs";` (on one line or several), or of
# JSON data: `import NAME from "./x.json" with { type: "json" };`
_IMPORT = re.compile(
    r'^import\s+(?:\{(?P<names>[^}]*)\}|(?P<default>[A-Za-z_$][\w$]*))\s+from\s+'
    r'"(?P<path>[^"]+)"(?P<json>\s+with\s+\{\s*type:\s*"json"\s*\})?\s*;[ \t]*\n?',
    re.MULTILINE)
_ANY_IMPORT = re.compile(r"^\s*import\b", re.MULTILINE)
_EXPORT_DECL = re.compile(r"^export\s+(?=(?:async\s+)?function\b|const\b|let\b|class\b)",
                          re.MULTILINE)
_EXPORT_LIST = re.compile(r"^export\s*\{(?P<names>[^}]*)\}\s*;[ \t]*\n?", re.MULTILINE)
_OTHER_EXPORT = re.compile(r"^\s*export\b", re.MULTILINE)
# a declaration at the top of a module (the modules declare nothing else at column 0)
_TOP = re.compile(r"^(?:export\s+)?(?:async\s+)?(?:function\*?|const|let|class)\s+"
                  r"(?P<name>[A-Za-z_$][\w$]*)", re.MULTILINE)
_NAME = re.compile(r"^[A-Za-z_$][\w$]*$")


class BundleError(ValueError):
    """The modules cannot be joined into one script (the message says why)."""


@dataclass
class _Module:
    path: Path
    text: str
    imports: list[tuple[str, list[str] | None, bool]]  # (path, names or None: default, json)
    exports: set[str]
    top: list[str]


def _names(listed: str, where: Path) -> list[str]:
    names = [n.strip() for n in listed.split(",") if n.strip()]
    for n in names:
        if not _NAME.match(n):
            raise BundleError(f"{where.name}: only plain names can be joined, not {n!r}")
    return names


def _read(path: Path) -> _Module:
    text = path.read_text(encoding="utf-8")
    imports = []
    for m in _IMPORT.finditer(text):
        target = m["path"]
        if not target.startswith("./"):
            raise BundleError(f"{path.name}: only modules beside it can be joined: {target!r}")
        if m["json"] is not None:
            if m["default"] is None:
                raise BundleError(f"{path.name}: JSON is imported by one name: {target!r}")
            imports.append((target, [m["default"]], True))
        elif m["default"] is not None:
            raise BundleError(f"{path.name}: no default imports to join: {target!r}")
        else:
            imports.append((target, _names(m["names"], path), False))
    rest = _IMPORT.sub("", text)
    if _ANY_IMPORT.search(rest):
        raise BundleError(f"{path.name}: an import the joiner does not understand")
    exports = set(_TOP.findall("\n".join(
        line for line in text.splitlines() if line.startswith("export "))))
    for m in _EXPORT_LIST.finditer(text):
        exports.update(_names(m["names"], path))
    return _Module(path, text, imports, exports, _TOP.findall(rest))


def _order(src: Path, entry: str) -> list[_Module]:
    """The modules the entry needs, each after the modules it imports."""
    done: dict[str, _Module] = {}
    walking: list[str] = []

    def visit(name: str) -> None:
        if name in done:
            return
        if name in walking:
            raise BundleError("an import cycle: " + " -> ".join([*walking, name]))
        path = src / name
        if not path.is_file():
            raise BundleError(f"no module {name} in {src}")
        module = _read(path)
        walking.append(name)
        for target, names, is_json in module.imports:
            if is_json:
                continue
            visit(target[2:])
            missing = set(names or ()) - done[target[2:]].exports
            if missing:
                raise BundleError(f"{name} imports what {target[2:]} does not export: "
                                  + ", ".join(sorted(missing)))
        walking.pop()
        done[name] = module

    visit(entry)
    return list(done.values())


def _body(module: _Module, src: Path, entry: bool) -> str:
    """A module's text for the joined script: its imports gone (JSON: its data)."""

    def replace(m: re.Match[str]) -> str:
        if m["json"] is None:
            return ""
        data = json.loads((src / m["path"][2:]).read_text(encoding="utf-8"))
        return f"const {m['default']} = {json.dumps(data, ensure_ascii=False)};\n"

    text = _IMPORT.sub(replace, module.text)
    if entry:
        return text
    text = _EXPORT_LIST.sub("", _EXPORT_DECL.sub("", text))
    if _OTHER_EXPORT.search(text):
        raise BundleError(f"{module.path.name}: an export the joiner does not understand "
                          "(only the entry module may have a default export)")
    return text


def bundle(src: Path = SRC, entry: str = ENTRY) -> str:
    """The modules in ``src`` that ``entry`` needs, joined into one ES module (a string):
    each module once, after the modules it imports, its ``import`` lines and ``export``
    keywords gone (the entry keeps its default export). With ``a.mjs`` holding
    ``export function one()`` and ``b.mjs`` importing it, ``bundle(src, "b.mjs")`` is
    ``// -- a.mjs`` and ``function one() ...``, then ``// -- b.mjs`` and b's code
    (tests/analysis/test_stage_script.py checks this on such files).
    """
    modules = _order(src, entry)
    seen: dict[str, str] = {}
    for module in modules:
        for name in module.top:
            if name in seen:
                raise BundleError(f"{name} is declared in both {seen[name]} and "
                                  f"{module.path.name}: one script has one scope")
            seen[name] = module.path.name
    parts = []
    for module in modules:
        body = _body(module, src, module.path.name == entry).strip("\n")
        parts.append(f"// -- {module.path.name}\n{body}\n")
    return "\n".join(parts)


_HEAD = ("// bpeviz's stage script, joined from bpeviz/ui/stepper/src/ (one module a section)"
         " by\n// bpeviz.present.stage_script: edit the modules, not this.\n\n")


@functools.cache
def script() -> str:
    """The stage's script as the browser gets it: :func:`bundle` of ``src/``, read once."""
    code = _HEAD + bundle()
    if "</script" in code.lower():  # the slides put it inside a <script> element
        raise BundleError("the stage's script may not contain '</script'")
    return code


@functools.cache
def css() -> str:
    """The stage's styles (``stepper/stepper.css``)."""
    return (STEPPER / "stepper.css").read_text(encoding="utf-8")


#: the key table (``src/keys.json``), as the script reads it
KEYS: dict[str, Any] = json.loads((SRC / "keys.json").read_text(encoding="utf-8"))


def _fill(text: str, unit: str, units: str) -> str:
    return text.replace("{units}", units).replace("{unit}", unit)


def _shown(row: dict[str, Any]) -> str:
    names = " / ".join(dict.fromkeys(k["name"] for k in row["keys"]))
    return f"Shift + {names}" if all(k.get("shift") is True for k in row["keys"]) else names


def key_rows(unit: str = "merge", units: str | None = None) -> list[tuple[str, str]]:
    """The rows of the ``?`` list for steps called ``unit``: (keys, what they do), as the
    script's ``keyRows`` makes them."""
    units = units or f"{unit}s"
    return [(_shown(row), _fill(row["what"], unit, units)) for row in KEYS["rows"]
            if row["what"] is not None]


def keys_caption(unit: str = "merge", units: str | None = None) -> str:
    """The keys in a sentence, for a caption under the bar (the rows with a ``brief``)."""
    units = units or f"{unit}s"
    said = [" ".join(filter(None, [_shown(row), _fill(row["brief"], unit, units)]))
            for row in KEYS["rows"] if row["brief"] is not None]
    return f"{KEYS['caption']}: {', '.join(said)}."


def key_name(button: str) -> str:
    """The key that does what ``button`` does ("next": →, "play": Space, "help": ?)."""
    for row in KEYS["rows"]:
        for k in row["keys"]:
            if k.get("button") == button and not k.get("shift"):
                return str(k["name"])
    raise KeyError(button)
