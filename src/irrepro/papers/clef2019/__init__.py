"""Breuer & Schaer, CENTRE@CLEF 2019 (routing runs): the parts of the chapter that need no stand-in run
grid, by concept.

- :mod:`~irrepro.papers.clef2019.published_runs` - the 2020 re-implementation's and the original TREC
  runs' published per-topic scores on the real collections (Tables 4-5, Figures 3-4 analogues);
- :mod:`~irrepro.papers.clef2019.implementation_effects` - what the authors' code did that the paper
  does not say, each choice measured on the stand-in, and the three implementations compared;
- :mod:`~irrepro.papers.clef2019.claim_checks` - the paper's claims with verdicts;
- :mod:`~irrepro.papers.clef2019.fidelity_rows` - one fidelity row per table and figure;
- :mod:`~irrepro.papers.clef2019.files` - the CSV files ``irrepro reproduce routing`` writes from them.
"""
