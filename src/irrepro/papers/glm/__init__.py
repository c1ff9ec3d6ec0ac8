"""Tables, figure data and claims of Faggioli, Ferro & Fuhr, "IR Systems Evaluation via Generalized Linear Models".

Shared by the chapter ``chapters/glm.md`` and ``irrepro reproduce glm --out DIR``
(:mod:`~irrepro.papers.glm.files` lists the files). The modules, one concern each (everything public
is re-exported here, so ``paper.X`` works):

- :mod:`~irrepro.papers.glm.scores`: the score matrices (Robust04: the paper's collection; Core17 and
  Core18: substitutes), outliers, dropped topics, the data used;
- :mod:`~irrepro.papers.glm.models`: the fits and the tables made from them (Table 1, iterations,
  ssd pairs, consistency, system effects, residuals);
- :mod:`~irrepro.papers.glm.diagnostics`: near-zero systems, zeros and ones, residual tests;
- :mod:`~irrepro.papers.glm.data_groups`: whose data a verdict rests on;
- :mod:`~irrepro.papers.glm.statements`: the paper's statements about Table 1;
- :mod:`~irrepro.papers.glm.claim_checks`: the claims (:data:`CLAIMS`), per data group;
- :mod:`~irrepro.papers.glm.robustness`: the ssd pairs and the claims under topic resampling;
- :mod:`~irrepro.papers.glm.printed_values`: the one number its text states, printed beside reproduced;
- :mod:`~irrepro.papers.glm.fidelity_rows`: :func:`fidelity`;
- :mod:`~irrepro.papers.glm.prose`: the numbers and sentences of the chapter's text;
- :mod:`~irrepro.papers.glm.files`: :func:`write_tables`.
"""

from __future__ import annotations

from irrepro.papers.glm import (
    claim_checks,
    data_groups,
    diagnostics,
    fidelity_rows,
    files,
    models,
    printed_values,
    prose,
    robustness,
    scores,
    statements,
)
from irrepro.papers.glm.claim_checks import *  # noqa: F403
from irrepro.papers.glm.data_groups import *  # noqa: F403
from irrepro.papers.glm.diagnostics import *  # noqa: F403
from irrepro.papers.glm.fidelity_rows import *  # noqa: F403
from irrepro.papers.glm.files import *  # noqa: F403
from irrepro.papers.glm.models import *  # noqa: F403
from irrepro.papers.glm.printed_values import *  # noqa: F403
from irrepro.papers.glm.prose import *  # noqa: F403
from irrepro.papers.glm.robustness import *  # noqa: F403
from irrepro.papers.glm.scores import *  # noqa: F403
from irrepro.papers.glm.statements import *  # noqa: F403

_MODULES = (
    scores, models, diagnostics, data_groups, statements, claim_checks, robustness, printed_values, fidelity_rows,
    prose, files,
)  # fmt: skip
__all__ = [name for module in _MODULES for name in module.__all__]
