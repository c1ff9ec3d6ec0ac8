"""The three papers, one module each: every table, figure and claim of a paper as a function.

- :mod:`irrepro.papers.sigir2020`: Breuer et al., SIGIR 2020 (from the authors' per-topic scores);
- :mod:`irrepro.papers.clef2019`: Breuer & Schaer, CENTRE@CLEF 2019 (routing runs);
- :mod:`irrepro.papers.glm`: Faggioli, Ferro & Fuhr (GLMs on TREC score matrices).

Shared by the three: :mod:`~irrepro.papers.datasets` (the published data sets they read),
:mod:`~irrepro.papers.claims` (a claim of a paper, checked) and :mod:`~irrepro.papers.fidelity`
(how closely each table and figure is reproduced). :data:`PAPERS` names the papers by the key the
claims and fidelity tables use.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Paper", "PAPERS"]


@dataclass(frozen=True)
class Paper:
    """A paper: its key (= its module's name), citation, and the text copies its claims are quoted from.

    Parameters
    ----------
    key : str
        The key, the name of its module under :mod:`irrepro.papers`.
    short : str
        As tables name it: first author, venue and year.
    citation : str
        The full citation.
    texts : tuple of str
        File names of the text copies (the project keeps them outside the repository).
    """

    key: str
    short: str  # as tables name it: first author, venue and year
    citation: str
    texts: tuple[str, ...]  # file names of the text copies (the project keeps them outside the repository)


PAPERS: dict[str, Paper] = {
    paper.key: paper
    for paper in (
        Paper(
            "sigir2020",
            "Breuer et al., SIGIR 2020",
            "Breuer, Ferro, Fuhr, Maistro, Sakai, Schaer, Soboroff. How to Measure the Reproducibility of "
            "System-oriented IR Experiments. SIGIR 2020",
            (
                "breuer2020_measure_reproducibility.txt",
                "breuer2020_appendix_tables_1_2.txt",
                "breuer2020_appendix_table3.txt",
            ),
        ),
        Paper(
            "clef2019",
            "Breuer & Schaer, CLEF 2019",
            "Breuer & Schaer. Replicability and Reproducibility of Automatic Routing Runs. CENTRE@CLEF 2019",
            ("breuer2019_routing_runs.txt",),
        ),
        Paper(
            "glm",
            "Faggioli, Ferro & Fuhr (GLMs)",
            "Faggioli, Ferro & Fuhr. IR Systems Evaluation via Generalized Linear Models",
            ("faggioli_glm_evaluation.txt",),
        ),
    )
}
