"""tau-bench retail (an independent re-implementation): database, 16 tools, simulated user, reward.

See README.md. The data is not in the repository: ``python -m environments.taubench fetch``.
"""
