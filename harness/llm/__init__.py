"""The one door to language models: the litellm adapter, the reply cache, and this project's providers.

The door is `harness.llm.models` (`acomplete`), with its parts beside it: `spec`, `pricing`, `retry`,
`preflight`, `litellm_lazy` and `keys` (the request key the cache, `cache`, files replies under). litellm is imported only inside functions, by `litellm_lazy` (which
configures it and registers the providers), `inline` (its per-call preamble) and `providers.scripted`
(its response types). Scripted policies and the chaos test provider register into `harness.llm.providers`; nothing here knows an environment. Importing the door applies
the offline defaults (`core.offline`) first, so litellm never fetches its price map at import: a real
model is reached only when one is asked for.
"""

from core import offline

offline.apply()
