"""AppWorld (being built): see environments/registry.py."""
