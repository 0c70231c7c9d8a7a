"""Episode records in, paired frames out: the only place analysis touches ``episodes.jsonl``.

A record is one JSON line, written by the runner through ``harness.records`` (the only harness module
analysis imports); it is read through the same schema: every line validated (versions 1 and 2
upgraded in memory), the file's hash chain checked, and the frame's columns are the schema's fields
(plus ``stratum``). A broken chain (a record edited, removed, inserted or moved after it was
written) is a warning naming the line: the tables are still made, from the records as they are.
Pairs are rows with the same ``pair_id`` and different ``arm``. A pair where either arm ended in an
infrastructure status (``infra_error``, ``env_error``) or is missing is dropped and counted, never
scored. Clusters are ``group_id``; strata are the record's ``strata`` mapping, whatever the world put
there. This module knows nothing about statistics, plots or litellm.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from harness.records import INFRA_STATUSES, NOTICE_KINDS, RECORD_FIELDS, scan

COLUMNS: tuple[str, ...] = (*RECORD_FIELDS, "stratum")  # every column of a records frame, in order
# Descriptive columns carried from the baseline row onto the pair row.
PAIR_COLUMNS: tuple[str, ...] = (
    "study", "model", "task_id", "group_id", "fault_class", "fault_kind", "stratum", "env", "scripted",
)  # fmt: skip


@dataclass
class LoadReport:
    """What loading skipped, filled in or found changed, so tables can state it."""

    n_lines: int = 0
    torn_lines: int = 0  # an unfinished last line (no newline: a torn append), skipped
    missing_keys: list[str] = field(
        default_factory=list
    )  # keys older records lacked, filled as "not recorded"
    duplicates: int = 0  # repeated (pair_id, arm) rows; the last one wins (a resumed run)
    chain_breaks: list[str] = field(default_factory=list)  # "line N (episode X): edited: ..." per break
    source: str = ""  # the records file

    def warnings(self) -> list[str]:
        """What a reader must be told before the tables: a torn line skipped, records changed."""
        out = [f"{self.source}: skipped a torn final line"] if self.torn_lines else []
        if self.chain_breaks:
            out.append(
                f"{self.source}: {self.chain_breaks[0]}; {len(self.chain_breaks)} break(s) in all: records "
                "changed after they were written are analysed as they are (python -m harness.verify --run DIR "
                "lists them)"
            )
        return out


WORLD_FILE = "world.json"


@dataclass(frozen=True)
class World:
    """How a run's results read, from the ``world.json`` the runner writes beside the records (the world
    plugin's presentation): ``endpoint`` (what a record's ``success`` means), ``unit`` (what a ``group_id``
    is), ``paper`` (the key of this world's figures in ``results/paper``, None: the paper ran none),
    ``notes`` (caveats for every table). ``source`` is the file read, "" for a run without one."""

    name: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    endpoint: str | None = None
    unit: str | None = None
    paper: str | None = None
    notes: tuple[str, ...] = ()
    source: str = ""


def load_world(run_dir: str | Path) -> World | None:
    """The run's ``world.json`` as a :class:`World`; None when the folder has none (runs written before
    the runner wrote it). A file that is no JSON object raises ValueError naming it."""
    folder = Path(run_dir)
    folder = folder.parent if folder.suffix == ".jsonl" else folder
    path = folder / WORLD_FILE
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ValueError(f"{path}: not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: not a JSON object")

    def text(key: str) -> str | None:
        return str(data[key]) if data.get(key) not in (None, "") else None

    notes = [str(n) for n in data.get("notes") or ()]
    covered = coverage_line(folder)
    if covered:
        notes.append(covered)
    return World(
        name=text("name"),
        options=dict(data.get("options") or {}),
        endpoint=text("endpoint"),
        unit=text("unit"),
        paper=text("paper"),
        notes=tuple(notes),
        source=str(path),
    )


COVERAGE_FILE = "coverage.json"


def coverage_line(run_dir: str | Path) -> str | None:
    """What the run's monitor reads of the world's results, from the ``coverage.json`` the runner writes
    beside the records: one line for the tables' notes and the report; None without the file (no
    monitored arm, or a run written before it). A file that is not a coverage summary raises ValueError."""
    path = Path(run_dir) / COVERAGE_FILE
    if not path.is_file():
        return None
    try:
        cov = json.loads(path.read_text(encoding="utf-8"))
        share, value, paths, unread = cov["share"], cov["value_share"], cov["paths"], len(cov["no_rule"])
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: not a coverage summary ({exc})") from None
    return (
        f"monitor coverage: {100 * share:.1f}% of {paths} result paths of the world's clean results are read "
        f"by some rule, {100 * value:.1f}% by one beyond presence and type; {unread} path(s) no rule reads "
        f"({COVERAGE_FILE} lists them with why)"
    )


def episodes_path(run_dir: str | Path) -> Path:
    p = Path(run_dir)
    return p if p.suffix == ".jsonl" else p / "episodes.jsonl"


def load_records(run_dir: str | Path, report: LoadReport | None = None) -> pd.DataFrame:
    """All records of a run as a DataFrame with a column per schema field (and ``stratum``).

    Raises FileNotFoundError without a records file and ``RecordCorruptError`` (a ValueError) naming
    the line that is no valid record. A broken chain or a torn last line is a warning, kept in ``report``.
    """
    rep = report if report is not None else LoadReport()
    path = episodes_path(run_dir)
    if not path.exists():
        raise FileNotFoundError(
            f"{path}: no episode records here; point --run at a run folder (it holds "
            "episodes.jsonl) or run the study first"
        )
    s = scan(path)
    rep.source, rep.n_lines = str(path), len(s.records)
    rep.torn_lines += bool(s.torn)
    rep.chain_breaks = [b.describe() for b in s.breaks]
    for said in rep.warnings():  # the command line prints rep.warnings() itself, once
        warnings.warn(said, stacklevel=2)
    rep.missing_keys = [k for k in RECORD_FIELDS if k in s.filled]
    return records_frame(s.records)


def records_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """Validated records (``harness.records`` dicts) as the analysis frame: a column per field, typed."""
    if not rows:
        return pd.DataFrame({k: pd.Series(dtype=object) for k in COLUMNS})
    df = pd.DataFrame({k: [r[k] for r in rows] for k in RECORD_FIELDS})
    for k in ("cost_usd", "reviewer_cost_usd", "latency_s", "prompt_tokens", "completion_tokens"):
        df[k] = df[k].astype(float)  # sums and means of these are reported as floats
    df["stratum"] = df["strata"].apply(stratum_label)
    return df


def stratum_label(strata: object) -> str:
    """One label from a record's strata, values in key order ("C3 P4"); "-" when it has none."""
    if not isinstance(strata, dict) or not strata:
        return "-"
    return " ".join(str(strata[k]) for k in sorted(strata))


