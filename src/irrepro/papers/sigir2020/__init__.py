"""The tables and figures of Breuer et al., SIGIR 2020, from the per-topic scores the authors published.

"How to Measure the Reproducibility of System-oriented IR Experiments" (Breuer, Ferro, Fuhr, Maistro,
Sakai, Schaer, Soboroff; SIGIR 2020). The authors re-implemented the TREC Common Core 2017 runs
WCrobust04 (baseline b-run) and WCrobust0405 (advanced a-run), derived 50 constellations of each,
and published per-topic scores (``sigir2020/measures``: 50 Core17 topics, replicability;
``sigir2020/measures_rpd``: 25 Core18 topics, reproducibility). Every function here computes one table
or figure of the paper from those files with :mod:`irrepro.reproducibility`, returning a DataFrame
with rows named as the paper prints them (``WCrobust04``, ``rpl_wcr04_tf_1``, ``rpd_tf_1``) and one
column per cell, named ``statistic:measure`` (``ARP:P@10``, ``KTU``, ``RMSE:AP``, ``p:nDCG``, ...).

Conventions, each checked against the paper's printed values (see the chapter):

- "nDCG" is trec_eval's ``ndcg`` cut at 1000 (files ``*_ndcg1000.csv``).
- KTU and RBO are the means over topics of the published per-topic ``kendalls_tau_1000`` and
  ``rbo_1000_p08`` values (the 200 runs' ranked lists are not public).
- Replicability p-values: two-tailed paired t-test over the 50 Core17 topics; reproducibility: two-tailed
  Student's t-test between the original run on Core17 (50 topics) and the reproduced run on Core18 (25).
- ER / DeltaRI: WCrobust04 is the baseline, WCrobust0405 the advanced run; constellation k of one is
  paired with constellation k of the other.
- Correlations among measures (Tables 4 and 5) use all 50 constellations, as the authors' script does.

The modules, one concern each (everything public is re-exported here, so ``paper.X`` works):

- :mod:`~irrepro.papers.sigir2020.published_scores`: reading the authors' files (two versions:
  published, and with their earlier AP file of the reproduced WCrobust0405);
- :mod:`~irrepro.papers.sigir2020.measure_tables`: Tables 1 and 3, appendix Tables 1 and 2;
- :mod:`~irrepro.papers.sigir2020.effects`: ER and DeltaRI (Table 2), bootstrap intervals;
- :mod:`~irrepro.papers.sigir2020.correlation`: Tables 4 and 5;
- :mod:`~irrepro.papers.sigir2020.figures`: the data of Figures 1-3 and the Figure 3 diagnosis;
- :mod:`~irrepro.papers.sigir2020.earlier`: the earlier ``*_old`` files against the published ones;
- :mod:`~irrepro.papers.sigir2020.hypothesis`: the paper's statements on Table 2 (right), Figure 3 and
  Table 5 on both versions;
- :mod:`~irrepro.papers.sigir2020.conventions`: small cases, RBO depth, nDCG cut-off;
- :mod:`~irrepro.papers.sigir2020.appendix`: printed versus reproduced, cell by cell;
- :mod:`~irrepro.papers.sigir2020.printed_values`: the values the text states about Tables 3 and 4 and
  Figure 3, printed versus reproduced;
- :mod:`~irrepro.papers.sigir2020.claim_checks`: the paper's claims (:data:`CLAIMS`), with those of
  :mod:`~irrepro.papers.sigir2020.effect_claims` (Table 2 left, Figure 2) and
  :mod:`~irrepro.papers.sigir2020.correlation_claims` (Table 4);
- :mod:`~irrepro.papers.sigir2020.resampled`: every measure on bootstrap replicates of the topics;
- :mod:`~irrepro.papers.sigir2020.robustness`: how often each claim holds under topic resampling;
- :mod:`~irrepro.papers.sigir2020.fidelity_rows`: :func:`fidelity`;
- :mod:`~irrepro.papers.sigir2020.prose`: the numbers of the chapter's prose;
- :mod:`~irrepro.papers.sigir2020.files`: :func:`write_tables` for ``irrepro reproduce sigir2020``.
"""

from __future__ import annotations

from irrepro.papers.datasets import ADVANCED, BASELINE, CUTOFFS, SYSTEMS
from irrepro.papers.sigir2020 import (
    appendix,
    claim_checks,
    conventions,
    correlation,
    correlation_claims,
    earlier,
    effect_claims,
    effects,
    fidelity_rows,
    figures,
    files,
    hypothesis,
    measure_tables,
    printed_values,
    prose,
    published_scores,
    resampled,
    resampling_design,
    robustness,
)
from irrepro.papers.sigir2020.appendix import *  # noqa: F403
from irrepro.papers.sigir2020.claim_checks import *  # noqa: F403
from irrepro.papers.sigir2020.conventions import *  # noqa: F403
from irrepro.papers.sigir2020.correlation import *  # noqa: F403
from irrepro.papers.sigir2020.correlation_claims import *  # noqa: F403
from irrepro.papers.sigir2020.earlier import *  # noqa: F403
from irrepro.papers.sigir2020.effect_claims import *  # noqa: F403
from irrepro.papers.sigir2020.effects import *  # noqa: F403
from irrepro.papers.sigir2020.fidelity_rows import *  # noqa: F403
from irrepro.papers.sigir2020.figures import *  # noqa: F403
from irrepro.papers.sigir2020.files import *  # noqa: F403
from irrepro.papers.sigir2020.hypothesis import *  # noqa: F403
from irrepro.papers.sigir2020.measure_tables import *  # noqa: F403
from irrepro.papers.sigir2020.printed_values import *  # noqa: F403
from irrepro.papers.sigir2020.prose import *  # noqa: F403
from irrepro.papers.sigir2020.published_scores import *  # noqa: F403
from irrepro.papers.sigir2020.resampled import *  # noqa: F403
from irrepro.papers.sigir2020.resampling_design import *  # noqa: F403
from irrepro.papers.sigir2020.robustness import *  # noqa: F403

_MODULES = (
    published_scores, measure_tables, effects, correlation, figures, earlier, hypothesis, conventions, appendix,
    printed_values, claim_checks, effect_claims, correlation_claims, resampled, robustness, resampling_design,
    fidelity_rows, prose, files,
)  # fmt: skip
__all__ = ["BASELINE", "ADVANCED", "SYSTEMS", "CUTOFFS", *(name for module in _MODULES for name in module.__all__)]
