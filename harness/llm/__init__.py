"""The one door to language models: the litellm adapter, the reply cache, and this project's providers.

Only `harness.llm.models` imports litellm (lazily). Scripted policies and the chaos test provider
register into `harness.llm.providers`; nothing here knows an environment.
"""
