"""Figures from the tables: Figure 1 (dumbbell per model), 2 (boundaries), 3 (ablation forest plot), and
for a run with repeated trials ``figure_passk`` (pass^k and pass@k by arm).

Each is written as PNG and PDF with matplotlib's Agg backend. Figures draw only what
:mod:`analysis.tables` computed from records, plus the paper's published points in grey, labelled
"paper". This module knows nothing about records files, running or litellm.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")  # files only: never a display, whatever MPLBACKEND says
import matplotlib.pyplot as plt  # noqa: E402

from analysis.tables import PAPER_LABEL, RUN_LABEL, Table, fork_context  # noqa: E402

GREEN = "#1b9e4b"
GREY = "#8c8c8c"
FORMATS = ("png", "pdf")
# No dates in the files, so the same tables give byte-identical figures on every run.
METADATA = {"pdf": {"CreationDate": None, "ModDate": None}, "png": {}}


def _save(fig, out_dir: str | Path, name: str) -> list[Path]:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for ext in FORMATS:
        p = out / f"{name}.{ext}"
        fig.savefig(p, dpi=150, bbox_inches="tight", metadata=METADATA[ext])
        paths.append(p)
    plt.close(fig)
    return paths


def _finite(v: object) -> bool:
    return isinstance(v, int | float | np.integer | np.floating) and not math.isnan(float(v))


def figure1(t1: Table, out_dir: str | Path, name: str = "figure1") -> list[Path]:
    """Dumbbell per model: open circle baseline, filled green monitor, delta and W/L printed.

    One figure per endpoint table (``figure1`` for success, ``figure1_outcome`` for outcome correct);
    the title names the endpoint.
    """
    rows = [(str(r.model), r, False) for r in t1.frame.itertuples(index=False)]
    if t1.paper is not None:
        rows += [(f"{PAPER_LABEL}: {r.model}", r, True) for r in t1.paper.itertuples(index=False)]
    if not rows:
        return []
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(rows) + 1.4))
    for i, (label, r, is_paper) in enumerate(rows):
        y = len(rows) - 1 - i
        colour = GREY if is_paper else GREEN
        base, mon = getattr(r, "baseline_pct", math.nan), getattr(r, "monitor_pct", math.nan)
        if _finite(base) and _finite(mon):  # a paper row may give only its delta: then only the text
            ax.plot([base, mon], [y, y], color=colour, lw=1.5, zorder=1)
            ax.scatter([base], [y], s=60, facecolors="white", edgecolors="black" if not is_paper else GREY,
                       zorder=2, label="baseline" if i == 0 else None)  # fmt: skip
            ax.scatter([mon], [y], s=60, color=colour, zorder=3, label="monitor" if i == 0 else None)
        wins, losses = getattr(r, "wins", math.nan), getattr(r, "losses", math.nan)
        wl = f"  W/L {int(wins)}/{int(losses)}" if _finite(wins) and _finite(losses) else ""
        ax.text(
            102,
            y,
            f"{r.delta_points:+.1f} pts{wl}",
            va="center",
            fontsize=8,
            color="black" if not is_paper else GREY,
        )
        if label == "pooled" or label.endswith(": pooled"):
            ax.axhline(y - 0.5, color="#dddddd", lw=0.8)
    ax.set_yticks(range(len(rows)), [label for label, _, _ in reversed(rows)], fontsize=8)
    ax.set_xlim(0, 100)
    ax.set_xlabel("task completion (%)")
    ax.set_title(t1.title, fontsize=8, wrap=True)
    ax.legend(loc="lower right", fontsize=8, frameon=False)
    return _save(fig, out_dir, name)


def figure2(bounds: Table, out_dir: str | Path) -> list[Path]:
    """Baseline completion vs the monitor's delta per study; this run filled with CIs, the paper hollow grey."""
    f = bounds.frame
    if f.empty:
        return []
    fig, ax = plt.subplots(figsize=(7, 4.5))
    run = f[f["source"] == RUN_LABEL]
    pap = f[f["source"] == PAPER_LABEL]
    if len(run):
        err = [run["delta_points"] - run["ci_low"], run["ci_high"] - run["delta_points"]]
        ax.errorbar(run["baseline_pct"], run["delta_points"], yerr=err, fmt="o", color=GREEN, capsize=3,
                    label=RUN_LABEL)  # fmt: skip
        for r in run.itertuples(index=False):
            ax.annotate(_label(r, f.columns, run["study"].nunique() > 1), (r.baseline_pct, r.delta_points), xytext=(5, 4),
                        textcoords="offset points", fontsize=7)  # fmt: skip
    if len(pap):
        ax.scatter(pap["baseline_pct"], pap["delta_points"], s=50, facecolors="none", edgecolors=GREY, marker="s",
                   label=PAPER_LABEL)  # fmt: skip
        for i, r in enumerate(pap.itertuples(index=False)):
            # paper points share y = 0 at high baselines: stagger the labels and keep them inside the axes
            right = r.baseline_pct > 55
            ax.annotate(str(r.study), (r.baseline_pct, r.delta_points), xytext=(-5 if right else 5, 6 + 8 * (i % 3)),
                        textcoords="offset points", fontsize=6, color=GREY, ha="right" if right else "left")  # fmt: skip
    ax.axhline(0, color="black", lw=0.8)
    if len(pap):  # the paper's boundary, drawn only where its figures for this world stand
        ax.axvline(16, color=GREY, lw=0.8, ls="--")
        ax.text(
            16.5,
            ax.get_ylim()[1] * 0.95,
            f"{PAPER_LABEL}: gains where baseline <= 16%",
            fontsize=7,
            color=GREY,
            va="top",
        )
    ax.set_xlim(0, 100)
    ax.set_xlabel("baseline completion (%)")
    ax.set_ylabel("monitor - baseline (points)")
    ax.set_title(bounds.title, fontsize=9)
    ax.legend(fontsize=8, frameon=False)
    return _save(fig, out_dir, "figure2")


