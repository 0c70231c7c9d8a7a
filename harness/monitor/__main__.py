"""``python -m harness.monitor``: learn, check, explain (see harness/monitor/cli.py)."""

from harness.monitor.cli import main

raise SystemExit(main())
