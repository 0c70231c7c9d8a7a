"""Benchmark of the HTML report on a large run (prints figures; no assertions).

    python scripts/bench_report.py [--episodes 5000] [--seed 0] [--repeat 3] [--out DIR] [--resamples N]

Writes a synthetic run (records + transcripts, seeded, byte-identical for the same arguments), builds
its report with ``analysis.report.build_report`` and opens it in Debian's headless chromium. Prints
the build time, the file size, and per load the time from navigation start until the page is
interactive (rows rendered, filters bound: the page's own ``window.reportReady``), the time for a
filter change, and the time to open one episode's transcript (decoded lazily from its chunk).
Goal on this machine: interactive in under 3 s.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis.report.browser import browser_missing, headless_chromium  # noqa: E402
from analysis.report.build import build_report  # noqa: E402
from analysis.report.synthetic import write_synthetic_run  # noqa: E402

MODELS = ("scripted-trusting", "scripted-careful", "scripted-random", "scripted-oracle")
STUDIES = ("toolmaze-implicit", "toolmaze-explicit")

FILTER_JS = """
const t0 = performance.now();
const el = document.getElementById('f-arm');
el.value = el.options[2].value;
el.dispatchEvent(new Event('change'));
return [performance.now() - t0, document.querySelectorAll('#rows tbody tr').length,
        document.getElementById('shown').textContent];
"""
OPEN_JS = """
const done = arguments[arguments.length - 1];
const t0 = performance.now();
document.querySelector('#rows tbody tr:nth-child(3)').click();
(function wait() {
  if (document.getElementById('transcript')) done([performance.now() - t0,
      document.querySelectorAll('#transcript .msg').length]);
  else setTimeout(wait, 5);
})();
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3, help="page loads (the first is cold)")
    ap.add_argument("--out", default=None, help="run folder to write (default: a temporary folder)")
    ap.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples of the tables")
    args = ap.parse_args(argv)

    tmp = None if args.out else tempfile.TemporaryDirectory(prefix="bench-report-")
    run = Path(args.out or tmp.name) / "run"
    t = time.perf_counter()
    write_synthetic_run(run, n_episodes=args.episodes, models=MODELS, studies=STUDIES, seed=args.seed)
    n = sum(1 for _ in (run / "episodes.jsonl").open())
    print(f"synthetic run: {n} episodes with transcripts in {time.perf_counter() - t:.1f} s ({run})")
    t = time.perf_counter()
    page = build_report(run, n_resamples=args.resamples)
    build_s = time.perf_counter() - t
    size = page.stat().st_size
    print(f"build: {build_s:.1f} s; report.html {size / 1e6:.2f} MB ({size} bytes)")

    why = browser_missing()
    if why:
        print(f"browser figures skipped: {why}")
        return 0
    loads = []
    with headless_chromium() as driver:
        driver.set_script_timeout(30)
        for k in range(args.repeat):
            t = time.perf_counter()
            driver.get(page.as_uri())
            wall = time.perf_counter() - t
            ready = driver.execute_script("return window.reportReady")
            loaded = driver.execute_script(
                "const n = performance.getEntriesByType('navigation')[0]; return n ? n.loadEventEnd : null"
            )
            f_ms, f_rows, shown = driver.execute_script(FILTER_JS)
            o_ms, o_msgs = driver.execute_async_script(OPEN_JS)
            loads.append(ready)
            print(
                f"load {k + 1}{' (cold)' if k == 0 else ''}: interactive {ready / 1000:.2f} s after navigation "
                f"start (load event {loaded / 1000:.2f} s; driver.get {wall:.2f} s); filter {f_ms:.0f} ms "
                f"({f_rows} rows drawn, {shown}); open a transcript {o_ms:.0f} ms ({o_msgs} messages)"
            )
    print(
        f"summary: {n} episodes, {size / 1e6:.2f} MB, interactive in {min(loads) / 1000:.2f} s best / "
        f"{loads[0] / 1000:.2f} s cold (goal < 3 s)"
    )
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
