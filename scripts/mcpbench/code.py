"""mcp-server-tree-sitter (PyPI): code analysis of a small project of Python, TypeScript and JavaScript files.

Its results are structured JSON with an ``outputSchema`` (``{"result": ...}``): symbols and query captures with
row and column positions, syntax-tree nodes, complexity figures, dependency lists, file text. A list comes as
one text block per item (none for an empty list), anything else as one block of indented JSON. The server
keeps its projects in memory only, so every start registers the fixture's project through the package's own
``api.register_project`` before ``main()``; string hashing is fixed (``PYTHONHASHSEED=0``) because its syntax
nodes' ids are ``hash()`` of a tuple holding the node's type, and so the same in every session. Not fixed,
because the server does it of its own: the order of the symbols in a file, of text matches and of a query's
captures over the project may differ from one start to the next (the same items), and the project's scan
time (``list_projects_tool``) is the clock's. The workload asks for symbols of Python files only and for no JavaScript file's dependencies:
this release's queries for those fail to compile (an error result, not a clean call).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from mcpbench.client import Call
from mcpbench.fixture import Fixture

PROJECT = "shop"
# the server's own entry point after registering the project (its registry lives in the process)
LAUNCH = (
    "import sys; from mcp_server_tree_sitter import api; api.register_project(sys.argv[1], sys.argv[2]); "
    "sys.argv[1:] = []; from mcp_server_tree_sitter.server import main; main()"
)
NOUNS = ("order", "item", "price", "stock", "invoice", "customer", "basket", "coupon", "refund", "parcel")
VERBS = ("load", "save", "compute", "apply", "validate", "render", "merge", "split", "fetch", "count")
CLASSES = ("Order", "Item", "Invoice", "Customer", "Basket", "Coupon", "Refund", "Parcel", "Ledger", "Report")
MODULES = ("models", "pricing", "orders", "inventory", "billing", "shipping")
TS_FILES = ("cart", "checkout", "catalog")
JS_FILES = ("build", "serve")
IMPORTS = ("json", "math", "datetime", "itertools", "collections", "decimal", "statistics")

QUERIES = {
    "python": (
        "(function_definition name: (identifier) @name)",
        "(class_definition name: (identifier) @name)",
        "(call function: (identifier) @callee)",
        "(import_statement name: (dotted_name) @module)",
    ),
    "typescript": (
        "(function_declaration name: (identifier) @name)",
        "(class_declaration name: (type_identifier) @name)",
        "(method_definition name: (property_identifier) @method)",
    ),
    "javascript": ("(function_declaration name: (identifier) @name)", "(string) @text"),
}


def _python(rng: random.Random, symbols: list[dict[str, Any]]) -> str:
    lines = [f"import {m}" for m in sorted(rng.sample(IMPORTS, rng.randrange(1, 4)))] + ["", ""]
    for cls in rng.sample(CLASSES, rng.randrange(1, 3)):
        symbols.append({"name": cls, "row": len(lines), "column": 6, "kind": "class"})
        lines += [f"class {cls}:", f'    """A {cls.lower()} of the shop."""', ""]
        lines += [
            "    def __init__(self, amount, count=1):",
            "        self.amount = amount",
            "        self.count = count",
            "",
        ]
        for _ in range(rng.randrange(1, 4)):
            name = f"{rng.choice(VERBS)}_{rng.choice(NOUNS)}"
            symbols.append({"name": name, "row": len(lines), "column": 8, "kind": "method"})
            lines += [f"    def {name}(self, factor={rng.randrange(2, 9)}):"]
            if rng.random() < 0.5:
                lines += [
                    f"        if self.count > {rng.randrange(1, 20)}:",
                    "            return self.amount * factor",
                ]
            lines += [f"        return self.amount + {rng.randrange(1, 100)}", ""]
        lines.append("")
    for _ in range(rng.randrange(2, 6)):
        name = f"{rng.choice(VERBS)}_{rng.choice(NOUNS)}s"
        arg = rng.choice(NOUNS)
        symbols.append({"name": name, "row": len(lines), "column": 4, "kind": "function"})
        lines += [
            f"def {name}({arg}s, limit={rng.randrange(5, 500)}):",
            "    total = 0",
            f"    for {arg} in {arg}s:",
        ]
        if rng.random() < 0.6:
            lines += [f"        if {arg} is None:", "            continue"]
        lines += [f"        total += len(str({arg}))", "    return min(total, limit)", "", ""]
    return "\n".join(lines).rstrip() + "\n"


def _typescript(rng: random.Random, name: str) -> str:
    cls = rng.choice(CLASSES)
    lines = [f"import {{ {rng.choice(VERBS)} }} from './{rng.choice(TS_FILES)}';", ""]
    for _ in range(rng.randrange(1, 4)):
        fn = f"{rng.choice(VERBS)}{rng.choice(CLASSES)}"
        lines += [f"export function {fn}(amount: number, rate: number): number {{",
                  f"  return Math.round(amount * rate * {rng.randrange(2, 100)}) / 100;", "}", ""]  # fmt: skip
    lines += [f"export class {cls}{name.title()} {{", "  items: string[] = [];"]
    for _ in range(rng.randrange(1, 3)):
        lines += [f"  {rng.choice(VERBS)}(x: string): number {{", "    this.items.push(x);",
                  "    return this.items.length;", "  }"]  # fmt: skip
    return "\n".join([*lines, "}"]) + "\n"


def _javascript(rng: random.Random) -> str:
    lines = ["'use strict';", ""]
    for _ in range(rng.randrange(1, 4)):
        fn = f"{rng.choice(VERBS)}{rng.choice(CLASSES)}s"
        lines += [
            f"function {fn}(list) {{",
            f"  return list.filter((x) => x.count > {rng.randrange(0, 50)});",
            "}",
            "",
        ]
    lines.append(f"module.exports = {{ mode: '{rng.choice(('dev', 'prod', 'test'))}' }};")
    return "\n".join(lines) + "\n"


def code_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    root = work / "project"
    texts: dict[str, str] = {}
    symbols: dict[str, list[dict[str, Any]]] = {}
    for module in rng.sample(MODULES, 5):
        rel = f"src/shop/{module}.py"
        symbols[rel] = []
        texts[rel] = _python(rng, symbols[rel])
    texts["src/shop/__init__.py"] = '"""The shop."""\n'
    for name in TS_FILES:
        texts[f"web/{name}.ts"] = _typescript(rng, name)
    for name in JS_FILES:
        texts[f"scripts/{name}.js"] = _javascript(rng)
    texts["README.md"] = "# Shop\n\nModels, pricing and orders of a small shop.\n"
    for rel, text in texts.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    python = str(Path(binary[0]).with_name("python"))  # the server's own venv
    command = ["env", "PYTHONHASHSEED=0", python, "-c", LAUNCH, str(root), PROJECT]
    facts = {
        "files": sorted(texts),
        "python": sorted(symbols),
        "symbols": symbols,
        "lines": {rel: text.count("\n") for rel, text in texts.items()},
    }
    return Fixture(command, facts)


def _language(path: str) -> str:
    return {"py": "python", "ts": "typescript", "js": "javascript"}[path.rsplit(".", 1)[1]]


def code_call(rng: random.Random, fx: Fixture) -> Call:
    files: list[str] = [f for f in fx.facts["files"] if not f.endswith(".md")]
    python: list[str] = fx.facts["python"]
    symbols: dict[str, list[dict[str, Any]]] = fx.facts["symbols"]
    at = {"project": PROJECT}
    r = rng.random()
    if r < 0.08:
        pattern = rng.choice(({}, {"pattern": "**/*.py"}, {"pattern": "web/*"}, {"extensions": ["ts", "js"]}))
        return "list_files", {**at, **pattern}
    if r < 0.16:
        path = rng.choice(files)
        window = rng.choice(({}, {"max_lines": rng.randrange(3, 15)},
                             {"start_line": rng.randrange(0, 10), "max_lines": rng.randrange(2, 8)}))  # fmt: skip
        return "get_file", {**at, "path": path, **window}
    if r < 0.22:
        return "get_file_metadata", {**at, "path": rng.choice(files)}
    if r < 0.34:  # Python only: this release's symbol queries for TypeScript and JavaScript fail to compile
        return "get_symbols", {**at, "file_path": rng.choice(python)}
    if r < 0.42:
        text = {"include_text": rng.random() < 0.5}
        return "get_ast", {**at, "path": rng.choice(files), "max_depth": rng.randrange(1, 4), **text}
    if r < 0.5:
        path = rng.choice(python)
        where = rng.choice(symbols[path])
        return "get_node_at_position", {**at, "path": path, "row": where["row"], "column": where["column"]}
    if r < 0.58:
        word = rng.choice((rng.choice(NOUNS), rng.choice(VERBS), "return", "self.amount", "limit"))
        # no max_results: which file the server searches first varies from one start to the next
        options = rng.choice(({}, {"file_pattern": "**/*.py"}, {"context_lines": rng.randrange(0, 3)}))
        return "find_text", {**at, "pattern": word, **options}
    if r < 0.68:
        path = rng.choice(files)
        language = _language(path)
        scope = {"file_path": path} if rng.random() < 0.6 else {}
        return "run_query", {**at, "query": rng.choice(QUERIES[language]), "language": language, **scope}
    if r < 0.74:
        path = rng.choice(python)
        return "find_usage", {**at, "symbol": rng.choice(symbols[path])["name"], "language": "python"}
    if r < 0.8:  # not JavaScript: this release's import query for it fails to compile
        return "get_dependencies", {
            **at,
            "file_path": rng.choice([f for f in files if not f.endswith(".js")]),
        }
    if r < 0.87:
        return "analyze_complexity", {**at, "file_path": rng.choice(files)}
    if r < 0.9:
        return "analyze_project", {**at, "scan_depth": rng.randrange(1, 4)}
    if r < 0.93:
        language = rng.choice(("python", "typescript", "javascript"))
        return rng.choice((("list_query_templates_tool", {"language": language}),
                           ("get_query_template_tool", {"language": language, "template_name": "functions"}),
                           ("check_language_available", {"language": rng.choice(("go", "rust", language))})))  # fmt: skip
    if r < 0.95:
        return "list_projects_tool", {}
    # a write: the parse cache of the project or of one file cleared (the next parse is the same)
    scope = {"file_path": rng.choice(files)} if rng.random() < 0.5 else {}
    return "clear_cache", {**at, **scope}
