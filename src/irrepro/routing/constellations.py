"""The routing systems and the parameter constellations of the SIGIR 2020 reproducibility dataset.

:data:`TRAINING_COLLECTIONS`: the training collections of WCrobust04 (Robust04) and WCrobust0405 (Robust04 and
Robust05), by role name.

Breuer et al. (SIGIR 2020) derived 200 runs from WCrobust04 / WCrobust0405 by changing one parameter
of the routing pipeline at a time; the paper prints 20 of them, in four families of five levels:
``tf`` (tf-idf ``max_features``), ``df`` (``max_df``), ``tol`` (logistic-regression tolerance) and
``C`` (inverse regularisation strength). Constellation 1 is the default: ``C=1.5``, ``tol=1e-4``,
``max_df=1.0``, ``max_features=None`` (all terms); the 2020 code adds sublinear tf (the ``sigir2020``
implementation of :mod:`irrepro.routing.implementations`; the ``paper`` one keeps raw tf).

Source: irgroup/sigir2020-measure-reproducibility @ 8a44294f6b4e00acf4ad3182782c7e185035b5cc,
``config/param.py`` and the ``run_numbers_print`` / ``new_run_names`` of
``evaluation/matlab/*_SIGIR2020_final.m`` (the constellation numbers are the run suffixes of the
published per-topic files, e.g. ``rpl_wcrobust04_45``). ``max_features`` and ``max_df`` are given as a
share of the vocabulary / of the documents, as in the authors' code.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TRAINING_COLLECTIONS", "TOL_SCALES", "IMPLEMENTATION_NAMES", "Constellation", "DEFAULT", "PRINTED", "FAMILIES", "by_name"]

#: Training roles of the two systems (Breuer & Schaer, CENTRE@CLEF 2019).
TRAINING_COLLECTIONS: dict[str, tuple[str, ...]] = {"wcrobust04": ("robust04",), "wcrobust0405": ("robust04", "robust05")}

#: The implementations of :mod:`irrepro.routing.implementations` (named here, in a light module, for the CLI).
IMPLEMENTATION_NAMES = ("paper", "clef2019", "sigir2020")

#: The loss whose gradient ``tol`` bounds: "mean" (scikit-learn >= 1.4) or "sum" (< 1.4); see
#: :mod:`irrepro.routing.classifier`.
TOL_SCALES = ("mean", "sum")


@dataclass(frozen=True)
class Constellation:
    """One run configuration: the paper's name, the dataset's number and its parameters.

    Parameters
    ----------
    name : str
        The paper's suffix: "default", "tf_1" ... "C_5".
    constellation_id : int
        The number in the published run names (``rpl_wcrobust04_<id>``).
    C : float, default 1.5
        The logistic regression's inverse regularisation strength.
    tol : float, default 1e-4
        The solver's tolerance.
    max_df : float, default 1.0
        tf-idf's ``max_df``.
    max_features : float or None, default None
        Share of the vocabulary kept; None keeps all terms.
    """

    name: str  # the paper's suffix: "default", "tf_1" ... "C_5"
    constellation_id: int  # the number in the published run names (rpl_wcrobust04_<id>)
    C: float = 1.5
    tol: float = 1e-4
    max_df: float = 1.0
    max_features: float | None = None  # share of the vocabulary kept; None keeps all terms

    @property
    def family(self) -> str:
        """The family: the name without its level (``tf`` of ``tf_1``)."""
        return self.name.rsplit("_", 1)[0]

    @property
    def level(self) -> int:
        """The level: the name's number (1 of ``tf_1``)."""
        return int(self.name.rsplit("_", 1)[1])

    def replicated_name(self, system: str) -> str:
        """Give the paper's row name: ``rpl_wcr04_tf_1`` / ``rpl_wcr0405_tf_1``.

        Parameters
        ----------
        system : str
            ``"WCrobust04"`` or ``"WCrobust0405"``.

        Returns
        -------
        str
            The row name.
        """
        short = {"WCrobust04": "wcr04", "WCrobust0405": "wcr0405"}[system]
        return f"rpl_{short}_{self.name}"

    @property
    def reproduced_name(self) -> str:
        """The paper's row name in the reproducibility tables: ``rpd_tf_1``."""
        return f"rpd_{self.name}"

    def dataset_column(self, system: str, setting: str = "rpl") -> str:
        """Give the column of the published per-topic files: ``rpl_wcrobust04_45``.

        Parameters
        ----------
        system : str
            ``"WCrobust04"`` or ``"WCrobust0405"``.
        setting : str, default "rpl"
            ``"rpl"`` or ``"rpd"``.

        Returns
        -------
        str
            The column name.
        """
        return f"{setting}_{system.lower()}_{self.constellation_id}"


DEFAULT = Constellation("default", 1)

PRINTED: tuple[Constellation, ...] = (
    Constellation("tf_1", 45, max_features=0.1),
    Constellation("tf_2", 46, max_features=0.05),
    Constellation("tf_3", 47, max_features=0.025),
    Constellation("tf_4", 48, max_features=0.0125),
    Constellation("tf_5", 49, max_features=0.00625),
    Constellation("df_1", 14, max_df=0.1),
    Constellation("df_2", 15, max_df=0.05),
    Constellation("df_3", 16, max_df=0.025),
    Constellation("df_4", 17, max_df=0.0125),
    Constellation("df_5", 18, max_df=0.00625),
    Constellation("tol_1", 39, tol=1.0),
    Constellation("tol_2", 38, tol=2.0),
    Constellation("tol_3", 37, tol=5.0),
    Constellation("tol_4", 36, tol=10.0),
    Constellation("tol_5", 35, tol=25.0),
    Constellation("C_1", 44, C=25.0),
    Constellation("C_2", 43, C=10.0),
    Constellation("C_3", 42, C=1.0),
    Constellation("C_4", 41, C=0.1),
    Constellation("C_5", 40, C=0.01),
)

FAMILIES: tuple[str, ...] = ("tf", "df", "tol", "C")


def by_name(name: str) -> Constellation:
    """Give the preset called ``name`` ("default", "tf_1" ... "C_5").

    Parameters
    ----------
    name : str
        The preset's name.

    Returns
    -------
    Constellation
        The preset.

    Raises
    ------
    ValueError
        For an unknown name.
    """
    for constellation in (DEFAULT, *PRINTED):
        if constellation.name == name:
            return constellation
    known = ", ".join(c.name for c in (DEFAULT, *PRINTED))
    raise ValueError(f"unknown constellation {name!r}; known: {known}")
