"""How closely the chapter reproduces the GLM paper: its fidelity rows (:mod:`irrepro.papers.fidelity`).

The paper's text (the public extended abstract, "IR Systems Evaluation via Generalized Linear Models")
prints no number of its results but one: its Table 1's deviances are not in the project's text copy,
the iteration counts are "not reported here", and the consistency counts are in the full CIKM 2022
paper. The one number, the eight outlier runs of Core 18, is compared
(:mod:`~irrepro.papers.glm.printed_values`); everything else is computed, on Robust04 (the paper's own
runs) and on substitutes, and not compared. The paper's statements about its results are checked by
the claims (:mod:`irrepro.papers.glm.claim_checks`). Cheap: reads score matrices and NIST's
summaries, fits nothing.
"""

from __future__ import annotations

from irrepro.glm.links import LINK_NAMES
from irrepro.glm.outliers import NEAR_ZERO_MAP, near_zero_systems
from irrepro.papers.fidelity import FidelityRow
from irrepro.papers.glm.data_groups import NIST_CORE18, ROBUST04, SUBSTITUTES
from irrepro.papers.glm.printed_values import text_values_comparison
from irrepro.papers.glm.scores import official_summary, outlier_systems, settings

__all__ = ["NO_PRINTED_NUMBERS", "fidelity", "table1_columns"]

#: Why no printed value is compared for the paper's Table 1.
NO_PRINTED_NUMBERS = (
    "the paper's text prints no values for it (its Table 1 is not in the project's text copy); only its statements "
    "about the results can be checked, see the claims"
)
_TABLE1_PDF = "transcribe Table 1's deviances from the paper's PDF (the project's text copy lacks the table)"


def table1_columns(collection: str) -> str:
    """Count and name the columns of the chapter's Table 1 for ``collection``: ``"2 (AP, P@10)"``.

    Parameters
    ----------
    collection : str
        The collection.

    Returns
    -------
    str
        The count and the measures.
    """
    columns = [
        f"{measure}{' w/o outliers' if removed else ''}" for name, measure, removed in settings() if name == collection
    ]
    return f"{len(columns)} ({', '.join(columns)})"


def _table1_rows() -> list[FidelityRow]:
    links = len(LINK_NAMES)
    return [
        FidelityRow(
            "glm", "Table 1", f"deviance of the GLMs of {links} links, Robust04 columns", ROBUST04.label,
            papers_data=True, why_not=NO_PRINTED_NUMBERS, needs=f"{_TABLE1_PDF}; each is then compared",
            reach="published, not transcribed", chapter="glm",
            note=f"the paper's collection and submitted runs; {links} links x {table1_columns('Robust04')} columns "
            "(the paper's further measures, if any, have no public per-topic scores here); verdicts on these columns "
            "speak for the paper",
        ),
        FidelityRow(
            "glm", "Table 1, Core 18 columns",
            f"deviance of the GLMs of {links} links, Core 18 with and without outliers", SUBSTITUTES.label,
            papers_data=False, why_not=NO_PRINTED_NUMBERS, chapter="glm",
            needs=f"the per-topic scores of the 72 runs submitted to TREC 2018 Core (NIST gives the runs to TREC "
            f"participants only), and {_TABLE1_PDF.removeprefix('transcribe ')} transcribed",
            reach="licensed",
            note=f"the per-topic scores of the Core 2018 submissions are not public: {links} links x "
            f"{table1_columns('Core18')} columns of substitutes (variants of two systems), so their deviances are "
            f"not the paper's; Core17 ({table1_columns('Core17')} columns) is an addition of this book",
        ),
    ]  # fmt: skip


def _outliers_row() -> FidelityRow:
    comparison = text_values_comparison()
    official = near_zero_systems(official_summary("Core18")["map"])
    return FidelityRow(
        "glm", "Section 3 (text): Core 18 without its eight outlier runs",
        "the second version of Core 18, without eight runs with extremely low MAP",
        f"{NIST_CORE18.label}; {SUBSTITUTES.label}", papers_data=True, kind="text", cells=len(comparison),
        matched=int(comparison["match"].sum()), complete=True, tolerance=comparison["tolerance"].iat[0],
        needs="the runs the paper removed, which it does not name", reach="not published", chapter="glm",
        note=f"compared: the count of runs below the widest gap in NIST's MAP; the book's rule MAP < {NEAR_ZERO_MAP:g} "
        f"selects {len(official)} runs in NIST's Core18 summary ({', '.join(sorted(official))}) and "
        f"{len(outlier_systems('Core18'))} in the substitute Core18 matrices, whose deviances are fitted without them",
    )  # fmt: skip


def _statement_rows() -> list[FidelityRow]:
    both = f"{ROBUST04.label}; {SUBSTITUTES.label}"
    return [
        FidelityRow(
            "glm", "Section 3 (text): exp needs more iterations", "IRLS iterations per link", both,
            papers_data=True, kind="text", chapter="glm",
            why_not="the paper does not report its counts ('not reported here due to space constraints')",
            needs="the paper's iteration counts, which it does not report", reach="not published",
            note="counts depend on the fitter's start and stopping rule; ours follow statsmodels' IRLS",
        ),
        FidelityRow(
            "glm", "Section 2 (text): near-zero systems under log-type links",
            "standard errors of the system effects of low-scoring systems under log and logit", both,
            papers_data=True, kind="text", chapter="glm", why_not="the paper states it without numbers",
            needs="numbers the paper does not print; its statement is checked in the claims", reach="not published",
        ),
        FidelityRow(
            "glm", "Section 4 (text): consistent ssd pairs",
            "log and logit detect more consistent significantly different system pairs than identity", both,
            papers_data=True, kind="text", chapter="glm",
            why_not="the extended abstract prints no numbers for it (they are in the full CIKM 2022 paper)",
            needs="transcribe the counts from the full paper (Faggioli, Ferro & Fuhr, CIKM 2022) and its protocol "
            "(number of splits, test)", reach="published, not transcribed",
            note="split-half consistency as this book defines it (irrepro.glm.consistency); the paper's protocol "
            "(number of splits, test) is not in the extended abstract",
        ),
    ]  # fmt: skip


def fidelity() -> list[FidelityRow]:
    """List the paper's one table (it has no figure) and the results its text states, as the chapter reproduces them.

    Returns
    -------
    list of FidelityRow
        The rows.
    """
    iterations, near_zero, ssd = _statement_rows()
    return [*_table1_rows(), iterations, _outliers_row(), near_zero, ssd]
