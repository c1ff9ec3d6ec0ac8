"""The routing runs' classifiers, trained once per content: a memo of trainings.

Training the topics' classifiers (:func:`~irrepro.routing.classifier.train_topic_models`) is most of
a run's time on the stand-in, and it is a pure function of the training rows, the topics' examples
(rows and grades) and the classifier options: no randomness, nothing else read. A :class:`Trainer`
keys each training on a digest of those inputs (:func:`content_key`) and the options
(:attr:`~irrepro.routing.pipeline.RunSettings.classifier_key`), so runs whose features are equal in
content share one training, whatever settings made the features: a target that routes the same
topics, the ``paper`` implementation with a choice switched that the stand-in cannot see, a
constellation that changes only the ranking. It keeps the most recent trainings up to
``memo_bytes`` of coefficients.

Trainings run in this process. Worker processes were tried (loky, two workers) and dropped: on the
book's two shared cores they cost more CPU (rows sent out, libraries loaded again) than they saved
in wall time.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from irrepro.routing.classifier import TopicModels, train_tolerances
from irrepro.routing.pipeline import Features, RunSettings

__all__ = ["MEMO_BYTES", "Trainer", "content_key", "shared_trainer"]

#: coefficients the memo of a :class:`Trainer` keeps (about 36 stand-in trainings of 44 topics)
MEMO_BYTES = 256 * 2**20


def content_key(features: Features) -> bytes:
    """Digest what training reads in ``features``, memoised on the features.

    Parameters
    ----------
    features : Features
        Prepared features (:func:`~irrepro.routing.pipeline.prepare_features`).

    Returns
    -------
    bytes
        A BLAKE2b digest of the training rows (CSR arrays, dtypes and shape) and of each topic's name,
        example rows and grades, in order.
    """
    memo = features.__dict__.setdefault("_content_key", {})
    identity = (id(features.training), id(features.examples))
    if identity not in memo:
        digest = hashlib.blake2b(digest_size=20)
        matrix = features.training
        digest.update(repr((matrix.shape, matrix.data.dtype.str, matrix.indices.dtype.str)).encode())
        for array in (matrix.data, matrix.indices, matrix.indptr):
            digest.update(np.ascontiguousarray(array).view(np.uint8))
        for topic, (rows, grades) in features.examples.items():
            digest.update(repr((topic, len(rows))).encode())
            digest.update(np.ascontiguousarray(rows, dtype=np.int64).view(np.uint8))
            digest.update(np.ascontiguousarray(grades, dtype=np.int64).view(np.uint8))
        memo[identity] = digest.digest()
    return memo[identity]


class Trainer:
    """Trains the classifiers of feature sets, each content and option set once (module docstring).

    Parameters
    ----------
    memo_bytes : int, default MEMO_BYTES
        The coefficients the memo keeps; the oldest trainings are dropped beyond (the newest is
        always kept).
    """

    def __init__(self, *, memo_bytes: int = MEMO_BYTES):
        self.memo_bytes = memo_bytes
        self.trainings = 0  # trainings run (not handed out from the memo)
        self._memo: OrderedDict[tuple, TopicModels] = OrderedDict()

    def train(self, features: Features, settings: RunSettings) -> TopicModels:
        """Give the classifiers of ``features`` with ``settings``' classifier options.

        Trained unless the memo holds a training of equal content and options (then that one, the
        same object).

        Parameters
        ----------
        features : Features
            Prepared features.
        settings : RunSettings
            The run's settings (:attr:`~irrepro.routing.pipeline.RunSettings.classifier_key`).

        Returns
        -------
        TopicModels
            The classifiers (:func:`~irrepro.routing.classifier.train_topic_models`).
        """
        key = (content_key(features), settings.classifier_key)
        if key not in self._memo:
            self.train_all(features, [settings])
        self._memo.move_to_end(key)
        return self._memo[key]

    def train_all(self, features: Features, settings: Sequence[RunSettings]) -> None:
        """Train the classifiers of ``features`` for each of ``settings`` not in the memo, into the memo.

        Settings whose classifier options differ only in ``tol`` and ``tol_scale`` are trained in one
        call (:func:`~irrepro.routing.classifier.train_tolerances`): with lbfgs, each topic's fits share
        one trajectory, and each training is still, bit for bit, the one :meth:`train` makes alone.

        Parameters
        ----------
        features : Features
            Prepared features.
        settings : sequence of RunSettings
            The runs' settings.
        """
        content = content_key(features)
        groups: dict[tuple, dict[tuple, tuple[float, str]]] = {}  # shared options -> key -> (tol, tol_scale)
        for each in settings:
            options = each.classifier_options()
            key = (content, each.classifier_key)
            if key not in self._memo:
                tolerance = (options.pop("tol"), options.pop("tol_scale"))
                groups.setdefault(tuple(sorted(options.items())), {})[key] = tolerance
        for shared, trainings in groups.items():
            models = train_tolerances(features.training, features.examples, tolerances=list(trainings.values()),
                                      **dict(shared))  # fmt: skip
            self.trainings += len(trainings)
            self._memo.update(zip(trainings, models, strict=True))
        self._forget()

    def _forget(self) -> None:
        """Drop the oldest trainings while the memo holds more than ``memo_bytes`` of coefficients
        (the newest is always kept)."""
        total = sum(models.coef.nbytes for models in self._memo.values())
        while total > self.memo_bytes and len(self._memo) > 1:
            _, oldest = self._memo.popitem(last=False)
            total -= oldest.coef.nbytes


_SHARED: list[Trainer] = []


def shared_trainer() -> Trainer:
    """Give this process's shared :class:`Trainer`.

    The stand-in's run caches and :func:`irrepro.routing.standin.run` train with it, so a run made
    again (an exercise repeating a table's run) reuses the table's training.

    Returns
    -------
    Trainer
        The same object on every call.
    """
    if not _SHARED:
        _SHARED.append(Trainer())
    return _SHARED[0]
