"""Scripted tau-bench retail agents (see ``retail_agent``)."""
