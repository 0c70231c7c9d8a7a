"""How a scripted model name plays a world: the world's own player, the stock policy with the world's
conventions, or the stock policy reading schemas alone; and the runner's one call (``fit_to_world``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir

from core.players import PlayerConventions
from core.plugin import Plugin
from core.worlds import get_plugin
from harness.agents.policies.noisy import Noisy
from harness.agents.policies.players import bind, play_mode, play_modes, world_player
from harness.agents.policies.trusting import Trusting
from harness.config import CONF_DIR, register, to_config
from harness.llm.models import ModelConfigError, ModelSpec
from harness.llm.providers.registry import get_policy
from harness.run.plan import fit_to_world, plan_run

RUNNER = Path(__file__).resolve().parents[1] / "runner"
register()


def load(name: str, module: str):
    """A test world's module from tests/harness/runner, registered as ``module`` (for ``module:PLUGIN``)."""
    if module not in sys.modules:
        spec = importlib.util.spec_from_file_location(module, RUNNER / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[module] = mod
        spec.loader.exec_module(mod)
    return sys.modules[module]


fakeworld = load("fakeworld", "runner_fakeworld")
convoworld = load("convoworld", "players_convoworld")
TOOLMAZE = get_plugin("toolmaze")


class Schemaless(Plugin):
    name = "schemaless"


def test_the_four_modes():
    desk = convoworld.PLUGIN  # ships trusting and receipt-aware, offers no conventions
    assert play_modes(desk) == {
        "trusting": "own",
        "receipt-aware": "own",
        "skeptic": "generic",
        "noisy": "generic",
    }
    assert play_modes(TOOLMAZE) == dict.fromkeys(
        ("trusting", "receipt-aware", "skeptic", "noisy"), "conventions"
    )
    assert play_mode("first_tool", TOOLMAZE) == "plain"  # not a stock player: served as registered
    assert play_mode("noisy?p_follow=0.6", Schemaless()) == "generic"
    with pytest.raises(KeyError):
        play_mode("no-such-policy", TOOLMAZE)


def test_world_player_names_and_binds():
    assert world_player("skeptic", convoworld.PLUGIN) == "skeptic"  # generic: the stock instance itself
    assert world_player("trusting", convoworld.PLUGIN) == "convoworld.trusting"  # the world's own
    assert isinstance(get_policy("convoworld.trusting"), convoworld.DeskAgent)
    name = world_player("skeptic", TOOLMAZE)
    assert name == "toolmaze.skeptic"
    bound = get_policy(name)
    assert bound.conventions is TOOLMAZE.player_conventions() and bound.name == "skeptic"
    assert get_policy("skeptic").conventions is None  # the shared stock instance stays generic
    noisy = get_policy(world_player("noisy?p_follow=0.6", TOOLMAZE))
    assert isinstance(noisy, Noisy) and noisy.params.p_follow == 0.6 and noisy.name == "noisy?p_follow=0.6"
    assert noisy.conventions is not None
    assert isinstance(TOOLMAZE.player_conventions(), PlayerConventions)


def test_bind_copies_the_policy_and_keeps_its_class():
    conv = TOOLMAZE.player_conventions()
    a, b = bind(Trusting(), conv), bind(Trusting(), conv)
    assert type(a) is type(b) and isinstance(a, Trusting) and a.conventions is conv
    assert Trusting.conventions is None


def spec(model: str) -> ModelSpec:
    return ModelSpec(name="m", model=model)


def test_fit_to_world_is_one_call():
    assert fit_to_world(spec("scripted/trusting"), TOOLMAZE, {}).model == "scripted/toolmaze.trusting"
    assert fit_to_world(spec("scripted/skeptic"), convoworld.PLUGIN, {}).model == "scripted/skeptic"
    own = {"trusting": "convoworld.trusting"}
    assert (
        fit_to_world(spec("scripted/trusting"), convoworld.PLUGIN, own).model
        == "scripted/convoworld.trusting"
    )
    assert fit_to_world(spec("scripted/first_tool"), TOOLMAZE, {}).model == "scripted/first_tool"
    assert fit_to_world(spec("deepseek/deepseek-chat"), TOOLMAZE, {}).model == "deepseek/deepseek-chat"
    with pytest.raises(ModelConfigError, match="no scripted policy"):
        fit_to_world(spec("scripted/nonesuch"), TOOLMAZE, {})


def plan(*overrides: str):
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        return plan_run(to_config(compose("config", overrides=["study=smoke", *overrides])))


def test_a_run_resolves_every_stock_model_for_its_world():
    models = "model=[scripted-trusting,scripted-receipt-aware,scripted-skeptic,scripted-noisy]"
    desk = plan(
        "study.env.name='players_convoworld:PLUGIN'",
        "study.env.traces={}",
        "study.selection.rule=all",
        "study.selection.params={}",
        models,
    )
    assert {k: v.model for k, v in desk.models.items()} == {
        "scripted-trusting": "scripted/convoworld.trusting",
        "scripted-receipt-aware": "scripted/convoworld.receipt-aware",
        "scripted-skeptic": "scripted/skeptic",
        "scripted-noisy": "scripted/noisy",
    }
    maze = plan(models, "limit=1")
    assert {v.model for v in maze.models.values()} == {
        f"scripted/toolmaze.{p}" for p in ("trusting", "receipt-aware", "skeptic", "noisy")
    }


def test_environments_list_says_which_worlds_offer_conventions():
    from environments.__main__ import describe

    assert describe("toolmaze")["player_conventions"] == TOOLMAZE.player_conventions().name
    assert describe("taubench")["player_conventions"] is None  # its own players, no adapter
