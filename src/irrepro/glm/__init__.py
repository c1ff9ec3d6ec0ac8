"""Generalised linear models for IR evaluation (Faggioli, Ferro & Fuhr, CIKM 2022 / IIR 2023).

Per-topic scores ``y[t, s]`` of system ``s`` on topic ``t`` are modelled as

    g(E[y_ts]) = mu + tau_t + s_s

with a link function ``g`` (:mod:`irrepro.glm.links`), fitted by IRLS specialised to the complete
two-way layout (:mod:`irrepro.glm.fit`). :mod:`irrepro.glm.contrasts` counts significantly different
system pairs (Tukey HSD or Holm), :mod:`irrepro.glm.consistency` checks them across split-halves of the
topics and :mod:`irrepro.glm.outliers` holds the rules for near-zero systems and boundary topics.
"""

from irrepro.glm.contrasts import pairwise_contrasts
from irrepro.glm.fit import TwoWayFit, fit_two_way
from irrepro.glm.links import LINK_NAMES, make_link

__all__ = ["LINK_NAMES", "make_link", "TwoWayFit", "fit_two_way", "pairwise_contrasts"]
