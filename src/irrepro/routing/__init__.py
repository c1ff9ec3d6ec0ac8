"""Routing runs (Breuer & Schaer, CENTRE@CLEF 2019): per-topic classifiers trained on judged documents.

Modules, in pipeline order:

- :mod:`~irrepro.routing.corpora` - streaming readers (TREC SGML, NYT, WaPo, Reuters-21578);
- :mod:`~irrepro.routing.preprocess` - tokens, NLTK stop words, Porter stems (``preprocess=False``
  throughout the pipeline: plain lowercase tokens, the paper's runs without preprocessing);
- :mod:`~irrepro.routing.features` - streaming sublinear tf-idf (equal to scikit-learn's);
- :mod:`~irrepro.routing.classifier` - one logistic regression per topic, stacked;
- :mod:`~irrepro.routing.ranking` - top-k per topic by partial sort over chunks;
- :mod:`~irrepro.routing.pipeline` - :func:`route` / :func:`run_system` (WCrobust04, WCrobust0405);
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
"""
