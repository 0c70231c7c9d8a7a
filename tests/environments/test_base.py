from core.protocol import ToolSpec, validate_arguments
from core.seeding import rng, stable_int

SPEC = ToolSpec(
    name="get_quote",
    description="d",
    parameters={
        "type": "object",
        "properties": {
            "ticker": {"type": "string"},
            "qty": {"type": "integer"},
            "side": {"enum": ["buy", "sell"]},
        },
        "required": ["ticker"],
    },
)


def test_valid_arguments_pass():
    assert validate_arguments(SPEC, {"ticker": "AAPL", "qty": 3, "side": "buy"}) == []


def test_each_kind_of_bad_argument_is_named():
    errors = validate_arguments(SPEC, {"qty": "3", "side": "hold", "extra": 1})
    text = " | ".join(errors)
    assert "missing required argument 'ticker'" in text
    assert "'qty' must be integer" in text
    assert "'side' must be one of" in text
    assert "unexpected argument 'extra'" in text
    assert validate_arguments(SPEC, ["AAPL"]) == ["arguments must be a JSON object, got list"]
    assert validate_arguments(SPEC, {"ticker": "A", "qty": True}) != []


def test_seeding_is_stable_and_purpose_specific():
    assert stable_int(7, "catalog") == stable_int(7, "catalog")
    assert stable_int(7, "catalog") != stable_int(7, "tasks")
    assert rng(1, "x").random() == rng(1, "x").random()
    # pinned: the hash must never depend on the process (no Python hash())
    assert stable_int(0, "golden", bits=32) == int(
        __import__("hashlib").sha256(b'[0,"golden"]').hexdigest()[:8], 16
    )
