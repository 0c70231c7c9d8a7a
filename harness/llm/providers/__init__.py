"""Custom litellm providers: `scripted/<policy>` (deterministic policies) and `chaos/<scenario>` (failures)."""
