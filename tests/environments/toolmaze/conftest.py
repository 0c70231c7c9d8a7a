"""Fixtures shared by the ToolMaze tests: the seed-0 environment and the clean arguments of a tool."""

import pytest

from environments.toolmaze.env import ToolMazeEnv


@pytest.fixture(scope="session")
def env():
    return ToolMazeEnv(seed=0)


def _clean_args(inst, tool):
    """The arguments ``tool`` gets on the clean oracle trace of one of the instance's valid paths."""
    for p in inst.base.paths:
        for step in p.trace:
            if step["tool"] == tool:
                return step["arguments"]
    raise AssertionError(f"{tool} is on no valid path of {inst}")


@pytest.fixture(scope="session")
def clean_args():
    return _clean_args
