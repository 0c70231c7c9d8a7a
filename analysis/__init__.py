"""Numbers and pictures from episode records alone. Never imports litellm (so it needs no offline defaults)."""
