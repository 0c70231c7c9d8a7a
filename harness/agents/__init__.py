"""Agents: the scripted litellm provider and its policies, the chaos test provider, the agent loop."""
