"""A view's HTML as a tree of plain data, for the step bar's script to build with
``createElement`` and ``textContent``: the script never parses HTML, so no text can turn
into markup there, and only the tags and attributes the views use pass.

Python's renderers escape user text as they write HTML (:mod:`bpeviz.present.render`);
this reads that HTML back (the standard library's parser) into ``[tag, {attr: value},
*children]`` lists and strings. An element of another tag is dropped with what it holds;
another attribute (an ``on...`` handler, ``href``, ``src``) is dropped.

>>> html_tree('<p class="bv-note">a &lt; b <bdi dir="auto">x</bdi></p>')
[['p', {'class': 'bv-note'}, 'a < b ', ['bdi', {'dir': 'auto'}, 'x']]]
>>> html_tree('<img src=x onerror="alert(1)"><span onclick="x()" title="t">ok</span>')
[['span', {'title': 't'}, 'ok']]
"""

from __future__ import annotations

import html
from html.parser import HTMLParser
from typing import Any

#: the tags the views are written with
TAGS = frozenset({
    "div", "span", "p", "strong", "b", "em", "i", "bdi", "small", "code", "sup", "sub",
    "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td", "br", "hr", "style",
    "details", "summary", "h4", "h5"})
#: elements with no end tag (HTML's, kept or not)
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})
#: the attributes they use (and every ``data-`` attribute)
ATTRIBUTES = frozenset({"class", "title", "dir", "style", "colspan", "rowspan", "open",
                        "lang"})


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root: list[Any] = ["", {}]
        self.open: list[list[Any]] = [self.root]
        self.dropped = 0  # depth inside an element that is dropped

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.dropped or tag not in TAGS:
            if tag not in VOID:
                self.dropped += 1
            return
        kept = {k: v or "" for k, v in attrs
                if k in ATTRIBUTES or (k.startswith("data-") and k[5:].replace("-", "").isalnum())}
        node: list[Any] = [tag, kept]
        self.open[-1].append(node)
        if tag not in VOID:
            self.open.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.dropped or tag not in TAGS:
            return
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.open[-1][0] == tag:
            self.open.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if self.dropped:
            self.dropped -= 1
            return
        for depth in range(len(self.open) - 1, 0, -1):  # close it, and what it left open
            if self.open[depth][0] == tag:
                del self.open[depth:]
                return

    def handle_data(self, data: str) -> None:
        if self.dropped:
            return
        parent = self.open[-1]
        if len(parent) > 2 and isinstance(parent[-1], str):
            parent[-1] += data
        else:
            parent.append(data)


def html_tree(html: str) -> list[Any]:
    """The nodes of ``html``: strings (text) and ``[tag, attrs, *children]`` lists."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.root[2:]


def tree_html(nodes: list[Any]) -> str:
    """The HTML a tree stands for (what the browser builds from it), text and attribute
    values escaped.

    >>> tree_html(html_tree('<p class="a">x &amp; <bdi>y</bdi></p><br>'))
    '<p class="a">x &amp; <bdi>y</bdi></p><br>'
    """
    out = []
    for node in nodes:
        if isinstance(node, str):
            out.append(html.escape(node, quote=True))
            continue
        tag, attrs, *children = node
        written = "".join(f' {k}="{html.escape(str(v), quote=True)}"' for k, v in attrs.items())
        inner = "".join(children) if tag == "style" else tree_html(children)
        out.append(f"<{tag}{written}>" if tag in VOID else f"<{tag}{written}>{inner}</{tag}>")
    return "".join(out)
