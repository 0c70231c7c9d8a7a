"""The worlds: one folder each (tasks, tools, users, graders, configs and a plugin).

A world knows nothing of monitors, models or the analysis; what it implements is in ``core``
(``core.protocol``, ``core.plugin``) and how it is found is ``core.worlds``.
"""
