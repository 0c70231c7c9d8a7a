"""The catalog: size, domains, categories, planning-convention text, schemas and substitutes."""

import re

from environments.toolmaze.catalog import FINISH, build_catalog, catalog_specs
from environments.toolmaze.vocab import DOMAINS

TAG = re.compile(r"\[from: (query\.\w+|\w+)\]$")


def test_catalog_size_domains_categories():
    specs = catalog_specs()
    tools = [s for n, s in specs.items() if n != FINISH]
    assert 250 <= len(tools) <= 300
    assert {s.domain for s in tools} == {d.name for d in DOMAINS}
    assert {s.kind for s in tools} == {"Source", "Processor", "Action"}
    assert {s.category for s in tools} == {"read", "write"}
    assert len(specs) == len({s.name for s in specs.values()})


def test_every_parameter_has_a_source_tag_and_descriptions_end_with_returns_and_capability():
    for name, spec in catalog_specs().items():
        if name == FINISH:
            continue
        for pname, prop in spec.parameters["properties"].items():
            assert TAG.search(prop["description"]), (name, pname)
        desc = spec.description
        assert re.search(r"Returns: .+\. Capability: [\w.]+$", desc), name
        assert desc.rsplit("Capability: ", 1)[1] == spec.capability


def test_returns_text_matches_schema_and_output_fields():
    for name, spec in catalog_specs().items():
        returns = spec.description.split("Returns: ", 1)[1].split(". Capability:")[0]
        top = re.sub(r"\{[^}]*\}", "", returns)
        names = [m.group(1) for m in re.finditer(r"(\w+) \(", top)]
        assert names == list(spec.output_schema["properties"]), name
        assert sorted(spec.output_schema["required"]) == sorted(names)
        assert {p for p in spec.output_fields if "[" not in p} == {f"$.{n}" for n in names}


def test_chains_yield_the_same_fields_as_direct_tools_and_substitutes_are_real():
    catalog = build_catalog()
    by_cap = {}
    for t in catalog.values():
        by_cap.setdefault(t.cap, []).append(t)
    renamed = 0
    for cap, tools in by_cap.items():
        directs = [t for t in tools if t.role == "direct"]
        for t in tools:
            if t.role == "step2":
                assert [f.name for f in t.returns] == [f.name for f in directs[0].returns], t.name
            for s in t.substitutes:
                assert catalog[s].cap == cap and s != t.name
        for d in directs:
            renamed += any(p.name != p.canonical for p in d.params)
            if t.kind in ("source", "processor"):
                assert t.substitutes
    assert renamed > 0  # some providers rename parameters (ticker vs symbol)


def test_contract_classes_are_all_declared_somewhere():
    catalog = build_catalog()
    assert any(t.contracts.positive for t in catalog.values())
    assert any(t.contracts.domains for t in catalog.values())
    assert any(t.contracts.echoes for t in catalog.values())
    assert any(t.contracts.date_pairs for t in catalog.values())
    ops = {r[0] for t in catalog.values() for r in t.contracts.relations}
    assert ops == {"mul", "add", "sum"}


def test_descriptions_begin_with_the_capitalised_label():
    for t in build_catalog().values():
        if t.kind != "finish":
            assert t.description.startswith(t.label[0].upper() + t.label[1:]), t.name
