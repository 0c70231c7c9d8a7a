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


def test_figures_drawn_in_a_forked_child_are_the_same_files(synth, make_run, tmp_path):
    from analysis.load import load_records

    records = load_records(
        make_run(synth(models=("m", "n"), arms=("baseline", "monitor", "no-tools"), n_workflows=6))
    )
    ts = tables.all_tables(records, n_resamples=200, n_flips=500)
    serial = figures.all_figures(ts, tmp_path / "serial", workers=1)
    forked = figures.all_figures(ts, tmp_path / "forked", workers=2)
    assert [p.name for p in serial] == [p.name for p in forked]
    assert len(serial) >= 4  # at least two figures, so the child drew one of them
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(serial, forked, strict=True))


def test_tables_computed_with_a_forked_child_are_the_same(synth, make_run, tmp_path):
    from analysis.load import load_records

    records = load_records(
        make_run(synth(models=("m", "n"), arms=("baseline", "monitor", "no-tools"), n_workflows=6))
    )
    serial = tables.all_tables(records, n_resamples=200, n_flips=500, workers=1)
    forked = tables.all_tables(records, n_resamples=200, n_flips=500, workers=2)
    assert [t.name for t in serial] == [t.name for t in forked] and "ablations" in [t.name for t in forked]
    for a, b in zip(serial, forked, strict=True):
        assert a.to_markdown() == b.to_markdown() and a.frame.equals(b.frame), a.name
