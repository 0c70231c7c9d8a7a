"""``python -m harness.monitor``: learn, check, explain (see harness/monitor/cli.py)."""

from core import offline

offline.apply()  # an entry point: offline unless a real model is asked for

from harness.monitor.cli import main  # noqa: E402

raise SystemExit(main())
