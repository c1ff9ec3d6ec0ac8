"""The numbers the chapter's prose states, each computed (for glue), with where it comes from.

:func:`chapter_numbers` returns one row per number the SIGIR 2020 chapter writes in a sentence: its
``value`` (computed here from the data or from the package's own conventions) and its ``source``.
A chapter glues ``chapter_numbers().loc[name, "value"]`` instead of typing the number.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import pandas as pd

from irrepro.papers.datasets import BASELINE
from irrepro.papers.sigir2020.appendix import appendix_misprints, largest_differences, match_counts, rounding_evidence
from irrepro.papers.sigir2020.conventions import RBO_P, ndcg_cutoff_check, rbo_depth_convention, small_cases
from irrepro.papers.sigir2020.effects import BOOTSTRAP_LEVEL, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED
from irrepro.papers.sigir2020.measure_tables import AGREEMENT_DEPTH
from irrepro.papers.sigir2020.published_scores import MEASURES, per_topic
from irrepro.routing.constellations import FAMILIES, PRINTED

__all__ = ["DATA_LABELS", "chapter_numbers", "misprint_numbers", "glue_names"]

#: What each table of the chapter ran on, as its caption says it.
DATA_LABELS: dict[str, str] = {
    "rpl": "the authors' published per-topic scores on the 50 TREC Core 2017 topics",
    "rpd": "the authors' published per-topic scores, originals on the 50 Core 2017 topics, "
    "reproductions on 25 Core 2018 topics",
    "both": "the authors' published per-topic scores on Core 2017 (50 topics) and Core 2018 (25 topics)",
    "cases": "rankings made up to show the measures' behaviour",
}


def _data_numbers() -> dict[str, tuple[object, str]]:
    replicated, reproduced = per_topic("rpl", BASELINE, "ap"), per_topic("rpd", BASELINE, "ap")
    levels = {c.level for c in PRINTED}
    return {
        "constellations": (replicated.shape[1] - 1, "run columns rpl_wcrobust04_<N> of the published files"),
        "printed constellations": (len(PRINTED), "irrepro.routing.constellations.PRINTED"),
        "families": (len(FAMILIES), "irrepro.routing.constellations.FAMILIES"),
        "levels per family": (len(levels), "levels of the printed constellations"),
        "Core17 topics": (len(replicated), "topics of the published replicability files"),
        "Core18 topics": (len(reproduced), "topics of the published reproducibility files"),
        "figure points": (len(PRINTED) * len(MEASURES), "printed pairs x measures (P@10, AP, nDCG)"),
    }


def _convention_numbers() -> dict[str, tuple[object, str]]:
    cutoffs = ndcg_cutoff_check()
    rbo = rbo_depth_convention(5)
    only = rbo[rbo["published values attainable"] == rbo["published distinct values"]]
    if len(cutoffs.index[cutoffs["matches both"]]) != 1 or len(only) != 1:
        raise ValueError("the printed values no longer single out one nDCG cut-off and one RBO convention")
    return {
        "nDCG cut-off": (int(cutoffs.index[cutoffs["matches both"]][0]), "ndcg_cutoff_check()"),
        "RBO depth at cut-off 5": (int(only.index[0].split("top ")[1].split()[0]), "rbo_depth_convention(5)"),
        "KTU and RBO depth": (AGREEMENT_DEPTH, "irrepro.papers.sigir2020.measure_tables.AGREEMENT_DEPTH"),
        "RBO persistence": (RBO_P, "irrepro.papers.sigir2020.conventions.RBO_P (files rbo_<k>_p08)"),
        "bootstrap resamples": (BOOTSTRAP_RESAMPLES, "irrepro.papers.sigir2020.effects.BOOTSTRAP_RESAMPLES"),
        "bootstrap seed": (BOOTSTRAP_SEED, "irrepro.papers.sigir2020.effects.BOOTSTRAP_SEED"),
        "bootstrap level": (BOOTSTRAP_LEVEL, "irrepro.papers.sigir2020.effects.BOOTSTRAP_LEVEL"),
    }


def _appendix_numbers() -> dict[str, tuple[object, str]]:
    counts, miss = match_counts(), appendix_misprints()
    largest = largest_differences(1, n=1).iloc[0]
    numbers = {}
    for name, row in counts.iterrows():
        numbers[f"{name} cells"] = (int(row["cells"]), "match_counts()")
        numbers[f"{name} matching"] = (int(row["matching"]), "match_counts()")
    misprinted = miss[miss["misprint"].astype(bool)]
    numbers["misprinted cell"] = ("; ".join(f"{m.run} {m.cell} '{m.printed}'" for m in misprinted.itertuples()),
                                  "appendix_misprints()")  # fmt: skip
    numbers["cells not matching"] = (int(miss["table"].isin(["appendix Table 1", "appendix Table 2"]).sum()),
                                     "appendix_misprints() (Tables 1 and 2)")  # fmt: skip
    numbers["appendix Table 3 cells not matching"] = (int((miss["table"] == "appendix Table 3").sum()),
                                                      "appendix_misprints()")  # fmt: skip
    evidence = rounding_evidence(3)
    for rule, word in (("truncated", "truncation"), ("rounded", "rounding")):
        numbers[f"appendix Table 3 columns {rule}"] = (int((evidence["rule"] == rule).sum()), "rounding_evidence(3)")
        numbers[f"appendix Table 3 cells consistent with {word} only"] = (int(evidence[f"only {rule}"].sum()),
                                                                          "rounding_evidence(3)")  # fmt: skip
    numbers["largest matching difference: printed"] = (largest["printed"], "largest_differences(1)")
    numbers["largest matching difference: reproduced"] = (float(largest["reproduced"]), "largest_differences(1)")
    return numbers


def _small_case_numbers() -> dict[str, tuple[object, str]]:
    cases = small_cases()
    return {
        "KTU example 1, d4 renamed d0": (float(cases.at["example 1, d4 renamed d0", "KTU"]), "small_cases()"),
        "KTU disjoint": (float(cases.at["disjoint", "KTU"]), "small_cases()"),
        "KTU disjoint, other names": (float(cases.at["disjoint, other names", "KTU"]), "small_cases()"),
    }


def misprint_numbers() -> dict[str, tuple[object, str]]:
    """Compute what the chapter says about the first misprinted cell of the appendix, each fact.

    The cell's run and column, its printed text, the reproduced value, that value in the column's
    print format (``reproduced as printed``), the mantissa digits of the cell and of the rest of its
    column, and how many other cells of its column and row match
    (:func:`~irrepro.papers.sigir2020.appendix.appendix_misprints`).

    Returns
    -------
    dict of str -> (object, str)
        ``misprint <fact>`` -> (value, source); empty when no cell is a misprint.
    """
    misprints = appendix_misprints()
    misprints = misprints[misprints["misprint"]]
    if misprints.empty:
        return {}
    first = misprints.iloc[0]
    facts = (
        "table",
        "run",
        "cell",
        "printed",
        "reproduced",
        "reproduced as printed",
        "printed mantissa digits",
        "column mantissa digits",
        "column cells",
        "column cells matching",
        "row cells",
        "row cells matching",
    )
    numbers = {f"misprint {fact}": (first[fact], "appendix_misprints()") for fact in facts}
    numbers["misprint reproduced"] = (float(first["reproduced"]), "appendix_misprints()")
    for fact in (
        "printed mantissa digits",
        "column mantissa digits",
        "column cells",
        "column cells matching",
        "row cells",
        "row cells matching",
    ):
        numbers[f"misprint {fact}"] = (int(first[fact]), "appendix_misprints()")
    return numbers


def chapter_numbers() -> pd.DataFrame:
    """Compute every number of the chapter's prose.

    Returns
    -------
    pandas.DataFrame
        Index ``number``, columns ``value`` and ``source``.
    """
    numbers = {
        **_data_numbers(),
        **_convention_numbers(),
        **_appendix_numbers(),
        **misprint_numbers(),
        **_small_case_numbers(),
    }
    table = pd.DataFrame([(name, value, source) for name, (value, source) in numbers.items()],
                         columns=["number", "value", "source"]).set_index("number")  # fmt: skip
    return table


def glue_names(numbers: pd.Series | Mapping[str, object]) -> dict[str, object]:
    """Key ``numbers`` by glue-safe names: lower case, runs of other characters as one dash.

    Parameters
    ----------
    numbers : pandas.Series or mapping of str -> object
        Name -> number.

    Returns
    -------
    dict of str -> object
        Glue name -> number.

    Raises
    ------
    ValueError
        If two names give one glue name.

    Examples
    --------
    >>> glue_names({"Core17 topics": 50, "misprint reproduced as printed": "5E-06"})
    {'core17-topics': 50, 'misprint-reproduced-as-printed': '5E-06'}
    """
    named: dict[str, object] = {}
    for name, value in numbers.items():
        slug = re.sub(r"[^a-z0-9]+", "-", str(name).lower()).strip("-")
        if slug in named:
            raise ValueError(f"glue_names: {name!r} and another number share the name {slug!r}")
        named[slug] = value
    return named
