"""The report's prose: a methods paragraph to paste into a paper, and the notes on the inputs.

Both are built from the options and the analysis only, so they state exactly what was computed.
"""

from __future__ import annotations

from collections.abc import Mapping

from irrepro.evaluation import parse_measure
from irrepro.report.analysis import ReportData, RunSummary
from irrepro.reproducibility.resampling import BORDERLINE_MARGIN, STABLE_SHARE

__all__ = ["RBO_FORMS", "ROLE_NAMES", "describe_measure", "experiment_sentence", "input_notes", "methods_paragraph"]

RBO_FORMS = {
    "ext": "extrapolated RBO (Webber et al. 2010, Eq. 32)",
    "min": "the lower bound RBO_min (Webber et al. 2010, Eq. 11)",
    "trunc": "the normalised truncated sum (as repro_eval computes it)",
    "sigir2020": "extrapolated RBO on the top k\u22121 documents (the convention of the SIGIR 2020 published files)",
}
ROLE_NAMES = {
    "orig_baseline": "original baseline (b)",
    "orig_advanced": "original advanced (a)",
    "new_baseline": "new baseline (b\u2032)",
    "new_advanced": "new advanced (a\u2032)",
}


def describe_measure(name: str) -> str:
    """Name a measure as a methods section names it, with trec_eval's measure and its cut-off.

    Parameters
    ----------
    name : str
        The measure's name, as :func:`irrepro.measures.parse_measure` reads it.

    Returns
    -------
    str
        The description.
    """
    measure = parse_measure(name)
    level = f", grades >= {measure.relevance_level} relevant (trec_eval -l {measure.relevance_level})" if measure.relevance_level != 1 else ""
    if measure.family == "ndcg":
        return f"{name} (trec_eval's ndcg: the whole ranking, no cut-off)"
    return f"{name} (trec_eval's {measure.trec_eval}{level})"


def _policy(missing_topics: str) -> str:
    return "scored 0 (as trec_eval -c)" if missing_topics == "zero" else "left out for that run (trec_eval's default)"


def methods_paragraph(data: ReportData, versions: Mapping[str, str]) -> str:
    """Write one paragraph: setting, measures and conventions, intervals and versions.

    Parameters
    ----------
    data : ReportData
        The report's numbers and options.
    versions : mapping of str -> str
        Package -> version.

    Returns
    -------
    str
        The paragraph.
    """
    o = data.options
    replicability = data.setting == "replicability"
    n = len(data.pairs)
    sentences = [
        f"We measured the {data.setting} of {n} reproduced pair{'s' if n != 1 else ''} of runs (baseline b, advanced a) "
        "with the measures of Breuer et al. (SIGIR 2020)"
        + (", the new runs evaluated on the original collection." if replicability else ", the new runs evaluated on a new collection with its own relevance judgments."),
        (f"Effectiveness ({', '.join(describe_measure(m) for m in o.measures)}) was computed by trec_eval's code through "
         f"pytrec_eval (pytrec-eval-terrier {versions.get('pytrec-eval-terrier', 'unknown')}) on the complete runs, documents "
         "with equal scores ordered by document id as trec_eval orders them; judged topics missing from a run were "
         f"{_policy(o.missing_topics)} and topics without a relevant document were "
         f"{'scored 0 (as trec_eval does)' if o.no_relevant == 'keep' else 'left out'}."),
    ]
    if replicability:
        sentences.append(
            f"Ranked lists were compared on each topic's top {o.cutoff} documents with Kendall's \u03c4 Union (KTU: "
            "\u03c4 between the positions of both lists' documents in their union ordered by document id, as in the "
            f"authors' implementation) and with {RBO_FORMS[o.rbo_variant]} with persistence p = {o.rbo_p:g}, both averaged "
            "over topics; per-topic scores with the root mean square error (RMSE) and, beside it, the normalised RMSE "
            "(nRMSE: RMSE divided by the largest RMSE any run could have against the original, from max(x, 1 \u2212 x) "
            "per topic score x, as repro_eval computes it after Maistro et al., IP&M 2023; not a measure of the SIGIR 2020 "
            "paper, so it has no verdict or interval)."
        )
    test = "paired" if replicability else "unpaired (Student's, equal variances)"
    sentences.append(
        f"Mean scores (ARP) of original and new runs were compared with a two-tailed {test} t-test; the effect of a over b "
        "with the Effect Ratio (ER) and the difference of relative improvements (\u0394RI)."
    )
    resampling = ("one sample of topics drawn for all four runs" if replicability
                  else "the topics of each collection resampled independently")  # fmt: skip
    sentences.append(experiment_sentence(data))
    sentences.append(
        f"Confidence intervals are {100 * o.level:g}% percentile bootstrap intervals over topics ({o.n_resamples} resamples, "
        f"seed {o.seed}; {resampling}; the same resamples for every pair, measure and statistic); p < {o.alpha:g} counts as "
        "a significant difference. Each verdict was re-read on every resample and is called stable when it holds in at least "
        f"{STABLE_SHARE:.0%} of them and no interval crosses its threshold, borderline when no interval crosses but the share "
        f"lies within {BORDERLINE_MARGIN * 100:.0f} percentage points (or two standard errors) of {STABLE_SHARE:.0%}, "
        "fragile otherwise. "
        f"Computed with irrepro {versions.get('irrepro', 'unknown')}."
    )
    return " ".join(sentences)


