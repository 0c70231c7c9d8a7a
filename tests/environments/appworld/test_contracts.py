"""Schema contracts from AppWorld's released API schemas, checked on real responses of real app code
(a seeded offline world): clean responses stay quiet, injected faults fire."""

from __future__ import annotations

import copy
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from outcome_monitor.learning.derive import registry_from_schemas

from core.worlds import get_plugin
from environments.appworld import paths
from environments.appworld.env import AppWorldEnv

pytestmark = pytest.mark.skipif(not paths.is_set_up(), reason=f"AppWorld setup missing: {paths.SETUP_HINT}")


@pytest.fixture(scope="module")
def schemas():
    plugin = get_plugin("appworld")
    return plugin.tool_schemas(plugin.make())


@pytest.fixture(scope="module")
def registry(schemas):
    return registry_from_schemas(schemas)


def test_plugin_declares_schema_contracts(schemas, registry):
    plugin = get_plugin("appworld")
    assert plugin.contract_sources == ("schemas",)
    env = AppWorldEnv()
    specs = env.tool_specs()
    # every API's success schema, and a contract for each (the count the notes measured: 457)
    assert set(schemas) == set(specs)
    assert len(schemas) == 457
    assert set(registry.tools()) == set(schemas)
    classes = registry.counts_by_class()
    assert classes.get("required", 0) > 0 and classes.get("domain", 0) > 0 and classes.get("positive", 0) > 0


def test_tool_categories(schemas):
    specs = AppWorldEnv().tool_specs()
    assert specs["supervisor__complete_task"].category == "terminal"
    for spec in specs.values():
        if spec.name != "supervisor__complete_task":
            assert spec.category == ("read" if spec.kind == "get" else "write"), spec.name
        assert spec.output_schema is not None


def test_corpus_holds_real_successes_and_failures(responses):
    codes = Counter(r["status_code"] for r in responses)
    print(f"\nAppWorld probe responses by status: {dict(sorted(codes.items()))}")
    assert codes[200] >= 1000
    for code in (401, 409, 422):
        assert codes[code] > 0, f"no genuine {code} response"
    for r in responses:
        if r["status_code"] in (401, 409, 422):
            assert isinstance(r["content"], dict) and isinstance(r["content"].get("message"), str)


def test_clean_responses_rarely_fire(responses, registry):
    clean = [r for r in responses if r["status_code"] == 200]
    fired = [r for r in clean if registry.check(r["tool"], r["args"], r["content"])]
    rate = len(fired) / len(clean)
    print(
        f"\nAppWorld schema contracts: clean fire rate {rate:.4f} ({len(fired)}/{len(clean)} real responses)"
    )
    assert len(clean) >= 1000
    assert rate <= 0.01, [
        (r["tool"], registry.check(r["tool"], r["args"], r["content"])[:1]) for r in fired[:5]
    ]


def test_optional_integer_fields_accept_null(responses, registry):
    # show_song returns album_id: null for a single; a schema contract must not flag it
    songs = [r for r in responses if r["tool"] == "spotify__show_song" and r["status_code"] == 200]
    assert songs, "no show_song success in the corpus"
    song = copy.deepcopy(songs[0]["content"])
    song["album_id"] = None
    assert registry.check("spotify__show_song", {}, song) == []
    song["album_id"] = "one"
    assert [v.rule_class for v in registry.check("spotify__show_song", {}, song)] == ["type"]


# ------------------------------------------------------------------------------ fault injection


def _sites(schema: dict, value: Any, out: list) -> None:
    """(container, key, field schema) for every present, non-null field of ``value``."""
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for element in value[:3]:
            _sites(schema["items"], element, out)
        return
    if not isinstance(value, dict):
        return
    for name, sub in (schema.get("properties") or {}).items():
        if value.get(name) is None or not isinstance(sub, dict):
            continue
        out.append((value, name, sub))
        _sites(sub, value[name], out)


def _nonneg(sub: dict) -> bool:
    lo, xlo = sub.get("minimum"), sub.get("exclusiveMinimum")
    return (lo is not None and lo >= 0) or (xlo is not None and xlo is not True and xlo >= 0)


FAULTS = {
    # kind: (applies to a site, mutate the value, rule class expected to fire)
    "negative_amount": (
        lambda s, v: s.get("type") in ("integer", "number") and _nonneg(s) and not isinstance(v, bool),
        lambda v: -(abs(v) + 1),
        "positive",
    ),
    "wrong_type": (
        lambda s, v: s.get("type") in ("integer", "number") and not isinstance(v, bool),
        lambda v: str(v),
        "type",
    ),
    "string_to_number": (lambda s, v: s.get("type") == "string" and "enum" not in s, lambda v: 12345, "type"),
    "out_of_domain_enum": (lambda s, v: "enum" in s, lambda v: f"not-{v}", "domain"),
}


@pytest.mark.parametrize("kind", sorted(FAULTS))
def test_injected_faults_fire(kind, responses, schemas, registry):
    applies, mutate, rule_class = FAULTS[kind]
    rng = random.Random(f"appworld-inject-{kind}")
    n = caught = 0
    missed = []
    for r in responses:
        if r["status_code"] != 200:
            continue
        content = copy.deepcopy(r["content"])
        sites = []
        _sites(schemas[r["tool"]], content, sites)
        sites = [(c, k, s) for c, k, s in sites if applies(s, c[k])]
        if not sites:
            continue
        container, key, _ = rng.choice(sites)
        container[key] = mutate(container[key])
        n += 1
        found = registry.check(r["tool"], r["args"], content)
        if any(v.rule_class == rule_class for v in found):
            caught += 1
        else:
            missed.append((r["tool"], key, container[key]))
    print(f"\nAppWorld injected {kind}: {caught}/{n} fired")
    assert n >= 20, f"too few responses to inject {kind} into"
    assert caught == n, missed[:5]


HOME_CACHE_BEFORE = (Path.home() / ".appworld").exists()


def test_nothing_lands_in_the_home_folder(responses):
    if HOME_CACHE_BEFORE:
        pytest.skip("~/.appworld existed before this session: cannot tell who wrote it")
    assert responses  # a bridge has seeded a world and served calls by now
    assert not (Path.home() / ".appworld").exists(), "an AppWorld cache landed in ~/.appworld"
