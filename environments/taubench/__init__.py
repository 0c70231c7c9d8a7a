"""tau-bench retail (being built): see environments/registry.py."""
