"""tau-bench, an independent re-implementation: the retail and airline domains (databases, tools,
simulated user, reward) behind one world; ``domain`` picks one.

See README.md. The data is not in the repository: ``python -m environments.taubench fetch``.
"""
