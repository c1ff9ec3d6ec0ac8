"""Inline SVG: accessible, ids unique per figure, no date, same bytes for the same figure."""

from __future__ import annotations

import re

import matplotlib.pyplot as plt
import pytest

from irrepro.report.svg import figure_svg


def _figure():
    figure, axis = plt.subplots(figsize=(3, 2))
    axis.plot([0, 1, 2], [1, 0, 2], marker="o")
    axis.set_title("a title")
    return figure


def test_svg_is_an_accessible_element_with_prefixed_ids():
    svg = figure_svg(_figure(), prefix="fig-a", title="A <title>", description="What it shows & more")
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "<?xml" not in svg and "<!DOCTYPE" not in svg and "<metadata" not in svg and "dc:date" not in svg
    assert 'role="img" aria-labelledby="fig-a-title fig-a-desc"' in svg
    assert '<title id="fig-a-title">A &lt;title&gt;</title><desc id="fig-a-desc">What it shows &amp; more</desc>' in svg
    ids = re.findall(r'\bid="([^"]+)"', svg)
    assert ids and all(i == "fig-a" or i.startswith("fig-a-") for i in ids)
    assert all(ref.startswith("fig-a-") for ref in re.findall(r'href="#([^"]+)"', svg))
    assert all(ref.startswith("fig-a-") for ref in re.findall(r"url\(#([^)]+)\)", svg))
    assert "#fig-a *{" in svg  # matplotlib's global style rule, scoped
    assert not plt.get_fignums()  # the figure was closed


def test_svg_bytes_are_deterministic():
    first = figure_svg(_figure(), prefix="f", title="t", description="d")
    assert figure_svg(_figure(), prefix="f", title="t", description="d") == first


def test_prefix_must_be_an_identifier():
    with pytest.raises(ValueError, match="prefix"):
        figure_svg(_figure(), prefix="1 bad", title="t", description="d")
    plt.close("all")
