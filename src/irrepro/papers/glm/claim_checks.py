"""The GLM paper's claims, each checked separately on the paper's collection and on the substitutes.

Every claim the chapter tests is registered once per data group (:mod:`irrepro.papers.glm.data_groups`)
as ``glm.<claim>.<group>``: ``robust04`` (the paper's collection, its submitted runs: speaks for the
paper), ``substitutes`` (the Core17/Core18 matrices of the SIGIR 2020 replications: does the statement
carry over to other data?) and, for the Core 2018 outliers, ``nist-core18`` (the official MAP of the
runs the paper used). :func:`claims` is the long table of the claims protocol
(:mod:`irrepro.papers.claims`), :func:`verdict_table` one row per claim with a verdict per data group.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

import numpy as np
import pandas as pd

from irrepro.glm.outliers import NEAR_ZERO_MAP, near_zero_systems
from irrepro.papers.claims import ClaimList, Finding
from irrepro.papers.glm.data_groups import (
    DATA_GROUPS,
    NIST_CORE18,
    ROBUST04,
    SUBSTITUTES,
    DataGroup,
    columns_of,
    rows_of,
)
from irrepro.papers.glm.diagnostics import (
    LOG_TYPE_LINKS,
    assumption_tests,
    boundary_observations,
    near_zero_uncertainty,
)
from irrepro.papers.glm.models import (
    CONSISTENCY_SPLITS,
    consistency_table,
    iteration_table,
    setting_matrix,
    ssd_table,
    table1,
)
from irrepro.papers.glm.scores import load_scores, official_summary, outlier_systems
from irrepro.papers.glm.statements import (
    DEVIANCE_STATEMENTS,
    DevianceStatement,
    statement_finding,
)

__all__ = ["CLAIMS", "claims", "verdict_table", "links_against_identity", "consistency_verdict", "outlier_gap"]

#: The paper's claims, each a small function per data group.
CLAIMS = ClaimList("glm")
_PAPERS_GROUPS = (ROBUST04, SUBSTITUTES)
_TABLE1 = "deviance of the Gaussian GLM of each of the seven links per collection and measure (Table 1)"


def _register(name: str, *, section: str, quote: str, measured: str, groups: Iterable[DataGroup],
              check: Callable[[DataGroup], Finding]) -> None:
    """Register ``check`` once per data group as claim ``glm.<name>.<group key>``."""
    for group in groups:
        register = CLAIMS.claim(f"{name}.{group.key}", section=section, quote=quote, data=f"{group.label}; {measured}")
        register(functools.partial(check, group))  # fmt: skip


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _setting_names(index) -> str:
    return ", ".join(f"{c} {m}{' w/o outliers' if removed else ''}" for c, m, removed in index)


def _links_against_identity(table: pd.DataFrame, values: str, group: DataGroup, *, noun: str,
                            links: tuple[str, ...]) -> tuple[bool, str]:
    wide = setting_matrix(rows_of(table, group), values)
    parts, verdict = [], True
    for link in links:
        more, fewer = int((wide[link] > wide["identity"]).sum()), int((wide[link] < wide["identity"]).sum())
        parts.append(f"{link} finds more {noun} than identity in {more} of {len(wide)} settings and fewer in {fewer}")
        verdict &= more > len(wide) / 2
    if len(wide) <= 3:  # few settings: show the numbers themselves
        shown = wide[["identity", *links]].map(lambda v: f"{v:g}")
        parts.append("; ".join(f"{_setting_names([key])}: " + ", ".join(f"{k} {v}" for k, v in row.items())
                               for key, row in shown.iterrows()))  # fmt: skip
    return bool(verdict), "; ".join(parts)


def links_against_identity(table: pd.DataFrame, values: str, group: DataGroup, *, noun: str,
                           links: tuple[str, ...] = LOG_TYPE_LINKS) -> Finding:
    """Tell whether ``links`` find more ``values`` than identity in most settings of ``group``.

    The claim holds when every link in ``links`` has more than identity in more than half of the
    group's settings.

    Parameters
    ----------
    table : pandas.DataFrame
        A long per-setting-and-link table (:func:`~irrepro.papers.glm.models.ssd_table`,
        :func:`~irrepro.papers.glm.models.consistency_table`).
    values : str
        The column counted.
    group : DataGroup
        The settings' data group.
    noun : str
        What ``values`` counts, for the evidence sentence.
    links : tuple of str, default LOG_TYPE_LINKS
        The links compared with identity.

    Returns
    -------
    Finding
        Whether it holds, with one count per link as evidence.
    """
    holds, text = _links_against_identity(table, values, group, noun=noun, links=links)
    return Finding(holds, _sentence(text) + ".")


def consistency_verdict(table: pd.DataFrame | None = None) -> str:
    """Compare the consistent ssd pairs of log and logit with identity, in a sentence per data group.

    The paper's claim: log and logit detect more consistent ssd pairs (active agreements) than identity;
    the same findings as the claims ``glm.consistent-ssd-pairs.<group>``.

    Parameters
    ----------
    table : pandas.DataFrame, optional
        :func:`~irrepro.papers.glm.models.consistency_table`; default: computed now.

    Returns
    -------
    str
        The sentences.
    """
    table = consistency_table() if table is None else table
    sentences = []
    for group in _PAPERS_GROUPS:
        holds, text = _links_against_identity(
            table, "active_agreements", group, noun="consistent ssd pairs", links=LOG_TYPE_LINKS
        )
        sentences.append(f"On {group.name}, {text}: the paper's claim {'holds' if holds else 'does not hold'} there.")
    return " ".join(sentences)


# --------------------------------------------------------------------------- Section 1: distinguishing systems


def _more_ssd_pairs(group: DataGroup) -> Finding:
    table = ssd_table()
    holds, tukey = _links_against_identity(table, "ssd_pairs", group, noun="ssd pairs", links=LOG_TYPE_LINKS)
    _, holm = _links_against_identity(table, "ssd_pairs_holm", group, noun="ssd pairs", links=LOG_TYPE_LINKS)
    return Finding(holds, f"Tukey HSD: {tukey}. With Holm's method instead: {holm}.")


_register(
    "more-ssd-pairs", section="1",
    quote="In this work, we investigate the application of Generalized Linear Models to IR evaluation and show how "
    "they can help us in better comparing and distinguishing among systems.",
    measured="significantly different system pairs (ssd pairs; Tukey HSD, alpha 0.05) of the log and logit links "
    "against identity per setting, read as the claim that they distinguish more systems",
    groups=_PAPERS_GROUPS, check=_more_ssd_pairs,
)  # fmt: skip


# --------------------------------------------------------------------------- Section 2: near-zero systems, zeros


def _near_zero_se(group: DataGroup) -> Finding:
    table = rows_of(near_zero_uncertainty(), group)
    log_type = table[table["link"].isin(LOG_TYPE_LINKS)]
    largest = int(log_type["largest_se"].sum())
    parts = []
    for link, part in log_type.groupby("link", sort=False):
        parts.append(f"{link}: {part['se_ratio'].min():.1f} to {part['se_ratio'].max():.1f} times the median SE")
    return Finding(
        bool(largest == len(log_type)),
        f"Under log and logit the system with the lowest mean score has the largest standard error of all systems in "
        f"{largest} of {len(log_type)} settings x links ({'; '.join(parts)}; under identity every system has the same "
        f"SE); the lowest means are {table['lowest_mean'].min():.4f} to {table['lowest_mean'].max():.4f}.",
    )


_register(
    "near-zero-high-variance", section="2",
    quote="However, when even the expectation of a system’s performance is close to zero, using log-based links – "
    "e.g., log and logit – determines a high variance of the coeficients associated with such a system. As a "
    "consequence a larger variance increases the standard error.",
    measured="centred standard errors of the system effects under log and logit, the lowest-mean system against the "
    "median, per setting",
    groups=_PAPERS_GROUPS, check=_near_zero_se,
)  # fmt: skip


def _count(n: int, noun: str, plural: str = "") -> str:
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def _logit_keeps_zeros(group: DataGroup) -> Finding:
    table = rows_of(boundary_observations(), group)
    ap = table[table["measure"] == "AP"]
    if not (ap["zeros"] + ap["ones"]).any():
        return Finding(None, "No AP score is exactly 0 or 1 in these matrices.")
    others = table[table["measure"] != "AP"]
    low, high = int(ap["iterations"].min()), int(ap["iterations"].max())
    return Finding(
        bool(ap["converged"].all()),
        f"AP: {int(ap['zeros'].sum()):,} scores of 0 and {int(ap['ones'].sum()):,} of 1 among "
        f"{int(ap['observations'].sum()):,} in {_count(len(ap), 'matrix', 'matrices')}, none usable by a logit transformation; "
        f"the logit GLM fits every one of them and converges in {int(ap['converged'].sum())} of {_count(len(ap), 'fit')} "
        f"({low if low == high else f'{low} to {high}'} iterations). Other measures: {int(others['zeros'].sum()):,} "
        f"zeros and {int(others['ones'].sum()):,} ones kept, {int(others['converged'].sum())} of "
        f"{_count(len(others), 'fit')} converged; {_count(int(table['dropped_topics'].sum()), 'topic')} where every run "
        "scores 0 dropped first (no finite effect exists there under any log-type link).",
    )


_register(
    "logit-keeps-zeros", section="2",
    quote="Previous works on transforming AP [ 10, 12, 13, 14 ] observed that the logit transformation renders the "
    "score distribution more normal but it has the drawback of making observations for which AP is zero or one "
    "unusable. GLMs based on the logit link avoid such corner cases.",
    measured="scores of exactly 0 or 1 in the fitted AP matrices and whether the logit GLM converges with them",
    groups=_PAPERS_GROUPS, check=_logit_keeps_zeros,
)  # fmt: skip


# --------------------------------------------------------------------------- Section 3: outliers


def outlier_gap(maps: pd.Series) -> tuple[int, float]:
    """Find where the lowest runs stand apart: the largest ratio MAP_(k+1) / MAP_(k) in the lower half.

    The k lowest runs are then separated from the rest by the largest relative jump between consecutive
    sorted MAPs (runs with MAP 0 are compared through the next positive MAP).

    Parameters
    ----------
    maps : pandas.Series
        MAP per run.

    Returns
    -------
    k : int
        How many runs lie below the gap.
    ratio : float
        The gap, MAP_(k+1) / MAP_(k).

    Examples
    --------
    >>> outlier_gap(pd.Series({"a": 0.002, "b": 0.004, "c": 0.05, "d": 0.06, "e": 0.07, "f": 0.3}))
    (2, 12.5)
    """
    ordered = np.sort(maps.to_numpy(dtype=float))
    lower = ordered[: max(2, len(ordered) // 2) + 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.where(lower[:-1] > 0, lower[1:] / lower[:-1], np.inf)
    k = int(np.argmax(ratios))
    return k + 1, float(ratios[k])


def _eight_outliers_official(group: DataGroup) -> Finding:
    maps = official_summary("Core18")["map"].sort_values(kind="stable")
    k, ratio = outlier_gap(maps)
    rule = near_zero_systems(maps)
    return Finding(
        k == 8,
        f"The {k} lowest official MAPs of the {len(maps)} Core18 runs ({maps.iloc[0]:.4f} to {maps.iloc[k - 1]:.4f}: "
        f"{', '.join(sorted(maps.index[:k]))}) stand apart from the next ({maps.index[k]}, {maps.iloc[k]:.4f}) by the "
        f"largest ratio between consecutive MAPs in the lower half ({ratio:.1f}); the rule MAP < {NEAR_ZERO_MAP:g} "
        f"(this book's, not the paper's) selects exactly {len(rule)} runs.",
    )


def _eight_outliers_robust04(group: DataGroup) -> Finding:
    official = official_summary("Robust04")["map"]
    per_topic = load_scores("Robust04", "AP").mean()
    low = official.idxmin()
    return Finding(
        not outlier_systems("Robust04") and bool(official.min() >= NEAR_ZERO_MAP),
        f"No Robust04 run has a MAP below {NEAR_ZERO_MAP:g}: the lowest official MAP is {official.min():.4f} ({low}; "
        f"{per_topic.min():.4f} from the per-topic scores), so, as in the paper, no Robust04 run is removed.",
    )


def _eight_outliers_substitutes(group: DataGroup) -> Finding:
    found = {collection: outlier_systems(collection) for collection in group.collections}
    listed = "; ".join(f"{collection}: {len(runs)} ({', '.join(runs) or 'none'})" for collection, runs in found.items())
    return Finding(
        None,
        f"The substitute matrices hold none of the paper's Core 2018 runs, so its eight cannot be counted here; the "
        f"rule MAP < {NEAR_ZERO_MAP:g} removes {listed}.",
    )


_OUTLIER_CHECKS = {NIST_CORE18: _eight_outliers_official, ROBUST04: _eight_outliers_robust04,
                   SUBSTITUTES: _eight_outliers_substitutes}  # fmt: skip
for _group, _check in _OUTLIER_CHECKS.items():
    _register(
        "core18-eight-outliers", section="3",
        quote="Systems mean performance is very close to 0 can challenge the log-based links. Since this happens in "
        "the case of Core 18, we also consider a second version of it, where we remove eight outlier runs, performing "
        "extremely low in terms of MAP.",
        measured=f"official and per-topic MAP of the runs; the outlier rule MAP < {NEAR_ZERO_MAP:g} is this book's",
        groups=[_group], check=_check,
    )  # fmt: skip


# --------------------------------------------------------------------------- Section 3: Table 1


def _statement_check(statement: DevianceStatement) -> Callable[[DataGroup], Finding]:
    def check(group: DataGroup) -> Finding:
        return statement_finding(statement, table1(), group)

    check.__name__ = f"_{statement.name.replace('-', '_')}"
    return check


def _exp_more_iterations(group: DataGroup) -> Finding:
    table = rows_of(iteration_table(), group)
    wide = setting_matrix(table, "iterations")
    most = int((wide["exp"] > wide.drop(columns="exp").max(axis=1)).sum())
    above_identity = int((wide["exp"] > wide["identity"]).sum())
    medians = ", ".join(f"{link} {wide[link].median():g}" for link in wide.columns)
    exp_fits = table[table["link"] == "exp"]
    unconverged = table.loc[~table["converged"], "link"].value_counts()
    return Finding(
        bool(most > len(wide) / 2 or not exp_fits["converged"].all()),
        f"exp needs more IRLS iterations than every other link in {most} of {len(wide)} settings (more than identity "
        f"in {above_identity}); median iterations: {medians}; exp converged in {int(exp_fits['converged'].sum())} of "
        f"{len(exp_fits)} fits; fits that did not converge within 100 iterations: "
        f"{', '.join(f'{link} {n}' for link, n in unconverged.items()) or 'none'}. Iteration counts depend on the "
        "fitter's start and stopping rule (here statsmodels': start at (y + mean y) / 2, stop when the deviance "
        "changes by at most 1e-8); the paper does not report its counts.",
    )


def _log_especially_core18(group: DataGroup) -> Finding:
    wide = table1()
    gain = 1 - wide.loc["log"] / wide.loc["identity"]  # the share of identity's deviance that log removes
    robust = gain[[c for c in gain.index if c[0] == "Robust04"]]
    core18 = gain[[c for c in gain.index if c[0].startswith("Core18")]]
    larger = [c for c in core18.index if (c[1] in robust.index.get_level_values(1)) and core18[c] > robust[("Robust04", c[1])]]
    comparable = [c for c in core18.index if c[1] in robust.index.get_level_values(1)]
    shown = "; ".join(f"{c} {m} {value:.1%}" for (c, m), value in pd.concat([robust, core18]).items())
    return Finding(
        bool(comparable) and len(larger) == len(comparable),
        f"Share of identity's deviance that log removes: {shown}. It is larger on Core18 (with and without outliers) "
        f"than on Robust04 for {len(larger)} of the {len(comparable)} Core18 columns with a Robust04 counterpart (AP, P@10).",
    )


for _statement in DEVIANCE_STATEMENTS:
    _register(_statement.name, section="3", quote=_statement.quote, measured=_TABLE1, groups=_PAPERS_GROUPS,
              check=_statement_check(_statement))  # fmt: skip
    if _statement.name == "exp-worst":
        _register(
            "exp-more-iterations", section="3",
            quote="Its poor capability in fitting IR data leads to overall instability, especially concerning shallow "
            "performing systems, and to convergence problems when fitting the model – highlighted by the increased "
            "iterations to reach convergence, not reported here due to space constraints.",
            measured="IRLS iterations of the Gaussian GLM of each link per setting (tables of Table 1)",
            groups=_PAPERS_GROUPS, check=_exp_more_iterations,
        )  # fmt: skip
    if _statement.name == "log-better-than-identity":
        _register(
            "log-especially-core18", section="3", quote=_statement.quote,
            measured="the share of identity's deviance that log removes, Core18 (with and without outliers) against "
            "Robust04, per measure (Table 1)",
            groups=[SUBSTITUTES], check=_log_especially_core18,
        )  # fmt: skip


# --------------------------------------------------------------------------- Section 4: conclusions

_NAMED_BETTER = ("log", "logit", "tanh", "probit")  # the paper's list reads "log, logit, tanh, prob, and probit"


def _links_improve(group: DataGroup) -> Finding:
    wide = columns_of(table1(), group)
    below = {link: int((wide.loc[link] < wide.loc["identity"]).sum()) for link in wide.index}
    named = ", ".join(f"{link} in {below[link]}" for link in _NAMED_BETTER)
    return Finding(
        all(below[link] > len(wide.columns) / 2 for link in _NAMED_BETTER),
        f"Deviance below identity's, of {len(wide.columns)} columns of Table 1: {named}; cauchit (the one link the list "
        f"may mean by 'prob') in {below['cauchit']}, exp in {below['exp']}.",
    )


def _consistent_pairs(group: DataGroup) -> Finding:
    return links_against_identity(consistency_table(), "active_agreements", group, noun="consistent ssd pairs")


def _assumptions_violated(group: DataGroup) -> Finding:
    table = rows_of(assumption_tests(), group)
    n = len(table)
    non_normal, unequal = int(table["non_normal"].sum()), int(table["heteroscedastic"].sum())
    return Finding(
        bool(non_normal > n / 2 and unequal > n / 2),
        f"Residuals of the identity model: normality rejected (D'Agostino-Pearson, p < 0.05) in {non_normal} of {n} "
        f"settings (skewness {table['skewness'].min():.2f} to {table['skewness'].max():.2f}, excess kurtosis "
        f"{table['excess_kurtosis'].min():.2f} to {table['excess_kurtosis'].max():.2f}); equal variance across runs "
        f"rejected (Brown-Forsythe, p < 0.05) in {unequal} of {n}, largest p {table['brown_forsythe_p'].max():.2g}; "
        f"rank correlation of the runs' mean score and score variance {table['mean_variance_spearman'].min():.2f} to "
        f"{table['mean_variance_spearman'].max():.2f}.",
    )


_register(
    "links-improve-on-identity", section="4",
    quote="We observed that log, logit, tanh, prob, and probit provide general improvements concerning the identity "
    "link used today.",
    measured=f"{_TABLE1}; a link improves on identity when its deviance is lower in most columns",
    groups=_PAPERS_GROUPS, check=_links_improve,
)  # fmt: skip
_register(
    "consistent-ssd-pairs", section="4",
    quote="We then dug into the log and logit links, which were the most promising ones, and we found out that they "
    "can detect a sizeably greater number of consistent ssd pairs than the identity link.",
    measured=f"active agreements of split-half consistency (Tukey HSD, alpha 0.05, mean over {CONSISTENCY_SPLITS} "
    "seeded splits) of log and logit against identity per setting",
    groups=_PAPERS_GROUPS, check=_consistent_pairs,
)  # fmt: skip
_register(
    "non-normal-heteroscedastic", section="4",
    quote="GLMs overcome the main reasons of departure of IR data from assumptions underlying linear models: "
    "non-normality and heteroscedasticity of the data and non-linearity of the empirical mean.",
    measured="tests of normality and of equal variance across runs on the identity model's residuals per setting "
    "(the departures; non-linearity is the deviance of the other links, claim glm.links-improve-on-identity)",
    groups=_PAPERS_GROUPS, check=_assumptions_violated,
)  # fmt: skip


# --------------------------------------------------------------------------- the tables


def claims() -> pd.DataFrame:
    """Check the paper's claims, one row per claim and data group (:mod:`irrepro.papers.claims`).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`irrepro.papers.claims.COLUMNS`.
    """
    return CLAIMS.table()


def verdict_table(table: pd.DataFrame | None = None) -> pd.DataFrame:
    """Tabulate each claim's verdict on each data group, and whose data speak for the paper.

    Parameters
    ----------
    table : pandas.DataFrame, optional
        :func:`claims`' table; default: computed now.

    Returns
    -------
    pandas.DataFrame
        One row per claim. Columns: ``claim`` (the id without paper and group), ``section``,
        ``paper's words``, one column per data group
        (:data:`~irrepro.papers.glm.data_groups.DATA_GROUPS`, its ``name``; "not tested" where a
        claim is not checked on it) and ``speaks for the paper`` (the tested groups holding the
        paper's own runs).
    """
    table = claims() if table is None else table
    keyed = table.assign(
        claim=table["id"].str.split(".").str[1], group=table["id"].str.split(".").str[2]
    )
    names = {group.key: group.name for group in DATA_GROUPS}
    rows = []
    for claim, part in keyed.groupby("claim", sort=False):
        verdicts = dict(zip(part["group"], part["verdict"], strict=True))
        row = {"claim": claim, "section": part["section"].iloc[0], "paper's words": part["claim"].iloc[0]}
        row |= {group.name: verdicts.get(group.key, "not tested") for group in DATA_GROUPS}
        row["speaks for the paper"] = ", ".join(names[g.key] for g in DATA_GROUPS if g.speaks_for_paper and g.key in verdicts) or "none"
        rows.append(row)
    return pd.DataFrame(rows)
