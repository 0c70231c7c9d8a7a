import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import sys, json
import analysis, analysis.load, analysis.stats, analysis.tables, analysis.figures, analysis.paper
import analysis.simulate, analysis.__main__
from analysis.__main__ import main
main(["table1", "--run", *sys.argv[1:]])  # load, statistics and tables; figures imported above
print(json.dumps({"litellm": "litellm" in sys.modules, "models": "harness.llm.models" in sys.modules,
                  "runner": "harness.run.study" in sys.modules}))
"""


def test_analysis_never_imports_litellm_or_the_runner(synth, make_run):
    run = make_run(synth(models=("m",)))
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(run), "--resamples", "200", "--flips", "2000"],
        cwd=ROOT, capture_output=True, text=True, check=True, env=os.environ | {"MPLBACKEND": "Agg"},
    )  # fmt: skip
    flags = json.loads(out.stdout.strip().splitlines()[-1])
    assert flags == {"litellm": False, "models": False, "runner": False}
    assert (run / "table1.csv").exists()


def test_analysis_sources_do_not_mention_the_forbidden_imports():
    for path in (ROOT / "analysis").glob("*.py"):
        text = path.read_text()
        assert "import litellm" not in text and "harness.llm.models" not in text.replace(
            '"harness.llm.models"', ""
        ), path
