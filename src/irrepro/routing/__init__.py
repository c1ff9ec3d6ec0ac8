"""Routing runs (Breuer & Schaer, CENTRE@CLEF 2019): per-topic classifiers trained on judged documents."""
