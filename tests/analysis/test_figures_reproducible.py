"""The same records give byte-identical figure files (no creation date in the PDF)."""

from __future__ import annotations

import pandas as pd

from analysis import figures, tables


def _draw(records: pd.DataFrame, out) -> dict[str, bytes]:
    t1 = tables.table1(records, n_resamples=200, n_flips=500)
    return {p.name: p.read_bytes() for p in figures.figure1(t1, out)}


def test_figure_files_are_byte_identical_across_draws(synth, tmp_path):
    records = pd.DataFrame(synth(models=("m",), n_workflows=6))
    first = _draw(records, tmp_path / "a")
    second = _draw(records, tmp_path / "b")
    assert sorted(first) == ["figure1.pdf", "figure1.png"]
    assert first == second
    assert b"CreationDate" not in first["figure1.pdf"] and b"ModDate" not in first["figure1.pdf"]