@dataclass
class PairedFrame:
    """One row per pair with ``y_base``/``y_treat`` (0/1), plus how many pairs were dropped and why."""

    pairs: pd.DataFrame
    baseline: str
    treatment: str
    dropped_infra: int = 0  # either arm ended in infra_error or env_error
    dropped_missing: int = 0  # one arm has no record (not run yet, or lost)
    duplicates: int = 0
    endpoint: str = "success"
    dropped_no_endpoint: int = 0  # either arm's record lacks the endpoint (e.g. outcome_correct is None)
    notices: dict[str, int] = field(default_factory=dict)  # notice code -> episodes of these arms carrying it

    @property
    def n(self) -> int:
        return len(self.pairs)

    @property
    def scripted(self) -> bool:
        return bool(len(self.pairs)) and bool(self.pairs["scripted"].any())


ENDPOINTS: tuple[str, ...] = ("success", "outcome_correct")


def has_endpoint(records: pd.DataFrame, endpoint: str) -> bool:
    """True when some scored record carries a value for ``endpoint`` (older runs lack outcome_correct)."""
    if endpoint not in records.columns or not len(records):
        return False
    scored = records[~records["status"].isin(INFRA_STATUSES)]
    return bool(scored[endpoint].notna().any())


def build_pairs(
    records: pd.DataFrame, treatment: str = "monitor", baseline: str = "baseline", endpoint: str = "success"
) -> PairedFrame:
    """Join the two arms on ``pair_id``: drop and count infra-error and one-armed pairs.

    ``endpoint`` names the 0/1 column scored: ``success`` (the world's process judge) or
    ``outcome_correct``; a pair where either arm has no value for it is dropped and counted.
    """
    if endpoint not in ENDPOINTS:
        raise ValueError(f"endpoint must be one of {ENDPOINTS}, got {endpoint!r}")
    sub = records[records["arm"].isin([baseline, treatment])]
    before = len(sub)
    sub = sub.drop_duplicates(subset=["pair_id", "arm"], keep="last")
    duplicates = before - len(sub)
    base = sub[sub["arm"] == baseline].set_index("pair_id")
    treat = sub[sub["arm"] == treatment].set_index("pair_id")
    ids = base.index.union(treat.index)
    both = base.index.intersection(treat.index)
    dropped_missing = len(ids) - len(both)
    infra = base.loc[both, "status"].isin(INFRA_STATUSES) | treat.loc[both, "status"].isin(INFRA_STATUSES)
    keep = both[~infra.to_numpy()]
    if endpoint not in base.columns:
        missing = pd.Series(True, index=keep)
    else:
        missing = base.loc[keep, endpoint].isna() | treat.loc[keep, endpoint].isna()
    no_endpoint = int(missing.sum())
    keep = keep[~missing.to_numpy()]
    cols = [c for c in PAIR_COLUMNS if c in base.columns]
    pairs = base.loc[keep, cols].copy()
    pairs["y_base"] = base.loc[keep, endpoint].astype(bool).astype(int).to_numpy()
    pairs["y_treat"] = treat.loc[keep, endpoint].astype(bool).astype(int).to_numpy()
    pairs["scripted"] = base.loc[keep, "scripted"].to_numpy() | treat.loc[keep, "scripted"].to_numpy()
    pairs = pairs.reset_index().rename(columns={"index": "pair_id"}).sort_values("pair_id", kind="stable")
    return PairedFrame(
        pairs=pairs.reset_index(drop=True),
        baseline=baseline,
        treatment=treatment,
        dropped_infra=int(infra.sum()),
        dropped_missing=int(dropped_missing),
        duplicates=int(duplicates),
        endpoint=endpoint,
        dropped_no_endpoint=no_endpoint,
        notices=notice_counts(sub),
    )


def notice_counts(records: pd.DataFrame) -> dict[str, int]:
    """Notice code -> how many of these records carry it (``notices``: what was plugged in and did nothing)."""
    counts: dict[str, int] = {}
    for codes in records["notices"] if "notices" in records.columns else ():
        for code in codes or ():
            counts[code] = counts.get(code, 0) + 1
    return dict(sorted(counts.items()))


def notice_lines(counts: dict[str, int]) -> list[str]:
    """One line per notice: its code, how many episodes, and what it means."""
    return [
        f"notice {code} in {n} episode(s): {NOTICE_KINDS.get(code.partition(':')[0], 'unknown kind')}"
        for code, n in counts.items()
    ]
