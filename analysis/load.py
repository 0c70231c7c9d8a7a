"""Episode records in, paired frames out: the only place analysis touches ``episodes.jsonl``.

A record is one JSON object per line (written by the runner; its schema is ``harness.records``, the
only harness module analysis imports). Pairs are rows with the same ``pair_id`` and different
``arm``. A pair where either arm ended in an infrastructure status (``infra_error``, ``env_error``)
or is missing is dropped and counted, never scored. Clusters are ``group_id``; strata are the
record's ``strata`` mapping, whatever the world put there. This module knows nothing about
statistics, plots or litellm.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from harness.records import INFRA_STATUSES, STATUSES, RecordCorruptError

RECORD_KEYS: tuple[str, ...] = (
    "study", "arm", "model", "task_id", "group_id", "fold", "fault_class", "fault_kind", "seed",
    "pair_id", "success", "status", "env", "strata", "replicate", "episode_id", "scripted",
    "outcome_correct", "user_cost_usd",
    "tool_calls", "n_tool_calls", "receipts", "n_receipts", "hit", "prompt_tokens", "completion_tokens",
    "cost_usd", "reviewer_calls", "reviewer_cost_usd", "latency_s", "error", "transcript", "trace_check",
)  # fmt: skip
# Without these no pair can be formed or scored: a record lacking one is an error, not a warning.
CORE_KEYS: tuple[str, ...] = ("arm", "model", "group_id", "pair_id", "success", "status")
# Descriptive columns carried from the baseline row onto the pair row.
PAIR_COLUMNS: tuple[str, ...] = (
    "study", "model", "task_id", "group_id", "fault_class", "fault_kind", "stratum", "env", "scripted",
)  # fmt: skip


@dataclass
class LoadReport:
    """What loading skipped or filled in, so tables can state it."""

    n_lines: int = 0
    torn_lines: int = 0  # an unparsable final line without its newline (a torn append), skipped
    missing_keys: list[str] = field(default_factory=list)  # optional keys absent from every record
    duplicates: int = 0  # repeated (pair_id, arm) rows; the last one wins (a resumed run)


def episodes_path(run_dir: str | Path) -> Path:
    p = Path(run_dir)
    return p if p.suffix == ".jsonl" else p / "episodes.jsonl"


def load_records(run_dir: str | Path, report: LoadReport | None = None) -> pd.DataFrame:
    """All records of a run as a DataFrame with every key of :data:`RECORD_KEYS` present.

    Raises FileNotFoundError without a records file and ValueError if a record lacks a core key or
    has an unknown status. Missing optional keys become None and are listed in ``report``.
    """
    rep = report if report is not None else LoadReport()
    path = episodes_path(run_dir)
    if not path.exists():
        raise FileNotFoundError(
            f"{path}: no episode records here; point --run at a run folder (it holds "
            "episodes.jsonl) or run the study first"
        )
    data = path.read_bytes()
    cut = data.rfind(b"\n") + 1  # a final line without its newline is a torn append, not corruption
    rows: list[dict] = []
    for lineno, line in enumerate(data[:cut].split(b"\n")[:-1], start=1):
        if not line.strip():
            continue
        rep.n_lines += 1
        try:
            obj = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RecordCorruptError(
                f"{path}:{lineno}: corrupt record in the middle of the file ({exc}); it is "
                "not a torn final line: inspect or remove that line"
            ) from None
        if not isinstance(obj, dict):
            raise RecordCorruptError(f"{path}:{lineno}: expected a JSON object, got {type(obj).__name__}")
        rows.append(obj)
    if data[cut:].strip():
        rep.torn_lines += 1
        warnings.warn(f"{path}: skipped a torn final line", stacklevel=2)
    return validate_records(pd.DataFrame(rows), rep, source=str(path))


def validate_records(
    df: pd.DataFrame, report: LoadReport | None = None, source: str = "records"
) -> pd.DataFrame:
    """Check core keys and statuses, add absent optional keys as None, normalise types."""
    rep = report if report is not None else LoadReport()
    if df.empty:
        return pd.DataFrame({k: pd.Series(dtype=object) for k in (*RECORD_KEYS, "stratum")})
    if "group_id" not in df.columns and "workflow_id" in df.columns:  # version-1 records
        df = df.assign(group_id=df["workflow_id"])
    missing_core = [k for k in CORE_KEYS if k not in df.columns]
    if missing_core:
        raise ValueError(f"{source}: records lack core key(s) {missing_core}")
    for k in CORE_KEYS:
        bad = df[k].isna()
        if bad.any():
            raise ValueError(f"{source}: {int(bad.sum())} record(s) have no {k!r}")
    unknown = sorted(set(df["status"]) - set(STATUSES))
    if unknown:
        raise ValueError(f"{source}: unknown status value(s) {unknown}; expected one of {STATUSES}")
    df = upgrade_v1(df.copy())
    rep.missing_keys = [k for k in RECORD_KEYS if k not in df.columns]
    for k in rep.missing_keys:
        df[k] = None
    df["success"] = df["success"].astype(bool)
    df["scripted"] = df["scripted"].fillna(False).astype(bool)
    for k in ("n_receipts", "n_tool_calls", "reviewer_calls"):
        df[k] = pd.to_numeric(df[k], errors="coerce").fillna(0).astype(int)
    for k in ("cost_usd", "reviewer_cost_usd", "latency_s", "prompt_tokens", "completion_tokens"):
        df[k] = pd.to_numeric(df[k], errors="coerce").fillna(0.0).astype(float)
    df["receipts"] = df["receipts"].apply(lambda r: r if isinstance(r, list) else [])
    df["pair_id"] = df["pair_id"].astype(str)
    df["group_id"] = df["group_id"].astype(str)
    df["stratum"] = df["strata"].apply(stratum_label)
    return df


def upgrade_v1(df: pd.DataFrame) -> pd.DataFrame:
    """Version-1 records (from before worlds had strata): ``complexity`` and ``mode`` columns become ``strata``."""
    if "strata" in df.columns or not {"complexity", "mode"} & set(df.columns):
        return df
    cols = [c for c in ("complexity", "mode") if c in df.columns]
    df["strata"] = df[cols].apply(
        lambda r: {c: str(r[c]) for c in cols if r[c] is not None and r[c] == r[c]}, axis=1
    )
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
    )
