"""Score-based reproducibility measures of Breuer et al., SIGIR 2020.

"How to Measure the Reproducibility of System-oriented IR Experiments"
(Breuer, Ferro, Fuhr, Maistro, Sakai, Schaer, Soboroff; SIGIR 2020), Section 3:

- ARP, the average retrieval performance: ``mean_j M_j(r)`` over topics ``j``.
- RMSE (Eq. 3): ``sqrt(1/n * sum_j (M_j(r) - M_j(r'))^2)`` over the topics both runs have.
- nRMSE, an extra not in the SIGIR 2020 paper: RMSE divided by the largest RMSE any run could
  have against the original, as repro_eval computes it (Maistro et al., IP&M 2023).
- ER, the Effect Ratio (Eq. 5, replicability; Eq. 7, reproducibility):
  ``ER = mean_j(M_j(a') - M_j(b')) / mean_j(M_j(a) - M_j(b))``; in the reproducibility
  setting numerator and denominator are means over their own (different) topic sets.
- DeltaRI (Eq. 6): ``RI - RI'`` with ``RI = (mean(M(a)) - mean(M(b))) / mean(M(b))``.
- p-values: two-tailed paired t-test (replicability, same topics) and two-tailed unpaired
  t-test (reproducibility; Student by default, Welch as an option); Wilcoxon signed-rank as an
  extra for the paired case.

Terms are the paper's: *replicability* = same collection, *reproducibility* = different
collection (the peer library repro_eval uses the opposite names).

Inputs are per-topic scores. An *original* is a :class:`pandas.Series` indexed by topic. A
*new* argument is either a Series (one run; the result is a float) or a DataFrame with topics
as rows and one run per column (the result is a Series indexed by run). Rows are aligned on the
topic index; a NaN marks a topic that run does not have. All functions are vectorised over the
columns.

Undefined cases are explicit: a single call raises :class:`ValueError` saying why (no common
topics, fewer than two topics, zero original improvement for ER, zero baseline mean for
DeltaRI, scores outside [0, 1] for nRMSE); a batch returns NaN for that run and emits ONE :class:`UndefinedMeasureWarning`
naming the runs.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
import pandas as pd

from irrepro.reproducibility.student_t import two_sided_p_array
from irrepro.validation import Boolean, Scores, validate_params

__all__ = [
    "UndefinedMeasureWarning",
    "arp",
    "rmse",
    "nrmse",
    "effect_ratio",
    "delta_relative_improvement",
    "relative_improvement",
    "paired_ttest",
    "unpaired_ttest",
    "wilcoxon_test",
    "as_topic_series",
    "common_topics",
]

MIN_TOPICS = 2
# What each argument may be (checked by validate_params before a function body runs).
ORIGINAL = Scores()
NEW = Scores(frame=True)


class UndefinedMeasureWarning(RuntimeWarning):
    """A measure is undefined for some runs of a batch; their value is NaN."""


# --------------------------------------------------------------------------- helpers


def as_topic_series(scores: pd.Series | pd.DataFrame, what: str) -> pd.Series:
    """Give ``scores`` of one run as a float Series indexed by topic.

    Parameters
    ----------
    scores : pandas.Series or pandas.DataFrame
        Per-topic scores of one run; a one-column frame is accepted.
    what : str
        What the error message calls ``scores``.

    Returns
    -------
    pandas.Series
        The scores as float64.

    Raises
    ------
    ValueError
        Naming ``what``: for anything but a Series or a one-column frame, or for duplicate topics.
    """
    if isinstance(scores, pd.DataFrame):
        if scores.shape[1] != 1:
            raise ValueError(f"{what} must be a Series (one run), got a DataFrame with {scores.shape[1]} columns")
        scores = scores.iloc[:, 0]
    if not isinstance(scores, pd.Series):
        raise ValueError(f"{what} must be a pandas Series indexed by topic, got {type(scores).__name__}")
    if scores.index.has_duplicates:
        raise ValueError(f"{what} has duplicate topics: {sorted(scores.index[scores.index.duplicated()].unique())[:5]}")
    return scores.astype(float)


def _as_frame(scores: pd.Series | pd.DataFrame, what: str) -> tuple[pd.DataFrame, bool]:
    """Return ``(topics x runs frame, single)`` where ``single`` says a Series was given."""
    if isinstance(scores, pd.Series):
        name = scores.name if scores.name is not None else "run"
        frame, single = scores.to_frame(name=name), True
    elif isinstance(scores, pd.DataFrame):
        frame, single = scores, False
    else:
        raise ValueError(f"{what} must be a pandas Series or DataFrame indexed by topic, got {type(scores).__name__}")
    if frame.index.has_duplicates:
        raise ValueError(f"{what} has duplicate topics: {sorted(frame.index[frame.index.duplicated()].unique())[:5]}")
    return frame.astype(float), single


def common_topics(*indexes: pd.Index, what: str) -> pd.Index:
    """Give the topics in every one of ``indexes``, in the first one's order.

    Parameters
    ----------
    *indexes : pandas.Index
        The topics of each input.
    what : str
        What the error message calls the inputs.

    Returns
    -------
    pandas.Index
        The common topics.

    Raises
    ------
    ValueError
        Naming ``what``, if there is none.
    """
    common = indexes[0]
    for index in indexes[1:]:
        common = common.intersection(index, sort=False)
    if len(common) == 0:
        examples = "; ".join(f"{list(index[:3])} (dtype {index.dtype})" for index in indexes)
        raise ValueError(f"{what}: no common topics between the inputs (e.g. {examples})")
    return common


def _finish(values: np.ndarray, reasons: dict[str, np.ndarray], runs: pd.Index, single: bool, name: str):
    """Turn per-run values into a float or Series, raising/warning for undefined runs."""
    values = np.asarray(values, dtype=float) + 0.0  # a copy, and -0.0 (0 / -x) becomes 0.0: no "-0.0000"
    undefined_any = np.zeros(len(runs), dtype=bool)
    messages = []
    for reason, mask in reasons.items():
        mask = np.asarray(mask, dtype=bool) & ~undefined_any
        if mask.any():
            undefined_any |= mask
            if single:
                raise ValueError(f"{name} is undefined: {reason}")
            messages.append(f"{reason}: {list(runs[mask])}")
    values[undefined_any] = np.nan
    if single:
        return float(values[0])
    if messages:
        warnings.warn(f"{name} is undefined (NaN) for some runs; " + "; ".join(messages), UndefinedMeasureWarning, stacklevel=3)
    return pd.Series(values, index=runs, name=name)


def _pair(original, new, what: str):
    """Align an original Series with new scores; return (orig (T,), new (T,R), valid mask, runs, single)."""
    original = as_topic_series(original, f"{what}: original")
    new_frame, single = _as_frame(new, f"{what}: new scores")
    topics = common_topics(original.index, new_frame.index, what=what)
    orig_values = original.reindex(topics).to_numpy(dtype=float)
    new_values = new_frame.reindex(topics).to_numpy(dtype=float)
    valid = ~np.isnan(orig_values)[:, None] & ~np.isnan(new_values)
    return orig_values, new_values, valid, new_frame.columns, single


def _masked_mean(values: np.ndarray, valid: np.ndarray) -> np.ndarray:
    counts = valid.sum(axis=0)
    sums = np.where(valid, values, 0.0).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return sums / counts


def _broadcast_runs(advanced, baseline, what: str) -> tuple[pd.DataFrame, pd.DataFrame, bool]:
    """Bring a new advanced/baseline pair to two frames with the same columns."""
    adv, adv_single = _as_frame(advanced, f"{what}: new advanced")
    base, base_single = _as_frame(baseline, f"{what}: new baseline")
    if adv_single and base_single:
        base = base.set_axis(adv.columns, axis=1)
        return adv, base, True
    if adv_single:  # one advanced run against many baselines
        adv = pd.DataFrame({run: adv.iloc[:, 0] for run in base.columns})
    elif base_single:  # many advanced runs against one baseline
        base = pd.DataFrame({run: base.iloc[:, 0] for run in adv.columns})
    elif not adv.columns.equals(base.columns):
        # pairing columns by position could silently pair the wrong runs: ask for matching names
        raise ValueError(
            f"{what}: the new advanced and new baseline frames must name their runs alike, column i of one "
            f"paired with column i of the other (got {list(adv.columns[:3])}... vs {list(base.columns[:3])}...); "
            "rename one, e.g. baseline.set_axis(advanced.columns, axis=1)"
        )
    return adv, base, False


# --------------------------------------------------------------------------- measures


@validate_params(scores=NEW)
def arp(scores: pd.Series | pd.DataFrame) -> float | pd.Series:
    """Average retrieval performance: the mean of per-topic scores (NaN topics skipped).

    ``ARP = 1/n * sum_j M_j(r)`` over the ``n`` topics the run has (the paper's Section 3).

    Parameters
    ----------
    scores : pandas.Series or pandas.DataFrame
        The per-topic scores: one run (a Series indexed by topic) or several runs (topics as
        rows, one column per run).

    Returns
    -------
    float or pandas.Series
        The mean: a float for one run (a Series), a Series indexed
        by run for several (a DataFrame).

    Examples
    --------
    >>> arp(pd.Series([0.2, 0.4], index=["301", "302"]))
    0.3...
    """
    frame, single = _as_frame(scores, "arp")
    valid = frame.notna().to_numpy()
    values = _masked_mean(frame.to_numpy(dtype=float), valid)
    return _finish(values, {"no topics": valid.sum(axis=0) == 0}, frame.columns, single, "ARP")


@validate_params(original=ORIGINAL, replicated=NEW)
def rmse(original: pd.Series, replicated: pd.Series | pd.DataFrame) -> float | pd.Series:
    """Root mean square error between original and replicated per-topic scores (paper Eq. 3).

    ``RMSE = sqrt(1/n * sum_j (M_j(r) - M_j(r'))^2)`` over the ``n`` topics both runs have.

    Parameters
    ----------
    original : pandas.Series
        The original run's per-topic scores, indexed by topic.
    replicated : pandas.Series or pandas.DataFrame
        The replicated run's per-topic scores: one run (a Series indexed by topic) or several runs (topics as
        rows, one column per run).

    Returns
    -------
    float or pandas.Series
        RMSE (0 for identical scores): a float for one replicated run (a Series), a Series indexed
        by run for several (a DataFrame).

    Examples
    --------
    >>> rmse(pd.Series([0.2, 0.4]), pd.Series([0.2, 0.6]))
    0.1414...
    """
    orig, new, valid, runs, single = _pair(original, replicated, "RMSE")
    squared = np.where(valid, (orig[:, None] - new) ** 2, 0.0)
    counts = valid.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        values = np.sqrt(squared.sum(axis=0) / counts)
    return _finish(values, _topic_reasons(counts), runs, single, "RMSE")


@validate_params(original=ORIGINAL, replicated=NEW)
def nrmse(original: pd.Series, replicated: pd.Series | pd.DataFrame) -> float | pd.Series:
    """Normalised RMSE: RMSE divided by the largest RMSE any run could have against the original.

    ``nRMSE = RMSE(r, r') / maxRMSE(r)`` with
    ``maxRMSE(r) = sqrt(1/n * sum_j max(M_j(r), 1 - M_j(r))^2)``, both over the ``n`` topics both
    runs have: for a score ``x`` in [0, 1] the farthest score in [0, 1] is 0 or 1, at distance
    ``max(x, 1 - x)``. This is ``nRMSE`` of repro_eval 0.5.0
    (``repro_eval.measure.effectiveness.nRMSE`` and ``_maxRMSE``), the normalisation studied by
    Maistro, Breuer, Schaer and Ferro, "An in-depth investigation on the behaviour of measures to
    quantify reproducibility", Information Processing & Management 60(3), 2023. It is not a measure
    of the SIGIR 2020 paper. For scores in [0, 1], ``0 <= nRMSE <= 1``; 0 only for identical scores.

    The denominator cannot be zero: ``max(x, 1 - x) >= 1/2`` for every ``x``, so ``maxRMSE >= 1/2``
    whenever there is a common topic; without one nRMSE is undefined ("no common topics"), as RMSE
    is. The bound holds only for scores in [0, 1], so nRMSE is undefined (reason "scores outside
    [0, 1]") when an original or replicated score lies outside, e.g. per-topic counts a user
    passes in; repro_eval would divide anyway. (Every measure :mod:`irrepro.measures` names is in [0, 1].)

    Parameters
    ----------
    original : pandas.Series
        The original run's per-topic scores, indexed by topic.
    replicated : pandas.Series or pandas.DataFrame
        The replicated run's per-topic scores: one run (a Series indexed by topic) or several runs (topics as
        rows, one column per run).

    Returns
    -------
    float or pandas.Series
        nRMSE, in [0, 1] (0 for identical scores): a float for one replicated run (a Series), a
        Series indexed by run for several (a DataFrame).

    Raises
    ------
    ValueError
        For one run, when nRMSE is undefined (no common topics, fewer than two, scores outside
        [0, 1]); a batch has NaN there and one :class:`UndefinedMeasureWarning`.

    See Also
    --------
    rmse : The numerator.

    Examples
    --------
    >>> round(nrmse(pd.Series([0.2, 0.4]), pd.Series([0.2, 0.6])), 4)  # RMSE 0.1414 / maxRMSE 0.7071
    0.2
    """
    orig, new, valid, runs, single = _pair(original, replicated, "nRMSE")
    squared = np.where(valid, (orig[:, None] - new) ** 2, 0.0)
    farthest = np.where(valid, np.maximum(orig, 1.0 - orig)[:, None] ** 2, 0.0)
    counts = valid.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        values = np.sqrt(squared.sum(axis=0) / counts) / np.sqrt(farthest.sum(axis=0) / counts)
    outside = np.where(valid, (orig[:, None] < 0) | (orig[:, None] > 1) | (new < 0) | (new > 1), False).any(axis=0)
    reasons = _topic_reasons(counts)
    reasons["scores outside [0, 1] (the maximum RMSE assumes scores in [0, 1])"] = outside
    return _finish(values, reasons, runs, single, "nRMSE")


def _topic_reasons(counts: np.ndarray) -> dict[str, np.ndarray]:
    return {
        "no common topics": counts == 0,
        f"fewer than {MIN_TOPICS} common topics": counts < MIN_TOPICS,
    }


def _improvements(advanced: pd.Series, baseline: pd.Series, what: str) -> pd.Series:
    advanced = as_topic_series(advanced, f"{what}: original advanced")
    baseline = as_topic_series(baseline, f"{what}: original baseline")
    topics = common_topics(advanced.index, baseline.index, what=f"{what} (original advanced vs baseline)")
    return (advanced.reindex(topics) - baseline.reindex(topics)).dropna()


@validate_params(
    orig_advanced=ORIGINAL, orig_baseline=ORIGINAL, new_advanced=NEW, new_baseline=NEW, paired=Boolean()
)
def effect_ratio(
    *,
    orig_baseline: pd.Series,
    orig_advanced: pd.Series,
    new_baseline: pd.Series | pd.DataFrame,
    new_advanced: pd.Series | pd.DataFrame,
    paired: bool,
) -> float | pd.Series:
    """Effect Ratio (paper Eq. 5 and 7; Sakai et al. 2019).

    ``ER = mean_j(M_j(a') - M_j(b')) / mean_j(M_j(a) - M_j(b))``

    ``paired=True`` (replicability, same collection): both means run over the same topics, those
    all four runs have. ``paired=False`` (reproducibility, new collection): the original mean runs
    over the topics of the original pair, the new mean over the topics of the new pair.
    ER = 1 is a perfect replication of the effect; ER <= 0 a failure. Undefined when the original
    mean improvement is zero.

    Every argument is keyword-only (as in :func:`~irrepro.reproducibility.compare.compare_runs`): the
    four runs have one type, and a swap would silently change ER.

    Parameters
    ----------
    orig_baseline : pandas.Series
        Per-topic scores of the original baseline run ``b``.
    orig_advanced : pandas.Series
        Per-topic scores of the original advanced run ``a``, indexed by topic.
    new_baseline : pandas.Series or pandas.DataFrame
        Per-topic scores of the new baseline run ``b'``, shaped as ``new_advanced`` (column i
        paired with column i).
    new_advanced : pandas.Series or pandas.DataFrame
        Per-topic scores of the new advanced run ``a'`` (a DataFrame: one column per run).
    paired : bool
        True for replicability (the same topics), False for reproducibility (each pair over
        its own topics).

    Returns
    -------
    float or pandas.Series
        ER: a float for one new run (a Series), a Series indexed
        by run for several (a DataFrame).

    Raises
    ------
    ValueError
        For one run, when ER is undefined (no common topics, fewer than two topics, zero
        original mean improvement); a batch has NaN there and one :class:`UndefinedMeasureWarning`.

    Examples
    --------
    >>> a, b = pd.Series([0.5, 0.7]), pd.Series([0.3, 0.5])
    >>> effect_ratio(orig_baseline=b, orig_advanced=a, new_baseline=b, new_advanced=a, paired=True)
    1.0
    """
    what = "ER"
    orig_delta = _improvements(orig_advanced, orig_baseline, what)
    adv, base, single = _broadcast_runs(new_advanced, new_baseline, what)
    runs = adv.columns
    if paired:
        topics = common_topics(orig_delta.index, adv.index, base.index, what=what)
        od = orig_delta.reindex(topics).to_numpy(dtype=float)
        nd = adv.reindex(topics).to_numpy(dtype=float) - base.reindex(topics).to_numpy(dtype=float)
        valid = ~np.isnan(od)[:, None] & ~np.isnan(nd)
        counts = valid.sum(axis=0)
        orig_mean = _masked_mean(np.broadcast_to(od[:, None], nd.shape), valid)
        new_mean = _masked_mean(nd, valid)
        reasons = _topic_reasons(counts)
    else:
        od = orig_delta.to_numpy(dtype=float)
        topics = common_topics(adv.index, base.index, what=f"{what} (new advanced vs baseline)")
        nd = adv.reindex(topics).to_numpy(dtype=float) - base.reindex(topics).to_numpy(dtype=float)
        valid = ~np.isnan(nd)
        counts = valid.sum(axis=0)
        orig_mean = np.full(len(runs), od.mean() if len(od) else np.nan)
        new_mean = _masked_mean(nd, valid)
        reasons = {
            f"fewer than {MIN_TOPICS} topics in the original pair": np.full(len(runs), len(od) < MIN_TOPICS),
            **_topic_reasons(counts),
        }
    reasons["zero mean improvement of the original advanced over the original baseline"] = orig_mean == 0
    with np.errstate(invalid="ignore", divide="ignore"):
        values = new_mean / orig_mean
    return _finish(values, reasons, runs, single, "ER")


@validate_params(advanced=NEW, baseline=NEW)
def relative_improvement(*, baseline: pd.Series | pd.DataFrame, advanced: pd.Series | pd.DataFrame) -> float | pd.Series:
    """Relative improvement of an advanced run over a baseline, over the topics both have.

    ``RI = (mean(M(a)) - mean(M(b))) / mean(M(b))``. The arguments are keyword-only: a swap would
    silently change RI.

    Parameters
    ----------
    baseline : pandas.Series or pandas.DataFrame
        Per-topic scores of the baseline b (a Series indexed by topic, or topics x runs).
    advanced : pandas.Series or pandas.DataFrame
        Per-topic scores of the advanced run a, alike.

    Returns
    -------
    float or pandas.Series
        RI, per run for frames.
    """
    adv, base, single = _broadcast_runs(advanced, baseline, "RI")
    values, reasons = _relative_improvement(adv, base)
    return _finish(values, reasons, adv.columns, single, "RI")


def _relative_improvement(adv: pd.DataFrame, base: pd.DataFrame, topics: pd.Index | None = None):
    if topics is None:
        topics = common_topics(adv.index, base.index, what="RI")
    a = adv.reindex(topics).to_numpy(dtype=float)
    b = base.reindex(topics).to_numpy(dtype=float)
    valid = ~np.isnan(a) & ~np.isnan(b)
    mean_a, mean_b = _masked_mean(a, valid), _masked_mean(b, valid)
    with np.errstate(invalid="ignore", divide="ignore"):
        values = (mean_a - mean_b) / mean_b
    reasons = _topic_reasons(valid.sum(axis=0))
    reasons["zero baseline mean (the paper drops such runs)"] = mean_b == 0
    return values, reasons


@validate_params(orig_advanced=ORIGINAL, orig_baseline=ORIGINAL, new_advanced=NEW, new_baseline=NEW)
def delta_relative_improvement(
    *,
    orig_baseline: pd.Series,
    orig_advanced: pd.Series,
    new_baseline: pd.Series | pd.DataFrame,
    new_advanced: pd.Series | pd.DataFrame,
) -> float | pd.Series:
    """Delta Relative Improvement (paper Eq. 6): ``DeltaRI = RI - RI'``.

    ``RI = (mean(M(a)) - mean(M(b))) / mean(M(b))`` for the original pair over its common topics
    and ``RI'`` likewise for the new pair over its own common topics (the same topics in the
    replicability setting, the new collection's topics in the reproducibility setting).
    DeltaRI = 0: the relative improvement is replicated; > 0: it is smaller than the original.
    Undefined when a baseline mean is zero.

    Every argument is keyword-only, as for :func:`effect_ratio`.

    Parameters
    ----------
    orig_baseline : pandas.Series
        Per-topic scores of the original baseline run ``b``.
    orig_advanced : pandas.Series
        Per-topic scores of the original advanced run ``a``, indexed by topic.
    new_baseline : pandas.Series or pandas.DataFrame
        Per-topic scores of the new baseline run ``b'``, shaped as ``new_advanced`` (column i
        paired with column i).
    new_advanced : pandas.Series or pandas.DataFrame
        Per-topic scores of the new advanced run ``a'`` (a DataFrame: one column per run).

    Returns
    -------
    float or pandas.Series
        DeltaRI: a float for one new run (a Series), a Series indexed
        by run for several (a DataFrame).

    Raises
    ------
    ValueError
        For one run, when DeltaRI is undefined (no common topics, a zero baseline mean); a batch
        has NaN there and one :class:`UndefinedMeasureWarning`.

    Examples
    --------
    >>> a, b = pd.Series([0.5, 0.7]), pd.Series([0.3, 0.5])
    >>> delta_relative_improvement(orig_baseline=b, orig_advanced=a, new_baseline=b, new_advanced=a)
    0.0
    """
    what = "DeltaRI"
    orig_adv, _ = _as_frame(as_topic_series(orig_advanced, f"{what}: original advanced"), what)
    orig_base, _ = _as_frame(as_topic_series(orig_baseline, f"{what}: original baseline"), what)
    orig_ri, orig_reasons = _relative_improvement(orig_adv, orig_base.set_axis(orig_adv.columns, axis=1))
    adv, base, single = _broadcast_runs(new_advanced, new_baseline, what)
    new_ri, new_reasons = _relative_improvement(adv, base)
    runs = adv.columns
    reasons = {f"original pair: {r}": np.full(len(runs), bool(m[0])) for r, m in orig_reasons.items()}
    reasons.update({f"new pair: {r}": m for r, m in new_reasons.items()})
    return _finish(orig_ri[0] - new_ri, reasons, runs, single, "DeltaRI")


# --------------------------------------------------------------------------- tests


def _student_t_p(t: np.ndarray, df) -> np.ndarray:
    """Two-sided p-value ``P(|T_df| >= |t|)`` of Student's t distribution (:mod:`.student_t`:
    scipy.stats would add about a second to the start of ``irrepro compare``)."""
    return two_sided_p_array(t, df)


def _ttest_rel_p(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """p-value of the paired t-test along axis 0, as ``scipy.stats.ttest_rel``:
    ``t = mean(d) / sqrt(var(d, ddof=1) / n)`` with ``d = a - b`` and n - 1 degrees of freedom."""
    d = a - b
    n = d.shape[0]
    t = d.mean(axis=0) / np.sqrt(d.var(axis=0, ddof=1) / n)
    return _student_t_p(t, n - 1)


def _ttest_ind_p(a: np.ndarray, b: np.ndarray, *, equal_var: bool) -> np.ndarray:
    """p-value of the unpaired t-test along axis 0, as ``scipy.stats.ttest_ind``: Student's
    (pooled variance, n1 + n2 - 2 degrees of freedom) or Welch's (Welch-Satterthwaite df)."""
    n1, n2 = a.shape[0], b.shape[0]
    v1, v2 = a.var(axis=0, ddof=1), b.var(axis=0, ddof=1)
    if equal_var:
        df = n1 + n2 - 2.0
        denom = np.sqrt(((n1 - 1) * v1 + (n2 - 1) * v2) / df * (1.0 / n1 + 1.0 / n2))
    else:
        vn1, vn2 = v1 / n1, v2 / n2
        df = (vn1 + vn2) ** 2 / (vn1**2 / (n1 - 1) + vn2**2 / (n2 - 1))
        df = np.where(np.isnan(df), 1.0, df)  # both variances zero: any df, t is 0/0 or infinite
        denom = np.sqrt(vn1 + vn2)
    t = (a.mean(axis=0) - b.mean(axis=0)) / denom
    return _student_t_p(t, df)


def _per_column(
    orig: np.ndarray, new: np.ndarray, valid: np.ndarray, test: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> np.ndarray:
    """Apply a column-wise scipy test; vectorised when every column has the same topics."""
    p = np.full(new.shape[1], np.nan)
    if valid.all():
        return np.asarray(test(np.broadcast_to(orig[:, None], new.shape), new), dtype=float).reshape(-1)
    for j in range(new.shape[1]):
        rows = valid[:, j]
        if rows.sum() >= MIN_TOPICS:
            p[j] = float(np.asarray(test(orig[rows], new[rows, j])).reshape(-1)[0])
    return p


@validate_params(original=ORIGINAL, replicated=NEW)
def paired_ttest(original: pd.Series, replicated: pd.Series | pd.DataFrame) -> float | pd.Series:
    """Two-tailed paired t-test between original and replicated per-topic scores (replicability).

    p-value of ``scipy.stats.ttest_rel`` (its formula, computed here) over the common topics. When all per-topic differences
    are zero (a perfect replication) the t statistic is 0/0; the p-value is then reported as 1.0
    (no evidence of a difference), as repro_eval does.

    Parameters
    ----------
    original : pandas.Series
        The original run's per-topic scores, indexed by topic.
    replicated : pandas.Series or pandas.DataFrame
        The replicated run's per-topic scores: one run (a Series indexed by topic) or several runs (topics as
        rows, one column per run).

    Returns
    -------
    float or pandas.Series
        The two-sided p-value: a float for one replicated run (a Series), a Series indexed
        by run for several (a DataFrame).
    """
    orig, new, valid, runs, single = _pair(original, replicated, "paired t-test")
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        p = _per_column(orig, new, valid, _ttest_rel_p)
    identical = np.all(np.where(valid, orig[:, None] == new, True), axis=0)
    p = np.where(np.isnan(p) & identical, 1.0, p)
    return _finish(p, _topic_reasons(valid.sum(axis=0)), runs, single, "p-value (paired t-test)")


@validate_params(original=ORIGINAL, reproduced=NEW, equal_var=Boolean())
def unpaired_ttest(
    original: pd.Series, reproduced: pd.Series | pd.DataFrame, *, equal_var: bool = True
) -> float | pd.Series:
    """Two-tailed unpaired t-test between original and reproduced per-topic scores (reproducibility).

    Student's t-test (``equal_var=True``, the paper's choice) or Welch's (``equal_var=False``),
    as ``scipy.stats.ttest_ind`` computes it; each sample uses all its own non-NaN topics (the topic sets may
    differ). If both samples are constant and equal the statistic is 0/0 and the p-value is 1.0.

    Parameters
    ----------
    original : pandas.Series
        The original run's per-topic scores, indexed by topic.
    reproduced : pandas.Series or pandas.DataFrame
        The reproduced run's per-topic scores: one run (a Series indexed by topic) or several runs (topics as
        rows, one column per run).
    equal_var : bool, default True
        Student's t-test (pooled variance) when True, Welch's when False.

    Returns
    -------
    float or pandas.Series
        The two-sided p-value: a float for one reproduced run (a Series), a Series indexed
        by run for several (a DataFrame).
    """
    original = as_topic_series(original, "unpaired t-test: original").dropna()
    frame, single = _as_frame(reproduced, "unpaired t-test: reproduced")
    runs = frame.columns
    values = frame.to_numpy(dtype=float)
    valid = ~np.isnan(values)
    counts = valid.sum(axis=0)
    orig = original.to_numpy(dtype=float)
    p = np.full(len(runs), np.nan)
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if len(orig) >= MIN_TOPICS:
            if valid.all():
                p = np.asarray(_ttest_ind_p(orig[:, None], values, equal_var=equal_var), dtype=float).reshape(-1)
            else:
                for j in range(len(runs)):
                    if counts[j] >= MIN_TOPICS:
                        p[j] = float(_ttest_ind_p(orig, values[valid[:, j], j], equal_var=equal_var))
    constant_equal = np.array(
        [len(orig) > 0 and np.all(orig == orig[0]) and np.all(values[valid[:, j], j] == orig[0]) for j in range(len(runs))]
    )
    p = np.where(np.isnan(p) & constant_equal, 1.0, p)
    reasons = {
        f"fewer than {MIN_TOPICS} original topics": np.full(len(runs), len(orig) < MIN_TOPICS),
        f"fewer than {MIN_TOPICS} reproduced topics": counts < MIN_TOPICS,
    }
    name = "p-value (unpaired t-test)" if equal_var else "p-value (Welch t-test)"
    return _finish(p, reasons, runs, single, name)


@validate_params(original=ORIGINAL, replicated=NEW)
def wilcoxon_test(original: pd.Series, replicated: pd.Series | pd.DataFrame) -> float | pd.Series:
    """Two-sided Wilcoxon signed-rank test on the per-topic differences (replicability, an extra).

    ``scipy.stats.wilcoxon`` with its defaults (zero differences dropped, 'wilcox' method).
    When every difference is zero the p-value is reported as 1.0.

    Parameters
    ----------
    original : pandas.Series
        Per-topic scores of the original run, indexed by topic.
    replicated : pandas.Series or pandas.DataFrame
        Per-topic scores of the replicated run (or topics x runs), on the same topics.

    Returns
    -------
    float or pandas.Series
        The p-value, per run for a frame.
    """
    from scipy import (
        stats,  # scipy.stats takes about a second to import: only here, where it is needed
    )

    orig, new, valid, runs, single = _pair(original, replicated, "Wilcoxon test")
    p = np.full(len(runs), np.nan)
    for j in range(len(runs)):
        rows = valid[:, j]
        if rows.sum() < MIN_TOPICS:
            continue
        differences = orig[rows] - new[rows, j]
        if np.all(differences == 0):
            p[j] = 1.0
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p[j] = float(stats.wilcoxon(differences).pvalue)
    return _finish(p, _topic_reasons(valid.sum(axis=0)), runs, single, "p-value (Wilcoxon)")
