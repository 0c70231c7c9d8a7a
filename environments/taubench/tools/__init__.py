"""The tools both domains share (calculate, think, transfer_to_human_agents) and the tool mechanics.

Each domain's own tools live in ``<domain>/tools/`` (one file each); ``_base`` holds what every
tool declares and how a call runs. Knows nothing about episodes, users or rewards.
"""

from __future__ import annotations

from environments.taubench.tools._base import ERROR_PREFIX, Tool, execute, to_result
from environments.taubench.tools.calculate import Calculate
from environments.taubench.tools.think import Think
from environments.taubench.tools.transfer_to_human_agents import TransferToHumanAgents

SHARED: tuple[type[Tool], ...] = (Calculate, Think, TransferToHumanAgents)

__all__ = ["ERROR_PREFIX", "SHARED", "Tool", "execute", "to_result"]
