"""Routing runs (Breuer & Schaer, CENTRE@CLEF 2019): per-topic classifiers trained on judged documents.

Modules, in pipeline order:

- :mod:`~irrepro.routing.implementations` - the three parameter sets selected by one option:
  ``"paper"`` (the CLEF paper's text, the default), ``"clef2019"`` and ``"sigir2020"`` (the authors'
  code), each choice with its source, and :func:`~irrepro.routing.implementations.divergences`;
- :mod:`~irrepro.routing.corpora` - streaming readers (TREC SGML, NYT, WaPo, Reuters-21578), each
  with irrepro's text (``text="anserini"``) or the authors' code's (``text="authors"``);
- :mod:`~irrepro.routing.preprocess` - term rules: tokens (``[a-z0-9-]`` or the code's ``\\w+``), NLTK
  stop words, Porter stems (``preprocess=False`` throughout the pipeline: plain lowercase tokens, the
  paper's runs without preprocessing);
- :mod:`~irrepro.routing.features` - streaming tf-idf, sublinear or raw tf (equal to scikit-learn's);
- :mod:`~irrepro.routing.classifier` - one logistic regression per topic (lbfgs or liblinear), stacked;
- :mod:`~irrepro.routing.ranking` - top-k per topic by partial sort over chunks;
- :mod:`~irrepro.routing.pipeline` - :func:`~irrepro.routing.pipeline.route` / :func:`~irrepro.routing.pipeline.run_system` (WCrobust04, WCrobust0405),
  in two steps a grid can share: ``prepare_features`` and ``rank_features``;
- :mod:`~irrepro.routing.experiment` - run requests, runs made with shared features here or on a Dask
  cluster (``local_cluster``), the run cache the chapter's tables read;
- :mod:`~irrepro.routing.grid` - ``irrepro routing grid``: a constellation grid, resumable (``grid.json``);
- :mod:`~irrepro.routing.headers` - the ir_metadata header (PRIMAD) every run file begins with, read
  from what made the run;
- :mod:`~irrepro.routing.topics` - routable topics from qrels;
- :mod:`~irrepro.routing.constellations` - the parameter presets of the SIGIR 2020 dataset;
- :mod:`~irrepro.routing.standin` - the open Reuters-21578 stand-in for the four licensed corpora
  (``equal_targets=True``: both targets cut to the same number of stories);
- :mod:`~irrepro.routing.config` - the user's own corpora (``routing-corpora.example.toml``);
  :func:`~irrepro.routing.config.configured_collections` resolves ``--config`` /
  ``$IRREPRO_ROUTING_CONFIG`` / ``./routing-corpora.toml`` for the command and the chapter alike.

On the stand-in::

    from irrepro.routing import standin
    from irrepro.routing.constellations import by_name
    from irrepro.evaluation import evaluate

    stand_in = standin.load()                       # cached; stand_in.summary(), stand_in.topics
    result = stand_in.run("wcrobust04", "reuters-near", constellation=by_name("tf_1"), augment=False)
    plain = stand_in.run("wcrobust04", "reuters-near", preprocess=False)   # no stop words removed, no stems
    scores = evaluate({"wcr04": result.run}, stand_in.collections["reuters-near"].qrels)

    # the authors' 2019 code instead of the paper's text (the stand-in read with its text rule)
    clef = standin.run("wcrobust04", "reuters-near", implementation="clef2019")
    # one divergence alone, on top of the paper's implementation
    from irrepro.routing.implementations import divergences, switched
    sublinear = standin.run("wcrobust04", "reuters-near", implementation=switched("sublinear_tf"))
"""
