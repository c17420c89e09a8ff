"""Making matplotlib's SVG fit to be placed inline in a page under a strict CSP (no `style=`, no `<style>`):
presentation attributes instead, no metadata, a title, a description and labelled series. Pure XML work."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

NS = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
ET.register_namespace("", NS)
ET.register_namespace("xlink", XLINK)

#: The CSS properties matplotlib writes that SVG also takes as presentation attributes (any other is dropped).
PRESENTATION = frozenset(
    {
        "fill",
        "fill-opacity",
        "opacity",
        "stroke",
        "stroke-width",
        "stroke-opacity",
        "stroke-linejoin",
        "stroke-linecap",
        "stroke-dasharray",
        "stroke-dashoffset",
        "stroke-miterlimit",
        "font-size",
        "font-family",
        "font-weight",
        "font-style",
        "text-anchor",
        "clip-path",
        "dominant-baseline",
    }
)
FONT_FAMILY = "DejaVu Sans, Helvetica, Arial, sans-serif"


def _declarations(style: str) -> list[tuple[str, str]]:
    out = []
    for part in style.split(";"):
        name, _, value = part.partition(":")
        if name.strip() and value.strip():
            out.append((name.strip(), value.strip()))
    return out


def clean(svg: str, *, title: str, desc: str, series: Sequence[str]) -> str:
    """The chart without `style` (as attributes), `<style>` or `<metadata>`, labelled for assistive technology:
    `series[n]` names the group matplotlib drew with gid `series-n`."""
    root = ET.fromstring(svg)  # noqa: S314 — matplotlib's own output, not input from outside
    for parent in list(root.iter()):
        for child in list(parent):
            if child.tag in (f"{{{NS}}}metadata", f"{{{NS}}}style"):
                parent.remove(child)
    for element in root.iter():
        style = element.attrib.pop("style", None)
        if style:
            for name, value in _declarations(style):
                if name == "font-family":
                    value = FONT_FAMILY
                if name in PRESENTATION:
                    element.set(name, value)
    # What the dropped `*{…}` rule said, inherited from the root instead.
    root.set("stroke-linejoin", "round")
    root.set("stroke-linecap", "butt")
    root.set("role", "img")
    root.set("aria-label", desc)
    root.attrib.pop("version", None)
    head_title, head_desc = ET.Element(f"{{{NS}}}title"), ET.Element(f"{{{NS}}}desc")
    head_title.text, head_desc.text = title, desc
    root.insert(0, head_desc)
    root.insert(0, head_title)
    names = {f"series-{n}": name for n, name in enumerate(series)}
    for group in root.iter(f"{{{NS}}}g"):
        name = names.get(group.get("id", ""))
        if name is not None:
            group.set("aria-label", name)
            label = ET.Element(f"{{{NS}}}title")
            label.text = name
            group.insert(0, label)
    # Empty `<defs/>` left by the dropped style are harmless; empty-id groups stay (matplotlib's structure).
    return _serialised(root)


def _serialised(root: ET.Element) -> str:
    """The tree as text with SVG's namespace written out by hand, not taken from ElementTree's global prefix
    registry: another library (WeasyPrint, for the PDFs) registers the empty prefix for its own use, which made
    every element `ns0:svg` (a picture no browser draws inline)."""
    svg, xlink = f"{{{NS}}}", f"{{{XLINK}}}"
    for element in root.iter():
        if isinstance(element.tag, str) and element.tag.startswith(svg):
            element.tag = element.tag[len(svg) :]
        for key in [k for k in element.attrib if k.startswith(xlink)]:
            element.attrib[f"xlink:{key[len(xlink) :]}"] = element.attrib.pop(key)
    root.set("xmlns", NS)
    root.set("xmlns:xlink", XLINK)
    return ET.tostring(root, encoding="unicode")
