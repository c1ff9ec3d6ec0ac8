"""How often a paper's conclusions hold when the topics are resampled: the protocol the paper modules follow.

A paper's conclusion rests on one sample of topics. Drawing the topics again with replacement (the
bootstrap, :mod:`irrepro.reproducibility.resampling`) and re-reading the conclusion on every
replicate says whether it is a property of the systems or of the sample: a conclusion that holds on
all topics but only in 70% of the replicates is *fragile*.

Each conclusion is a claim of :mod:`irrepro.papers.claims` (its id, section and quote come from
the paper's :class:`~irrepro.papers.claims.ClaimList`), re-read by a *resampled check*: a function
of the paper's measures on ``B`` replicates returning an :class:`Outcome`, whether the conclusion
holds in each replicate and the one number it turns on (a correlation, a count), whose percentile
interval is reported. The ``reading`` says how the check reads the paper's words, where it differs
from the claim's own check (a printed value is a fact of the print, not of the topics: a check of
"equals the printed 0.70" is replaced by the interval of the number).

A conclusion is **stable** when the replicates keep its verdict on all topics in at least
:data:`STABLE_SHARE` of the cases (it holds in >= 95% of them, or fails in >= 95%), **fragile**
when they keep it in fewer, and **borderline** when the share is too close to 95% to tell: within two
percentage points or twice its standard error of it, or on both sides of it for different seeds
(:func:`irrepro.reproducibility.resampling.stability`). The thresholds are ours: 95% is the usual level
of a percentile interval. The replicates of several seeds are pooled for the share and the interval,
and each seed's share is reported beside them.

A check whose statistic is biased under the bootstrap (Kendall's tau between per-run statistics) is
registered ``recentred=True``: its paper module hands it replicates moved by
:func:`~irrepro.reproducibility.resampling.recentred`, and the table says so in its ``interval`` column.

>>> from irrepro.papers.claims import ClaimList, Finding
>>> CLAIMS = ClaimList("toy")
>>> @CLAIMS.claim("positive", section="1", quote="The mean is positive.", data="toy data")
... def _positive():
...     return Finding(True, "mean 0.1")
>>> CHECKS = ResampledChecks(CLAIMS)
>>> @CHECKS.check("positive", label="positive mean", reading="mean > 0", statistic="mean")
... def _resampled(means):
...     return Outcome(means > 0, means)
>>> table = CHECKS.table(np.array([0.1]), np.r_[np.full(75, 0.2), np.full(25, -0.1)])
>>> float(table.at[0, "share holding"]), table.at[0, "status"]
(0.75, 'fragile')
>>> table = CHECKS.table(np.array([0.1]), np.full(99, 0.2), np.r_[np.full(92, 0.2), np.full(8, -0.1)])
>>> float(table.at[0, "share holding"].round(3)), table.at[0, "status"], int(table.at[0, "seeds"])  # 100%, 92%
(0.96, 'borderline', 2)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from irrepro.papers.claims import ClaimList
from irrepro.reproducibility.resampling import (
    BORDERLINE_MARGIN,
    STABILITY,
    STABLE_SHARE,
    percentile_interval,
    share_holding,
    stability,
)

__all__ = ["STABLE_SHARE", "BORDERLINE_MARGIN", "INTERVAL_LEVEL", "INTERVALS", "STATUSES", "COLUMNS", "Outcome", "ResampledChecks", "status"]

#: The level of the percentile intervals of the statistics.
INTERVAL_LEVEL = 0.95
STATUSES: tuple[str, ...] = STABILITY  # STABLE_SHARE and the statuses: irrepro.reproducibility.resampling, shared with irrepro report
COLUMNS: tuple[str, ...] = (
    "id", "section", "label", "claim", "reading", "holds on all topics", "share holding", "verdict kept", "status",
    "statistic", "on all topics", "low", "high", "interval", "resamples", "seeds", "kept lowest seed",
    "kept highest seed",
)  # fmt: skip
#: How the interval of a check's statistic is made (the ``interval`` column).
INTERVALS: dict[bool, str] = {False: "percentile", True: "percentile, recentred"}


@dataclass(frozen=True)
class Outcome:
    """A conclusion re-read on ``B`` replicates.

    Parameters
    ----------
    holds : numpy.ndarray
        ``(B,)`` bools: whether it holds in each replicate.
    statistic : numpy.ndarray
        ``(B,)`` the number it turns on.
    """

    holds: np.ndarray
    statistic: np.ndarray

    def __post_init__(self):
        holds, statistic = np.asarray(self.holds), np.asarray(self.statistic, dtype=float)
        if holds.ndim != 1 or holds.shape != statistic.shape:
            raise ValueError(f"holds {holds.shape} and statistic {statistic.shape} must be one value per replicate")
        object.__setattr__(self, "holds", holds.astype(bool))
        object.__setattr__(self, "statistic", statistic)


@dataclass(frozen=True)
class _Check:
    id: str
    label: str
    reading: str
    statistic: str
    function: Callable[..., Outcome]
    recentred: bool = False


def status(holds_on_all_topics: bool, share: float, *, seed_shares=(), resamples: int | None = None) -> str:
    """Call a verdict stable, borderline or fragile under resampling.

    Parameters
    ----------
    holds_on_all_topics : bool
        The verdict on all topics.
    share : float
        The share of replicates in which the conclusion holds (all seeds pooled).
    seed_shares : sequence of float, optional
        The share in which it holds for each seed on its own.
    resamples : int, optional
        The number of replicates behind ``share``.

    Returns
    -------
    str
        :func:`~irrepro.reproducibility.resampling.stability` of the share keeping the verdict on all topics.

    Examples
    --------
    >>> status(True, 0.97), status(True, 0.6), status(False, 0.02), status(False, 0.04)
    ('stable', 'fragile', 'stable', 'borderline')
    """
    def kept(x):
        return x if holds_on_all_topics else 1.0 - x

    return stability(kept(share), seed_shares=[kept(x) for x in seed_shares], resamples=resamples)


class ResampledChecks:
    """The resampled checks of one paper's claims, in the order they are registered.

    Parameters
    ----------
    claims : ClaimList
        The paper's claims; each check re-reads one of them.
    """

    def __init__(self, claims: ClaimList):
        self.claims = claims
        self._checks: list[_Check] = []

    def check(self, name: str, *, label: str, reading: str, statistic: str, recentred: bool = False) -> Callable:
        """Register ``function(measures) -> Outcome`` for claim ``<paper>.<name>`` (a decorator factory).

        Parameters
        ----------
        name : str
            The claim's name within the paper.
        label : str
            The conclusion in a few words, for a figure.
        reading : str
            What the check tests.
        statistic : str
            The number it turns on.
        recentred : bool, default False
            Whether the replicates the paper module hands the check are recentred (its statistic is
            biased under the bootstrap; :func:`~irrepro.reproducibility.resampling.recentred`).

        Returns
        -------
        callable
            The decorator; it returns the function unchanged.

        Raises
        ------
        ValueError
            When decorating, if there is no such claim or it has a check already.
        """
        claim_id = f"{self.claims.paper}.{name}"
        if claim_id not in self.claims.ids():
            raise ValueError(f"no claim {claim_id} to re-read; known: {', '.join(self.claims.ids())}")
        if claim_id in self.ids():
            raise ValueError(f"claim {claim_id} has a resampled check already")

        def register(function: Callable[..., Outcome]) -> Callable[..., Outcome]:
            self._checks.append(_Check(claim_id, label, reading, statistic, function, recentred))
            return function

        return register

    def ids(self) -> list[str]:
        """Give the checked claims' ids, in registration order.

        Returns
        -------
        list of str
            ``<paper>.<name>`` of each check.
        """
        return [check.id for check in self._checks]

    def outcomes(self, measures) -> dict[str, Outcome]:
        """Run every check on ``measures``, by claim id.

        Parameters
        ----------
        measures : object
            Whatever the paper's checks take (the paper's measures on one or many replicates).

        Returns
        -------
        dict of str -> Outcome
            Claim id -> outcome.
        """
        return {check.id: check.function(measures) for check in self._checks}

    def table(self, on_all_topics, *replicates, level: float = INTERVAL_LEVEL) -> pd.DataFrame:
        """Tabulate every conclusion on all topics and under resampling.

        One row per conclusion (:data:`COLUMNS`): its verdict on all topics, the share of the
        replicates in which it holds, the share keeping the verdict, its status, its statistic on all
        topics with the percentile interval over the replicates, and the share keeping the verdict
        for the seeds with the lowest and the highest.

        Parameters
        ----------
        on_all_topics : object
            The measures of the identity resample (one replicate), as the checks take them.
        *replicates : object
            The measures on the replicates, one object per seed (pooled for the share and the interval).
        level : float, default INTERVAL_LEVEL
            The percentile interval's level.

        Returns
        -------
        pandas.DataFrame
            Columns :data:`COLUMNS`.

        Raises
        ------
        ValueError
            If ``on_all_topics`` is not one replicate, or no replicates are given.
        """
        if not replicates:
            raise ValueError("no replicates to tabulate: give the measures of at least one seed")
        point = self.outcomes(on_all_topics)
        by_seed = [self.outcomes(r) for r in replicates]
        entries = {entry.id: entry for entry in self.claims}
        rows = []
        for check in self._checks:
            if point[check.id].holds.size != 1:
                raise ValueError(f"{check.id}: the measures on all topics must be one replicate")
            holds = bool(point[check.id].holds[0])
            pooled_holds = np.concatenate([outcomes[check.id].holds for outcomes in by_seed])
            pooled_statistic = np.concatenate([outcomes[check.id].statistic for outcomes in by_seed])
            share = share_holding(pooled_holds)
            seed_shares = [share_holding(outcomes[check.id].holds) for outcomes in by_seed]
            kept = [x if holds else 1.0 - x for x in seed_shares]
            low, high = percentile_interval(pooled_statistic, level)
            rows.append({
                "id": check.id, "section": entries[check.id].section, "label": check.label,
                "claim": entries[check.id].quote,
                "reading": check.reading, "holds on all topics": holds, "share holding": share,
                "verdict kept": share if holds else 1.0 - share,
                "status": status(holds, share, seed_shares=seed_shares if len(by_seed) > 1 else (),
                                 resamples=pooled_holds.size),
                "statistic": check.statistic, "on all topics": float(point[check.id].statistic[0]),
                "low": low, "high": high, "interval": INTERVALS[check.recentred], "resamples": pooled_holds.size,
                "seeds": len(by_seed), "kept lowest seed": min(kept), "kept highest seed": max(kept),
            })  # fmt: skip
        return pd.DataFrame(rows, columns=list(COLUMNS))