def _label(row, columns, with_study: bool = True) -> str:
    """A run point's label: its study (where several stand), and its fault and model where the table splits
    by them."""
    keys = ("study", "fault", "model") if with_study else ("fault", "model")
    parts = [getattr(row, c) for c in keys if c in columns] or [row.study]
    return " / ".join(str(p) for p in parts if isinstance(p, str) and p)


def figure3(abl: Table, out_dir: str | Path) -> list[Path]:
    """Forest plot of the ablation contrasts, one panel per endpoint, a row per (contrast, model or pooled).

    Delta with its cluster-bootstrap 95% CI, the +-post-hoc MDE band, and the paper's estimate (hollow) on
    the per-model rows of the success endpoint (its comparable unit).
    """
    f = abl.frame
    if f.empty:
        return []
    endpoints = list(dict.fromkeys(f["endpoint"]))
    n = max(int((f["endpoint"] == e).sum()) for e in endpoints)
    # panels stacked: long row labels never run into the next panel
    fig, axes = plt.subplots(len(endpoints), 1, figsize=(8, (0.28 * n + 1.6) * len(endpoints)), squeeze=False)
    for ax, endpoint in zip(axes[:, 0], endpoints, strict=True):
        g = f[f["endpoint"] == endpoint]
        # one artist per kind and panel, not per row: drawing time grows with artists, not points
        y = np.arange(len(g))[::-1].astype(float)  # the first row on top
        mde = g["mde_posthoc_points"].to_numpy(dtype=float)
        band = np.isfinite(mde)
        if band.any():
            bars = ax.barh(y[band], 2 * mde[band], left=-mde[band], height=0.6, color="#e8e8e8", zorder=0,
                           label="+-post-hoc MDE (80% power)")  # fmt: skip
            for bar in bars:  # bars would pin the x limits to their ends (no margin), bands should not
                bar.sticky_edges.x.clear()
        delta, lo, hi = (g[c].to_numpy(dtype=float) for c in ("delta_points", "ci_low", "ci_high"))
        pooled = (g["model"] == "pooled").to_numpy()
        for rows, marker in ((~pooled, "."), (pooled, "o")):
            if rows.any():
                ax.errorbar(delta[rows], y[rows], xerr=[delta[rows] - lo[rows], hi[rows] - delta[rows]], fmt=marker,
                            color=GREEN, capsize=2, zorder=2,
                            label=f"{RUN_LABEL} (95% CI, {abl.clusters})" if marker == "." else None)  # fmt: skip
        paper = g["paper_delta_points"].to_numpy(dtype=float)
        shown = np.isfinite(paper)
        if shown.any():
            ax.scatter(paper[shown], y[shown] - 0.18, s=20, facecolors="none", edgecolors=GREY, zorder=3,
                       label=f"{PAPER_LABEL} (one model, per-model rows)")  # fmt: skip
        ax.axvline(0, color="black", lw=0.8)
        labels = [f"{r.contrast} / {r.model}" for r in g.itertuples(index=False)]
        ax.set_yticks(range(len(g)), list(reversed(labels)), fontsize=6)
        ax.set_xlabel("difference (points)")
        ax.set_title(f"endpoint: {abl.endpoints.get(endpoint, endpoint)}", fontsize=8, wrap=True)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=7, frameon=False, loc="lower center", ncol=3)
    fig.suptitle(abl.title, fontsize=9)
    fig.tight_layout(rect=(0, 0.04, 1, 0.97))
    return _save(fig, out_dir, "figure3")


