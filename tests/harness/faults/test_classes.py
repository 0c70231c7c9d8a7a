import copy

import pytest
from faults_fakes import ORDER, QUOTE

from core.protocol import ToolSpec
from core.seeding import rng
from harness.faults import paths
from harness.faults.classes import CLASSES, MISSING, get_class
from harness.faults.values import parse_date, schema_at


def _apply(name, content, args, params=None, path=None):
    fc = get_class(name)
    content = copy.deepcopy(content)
    eligible = fc.eligible(content, args, None)
    assert eligible, f"{name} found nothing to corrupt"
    return fc.apply(content, path or eligible[0], args, rng(0, name), params or {}), eligible


def test_paths_roundtrip():
    doc = copy.deepcopy(ORDER)
    assert paths.get(doc, "$.items[1].sku") == "B2"
    paths.set_(doc, "$.items[1].sku", "Z9")
    assert doc["items"][1]["sku"] == "Z9"
    assert paths.join(paths.parse("$.items[1].sku")) == "$.items[1].sku"
    assert paths.generic("$.a[3].b[0]") == "$.a[*].b[*]"
    with pytest.raises(ValueError):
        paths.parse("items.x")


def test_every_class_declares_kind_and_corrupts_the_order():
    for name, fc in CLASSES.items():
        assert fc.kind in ("structured", "string") and fc.fault_class == name
        doc = copy.deepcopy(ORDER)
        eligible = fc.eligible(doc, {"order_id": "ORD-1042"}, None)
        assert eligible, name
        applied = fc.apply(doc, eligible[0], {"order_id": "ORD-1042"}, rng(1, name), {})
        assert applied.content != ORDER or applied.corrupted != applied.original, name


def test_negative_or_zero_targets_positive_non_id_numbers():
    applied, eligible = _apply("negative_or_zero", QUOTE, {}, {"variant": "negative"})
    assert eligible == ["$.price_usd"]
    assert applied.corrupted == -187.25 and applied.original == 187.25
    applied, _ = _apply("negative_or_zero", QUOTE, {}, {"variant": "zero"})
    assert applied.corrupted == 0


def test_out_of_domain_uses_schema_enum_and_tokens():
    fc = get_class("out_of_domain_categorical")
    assert "$.currency" in fc.eligible(QUOTE, {}, None)
    assert "$.ticker" in fc.eligible(QUOTE, {}, None)  # a short code, no digits
    spec = ToolSpec(
        "q", "", {}, output_schema={"type": "object", "properties": {"note": {"enum": ["a", "b"]}}}
    )
    assert schema_at(spec, "$.note") == {"enum": ["a", "b"]}
    assert "$.note" in fc.eligible({"note": "Some free text"}, {}, spec)
    applied, _ = _apply("out_of_domain_categorical", {"status": "shipped"}, {})
    assert applied.corrupted != "shipped" and applied.corrupted.startswith("shipped_")


def test_type_drift_number_to_string_and_id_to_int():
    applied, _ = _apply("type_drift", {"price": 3.5}, {})
    assert applied.corrupted == "3.5"
    applied, _ = _apply("type_drift", {"order_id": "ORD-1042"}, {})
    assert applied.corrupted == 1042


def test_missing_and_renamed_field():
    applied, _ = _apply("missing_field", QUOTE, {}, path="$.price_usd")
    assert "price_usd" not in applied.content and applied.corrupted == MISSING
    applied, _ = _apply("renamed_field", QUOTE, {}, path="$.price_usd")
    assert "priceUsd" in applied.content and list(applied.content)[1] == "priceUsd"


def test_echoed_argument_mismatch_changes_echo_and_keeps_shape():
    applied, eligible = _apply("echoed_argument_mismatch", QUOTE, {"ticker": "AAPL"})
    assert eligible == ["$.ticker"]
    assert applied.corrupted != "AAPL" and len(applied.corrupted) == 4 and applied.corrupted.isupper()


def test_date_order_violation_moves_later_date_before_partner():
    applied, eligible = _apply("date_order_violation", ORDER, {})
    assert eligible == ["$.delivered_at"]
    assert parse_date(applied.corrupted) < parse_date(ORDER["created_at"])


def test_broken_relation_finds_sum_and_product():
    fc = get_class("broken_relation")
    eligible = fc.eligible(copy.deepcopy(ORDER), {}, None)
    assert "$.total" in eligible and "$.items[0].amount" in eligible
    applied = fc.apply(copy.deepcopy(ORDER), "$.total", {}, rng(3), {})
    assert applied.corrupted != 25.0
    assert fc.eligible({"a": 1.0, "b": 7.0}, {}, None) == []


def test_broken_relation_sees_conservation_across_lists():
    """A payment nested in one list that sums another list's column (tau-bench's payment conservation)."""
    fc = get_class("broken_relation")
    order = {
        "items": [{"price": 10.5}, {"price": 4.25}],
        "payment_history": [{"amount": 14.75, "kind": "payment"}, {"amount": 3.0, "kind": "refund"}],
    }
    eligible = fc.eligible(copy.deepcopy(order), {}, None)
    assert "$.payment_history[0].amount" in eligible
    assert "$.payment_history[1].amount" not in eligible and "$.items[0].price" not in eligible
    applied = fc.apply(copy.deepcopy(order), "$.payment_history[0].amount", {}, rng(1), {})
    assert applied.corrupted != 14.75
    assert fc.eligible({"items": [{"price": 1.0}], "pay": [{"amount": 2.0}]}, {}, None) == []


def test_lists_truncated_and_duplicated():
    applied, _ = _apply("empty_or_truncated_list", ORDER, {}, {"variant": "empty"})
    assert applied.content["items"] == [] and applied.original == 2
    applied, _ = _apply("duplicated_record", ORDER, {})
    assert len(applied.content["items"]) == 3
    skus = [i["sku"] for i in applied.content["items"]]
    assert len(set(skus)) == 2


def test_unit_mixup_and_stale_value():
    applied, _ = _apply("unit_mixup", QUOTE, {})
    assert applied.corrupted == pytest.approx(18725.0)
    applied, _ = _apply("stale_value", QUOTE, {}, path="$.price_usd")
    assert 0 < applied.corrupted < 187.25
    applied, _ = _apply("stale_value", QUOTE, {}, path="$.as_of")
    assert parse_date(applied.corrupted) < parse_date("2026-03-02")


def test_string_faults_stay_well_formed():
    applied, _ = _apply("plausible_string", ORDER, {}, path="$.city")
    assert applied.corrupted != "Paris" and applied.corrupted.isalpha()
    applied, _ = _apply("encoding_corruption", {"name": "Zoë Café"}, {})
    assert applied.corrupted == "Zoë Café".encode().decode("latin-1")
    applied, _ = _apply("cached_error_page", QUOTE, {}, path="$.price_usd")
    assert "<html>" in applied.corrupted


def test_same_seed_same_corruption():
    a, _ = _apply("plausible_string", ORDER, {}, path="$.note")
    b, _ = _apply("plausible_string", ORDER, {}, path="$.note")
    assert a.corrupted == b.corrupted
