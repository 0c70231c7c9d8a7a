"""The ToolMaze tool catalog: ~270 tools built from the vocabulary, with schemas and hidden contracts.

Every tool is a provider of one capability (direct), or one step of a two-tool chain composing to
it. Public facts (names, schemas, descriptions, substitutes) become ``ToolSpec``s; the contract
declarations are kept here for the environment's own tests and fault generator, never shown to
agents or monitors. Must not know tasks, faults or episodes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from core.protocol import ToolSpec
from environments.toolmaze.vocab import DOMAINS, PROCESSORS, Domain, ProcessorKind, Subject

FINISH = "finish"


@dataclass(frozen=True)
class Param:
    name: str  # the provider's parameter name (may be renamed)
    canonical: str  # canonical key (query key or output field name)
    type: str  # JSON Schema type
    source: str  # "query.<key>" or "<field>"
    description: str
    enum: tuple[str, ...] = ()


@dataclass(frozen=True)
class Field:
    name: str
    type: str  # string | integer | number | date | list
    schema_enum: tuple[str, ...] = ()  # constant domains declared in the output schema


@dataclass(frozen=True)
class Contracts:
    """Properties every clean result satisfies (the paper's contract classes), for tests and faults."""

    positive: tuple[str, ...] = ()  # fields (or "list.item" paths) that are > 0
    domains: tuple[tuple[str, tuple[str, ...]], ...] = ()  # small categorical domains
    echoes: tuple[tuple[str, str], ...] = ()  # (output field, canonical param)
    date_pairs: tuple[tuple[str, str], ...] = ()  # (earlier, later)
    relations: tuple[
        tuple[str, ...], ...
    ] = ()  # ("mul", out, a, b) | ("add", out, a, b) | ("sum", out, list, item)


@dataclass(frozen=True)
class Tool:
    name: str
    kind: str  # source | processor | action | finish
    role: str  # direct | step1 | step2 | action | finish
    category: str  # Source | Processor | Action | Terminal
    domain: str
    cap: str  # the sub-task capability id the tool serves, e.g. "financial.stock_quote"
    capability: str  # the tool's own capability id (chain steps: "<cap>.via_<x>.1of2")
    label: str
    description: str
    params: tuple[Param, ...]
    returns: tuple[Field, ...]
    contracts: Contracts
    via: str = ""  # chain intermediate field
    ref: tuple[str, str] = ("", "")  # (domain, vocabulary item) for the world
    substitutes: tuple[str, ...] = field(default=())

    def param(self, canonical: str) -> Param:
        return next(p for p in self.params if p.canonical == canonical)

    def spec(self) -> ToolSpec:
        return ToolSpec(
            name=self.name,
            description=self.description,
            parameters=_param_schema(self.params),
            category=CATEGORY_OF[self.category],
            kind=self.category,
            domain=self.domain,
            capability=self.capability,
            substitutes=self.substitutes,
            output_fields=_output_paths(self.returns),
            output_schema=_output_schema(self.returns),
        )


# --------------------------------------------------------------------------------------------
# Field sets per role: the same names for every provider of a capability.


def source_fields(subject: Subject) -> tuple[Field, ...]:
    return (
        Field(subject.key, "string"),
        Field("record_id", "string"),
        Field(subject.unit, "number"),
        Field("price_currency", "string", ("USD",)),
        Field("quantity", "integer"),
        Field("subtotal_usd", "number"),
        Field("line_items", "list"),
        Field("fees_usd", "number"),
        Field("total_due_usd", "number"),
        Field("availability", "string"),
        Field("valid_from", "date"),
        Field("valid_to", "date"),
    )


def resolver_fields(subject: Subject, via: str) -> tuple[Field, ...]:
    return (
        Field(subject.key, "string"),
        Field(via, "string"),
        Field("match_score", "number"),
        Field("match_status", "string"),
        Field("resolved_on", "date"),
    )


# ToolMaze's roles -> protocol categories
CATEGORY_OF = {"Source": "read", "Processor": "read", "Action": "write", "Terminal": "terminal"}


def processor_fields(kind: ProcessorKind) -> tuple[Field, ...]:
    return (
        Field("input_amount", "number"),
        Field(kind.selector, "string"),
        Field(kind.factor, "number"),
        Field(kind.result, "number"),
        Field("rate_status", "string"),
        Field("computed_on", "date"),
        Field("valid_until", "date"),
    )


def quote_fields(kind: ProcessorKind) -> tuple[Field, ...]:
    return (
        Field(kind.selector, "string"),
        Field(kind.factor, "number"),
        Field("quote_source", "string"),
        Field("quoted_on", "date"),
        Field("expires_on", "date"),
    )


def action_fields(contact: str) -> tuple[Field, ...]:
    return (
        Field("confirmation_code", "string"),
        Field("order_status", "string"),
        Field("record_id", "string"),
        Field("charged_amount", "number"),
        Field(contact, "string"),
        Field("created_on", "date"),
        Field("effective_on", "date"),
    )


MATCH_STATUS = ("exact", "normalized")
RATE_STATUS = ("final", "indicative")
QUOTE_SOURCES = ("ecb", "reuters", "internal")
ORDER_STATUS = ("confirmed", "scheduled")


def _source_contracts(subject: Subject, domain: Domain, echo_key: bool) -> Contracts:
    echoes = ((subject.key, subject.key),) if echo_key else ()
    return Contracts(
        positive=(subject.unit, "quantity", "subtotal_usd", "fees_usd", "total_due_usd", "line_items.amount"),
        domains=(("availability", domain.availability), ("price_currency", ("USD",))),
        echoes=echoes + (("quantity", "quantity"),),
        date_pairs=(("valid_from", "valid_to"),),
        relations=(
            ("mul", "subtotal_usd", subject.unit, "quantity"),
            ("sum", "fees_usd", "line_items", "amount"),
            ("add", "total_due_usd", "subtotal_usd", "fees_usd"),
        ),
    )


def _processor_contracts(kind: ProcessorKind) -> Contracts:
    return Contracts(
        positive=("input_amount", kind.factor, kind.result),
        domains=(("rate_status", RATE_STATUS),),
        echoes=(("input_amount", "total_due_usd"), (kind.selector, kind.selector)),
        date_pairs=(("computed_on", "valid_until"),),
        relations=(("mul", kind.result, "input_amount", kind.factor),),
    )


# --------------------------------------------------------------------------------------------
# Descriptions follow the README's planning conventions: label first, Returns/Capability last.


def _returns_text(fields: tuple[Field, ...]) -> str:
    def one(f: Field) -> str:
        if f.type == "list":
            return f"{f.name} (list of {{label (string), amount (number)}})"
        return f"{f.name} ({f.type})"

    return "Returns: " + ", ".join(one(f) for f in fields) + "."


def _describe(label: str, body: str, fields: tuple[Field, ...], capability: str) -> str:
    head = label[0].upper() + label[1:]
    return f"{head}{body} {_returns_text(fields)} Capability: {capability}"


def _query_param(name: str, key: str, what: str, type_: str = "string", enum: tuple[str, ...] = ()) -> Param:
    return Param(name, key, type_, f"query.{key}", f"{what} [from: query.{key}]", enum)


def _field_param(name: str, fieldname: str, what: str, type_: str) -> Param:
    return Param(name, fieldname, type_, fieldname, f"{what} [from: {fieldname}]")


def _source_tools(domain: Domain, subject: Subject) -> list[Tool]:
    cap = f"{domain.name}.{subject.cap}"
    ref = (domain.name, subject.cap)
    out = source_fields(subject)
    tools: list[Tool] = []
    for i, provider in enumerate(domain.providers):
        key_name = subject.alias if i == 1 else subject.key
        qty_name = "units" if i == 2 else "quantity"
        params = (
            _query_param(key_name, subject.key, f"The {subject.key.replace('_', ' ')} to look up."),
            _query_param(qty_name, "quantity", "How many units to price.", "integer"),
        )
        desc = _describe(
            subject.label, f" from {provider}: prices a quantity of one {subject.noun} record.", out, cap
        )
        tools.append(
            Tool(
                f"get_{subject.cap}_{provider}",
                "source",
                "direct",
                "Source",
                domain.name,
                cap,
                cap,
                subject.label,
                desc,
                params,
                out,
                _source_contracts(subject, domain, True),
                ref=ref,
            )
        )
    for verb1, verb2, suffix in (("resolve", "get", "ref"), ("lookup", "fetch", "uid")):
        via = f"{subject.noun}_{suffix}"
        c1, c2 = f"{cap}.via_{via}.1of2", f"{cap}.via_{via}.2of2"
        rf = resolver_fields(subject, via)
        p1 = (_query_param(subject.key, subject.key, f"The {subject.key.replace('_', ' ')} to resolve."),)
        d1 = _describe(
            subject.label, f", step 1 of 2: resolve the {subject.key.replace('_', ' ')} to a {via}.", rf, c1
        )
        tools.append(
            Tool(
                f"{verb1}_{subject.noun}_{suffix}",
                "source",
                "step1",
                "Source",
                domain.name,
                cap,
                c1,
                subject.label,
                d1,
                p1,
                rf,
                Contracts(
                    positive=("match_score",),
                    domains=(("match_status", MATCH_STATUS),),
                    echoes=((subject.key, subject.key),),
                ),
                via=via,
                ref=ref,
            )
        )
        p2 = (
            _field_param(via, via, f"The {via} from step 1.", "string"),
            _query_param("quantity", "quantity", "How many units to price.", "integer"),
        )
        d2 = _describe(
            subject.label, f", step 2 of 2: price a quantity of the {subject.noun} record by {via}.", out, c2
        )
        tools.append(
            Tool(
                f"{verb2}_{subject.noun}_by_{suffix}",
                "source",
                "step2",
                "Source",
                domain.name,
                cap,
                c2,
                subject.label,
                d2,
                p2,
                out,
                _source_contracts(subject, domain, False),
                via=via,
                ref=ref,
            )
        )
    return tools


def _processor_tools(domain: Domain, kind: ProcessorKind) -> list[Tool]:
    cap = f"{domain.name}.{kind.cap}"
    ref = (domain.name, kind.cap)
    out = processor_fields(kind)
    tools: list[Tool] = []
    sel_what = f"The {kind.selector.replace('_', ' ')} to apply."
    for i, provider in enumerate(domain.providers):
        params = (
            _field_param(
                "total_amount" if i == 2 else "amount", "total_due_usd", "The amount due in USD.", "number"
            ),
            _query_param(
                kind.selector_alias if i == 1 else kind.selector, kind.selector, sel_what, enum=kind.values
            ),
        )
        desc = _describe(
            kind.label, f" via {provider}: scales an amount by the {kind.factor.replace('_', ' ')}.", out, cap
        )
        tools.append(
            Tool(
                f"{domain.prefix}_{kind.verb}_{provider}",
                "processor",
                "direct",
                "Processor",
                domain.name,
                cap,
                cap,
                kind.label,
                desc,
                params,
                out,
                _processor_contracts(kind),
                ref=ref,
            )
        )
    via = kind.factor
    c1, c2 = f"{cap}.via_{via}.1of2", f"{cap}.via_{via}.2of2"
    qf = quote_fields(kind)
    p1 = (_query_param(kind.selector, kind.selector, sel_what, enum=kind.values),)
    d1 = _describe(kind.label, f", step 1 of 2: quote the {via.replace('_', ' ')}.", qf, c1)
    tools.append(
        Tool(
            f"{domain.prefix}_get_{kind.factor_verb}",
            "processor",
            "step1",
            "Processor",
            domain.name,
            cap,
            c1,
            kind.label,
            d1,
            p1,
            qf,
            Contracts(
                positive=(kind.factor,),
                domains=(("quote_source", QUOTE_SOURCES),),
                echoes=((kind.selector, kind.selector),),
                date_pairs=(("quoted_on", "expires_on"),),
            ),
            via=via,
            ref=ref,
        )
    )
    p2 = (
        _field_param("amount", "total_due_usd", "The amount due in USD.", "number"),
        _field_param(via, via, f"The {via.replace('_', ' ')} from step 1.", "number"),
        _query_param(kind.selector, kind.selector, sel_what, enum=kind.values),
    )
    d2 = _describe(
        kind.label, f", step 2 of 2: apply a quoted {via.replace('_', ' ')} to an amount.", out, c2
    )
    tools.append(
        Tool(
            f"{domain.prefix}_apply_{kind.factor_verb}",
            "processor",
            "step2",
            "Processor",
            domain.name,
            cap,
            c2,
            kind.label,
            d2,
            p2,
            out,
            _processor_contracts(kind),
            via=via,
            ref=ref,
        )
    )
    return tools


def _action_tool(domain: Domain, kind: ProcessorKind, name: str, label: str, contact: str) -> Tool:
    cap = f"{domain.name}.{name}"
    out = action_fields(contact)
    params = (
        _field_param("record_id", "record_id", "The record to act on.", "string"),
        _field_param("amount", kind.result, "The amount to charge.", "number"),
        _query_param(contact, contact, f"The {contact.replace('_', ' ')}."),
    )
    desc = _describe(label, " (side effect): executes it and returns a confirmation code.", out, cap)
    contracts = Contracts(
        positive=("charged_amount",),
        domains=(("order_status", ORDER_STATUS),),
        echoes=(("record_id", "record_id"), ("charged_amount", kind.result), (contact, contact)),
        date_pairs=(("created_on", "effective_on"),),
    )
    return Tool(
        name,
        "action",
        "action",
        "Action",
        domain.name,
        cap,
        cap,
        label,
        desc,
        params,
        out,
        contracts,
        ref=(domain.name, name),
    )


def finish_tool() -> Tool:
    params = (
        Param(
            "status",
            "status",
            "string",
            "",
            '"done" when every sub-task is complete, "aborted" when a '
            "required step cannot be done by any tool.",
            ("done", "aborted"),
        ),
        Param("answer", "answer", "string", "", "The final answer: the confirmation codes, or what failed."),
        Param("reason", "reason", "string", "", "Why the run ends (required when aborting)."),
    )
    desc = (
        "Finish the task and end the episode. Call exactly once, last. Returns: accepted (string). "
        "Capability: finish"
    )
    return Tool(
        FINISH,
        "finish",
        "finish",
        "Terminal",
        "general",
        FINISH,
        FINISH,
        "finish",
        desc,
        params,
        (Field("accepted", "string"),),
        Contracts(),
    )


def _param_schema(params: tuple[Param, ...]) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for p in params:
        prop: dict[str, Any] = {"type": p.type, "description": p.description}
        if p.enum:
            prop["enum"] = list(p.enum)
        props[p.name] = prop
    required = [p.name for p in params if p.name != "reason"]
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


def _output_paths(fields: tuple[Field, ...]) -> tuple[str, ...]:
    paths: list[str] = []
    for f in fields:
        paths.append(f"$.{f.name}")
        if f.type == "list":
            paths += [f"$.{f.name}[*].label", f"$.{f.name}[*].amount"]
    return tuple(paths)


def _output_schema(fields: tuple[Field, ...]) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for f in fields:
        if f.type == "list":
            item = {
                "type": "object",
                "required": ["label", "amount"],
                "additionalProperties": False,
                "properties": {"label": {"type": "string"}, "amount": {"type": "number"}},
            }
            props[f.name] = {"type": "array", "items": item}
        elif f.type == "date":
            props[f.name] = {"type": "string", "format": "date"}
        else:
            props[f.name] = {"type": f.type}
            if f.schema_enum:
                props[f.name]["enum"] = list(f.schema_enum)
    return {
        "type": "object",
        "properties": props,
        "required": [f.name for f in fields],
        "additionalProperties": False,
    }


def _with_substitutes(tools: list[Tool]) -> list[Tool]:
    """Declared alternatives: tools that start another route to the same sub-task capability."""
    from dataclasses import replace

    by_cap: dict[str, list[Tool]] = {}
    for t in tools:
        by_cap.setdefault(t.cap, []).append(t)
    out = []
    for t in tools:
        if t.kind in ("action", "finish"):
            out.append(t)
            continue
        starts = [
            o.name
            for o in by_cap[t.cap]
            if o.role in ("direct", "step1") and o.via != t.via or (o.role == "direct" and o.name != t.name)
        ]
        subs = tuple(sorted(n for n in dict.fromkeys(starts) if n != t.name))
        out.append(replace(t, substitutes=subs))
    return out


@lru_cache(maxsize=1)
def build_catalog() -> dict[str, Tool]:
    """Every tool by name (deterministic; the catalog does not depend on the seed)."""
    tools: list[Tool] = []
    for domain in DOMAINS:
        for subject in domain.subjects:
            tools += _source_tools(domain, subject)
        for kind, (name, label, contact) in zip(PROCESSORS, domain.actions, strict=True):
            tools += _processor_tools(domain, kind)
            tools.append(_action_tool(domain, kind, name, label, contact))
    tools = _with_substitutes(tools)
    tools.append(finish_tool())
    catalog = {t.name: t for t in tools}
    assert len(catalog) == len(tools), "tool names must be unique"
    return catalog


@lru_cache(maxsize=1)
def catalog_specs() -> dict[str, ToolSpec]:
    return {name: tool.spec() for name, tool in build_catalog().items()}


def domain_of(name: str) -> Domain:
    return next(d for d in DOMAINS if d.name == name)


def subject_of(domain: str, cap: str) -> Subject:
    return next(s for s in domain_of(domain).subjects if s.cap == cap)


def kind_of(cap: str) -> ProcessorKind:
    return next(k for k in PROCESSORS if k.cap == cap)