def _pairs_text(names: list[str], total: int) -> str:
    if total == 1:
        return "The pair"
    shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
    counted = f"All {total} pairs" if len(names) == total else f"{len(names)} pair{'s' if len(names) > 1 else ''}"
    return f"{counted} ({shown})"


def experiment_sentence(data: ReportData) -> str:
    """Say how the setting was decided.

    By the runs' ir_metadata headers (the PRIMAD string of each new run against its original,
    compared as repro_eval compares them, and the kind of experiment it makes) or, without complete
    headers, by whether new qrels were given.

    Parameters
    ----------
    data : ReportData
        The report's numbers, with the pairs' experiments.

    Returns
    -------
    str
        The sentence.
    """
    setting = ("replicability (the new runs judged by the original qrels)" if data.setting == "replicability"
               else "reproducibility (the new runs judged by their own collection's qrels)")  # fmt: skip
    if not data.experiments:
        return f"The setting is {setting}."
    groups: dict[str, list[str]] = {}
    for name, experiment in data.experiments.items():
        groups.setdefault(experiment.summary(), []).append(name)
    if all(experiment.primad is None for experiment in data.experiments.values()):
        reasons = "; ".join(summary.removeprefix("no PRIMAD string: ") for summary in groups)
        return (f"The kind of study was not read from ir_metadata headers ({reasons}); whether new qrels were given "
                f"decided the setting: {setting}.")
    said = "; ".join(f"{_pairs_text(names, len(data.experiments))}: {summary}" for summary, names in groups.items())
    return ("The kind of study was read from the runs' ir_metadata headers (Breuer, Keller & Schaer, SIGIR 2022), each "
            f"new run compared with its original component by component as repro_eval compares them. {said}. "
            f"New runs on the original test collection are measured for replicability, on another for reproducibility: "
            f"the setting is {setting}.")


def _depth_text(summary: RunSummary) -> str:
    if summary.min_depth == summary.max_depth:
        return str(summary.max_depth)
    return f"{summary.min_depth}\u2013{summary.max_depth}"


def input_notes(data: ReportData) -> list[str]:
    """Note the inputs' features that shape the numbers: ties and unequal depths.

    ``compare_runs`` notes missing topics and topics without relevant documents itself.

    Parameters
    ----------
    data : ReportData
        The report's numbers, with the runs' shapes.

    Returns
    -------
    list of str
        One note per feature found.
    """
    notes = []
    label = {key: f"{key[0]}: {ROLE_NAMES[key[1]]}" if key[0] else ROLE_NAMES[key[1]] for key in data.runs}
    tied = [f"{label[key]} {s.tied_documents} documents in {s.tied_topics} of {s.n_topics} topics" for key, s in data.runs.items() if s.tied_documents]
    if tied:
        notes.append(
            f"Tied scores among the top {data.options.cutoff} documents (documents sharing a score): {'; '.join(tied)}. "
            "trec_eval orders a tie by document id (descending), and so does every measure here: within a tie the order "
            "follows the ids, not the system, and measures that read the order (KTU, RBO, P@k) inherit it."
        )
    depths = {summary_key: _depth_text(s) for summary_key, s in data.runs.items()}
    if len(set(depths.values())) > 1:
        listed = ", ".join(f"{label[key]} {depth}" for key, depth in depths.items())
        notes.append(
            f"The runs retrieve different numbers of documents per topic ({listed}); effectiveness uses the whole runs"
            + (f", KTU and RBO the top min(n, n\u2032) documents of each topic up to {data.options.cutoff}." if data.setting == "replicability" else ".")
        )
    return notes
