"""The book's figure style (irrepro.plots.style) and every figure function keeping to it."""

from __future__ import annotations

import subprocess
import sys

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.text import Text

from irrepro.plots import glm, reproducibility, robustness, routing, style, tables
from tests.plots.test_robustness import conclusions, ssd_summary


def test_use_book_style_sets_svg_text_legible_sizes_and_restarts_table_numbers():
    tables.show(pd.DataFrame({"a": [1.0]}, index=pd.Index(["x"], name="r")), caption="x")
    style.use_book_style()
    assert mpl.rcParams["svg.fonttype"] == "none"
    for key in ("font.size", "xtick.labelsize", "ytick.labelsize", "legend.fontsize", "axes.titlesize"):
        assert mpl.rcParams[key] >= style.MIN_FONT_PT
    assert mpl.rcParams["figure.figsize"][0] <= style.TEXT_WIDTH
    assert tables.show(pd.DataFrame({"a": [1.0]}, index=pd.Index(["x"], name="r")), caption="x").number == 1


def test_the_palette_is_seaborns_colorblind_palette_and_importing_the_style_loads_neither_seaborn_nor_scipy():
    """The palette is written out so that a page's first cell does not import seaborn (and with it
    scipy.stats, a second); it must stay seaborn's."""
    import seaborn as sns

    assert tuple(sns.color_palette("colorblind").as_hex()) == style.PALETTE
    probe = "import sys, irrepro.plots.style\nprint(sorted({m.split('.')[0] for m in sys.modules} & {'seaborn', 'scipy'}))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_figure_size_is_a_share_of_the_text_column():
    assert style.figure_size(0.5, aspect=0.5) == (style.TEXT_WIDTH / 2, style.TEXT_WIDTH / 4)
    with pytest.raises(ValueError, match="width_fraction"):
        style.figure_size(1.5)


def _figures():
    style.use_book_style()
    families = ("tf", "df", "tol", "C")
    curves = pd.DataFrame(
        [{"run": f"{f}_{level}", "family": f, "level": level, "cutoff": k, "KTU": 0.01 * level}
         for f in families for level in (1, 2) for k in (5, 10, 1000)]
    )  # fmt: skip
    points = pd.DataFrame(
        [{"family": f, "level": level, "measure": m, "ER": 0.5 * level, "DeltaRI": 0.02 * level}
         for f in families for level in (1, 2) for m in ("P@10", "AP")]
    )  # fmt: skip
    links = ["identity", "log", "exp", "tanh", "logit", "probit", "cauchit"]
    rng = np.random.default_rng(0)
    residuals = pd.DataFrame({"link": np.repeat(links, 50), "pearson": rng.normal(size=350),
                              "fitted": rng.random(350), "observed": rng.random(350)})  # fmt: skip
    effects = pd.DataFrame({"link": ["identity"] * 3 + ["logit"] * 3, "system": list("abc") * 2,
                            "effect": [0.1, 0.0, -0.1] * 2, "lower": [0.0, -0.1, -0.2] * 2, "upper": [0.2, 0.1, 0.0] * 2})
    per_topic = pd.DataFrame({"target": ["near (NYT role), replicated"] * 4, "system": ["WCrobust04", "WCrobust0405"] * 2,
                              "topic": ["acq", "acq", "gold", "gold"], "AP": [0.1, 0.2, 0.3, 0.4]})  # fmt: skip
    transfer = pd.DataFrame({"target": ["far (WaPo role)", "near (NYT role)"], "training": ["train-04 (Robust04 role)"] * 2,
                             "MAP": [0.8, 0.7], "topics": [44, 44]})  # fmt: skip
    sets = pd.DataFrame({"target": ["Core17", "Core18"], "training": ["Robust04"] * 2, "intersection": [50, 25]})
    return {
        "cutoff": reproducibility.cutoff_figure(curves, statistic="KTU"),
        "er_deltari": reproducibility.er_deltari_figure(points),
        "mean_variance": glm.mean_variance_figure({"a": pd.DataFrame({"mean": [0.2, 0.3], "variance": [0.01, 0.02]})}),
        "qq": glm.qq_figure(residuals, links=links),
        "fitted": glm.fitted_observed_figure(residuals, links=links),
        "effects": glm.system_effects_figure(effects),
        "per_topic": routing.per_topic_ap_bars(per_topic),
        "transfer": routing.relevance_transfer_bars(transfer),
        "topic_sets": routing.topic_set_diagram(sets),
        "conclusions": robustness.conclusions_figure(conclusions()),
        "ssd_stability": robustness.ssd_stability_figure(ssd_summary()),
    }


def test_every_figure_fits_the_text_column_with_legible_text():
    for name, figure in _figures().items():
        assert figure.get_figwidth() <= style.TEXT_WIDTH + 1e-9, name
        texts = [t for t in figure.findobj(Text) if t.get_visible() and t.get_text().strip()]
        assert texts, name
        small = [(t.get_text(), t.get_fontsize()) for t in texts if t.get_fontsize() < style.MIN_FONT_PT]
        assert not small, f"{name}: {small}"
        plt.close(figure)
