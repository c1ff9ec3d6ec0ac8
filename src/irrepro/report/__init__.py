"""``irrepro report``: a self-contained reproducibility report for the user's own runs.

Data flows one way, as in the rest of the package:

- :mod:`irrepro.report.analysis` computes the numbers: :func:`irrepro.reproducibility.compare.compare_runs`
  for each reproduced pair (the numbers ``irrepro compare`` prints), bootstrap intervals, the
  paper's cut-off curves, per-topic diagnostics, ties and topic coverage;
- :mod:`irrepro.report.verdicts` turns numbers and intervals into a verdict and a one-line reading
  per level (ranked lists, per-topic scores, averages, effects);
- :mod:`irrepro.report.build` turns the analysis into a template context (tables, figures as inline
  SVG, the methods paragraph), formatting and nothing else;
- :mod:`irrepro.report.render` renders the Jinja2 templates in ``templates/`` to one HTML file and
  to LaTeX (booktabs) tables;
- :mod:`irrepro.report.inputs` reads the pairs CSV and hashes the input files (the I/O edge).
"""
