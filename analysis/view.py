"""How a run's tables read: its world's endpoint, unit, caveats and paper figures, resolved once.

A run folder's ``world.json`` (:func:`analysis.load.load_world`) says what a record's ``success`` means,
what a ``group_id`` is, which of the paper's figures belong to the world and which caveats stand beside
every table. A run without one (written before the runner wrote it) reads as the data file says such runs
read (``runs_without_world_json`` in ``results/paper``: the first world's wording and figures), unless
its records name another world: then the wording is neutral and no paper figure is shown. Nothing here
names a world; every world-specific word comes from ``world.json`` or ``results/paper``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analysis import paper
from analysis.load import World

PAPER_LABEL = "paper"
# Today's wording, for runs written before world.json (the first world's); the world's own words replace them.
DEFAULT_ENDPOINT = "success (process judge, the paper's endpoint)"
DEFAULT_UNIT = "workflow"
# A world.json that leaves a key out (Plugin.presentation's empty default).
NEUTRAL_ENDPOINT = "the world's judge"
NEUTRAL_UNIT = "group"


def plural(word: str) -> str:
    """English plural of a unit word ("workflow", "user", "task family")."""
    if word.endswith("y") and word[-2:-1] not in tuple("aeiou"):
        return word[:-1] + "ies"
    return word if word.endswith("s") else word + "s"


@dataclass(frozen=True)
class View:
    """What every table of one run says about its world."""

    endpoint: str = DEFAULT_ENDPOINT  # what ``success`` means here
    unit: str = DEFAULT_UNIT  # what a group_id is
    paper: str | None = None  # the key of this world's figures in results/paper; None: none to show
    header: tuple[str, ...] = ()  # lines every table of this run carries (world, unit, caveats)
    no_paper: str = ""  # why no paper figure stands here ("" when the world has figures)
    world: str | None = None

    @property
    def units(self) -> str:
        return plural(self.unit)

    @property
    def clusters(self) -> str:
        """The headline unit of a clustered test ("workflows as clusters")."""
        return f"{self.units} as clusters"

    def figures(self, name: str):
        """This world's paper figures for table ``name``, or None."""
        return paper.figures(self.paper, name)

    def no_figures(self, what: str) -> list[str]:
        """The note of a table that shows no paper figure: why (none when the header already says it)."""
        if self.no_paper and any(self.no_paper in line for line in self.header):
            return []
        why = self.no_paper or f"the paper reports no {what} for this world"
        return [f"{PAPER_LABEL}: {why}"]


def _envs(records: pd.DataFrame | None) -> list[str]:
    if records is None or "env" not in records.columns or not len(records):
        return []
    return sorted(records["env"].dropna().astype(str).unique())


def resolve(world: World | View | None, records: pd.DataFrame | None = None) -> View:
    """The :class:`View` of a run: from its ``world.json`` (``world``), else the data file's rule for runs
    without one. A View passes through unchanged."""
    if isinstance(world, View):
        return world
    envs = _envs(records)
    if world is None:
        legacy = paper.runs_without_world_json()
        if not envs or envs == [legacy.get("world")]:
            return View(paper=_with_figures(legacy.get("paper")), world=legacy.get("world"))
        said = (
            f"no world.json in the run folder (it predates the runner writing one) and its records are of "
            f"{', '.join(envs)}: neutral wording, no paper figures"
        )
        return View(
            NEUTRAL_ENDPOINT, NEUTRAL_UNIT, None, (said,), "no world.json says which figures are this world's"
        )
    endpoint = world.endpoint or NEUTRAL_ENDPOINT
    unit = world.unit or NEUTRAL_UNIT
    opts = ", ".join(f"{k}={v}" for k, v in sorted(world.options.items()))
    name = world.name or "unnamed"
    header = [
        f"world: {name}{f' ({opts})' if opts else ''}; endpoint: {endpoint}; unit: pairs clustered by {unit} "
        f"(a group_id is one {unit})"
    ]
    key, no_paper = world.paper, ""
    if key is None:
        no_paper = (
            "the paper ran no study of this world (world.json: paper null); no paper figure stands here"
        )
    elif paper.section(key) is None:
        no_paper = f"results/paper holds no figures for {key!r}; no paper figure stands here"
    if no_paper:
        header.append(f"{PAPER_LABEL}: {no_paper}")
    elif (paper.section(key) or {}).get("endpoint"):
        header.append(
            f"{PAPER_LABEL}: its figures for this world are on the endpoint {paper.section(key)['endpoint']}"
        )
    if envs and world.name and envs != [world.name]:
        header.append(f"records name world(s) {', '.join(envs)}, world.json names {world.name}")
    header += list(world.notes)
    return View(endpoint, unit, key if not no_paper else None, tuple(header), no_paper, world.name)


def _with_figures(key: str | None) -> str | None:
    return key if paper.section(key) is not None else None
