"""The HTML report: built from records and transcripts alone, self-contained, and usable in a real browser."""

from __future__ import annotations

import base64
import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from markupsafe import escape

from analysis.report.browser import browser_missing, headless_chromium
from analysis.report.build import CHUNK, annotate_messages, build_report
from analysis.report.synthetic import write_synthetic_run
from analysis.tables import SCRIPTED_LABEL

ROOT = Path(__file__).resolve().parents[2]
FAST = {"n_resamples": 200, "n_flips": 2000}


def _records(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "episodes.jsonl").read_text().splitlines() if line.strip()]


def _blobs(html: str) -> tuple[dict, list[dict]]:
    """The page's episode index and every decoded detail, in row order."""
    index = json.loads(
        re.search(r'<script type="application/json" id="index">(.*?)</script>', html, re.S).group(1)
    )
    chunks = re.findall(
        r'<script type="application/octet-stream" id="chunk-(\d+)">(.*?)</script>', html, re.S
    )
    details = []
    for k, (num, b64) in enumerate(chunks):
        assert int(num) == k
        details += json.loads(gzip.decompress(base64.b64decode(b64.strip())))
    return index, details


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path, str]:
    run = write_synthetic_run(tmp_path_factory.mktemp("run") / "run", n_episodes=96)
    # ToolMaze-shaped records: read as a ToolMaze run reads (its world.json names the paper's ToolMaze figures)
    (run / "world.json").write_text(json.dumps({"name": "synthetic", "endpoint": "process judge", "unit": "workflow",
                                                "paper": "toolmaze", "notes": []}))  # fmt: skip
    page = build_report(run, **FAST)
    return run, page, page.read_text(encoding="utf-8")


def test_every_episode_has_a_row_and_its_own_detail(built):
    run, page, html = built
    records = _records(run)
    index, details = _blobs(html)
    assert page == run / "report.html"
    assert len(index["rows"]) == len(details) == len(records) and index["chunk"] == CHUNK
    col = {c: i for i, c in enumerate(index["columns"])}
    for rec, row, det in zip(records, index["rows"], details, strict=True):
        assert row[col["episode_id"]] == rec["episode_id"] == det["record"]["episode_id"]
        assert index["values"]["arm"][row[col["arm"]]] == rec["arm"]
        assert index["values"]["fault_class"][row[col["fault_class"]]] == rec["fault_class"]
        assert row[col["success"]] == int(rec["success"]) and det["verdict"]["status"] == rec["status"]
        assert row[col["n_receipts"]] == len(rec["receipts"])
        tools = [m for m in det["messages"] if m["role"] == "tool"]
        faulted = [m for m in tools if m["call"]["perturbed"]]
        receipted = [m for m in tools if m["call"]["receipt"]]
        assert [m["call"]["index"] for m in faulted] == [
            c for c, t in enumerate(rec["tool_calls"]) if t["perturbed"]
        ]
        assert [m["call"]["index"] for m in receipted] == [r["call_index"] for r in rec["receipts"]]
        for m in receipted:
            assert m["call"]["receipt"]["recovery_tools"] == rec["receipts"][0]["recovery_tools"]


def test_the_page_is_self_contained_and_labelled(built):
    _, _, html = built
    assert str(escape(SCRIPTED_LABEL)) in html and 'id="scripted-banner"' in html
    assert ">paper</span>" in html  # the paper's numbers only under their own label
    assert not re.search(r"<(script|img|link|iframe)[^>]+(src|href)=\"(?!data:)", html)
    assert not re.search(r"(src|href)=\"https?:", html) and "@import" not in html
    assert html.count("data:image/png;base64,") >= 2  # Figures 1 and 2 drawn into the page
    for table in ("table1", "table1_strata", "ablations", "boundaries", "cost", "fire_rates"):
        assert f'id="table-{table}"' in html


def test_a_run_of_models_is_not_called_scripted_and_pages_repeat(tmp_path):
    run = write_synthetic_run(tmp_path / "run", n_episodes=16, scripted=False)
    page = build_report(run, tmp_path / "out" / "r.html", **FAST)
    html = page.read_text()
    assert 'id="scripted-banner"' not in html and str(escape(SCRIPTED_LABEL)) not in html
    again = build_report(run, tmp_path / "out" / "r2.html", **FAST)
    assert again.read_bytes() == page.read_bytes()  # same records, same bytes


