"""Tables and figure data of Faggioli, Ferro & Fuhr, "IR Systems Evaluation via Generalized Linear Models".

Shared by the chapter ``chapters/glm.md`` and ``irrepro reproduce glm --out DIR`` (which writes
``deviance.csv``, ``ssd_pairs.csv`` and ``consistency.csv``).

Collections (per-topic scores of real runs, through :func:`irrepro.data.fetch`):

- ``Robust04``: the 110 runs submitted to TREC 2004 Robust on its 249 topics (AP, P@10).
- ``Core17``: the per-topic scores of TREC 2017 Core *submitted* runs are not public, so we use the
  SIGIR 2020 replicability matrices (50 Core17 topics; WCrobust04 and WCrobust0405 and their 100
  replications: 102 runs; AP, P@10, nDCG = trec_eval ``ndcg`` at 1000).
- ``Core18``: likewise the SIGIR 2020 reproducibility matrices (25 Core18 topics, 108 reproduced
  runs, including the 8 extra WCrobust04 runs 51-58). Its near-zero reproduced runs play the part of
  the paper's eight ``feup-run*`` outliers.

Outliers: systems with MAP < 0.01 (:func:`irrepro.glm.outliers.near_zero_systems`), removed for all
measures of a collection; a collection appears "without outliers" only when the rule removes a run.
Topics or systems whose scores are all 0 or all 1 on a measure are dropped for all links
(:func:`irrepro.glm.outliers.boundary_constant`), so that the deviances of all links are comparable.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats
from threadpoolctl import threadpool_limits

from irrepro.data import fetch
from irrepro.glm.consistency import COUNT_COLUMNS, split_half_consistency
from irrepro.glm.contrasts import pairwise_contrasts
from irrepro.glm.fit import TwoWayFit, fit_two_way
from irrepro.glm.links import LINK_NAMES
from irrepro.glm.outliers import boundary_constant, near_zero_systems

__all__ = [
    "COLLECTIONS",
    "MEASURES",
    "load_scores",
    "outlier_systems",
    "analysis_scores",
    "fits",
    "deviance_table",
    "table1",
    "ssd_table",
    "consistency_table",
    "consistency_verdict",
    "system_effects",
    "mean_variance",
    "residuals",
    "data_summary",
    "lowest_deviance",
    "deviance_claims",
    "data_files",
    "measures_of",
    "write_tables",
    "DATA_LABEL",
    "by_link",
    "unconverged_fits",
    "convergence_summary",
    "lowest_deviance_counts",
    "consistency_summary",
]

MEASURES = ("AP", "P@10", "nDCG")
_SIGIR_MEASURE = {"AP": "ap", "P@10": "p10", "nDCG": "ndcg1000"}
_ROBUST_MEASURE = {"AP": "ap", "P@10": "p10"}
COLLECTIONS = {
    "Robust04": "TREC 2004 Robust, 249 topics x 110 submitted runs (trec_scores/robust2004_*.csv)",
    "Core17": "TREC 2017 Core, 50 topics x 102 runs: WCrobust04/0405 and their replications (sigir2020/measures)",
    "Core18": "TREC 2018 Core, 25 topics x 108 reproduced runs (sigir2020/measures_rpd)",
}
CONSISTENCY_SPLITS = 10
CONSISTENCY_SEED = 20220417


def _registry_names(collection: str, measure: str) -> list[str]:
    if collection == "Robust04":
        if measure not in _ROBUST_MEASURE:
            raise ValueError(f"Robust04 has no per-topic {measure} scores here; choose AP or P@10")
        return [f"trec_scores/robust2004_{_ROBUST_MEASURE[measure]}.csv"]
    if measure not in _SIGIR_MEASURE:
        raise ValueError(f"unknown measure {measure!r}; choose one of {', '.join(MEASURES)}")
    if collection == "Core17":
        return [f"sigir2020/measures/rpl_wcrobust{run}_{_SIGIR_MEASURE[measure]}.csv" for run in ("04", "0405")]
    if collection == "Core18":
        return [f"sigir2020/measures_rpd/rpd_wcrobust{run}_{_SIGIR_MEASURE[measure]}.csv" for run in ("04", "0405")]
    raise ValueError(f"unknown collection {collection!r}; choose one of {', '.join(COLLECTIONS)}")


def measures_of(collection: str) -> tuple[str, ...]:
    """The measures with per-topic scores for ``collection``."""
    return tuple(_ROBUST_MEASURE) if collection == "Robust04" else MEASURES


@lru_cache(maxsize=32)
def load_scores(collection: str, measure: str) -> pd.DataFrame:
    """Topics x runs matrix of per-topic scores (index: topic ids as strings)."""
    frames = []
    for name in _registry_names(collection, measure):
        frame = pd.read_csv(fetch(name))
        topic_column = frame.columns[0]
        if topic_column not in ("topic", "Row"):
            raise ValueError(f"{name}: expected the topic column 'topic' or 'Row' first, found {topic_column!r}")
        frame[topic_column] = frame[topic_column].astype(str)
        frames.append(frame.set_index(topic_column).rename_axis("topic"))
    scores = pd.concat(frames, axis=1, join="outer")
    if scores.isna().any().any():
        raise ValueError(f"{collection} {measure}: the files {_registry_names(collection, measure)} disagree on topics")
    if scores.columns.duplicated().any():
        raise ValueError(f"{collection} {measure}: duplicated run {scores.columns[scores.columns.duplicated()][0]!r}")
    return scores.astype(float)


def outlier_systems(collection: str) -> list[str]:
    """Runs of ``collection`` with MAP below 0.01 (the paper's outlier rule)."""
    return near_zero_systems(load_scores(collection, "AP").mean())


@lru_cache(maxsize=64)
def _analysis(collection: str, measure: str, outliers_removed: bool) -> tuple[pd.DataFrame, tuple, tuple]:
    scores = load_scores(collection, measure)
    if outliers_removed:
        scores = scores.drop(columns=outlier_systems(collection))
    topics, systems = boundary_constant(scores)
    return scores.drop(index=topics, columns=systems), tuple(topics), tuple(systems)


def analysis_scores(collection: str, measure: str, *, outliers_removed: bool = False) -> pd.DataFrame:
    """The matrix the GLMs are fitted to: outliers removed if asked, boundary-constant rows/columns dropped."""
    return _analysis(collection, measure, outliers_removed)[0]


def _variants() -> list[tuple[str, str, bool]]:
    variants = []
    for collection in COLLECTIONS:
        removals = (False, True) if outlier_systems(collection) else (False,)
        for removed in removals:
            for measure in measures_of(collection):
                variants.append((collection, measure, removed))
    return variants


@lru_cache(maxsize=256)
def fits(collection: str, measure: str, *, outliers_removed: bool = False, family: str = "gaussian") -> dict[str, TwoWayFit]:
    """The fitted GLM for every link (family Gaussian by default), keyed by link name."""
    scores = analysis_scores(collection, measure, outliers_removed=outliers_removed)
    links = LINK_NAMES if family == "gaussian" else ("logit", "probit", "cauchit")
    with threadpool_limits(limits=1, user_api="blas"):
        return {link: fit_two_way(scores, link=link, family=family) for link in links}


def deviance_table() -> pd.DataFrame:
    """One row per collection, measure, outlier variant and link: deviance and fit statistics."""
    rows = []
    for collection, measure, removed in _variants():
        scores, topics, systems = _analysis(collection, measure, removed)
        for link, fit in fits(collection, measure, outliers_removed=removed).items():
            rows.append(
                {
                    "collection": collection,
                    "measure": measure,
                    "outliers_removed": removed,
                    "link": link,
                    "deviance": fit.deviance,
                    "converged": fit.converged,
                    "iterations": fit.iterations,
                    "aic": fit.aic,
                    "bic": fit.bic,
                    "topics": scores.shape[0],
                    "systems": scores.shape[1],
                    "dropped_topics": len(topics),
                }
            )
    return pd.DataFrame(rows)


def table1(deviances: pd.DataFrame | None = None) -> pd.DataFrame:
    """The paper's Table 1 layout: links as rows, (collection, measure) as columns, deviance as values.

    A fit that did not converge is still shown with its last deviance; see ``deviance_table``.
    """
    deviances = deviance_table() if deviances is None else deviances
    labelled = deviances.assign(
        collection=np.where(deviances["outliers_removed"], deviances["collection"] + " w/o outliers", deviances["collection"])
    )
    wide = labelled.pivot(index="link", columns=["collection", "measure"], values="deviance")
    columns = list(dict.fromkeys(zip(labelled["collection"], labelled["measure"])))
    return wide[columns].reindex(list(LINK_NAMES))


def ssd_table(*, alpha: float = 0.05) -> pd.DataFrame:
    """ssd pairs per collection, measure, outlier variant and link (Tukey HSD and Holm)."""
    rows = []
    for collection, measure, removed in _variants():
        for link, fit in fits(collection, measure, outliers_removed=removed).items():
            counts = {}
            for method in ("tukey", "holm"):
                pairs = pairwise_contrasts(
                    fit.system_effects, fit.system_cov, df_resid=fit.df_resid, method=method, alpha=alpha
                )
                counts[method] = int(pairs["significant"].sum())
            rows.append(
                {
                    "collection": collection,
                    "measure": measure,
                    "link": link,
                    "ssd_pairs": counts["tukey"],
                    "pairs": len(pairs),
                    "outliers_removed": removed,
                    "ssd_pairs_holm": counts["holm"],
                    "converged": fit.converged,
                }
            )
    return pd.DataFrame(rows)


@lru_cache(maxsize=4)
def _consistency_runs(n_splits: int, seed: int) -> pd.DataFrame:
    frames = []
    with threadpool_limits(limits=1, user_api="blas"):
        for collection, measure, removed in _variants():
            runs = split_half_consistency(
                analysis_scores(collection, measure, outliers_removed=removed),
                links=LINK_NAMES,
                n_splits=n_splits,
                seed=seed,
            )
            frames.append(runs.assign(collection=collection, measure=measure, outliers_removed=removed))
    return pd.concat(frames, ignore_index=True)


def consistency_table(*, n_splits: int = CONSISTENCY_SPLITS, seed: int = CONSISTENCY_SEED) -> pd.DataFrame:
    """Split-half consistency per collection, measure, outlier variant and link (Tukey HSD, alpha 0.05).

    Counts are means over ``n_splits`` seeded splits; ``consistent_share`` = all active agreements /
    all pairs significant in at least one half; ``all_converged`` is False if any half failed to converge.
    """
    runs = _consistency_runs(n_splits, seed)
    keys = ["collection", "measure", "outliers_removed", "link"]
    grouped = runs.groupby(keys, sort=False)
    table = grouped[list(COUNT_COLUMNS) + ["pairs"]].mean()
    significant = grouped[["active_agreements", "active_disagreements", "passive_disagreements"]].sum().sum(axis=1)
    table["consistent_share"] = grouped["active_agreements"].sum() / significant.where(significant > 0)
    table["splits"] = grouped.size()
    table["all_converged"] = grouped["converged"].all()
    table["max_dropped_systems"] = grouped["dropped_systems"].max()
    return table.reset_index()


def consistency_verdict(table: pd.DataFrame | None = None) -> str:
    """A sentence comparing consistent ssd pairs of log and logit with identity, from the numbers.

    The paper's claim: log and logit detect more consistent ssd pairs (active agreements) than identity.
    Counted over every collection x measure x outlier variant of :func:`consistency_table`.
    """
    table = consistency_table() if table is None else table
    keys = ["collection", "measure", "outliers_removed"]
    wide = table.pivot_table(index=keys, columns="link", values="active_agreements")
    parts = []
    for link in ("log", "logit"):
        more = int((wide[link] > wide["identity"]).sum())
        fewer = int((wide[link] < wide["identity"]).sum())
        parts.append(f"{link} finds more consistent ssd pairs than identity in {more} of {len(wide)} settings and fewer in {fewer}")
    supported = all((wide[link] > wide["identity"]).sum() > len(wide) / 2 for link in ("log", "logit"))
    verdict = (
        "so the data support the paper's claim."
        if supported
        else "so on these data the paper's claim that log and logit detect more consistent ssd pairs than identity does not hold in general."
    )
    return "; ".join(parts).capitalize() + ", " + verdict


def system_effects(collection: str, measure: str, *, links: tuple[str, ...] = ("identity", "logit"), outliers_removed: bool = False) -> pd.DataFrame:
    """Centred system effects (mean zero over systems) with 95% t intervals, one row per link and system.

    Centring makes the effects independent of the reference system: with C = I - 11'/S, the centred
    effects are C s and their covariance C Sigma C'.
    """
    rows = []
    for link in links:
        fit = fits(collection, measure, outliers_removed=outliers_removed)[link]
        n_systems = len(fit.system_effects)
        centre = np.eye(n_systems) - 1.0 / n_systems
        effects = centre @ fit.system_effects.to_numpy()
        se = np.sqrt(np.diag(centre @ fit.system_cov @ centre.T))
        half_width = stats.t.ppf(0.975, fit.df_resid) * se
        rows.append(
            pd.DataFrame(
                {
                    "link": link,
                    "system": fit.system_effects.index,
                    "effect": effects,
                    "se": se,
                    "lower": effects - half_width,
                    "upper": effects + half_width,
                }
            )
        )
    return pd.concat(rows, ignore_index=True)


def mean_variance(collection: str, measure: str) -> pd.DataFrame:
    """Per-system mean and variance of the scores over topics (the GLM motivation: variance depends on mean)."""
    scores = load_scores(collection, measure)
    return pd.DataFrame({"mean": scores.mean(), "variance": scores.var(ddof=1)}).rename_axis("system").reset_index()


def residuals(collection: str, measure: str, *, outliers_removed: bool = False) -> pd.DataFrame:
    """Long table (link, topic, system, observed, fitted, residual, pearson) of every Gaussian fit."""
    scores = analysis_scores(collection, measure, outliers_removed=outliers_removed)
    frames = []
    for link, fit in fits(collection, measure, outliers_removed=outliers_removed).items():
        residual = (scores - fit.fitted).to_numpy().ravel()
        frames.append(
            pd.DataFrame(
                {
                    "link": link,
                    "observed": scores.to_numpy().ravel(),
                    "fitted": fit.fitted.to_numpy().ravel(),
                    "residual": residual,
                    "pearson": residual / np.sqrt(fit.scale),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def data_summary() -> pd.DataFrame:
    """What the chapter runs on: per collection and measure, topics, runs, outliers and dropped topics."""
    rows = []
    for collection in COLLECTIONS:
        outliers = outlier_systems(collection)
        for measure in measures_of(collection):
            scores = load_scores(collection, measure)
            _, topics, systems = _analysis(collection, measure, False)
            rows.append(
                {
                    "collection": collection,
                    "measure": measure,
                    "topics": scores.shape[0],
                    "runs": scores.shape[1],
                    "zero_scores": float((scores == 0).to_numpy().mean()),
                    "outliers (MAP < 0.01)": ", ".join(outliers) or "none",
                    "dropped all-0/all-1 topics": ", ".join(topics) or "none",
                    "dropped all-0/all-1 runs": ", ".join(systems) or "none",
                }
            )
    return pd.DataFrame(rows)


def write_tables(out_dir: Path) -> list[Path]:
    """Write ``deviance.csv``, ``ssd_pairs.csv`` and ``consistency.csv`` into ``out_dir``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    tables = {
        "deviance.csv": deviance_table(),
        "ssd_pairs.csv": ssd_table(),
        "consistency.csv": consistency_table(),
    }
    paths = []
    for name, table in tables.items():
        path = out_dir / name
        table.to_csv(path, index=False)
        paths.append(path)
    return paths


def lowest_deviance(wide: pd.DataFrame | None = None) -> pd.Series:
    """For each column of :func:`table1`, the link with the lowest deviance."""
    wide = table1() if wide is None else wide
    return wide.idxmin()


def deviance_claims(wide: pd.DataFrame | None = None) -> pd.DataFrame:
    """The paper's statements about Table 1, checked column by column on these data."""
    wide = table1() if wide is None else wide
    columns = len(wide.columns)
    checks = {
        "exp has the highest deviance (worst fit)": (wide.idxmax() == "exp"),
        "identity has a higher deviance than log": wide.loc["identity"] > wide.loc["log"],
        "identity has a higher deviance than logit": wide.loc["identity"] > wide.loc["logit"],
        "tanh lies between identity and logit": (wide.loc["tanh"] < wide.loc["identity"]) & (wide.loc["tanh"] > wide.loc["logit"]),
        "logit has the lowest deviance": wide.idxmin() == "logit",
        "logit, probit or cauchit has the lowest deviance": wide.idxmin().isin(["logit", "probit", "cauchit"]),
    }
    rows = [
        {"paper's statement": claim, "columns where it holds": int(holds.sum()), "columns": columns, "holds in most": bool(holds.sum() > columns / 2)}
        for claim, holds in checks.items()
    ]
    return pd.DataFrame(rows)


def data_files() -> list[str]:
    """Registry names of every file this chapter reads."""
    return [name for collection in COLLECTIONS for measure in measures_of(collection) for name in _registry_names(collection, measure)]


# --------------------------------------------------------------------------- for the chapter's text

#: What the chapter's tables ran on, as their captions say it.
DATA_LABEL = (
    "per-topic scores of the TREC 2004 Robust runs and of the SIGIR 2020 Core17/Core18 runs "
    "(see the data table)"
)


def by_link(table: pd.DataFrame, values: str, *, first: str | None = None) -> pd.DataFrame:
    """One statistic of a per-(collection, measure, outliers, link) table with the settings as rows
    and the links as columns, in the paper's link order (a page is too narrow for the paper's
    14 setting columns). Rows are (collection, measure), the collection named "... w/o outliers"
    when the outliers are removed; ``first`` adds a per-setting column (e.g. ``pairs``) before the links.
    """
    labelled = table.assign(
        collection=np.where(table["outliers_removed"], table["collection"] + " w/o outliers", table["collection"])
    )
    wide = labelled.pivot_table(index=["collection", "measure"], columns="link", values=values, sort=False)
    wide = wide[list(LINK_NAMES)]
    wide.columns.name = None
    if first is not None:
        wide.insert(0, first, labelled.groupby(["collection", "measure"], sort=False)[first].first())
    return wide


def unconverged_fits(deviances: pd.DataFrame) -> pd.DataFrame:
    """The fits of :func:`deviance_table` that did not converge: setting, link, iterations, deviance."""
    columns = ["collection", "measure", "outliers_removed", "link", "iterations", "deviance"]
    return deviances.loc[~deviances["converged"], columns]


def convergence_summary(deviances: pd.DataFrame) -> dict[str, int]:
    """How many fits :func:`deviance_table` made and how many converged."""
    return {"fits": len(deviances), "converged": int(deviances["converged"].sum())}


def lowest_deviance_counts(wide: pd.DataFrame | None = None) -> str:
    """In how many settings (columns of :func:`table1`) each link has the lowest deviance, as text:
    ``logit 6, probit 4, ...`` (most often first)."""
    counts = lowest_deviance(wide).value_counts()
    return ", ".join(f"{link} {count}" for link, count in counts.items())


def consistency_summary(table: pd.DataFrame) -> dict[str, object]:
    """The split-half setup and the active disagreements over every setting and link of
    :func:`consistency_table`, and the verdict sentence of :func:`consistency_verdict`."""
    return {
        "splits": int(table["splits"].max()),
        "seed": CONSISTENCY_SEED,
        "active_disagreements": float(table["active_disagreements"].sum()),
        "verdict": consistency_verdict(table),
    }
