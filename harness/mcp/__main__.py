"""``python -m harness.mcp serve --env NAME [--domain D] [--fault NAME --seed N --rate P]`` (see serve.py)."""

from core import offline

offline.apply()  # an entry point: offline unless a real model is asked for

from harness.mcp.serve import main  # noqa: E402

raise SystemExit(main())
