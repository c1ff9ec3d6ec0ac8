"""One cost measured for irrepro and for its peer in the same run, and their ratio.

Every quantity compared here is a cost (seconds, MiB): lower is better. The ratio is
``peer / irrepro``, so above 1 irrepro needs less (is faster, or uses less memory) and below 1 the
peer does; 2.0 reads "half the peer's time".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from perf.processes import ProcessCost

#: What a ratio above 1 means, by unit.
BETTER = {"s": "irrepro is faster", "MiB": "irrepro uses less memory"}


@dataclass(frozen=True)
class Comparison:
    """One ``quantity`` (``"peak memory (median of 3)"``) of irrepro's ``task`` (``"irrepro evaluate"``)
    and of the same work done by ``peer``: irrepro's cost ``ours``, the peer's ``theirs``, in ``unit``,
    on an input described by ``input_size``. ``meaning`` says what a ratio above 1 means where the
    unit's default (:data:`BETTER`) would not (irrepro against irrepro)."""

    task: str
    quantity: str
    peer: str
    ours: float
    theirs: float
    unit: str
    input_size: str
    meaning: str | None = None

    def __post_init__(self):
        if self.unit not in BETTER:
            raise ValueError(f"unit is one of {sorted(BETTER)}; got {self.unit!r}")
        if not (self.ours > 0 and self.theirs > 0):
            raise ValueError(f"{self.measure}: a cost is positive; got irrepro {self.ours!r}, {self.peer} {self.theirs!r}")

    @property
    def measure(self) -> str:
        """``task: quantity``, as the table's rows name it."""
        return f"{self.task}: {self.quantity}"

    @property
    def ratio(self) -> float:
        """``theirs / ours``: how many times irrepro's cost the peer's is (> 1: irrepro needs less)."""
        return self.theirs / self.ours

    @property
    def better(self) -> str:
        """What a ratio above 1 means for this quantity."""
        return self.meaning or BETTER[self.unit]


def with_unit(value: float, unit: str) -> str:
    """``value`` and its unit joined by a no-break space, three significant digits (``0.961 s``, ``112 MiB``);
    seconds below 0.1 in ms."""
    if unit == "s" and value < 0.1:
        value, unit = value * 1000, "ms"
    return f"{value:.3g}\u00a0{unit}" if value < 1000 else f"{value:,.0f}\u00a0{unit}"


def comparison_frame(comparisons: Sequence[Comparison]) -> pd.DataFrame:
    """One row per comparison, labelled ``"TASK vs PEER:QUANTITY"`` (the book's tables group rows by the
    part before the colon): irrepro's cost, the peer's, the ratio, what a ratio above 1 means, the input."""
    labels = [f"{c.task} vs {c.peer}:{c.quantity}" for c in comparisons]
    return pd.DataFrame(
        {
            "irrepro": [with_unit(c.ours, c.unit) for c in comparisons],
            "peer": [with_unit(c.theirs, c.unit) for c in comparisons],
            "ratio peer / irrepro": [c.ratio for c in comparisons],
            "a ratio > 1 means": [c.better for c in comparisons],
            "input size": [c.input_size for c in comparisons],
        },
        index=pd.Index(labels, name="measure"),
    )


#: The quantities of a process's cost: (attribute of ProcessCost, name, unit).
PROCESS_QUANTITIES = {"peak_mib": ("peak memory", "MiB"), "wall_s": ("wall-clock time", "s"), "cpu_s": ("CPU time", "s")}


def from_processes(ours: ProcessCost, theirs: ProcessCost, *, task: str, peer: str, repeats: int, input_size: str,
                   quantities: Sequence[str] = ("peak_mib", "wall_s", "cpu_s"),
                   meanings: dict[str, str] | None = None) -> list[Comparison]:  # fmt: skip
    """One :class:`Comparison` per quantity of two commands' median costs (``task`` names irrepro's command;
    ``meanings``: what a ratio above 1 means, by unit, where :data:`BETTER` would not say it)."""
    return [
        Comparison(task, f"{PROCESS_QUANTITIES[q][0]} (median of {repeats})", peer, getattr(ours, q), getattr(theirs, q),
                   PROCESS_QUANTITIES[q][1], input_size, (meanings or {}).get(PROCESS_QUANTITIES[q][1]))  # fmt: skip
        for q in quantities
    ]
