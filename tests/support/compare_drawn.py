"""Compare's cuts as the browser draws them: the page's own payload (built by
:func:`bpeviz.ui.compare._cuts_data`, what the page sends its stage component) mounted by
the stage's script as the browser gets it (:func:`bpeviz.present.stage_script.bundle`) in
Node, on the unit tests' fake DOM (bpeviz/ui/stepper/tests/stage.mjs), read back as a
tree of plain dicts.

Python draws none of Compare's cuts: these helpers let the tests check the browser's
drawing against the engine (:mod:`bpeviz.analysis.compare`) on real trainings."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from tests.support import ROOT

STEPPER = ROOT / "bpeviz" / "ui" / "stepper"

# mounts each payload at each of its steps on a fresh fake page; prints the drawn trees
DRIVER = """
import { readFileSync } from "node:fs";
const [bundleUrl, stageUrl] = process.argv.slice(2);
const { default: mount } = await import(bundleUrl);
const { host, mountIn, setUp } = await import(stageUrl);
const tree = (n) => (n.tagName === undefined ? n.textContent
  : { tag: n.tagName.toLowerCase(), cls: n.className, title: n.title,
    attrs: Object.fromEntries(n.attributes), children: n.childNodes.map(tree) });
const out = JSON.parse(readFileSync(0, "utf8")).map(({ data, steps }) => steps.map((step) => {
  const { doc, restore } = setUp();
  try {
    const sent = mountIn(mount, doc, "view", { ...data, step });
    return { sent, tree: tree(host(doc, "view")) };
  } finally {
    restore();
  }
}));
process.stdout.write(JSON.stringify(out));
"""


def compare_payload(configurations: Sequence[tuple[str, Any]], text: str, *,
                    mode: str = "step", only: bool = False, strong: bool = False,
                    byte_style: str = "gpt2") -> dict[str, Any]:
    """What the Compare page sends the browser for ``(label, training)`` pairs."""
    from bpeviz.ui.compare import _cuts_data  # the page's own builder

    chosen = [SimpleNamespace(label=label, training=t) for label, t in configurations]
    return _cuts_data(chosen, mode, "compare", text, byte_style, strong, only)


def tokens_payload(training: Any, text: str, byte_style: str = "gpt2") -> dict[str, Any]:
    """What Tokenize sends the browser (:func:`bpeviz.ui.stage.tokens`)."""
    from bpeviz.present.text_history import stage_tokens

    return {"role": "tokens", "n": len(training.merges), "hist": "tokens", "strong": False,
            "showWs": False, "maxTokens": 3000, **stage_tokens(training, text, byte_style)}


class Stage:
    """Runs the stage's script in Node (``node``: its path), the script written once."""

    def __init__(self, node: str, where: Path) -> None:
        from bpeviz.present.stage_script import bundle  # the script as the browser gets it

        self.node = node
        self.module = where / "stepper.mjs"
        self.module.write_text(bundle(STEPPER / "src"), encoding="utf-8")
        self.driver = where / "driver.mjs"
        self.driver.write_text(DRIVER, encoding="utf-8")

    def draw(self, jobs: Sequence[tuple[dict[str, Any], Sequence[int]]]) -> list[list[Node]]:
        """Each payload drawn at each of its steps (positions): the drawn tree, per job
        per step. The script must report no error."""
        found = subprocess.run(
            [self.node, str(self.driver), self.module.as_uri(),
             (STEPPER / "tests" / "stage.mjs").as_uri()],
            input=json.dumps([{"data": d, "steps": list(s)} for d, s in jobs]),
            capture_output=True, text=True, timeout=300, check=True)
        out = []
        for job in json.loads(found.stdout):
            for drawn in job:
                assert drawn["sent"] == [], drawn["sent"]  # no error reported
            out.append([Node.of(drawn["tree"]) for drawn in job])
        return out


@dataclass
class Node:
    """An element of the fake DOM as drawn (a text node is a plain ``str`` child)."""

    tag: str
    cls: list[str]
    title: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    @classmethod
    def of(cls, tree: dict[str, Any]) -> Node:
        return cls(tree["tag"], tree["cls"].split(), tree["title"], tree["attrs"],
                   [c if isinstance(c, str) else cls.of(c) for c in tree["children"]])

    @property
    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text for c in self.children)

    def walk(self, inside: tuple[Node, ...] = ()) -> Iterator[tuple[Node, tuple[Node, ...]]]:
        """Every element below, with the elements it sits in (outermost first)."""
        for child in self.children:
            if isinstance(child, Node):
                yield child, inside
                yield from child.walk((*inside, child))

    def all(self, css_class: str) -> list[Node]:
        return [e for e, _ in self.walk() if css_class in e.cls]

    def texts(self, inside: tuple[Node, ...] = ()) -> Iterator[tuple[str, tuple[Node, ...]]]:
        """Every text node below, with the elements it sits in."""
        for child in self.children:
            if isinstance(child, str):
                yield child, (*inside, self)
            else:
                yield from child.texts((*inside, self))


def chip(e: Node) -> tuple[str, str, list[str], dict[str, str]]:
    """What a chip shows: its text, title, classes and attributes (direction, id, style)."""
    return e.text, e.title, sorted(e.cls), e.attrs


def boxes(tree: Node) -> list[Node]:
    """Each configuration's cut (in order A, B, C)."""
    return tree.all("bv-tokens")


@dataclass
class Marks:
    """One configuration's drawn cut: its marked runs and the token ids in and out of them."""

    diffs: list[tuple[int, int]]
    inside: list[int]
    outside: list[int]


def marks(box: Node) -> Marks:
    found = Marks([], [], [])
    for e, around in box.walk():
        if "data-bpeviz-diff" in e.attrs:
            assert not any("data-bpeviz-diff" in a.attrs for a in around)  # none nested
            found.diffs.append((int(e.attrs["data-start"]), int(e.attrs["data-end"])))
        if "bv-chip" in e.cls:
            marked = any("data-bpeviz-diff" in a.attrs for a in around)
            (found.inside if marked else found.outside).append(int(e.attrs["data-id"]))
    return found
