"""irrepro: reproducibility in IR evaluation, as an executable compendium.

Layers, from files to pages (each imports only the ones below it):

- ``irrepro.data``, ``irrepro.runs``: public data by URL and sha256; TREC runs and qrels in and out.
- ``irrepro.evaluation``: per-topic effectiveness with trec_eval's semantics.
- ``irrepro.reproducibility``, ``irrepro.routing``, ``irrepro.glm``: the methods of the three papers.
- ``irrepro.papers``: one function per table or figure of a paper, shared by the book and the CLI.
- ``irrepro.plots``, ``irrepro.cli``: figures and the ``irrepro`` command.

The main functions are reachable from the top, ``irrepro.read_run``, ``irrepro.compare_runs``, ...
(``__all__``). They are imported when first used (PEP 562 module ``__getattr__``), so
``import irrepro`` loads neither pandas, numpy nor scipy and the ``irrepro`` command starts fast.

>>> import irrepro
>>> irrepro.effect_ratio.__module__
'irrepro.reproducibility.scores'
"""

from irrepro.version import __version__

#: public name -> the module that defines it (imported on first access)
_LAZY: dict[str, str] = {
    "read_run": "irrepro.runs",
    "read_qrels": "irrepro.runs",
    "write_run": "irrepro.runs",
    "evaluate": "irrepro.evaluation",
    "compare_runs": "irrepro.reproducibility.compare",
    "compare_pairs": "irrepro.reproducibility.compare",
    "deteriorate": "irrepro.reproducibility.deterioration",
    "arp": "irrepro.reproducibility.scores",
    "rmse": "irrepro.reproducibility.scores",
    "nrmse": "irrepro.reproducibility.scores",
    "effect_ratio": "irrepro.reproducibility.scores",
    "delta_relative_improvement": "irrepro.reproducibility.scores",
    "paired_ttest": "irrepro.reproducibility.scores",
    "unpaired_ttest": "irrepro.reproducibility.scores",
    "kendall_tau_union": "irrepro.reproducibility.ranking",
    "rbo": "irrepro.reproducibility.ranking",
    "fit_two_way": "irrepro.glm.fit",
    "pairwise_contrasts": "irrepro.glm.contrasts",
}

# A literal list, as linters and type checkers read it; tests/test_init.py holds it equal to _LAZY.
__all__ = [
    "__version__",
    "read_run",
    "read_qrels",
    "write_run",
    "evaluate",
    "compare_runs",
    "compare_pairs",
    "deteriorate",
    "arp",
    "rmse",
    "nrmse",
    "effect_ratio",
    "delta_relative_improvement",
    "paired_ttest",
    "unpaired_ttest",
    "kendall_tau_union",
    "rbo",
    "fit_two_way",
    "pairwise_contrasts",
]

# What type checkers and editors see (mypy and pyright know the name); at run time __getattr__ imports
# on demand. Not typing.TYPE_CHECKING: importing typing would double the time of `import irrepro`.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from irrepro.evaluation import evaluate
    from irrepro.glm.contrasts import pairwise_contrasts
    from irrepro.glm.fit import fit_two_way
    from irrepro.reproducibility.compare import compare_pairs, compare_runs
    from irrepro.reproducibility.deterioration import deteriorate
    from irrepro.reproducibility.ranking import kendall_tau_union, rbo
    from irrepro.reproducibility.scores import (
        arp,
        delta_relative_improvement,
        effect_ratio,
        nrmse,
        paired_ttest,
        rmse,
        unpaired_ttest,
    )
    from irrepro.runs import read_qrels, read_run, write_run


def __getattr__(name: str):
    """Import a public function from its module on first access (PEP 562) and keep it here."""
    from importlib import import_module

    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'irrepro' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # later accesses skip __getattr__
    return value


def __dir__() -> list[str]:
    """The module's names with the lazy ones, for ``dir(irrepro)`` and tab completion."""
    return sorted({*globals(), *__all__})
