"""Which scripted player serves a model on a world, and binding the stock policies to a world's adapter.

A scripted model name (``trusting``, ``noisy?p_follow=0.6`` ...) plays a world in one of four ways
(``play_mode``):

- ``own``: the world ships a player of that name (``Plugin.scripted_policies``), registered as
  ``<world>.<name>``;
- ``conventions``: a stock policy (trusting, receipt-aware, skeptic, noisy) planning with the
  world's adapter (``Plugin.player_conventions``), registered as ``<world>.<name>``;
- ``generic``: a stock policy reading the tool schemas alone, served under its own name;
- ``plain``: any other registered policy (``first_tool``, the scripted reviewer), served as it is.

``world_player(name, plugin, own)`` registers what is needed and returns the policy name to serve
(``scripted/<that>``). Names no world: the world comes in as its plugin.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

from core.players import PlayerConventions
from harness.agents.policies._planner import PlanningPolicy
from harness.llm.providers.registry import get_policy, register_policy

if TYPE_CHECKING:
    from core.plugin import Plugin

PlayMode = Literal["own", "conventions", "generic", "plain"]
STOCK = ("trusting", "receipt-aware", "skeptic", "noisy")  # the stock players (noisy also with ?params)

_BOUND: dict[tuple[type, int], type] = {}


def bound_class(cls: type[PlanningPolicy], conventions: PlayerConventions) -> type[PlanningPolicy]:
    """``cls`` planning with ``conventions``: one subclass per pair, so ``isinstance`` holds across copies."""
    key = (cls, id(conventions))
    if key not in _BOUND:
        _BOUND[key] = type(cls.__name__, (cls,), {"conventions": conventions, "__module__": cls.__module__})
    return _BOUND[key]


def bind(policy: PlanningPolicy, conventions: PlayerConventions) -> PlanningPolicy:
    """A copy of ``policy`` (same name, parameters and judge) that plans with ``conventions``."""
    bound = object.__new__(bound_class(type(policy), conventions))
    bound.__dict__.update(policy.__dict__)
    return bound


def own_players(plugin: Plugin) -> dict[str, str]:
    """Register the world's own scripted agents and users as ``<world>.<name>``; name -> policy name."""
    out = {}
    for name, factory in {**plugin.scripted_policies(), **plugin.scripted_users()}.items():
        register_policy(f"{plugin.name}.{name}", factory)
        out[name] = f"{plugin.name}.{name}"
    return out


def play_mode(name: str, plugin: Plugin, own: Mapping[str, str] | None = None) -> PlayMode:
    """How scripted policy ``name`` plays the world of ``plugin`` (see the module docstring).

    ``own``: the world's own players by name (as ``own_players`` returns them; read from the plugin
    when None). Raises KeyError for a name no registry knows.
    """
    own = own if own is not None else _own_names(plugin)
    if name in own:
        return "own"
    if not isinstance(get_policy(name), PlanningPolicy):
        return "plain"
    return "conventions" if plugin.player_conventions() is not None else "generic"


def world_player(name: str, plugin: Plugin, own: Mapping[str, str] | None = None) -> str:
    """The registered policy that serves ``scripted/<name>`` on this world (registered here when bound).

    ``own`` as in ``play_mode``; when None the world's own players are registered here.
    Raises KeyError for a name no registry knows.
    """
    own = own if own is not None else own_players(plugin)
    mode = play_mode(name, plugin, own)
    if mode == "own":
        return own[name]
    if mode != "conventions":
        return name
    conventions = plugin.player_conventions()
    assert conventions is not None
    stock = get_policy(name)
    assert isinstance(stock, PlanningPolicy)
    bound_name = f"{plugin.name}.{name}"
    register_policy(bound_name, lambda: bind(stock, conventions))
    return bound_name


def play_modes(plugin: Plugin, own: Mapping[str, str] | None = None) -> dict[str, PlayMode]:
    """How each stock player plays the world of ``plugin``: ``own``, ``conventions`` or ``generic``."""
    return {name: play_mode(name, plugin, own) for name in STOCK}


def _own_names(plugin: Plugin) -> dict[str, str]:
    return {n: f"{plugin.name}.{n}" for n in {**plugin.scripted_policies(), **plugin.scripted_users()}}
