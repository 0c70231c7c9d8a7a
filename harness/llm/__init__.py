"""The one door to language models: the litellm adapter, the reply cache, and this project's providers.

Only `harness.llm.models` imports litellm (lazily). Scripted policies and the chaos test provider
register into `harness.llm.providers`; nothing here knows an environment. Importing the door applies
the offline defaults (`core.offline`) first, so litellm never fetches its price map at import: a real
model is reached only when one is asked for.
"""

from core import offline

offline.apply()
