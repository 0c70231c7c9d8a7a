"""The stock policies bound to ToolMaze's planning conventions, as a run on ToolMaze binds them.

The unit tests of ``test_policies.py`` and ``test_noisy.py`` are written against ToolMaze-convention
tools (``conftest.py``); a stock policy that is not bound to a world reads schemas alone (generic
mode), so those tests take their policies from here.
"""

from __future__ import annotations

from environments.toolmaze.plugin import PLUGIN
from harness.agents.policies import noisy as _noisy
from harness.agents.policies.players import bound_class, world_player
from harness.llm.providers.registry import Policy
from harness.llm.providers.registry import get_policy as _get_policy

CONVENTIONS = PLUGIN.player_conventions()
Noisy = bound_class(_noisy.Noisy, CONVENTIONS)  # the noisy policy on ToolMaze's conventions


def get_policy(name: str) -> Policy:
    """The stock policy ``name`` (``noisy?...`` included) as it plays ToolMaze."""
    return _get_policy(world_player(name, PLUGIN))
