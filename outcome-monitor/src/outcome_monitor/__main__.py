"""``python -m outcome_monitor``: the same as the ``outcome-monitor`` command."""

import sys

from outcome_monitor.cli.main import main

sys.exit(main())
