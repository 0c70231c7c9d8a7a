"""``python -m harness.mcp serve --env NAME [--domain D] [--fault NAME --seed N --rate P]`` (see serve.py)."""

from harness.mcp.serve import main

raise SystemExit(main())