ARM_COLOURS = {"baseline": "black", "monitor": GREEN}


def figure_passk(passk: Table, out_dir: str | Path) -> list[Path]:
    """pass^k (solid) and pass@k (dashed) against k, a line per arm, a panel per model (runs with trials)."""
    frame = passk.frame
    if not len(frame):
        return []
    models = list(dict.fromkeys(frame["model"]))
    fig, axes = plt.subplots(1, len(models), figsize=(4.2 * len(models), 3.4), squeeze=False, sharey=True)
    others = iter(plt.get_cmap("tab10").colors)
    colours = {a: ARM_COLOURS.get(a) or next(others) for a in dict.fromkeys(frame["arm"])}
    for ax, model in zip(axes[0], models, strict=True):
        for arm, g in frame[frame["model"] == model].groupby("arm", sort=True):
            g = g.sort_values("k")
            ax.plot(g["k"], g["pass_hat_k_pct"], "o-", color=colours[arm], label=f"{arm} pass^k")
            ax.plot(g["k"], g["pass_at_k_pct"], "--", color=colours[arm], alpha=0.6, label=f"{arm} pass@k")
        ax.set_xticks(sorted(frame["k"].unique()))
        ax.set_ylim(0, 100)
        ax.set_xlabel("k (trials)")
        ax.set_title(model, fontsize=8)
    axes[0][0].set_ylabel("tasks (%)")
    axes[0][-1].legend(loc="best", fontsize=7, frameon=False)
    fig.suptitle(passk.title, fontsize=8)
    return _save(fig, out_dir, "figure_passk")


def _plan(tables: dict[str, Table] | list[Table]) -> list[tuple]:
    by_name = tables if isinstance(tables, dict) else {t.name: t for t in tables}
    plan: list[tuple] = []
    if "table1" in by_name:
        plan.append((figure1, by_name["table1"], "figure1"))
    if "table1_outcome" in by_name:
        plan.append((figure1, by_name["table1_outcome"], "figure1_outcome"))
    if "boundaries" in by_name:
        plan.append((figure2, by_name["boundaries"], None))
    if "ablations" in by_name:
        plan.append((figure3, by_name["ablations"], None))
    if "trials_pass" in by_name:  # a run with repeated trials
        plan.append((figure_passk, by_name["trials_pass"], None))
    return plan


def _draw(fn, table: Table, name: str | None, out_dir: str | Path) -> list[Path]:
    return fn(table, out_dir, name) if name else fn(table, out_dir)


def all_figures(tables: dict[str, Table] | list[Table], out_dir: str | Path, workers: int = 1) -> list[Path]:
    """Every figure the tables allow. With ``workers`` > 1 the largest figure (the ablation forest plot,
    a third of the drawing time) is drawn in a forked child while this process draws the rest; the
    files are the same bytes either way (no dates, a fixed backend)."""
    plan = _plan(tables)
    ctx = fork_context() if workers > 1 and len(plan) > 1 else None
    if ctx is None:
        return [p for job in plan for p in _draw(*job, out_dir)]
    from concurrent.futures import ProcessPoolExecutor

    heavy = max(range(len(plan)), key=lambda i: len(plan[i][1].frame))  # rows drive the drawing time
    with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
        future = pool.submit(_draw, *plan[heavy], out_dir)
        here = {i: _draw(*job, out_dir) for i, job in enumerate(plan) if i != heavy}
        here[heavy] = future.result()
    return [p for i in range(len(plan)) for p in here[i]]


__all__ = ["figure1", "figure2", "figure3", "figure_passk", "all_figures"]