def test_markup_in_records_stays_text(tmp_path):
    run = write_synthetic_run(tmp_path / "run", n_episodes=4)
    evil = "</script><img src=x onerror=alert(1)>"
    recs = _records(run)
    recs[0]["task_id"] = evil
    (run / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    html = build_report(run, **FAST).read_text()
    assert evil not in html and "<img src=x" not in html
    index, _ = _blobs(html)
    assert index["rows"][0][index["columns"].index("task_id")] == evil


def test_sweep_folders_find_transcripts_in_job_folders_and_missing_ones_are_said(tmp_path):
    job = write_synthetic_run(tmp_path / "sweep" / "job0", n_episodes=16)
    sweep = tmp_path / "sweep"
    lines = (job / "episodes.jsonl").read_text().splitlines(keepends=True)
    (sweep / "episodes.jsonl").write_text("".join(lines))
    gone = json.loads(lines[0])["transcript"]
    (job / gone).unlink()
    html = build_report(sweep, **FAST).read_text()
    _, details = _blobs(html)
    assert details[0]["note"] and "no transcript file" in details[0]["note"] and "messages" not in details[0]
    assert all("messages" in d for d in details[1:])
    assert "1 episode(s) have no readable transcript" in html


def test_annotation_follows_the_loop_ignored_malformed_and_receipted_calls():
    def asst(*ids):
        return {"role": "assistant", "content": None,
                "tool_calls": [{"id": i, "function": {"name": f"t{i}", "arguments": "{}"}} for i in ids]}  # fmt: skip

    messages = [
        {"role": "user", "content": "go"},
        asst("a", "b"), {"role": "tool", "tool_call_id": "a", "name": "ta", "content": "{}"},
        {"role": "tool", "tool_call_id": "b", "name": "tb", "content": "ignored"},
        asst("c"), {"role": "tool", "tool_call_id": "c", "name": "tc", "content": "bad arguments"},
        asst("d"), {"role": "tool", "tool_call_id": "d", "name": "td", "content": "{\"x\": 1}"},
    ]  # fmt: skip
    calls = [{"tool": "ta", "status": "ok", "perturbed": False}, {"tool": "tc", "status": "malformed"},
             {"tool": "td", "status": "ok", "perturbed": True, "receipt": True}]  # fmt: skip
    meta = [{"call_index": 0, "tool": "ta", "perturbed": False},
            {"call_index": 1, "tool": "td", "perturbed": True, "fault_kind": "type_flip",
             "receipt": {"violated": "x must be a string", "recovery_tools": ["t2"]}}]  # fmt: skip
    out = annotate_messages(messages, calls, meta)
    tools = [m for m in out if m["role"] == "tool"]
    assert tools[0]["call"]["index"] == 0 and not tools[0]["call"]["perturbed"]
    assert tools[1]["call"] == {"ignored": True}
    assert tools[2]["call"]["status"] == "malformed" and tools[2]["call"]["index"] is None
    assert tools[3]["call"]["index"] == 1 and tools[3]["call"]["fault"] == "type_flip"
    assert tools[3]["call"]["receipt"]["violated"] == "x must be a string"


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "analysis", *args], cwd=ROOT, capture_output=True, text=True,
                          env=os.environ | {"MPLBACKEND": "Agg"})  # fmt: skip


def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    from analysis.__main__ import main

    def run_cli(*args: str) -> str:
        assert main(list(args)) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error: ") and "\n" not in err and "Traceback" not in err, err
        return err

    (tmp_path / "empty").mkdir()
    assert "episodes.jsonl" in run_cli("report", "--run", str(tmp_path / "empty"))
    run = write_synthetic_run(tmp_path / "bad", n_episodes=8)
    lines = (run / "episodes.jsonl").read_text().splitlines(keepends=True)
    (run / "episodes.jsonl").write_text("".join(lines[:2]) + '{"broken\n' + "".join(lines[2:]))
    for cmd in ("report", "inspect-export"):
        assert ":3: corrupt record" in run_cli(cmd, "--run", str(run), "--out", str(tmp_path / "x"))
    (run / "episodes.jsonl").write_text("")
    assert "no episode records" in run_cli("report", "--run", str(run))
    assert not (tmp_path / "x").exists()


def test_cli_report_writes_the_page(tmp_path):
    run = write_synthetic_run(tmp_path / "run", n_episodes=8)
    out = _cli("report", "--run", str(run), "--out", str(tmp_path / "page.html"), "--resamples", "100")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(tmp_path / "page.html") and (tmp_path / "page.html").stat().st_size > 0


PROBE = """
import sys
import analysis.report, analysis.report.build, analysis.report.synthetic, analysis.report.browser
import analysis.export_inspect
print(sorted(m for m in sys.modules if m == "harness" or m.startswith("harness.")))
print("litellm" in sys.modules, "inspect_ai" in sys.modules, "selenium" in sys.modules)
"""


def test_report_and_export_import_nothing_from_the_harness():
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True)
    harness_mods, flags = out.stdout.strip().splitlines()
    # analysis.load reads the records schema (the package harness.records); the report adds no other harness module
    assert {m for m in eval(harness_mods) if not m.startswith("harness.records.")} <= {
        "harness",
        "harness.records",
    }
    assert flags == "False False False"  # inspect_ai and selenium only when used
    for path in [*(ROOT / "analysis" / "report").glob("*.py"), ROOT / "analysis" / "export_inspect.py"]:
        assert not re.search(r"^\s*(from|import) harness", path.read_text(), re.M), path


