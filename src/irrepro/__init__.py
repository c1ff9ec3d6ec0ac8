"""irrepro: reproducibility in IR evaluation, as an executable compendium.

Layers, from files to pages (each imports only the ones below it):

- ``irrepro.data``, ``irrepro.runs``: public data by URL and sha256; TREC runs and qrels in and out.
- ``irrepro.evaluation``: per-topic effectiveness with trec_eval's semantics.
- ``irrepro.reproducibility``, ``irrepro.routing``, ``irrepro.glm``: the methods of the three papers.
- ``irrepro.papers``: one function per table or figure of a paper, shared by the book and the CLI.
- ``irrepro.plots``, ``irrepro.cli``: figures and the ``irrepro`` command.
"""

__version__ = "0.2.0"
