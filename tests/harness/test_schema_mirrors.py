"""The Hydra schema for a model mirrors the adapter's ModelSpec: a field added to one must reach the other."""

from dataclasses import MISSING, fields

from harness.config import ModelCfg
from harness.llm.models import ModelSpec


def _shape(cls) -> dict[str, object]:
    out = {}
    for f in fields(cls):
        default = f.default
        out[f.name] = None if default is MISSING or str(default) == "???" else default
    return out


def test_model_schema_mirrors_model_spec_field_for_field():
    assert _shape(ModelCfg) == _shape(ModelSpec)