# --- a real browser ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def chromium():
    why = browser_missing()
    if why:
        pytest.skip(f"no headless browser for the report test: {why}")
    with headless_chromium() as driver:
        yield driver


def _visible_rows(driver) -> list[list[str]]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#rows tbody tr')).map(tr => "
        "Array.from(tr.cells).map(td => td.textContent))"
    )


def test_the_page_in_chromium_filters_opens_a_transcript_and_fetches_nothing(built, chromium, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    run, page, _ = built
    records = _records(run)
    d = chromium
    d.get(page.as_uri())
    WebDriverWait(d, 30).until(lambda x: x.execute_script("return document.body.dataset.ready === '1'"))
    assert d.find_element(By.ID, "scripted-banner").text == SCRIPTED_LABEL
    rows = _visible_rows(d)
    assert len(rows) == min(200, len(records))
    assert {r[1] for r in rows} == {"baseline", "monitor"}

    Select(d.find_element(By.ID, "f-arm")).select_by_visible_text("monitor")
    Select(d.find_element(By.ID, "f-outcome")).select_by_visible_text("success")
    rows = _visible_rows(d)
    want = [r for r in records if r["arm"] == "monitor" and r["success"]]
    assert 0 < len(rows) == len(want) < len(records)
    assert {r[1] for r in rows} == {"monitor"} and {r[4] for r in rows} == {"success"}
    assert [r[6] for r in rows] == [r["task_id"] for r in want]
    assert d.find_element(By.ID, "shown").text == f"{len(want)} of {len(records)} episodes shown"

    d.find_element(By.CSS_SELECTOR, "#rows tbody tr").click()
    WebDriverWait(d, 30).until(lambda x: x.find_elements(By.CSS_SELECTOR, "#transcript"))
    assert "success" in d.find_element(By.CSS_SELECTOR, ".verdict").text
    assert d.find_elements(By.CSS_SELECTOR, "#transcript .msg.receipt .badge.receipt")
    assert d.find_elements(By.CSS_SELECTOR, "#transcript .msg.fault")
    assert want[0]["task_id"] in d.find_element(By.ID, "detail-title").text

    Select(d.find_element(By.ID, "f-arm")).select_by_visible_text("baseline")
    Select(d.find_element(By.ID, "f-outcome")).select_by_visible_text("all")
    assert {r[1] for r in _visible_rows(d)} == {"baseline"}

    link = d.current_url
    assert link.endswith("#ep=" + quote(want[0]["episode_id"], safe=""))  # the opened episode has a link
    d.get("about:blank")
    d.get(link)
    WebDriverWait(d, 30).until(lambda x: x.find_elements(By.CSS_SELECTOR, "#transcript"))
    assert want[0]["task_id"] in d.find_element(By.ID, "detail-title").text

    fetched = d.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert [u for u in fetched if not u.startswith("data:")] == []
    shot = tmp_path / "report.png"
    assert d.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    keep = os.environ.get("REPORT_SCREENSHOT")  # REPORT_SCREENSHOT=/tmp/x.png keeps it to look at
    if keep:
        Path(keep).write_bytes(shot.read_bytes())


# --- inspect_ai export ------------------------------------------------------------------------------------


def test_inspect_export_reads_back_with_inspects_own_reader(built, tmp_path):
    if not os.environ.get("CI"):  # CI installs the 'inspect' extra (make test): there it must not skip
        pytest.importorskip("inspect_ai")
    from inspect_ai.log import read_eval_log

    from analysis.export_inspect import export_run

    run, _, _ = built
    records = _records(run)
    paths = export_run(run, tmp_path / "logs")
    groups = {(r["study"], r["model"], r["arm"]) for r in records}
    assert len(paths) == len(groups)
    by_id = {r["episode_id"]: r for r in records}
    seen = 0
    for p in paths:
        log = read_eval_log(str(p))
        assert log.status == "success" and log.samples
        for s in log.samples:
            rec = by_id[s.id]
            seen += 1
            assert (log.eval.model, log.eval.metadata["arm"]) == (rec["model"], rec["arm"])
            assert s.scores["success"].value == (1.0 if rec["success"] else 0.0)
            assert (
                s.metadata["fault_class"] == rec["fault_class"] and s.metadata["receipts"] == rec["receipts"]
            )
            tools = [m for m in s.messages if m.role == "tool"]
            assert len(tools) == len(rec["tool_calls"])
            flagged = [m.metadata["index"] for m in tools if m.metadata and m.metadata.get("receipt")]
            assert flagged == [r["call_index"] for r in rec["receipts"]]
            assert [m.metadata["perturbed"] for m in tools] == [c["perturbed"] for c in rec["tool_calls"]]
        acc = log.results.scores[0].metrics["accuracy"].value
        assert acc == pytest.approx(sum(by_id[s.id]["success"] for s in log.samples) / len(log.samples))
    assert seen == len(records)
