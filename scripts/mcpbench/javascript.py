"""@eslint/mcp (npm, the ESLint project's server): a small JavaScript shop app linted with ESLint's core rules.

Its one tool answers in several text blocks: a sentence first, then one block per file linted holding
ESLint's JSON for that file (its messages with rule ids, severities, line and column positions, fixes and
suggestions with character ranges, the counts of errors and warnings, the file's source when something was
found), then a closing sentence. The project is made once: modules of a few kinds (prices, orders, users,
dates, reports, tests) written from templates with problems sprinkled in at random (unused variables, ``var``,
``==``, a missing brace, an undefined name, a ``let`` never reassigned, an empty block, a console call),
some files clean, one with a syntax error, one under an ignored folder, and ``eslint.config.mjs`` naming the
rules. The server only reads; the files never change. It finds the config from its working folder, so it
is started in the project's folder.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from mcpbench.client import Call
from mcpbench.fixture import FIRST, Fixture

# start the server in the project's folder, where ESLint looks for its config
IN_PROJECT = 'cd "$0" && exec "$1"'
CONFIG = """export default [
  { ignores: ["vendor/**", "dist/**"] },
  {
    files: ["**/*.js"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: { console: "readonly", process: "readonly", setTimeout: "readonly", fetch: "readonly" },
    },
    rules: {
      "no-unused-vars": "error",
      "no-undef": "error",
      "no-var": "error",
      "prefer-const": "warn",
      eqeqeq: "warn",
      curly: "warn",
      "no-empty": "error",
      "no-console": "warn",
      "no-dupe-keys": "error",
      "no-unreachable": "error",
      "no-self-compare": "error",
      "default-case": "warn",
      "no-else-return": "warn",
      "max-params": ["warn", 4],
    },
  },
  {
    files: ["test/**/*.js"],
    languageOptions: { globals: { describe: "readonly", it: "readonly", expect: "readonly" } },
    rules: { "no-console": "off", "max-params": "off" },
  },
];
"""
KINDS = ("price", "order", "user", "date", "report", "stock", "cart", "invoice")
NOUNS = ("total", "count", "limit", "rate", "discount", "fee", "amount", "offset", "weight", "score")
STATUS = ("pending", "shipped", "delivered", "cancelled", "returned")


def _function(rng: random.Random, name: str, problems: set[str]) -> list[str]:
    a, b = rng.sample(NOUNS, 2)
    params = [a, b] + (["c", "d", "e"] if "max-params" in problems else [])
    decl = "var" if "no-var" in problems else ("let" if "prefer-const" in problems else "const")
    lines = [f"export function {name}({', '.join(params)}) {{"]
    lines.append(f"  {decl} base = {a} * {rng.randrange(2, 100)} + {b};")
    if "no-unused-vars" in problems:
        lines.append(f"  const {rng.choice(NOUNS)}Unused = {rng.randrange(1000)};")
    if "no-undef" in problems:
        lines.append(f"  const extra = {rng.choice(NOUNS)}Table[{rng.randrange(10)}];")
        lines.append("  console.info(extra);")
    if "no-console" in problems:
        lines.append(f'  console.log("{name}", base);')
    if "no-empty" in problems:
        lines.append(f"  if (base < {rng.randrange(100)}) {{\n  }}")
    if "no-self-compare" in problems:
        lines.append("  if (base === base) {\n    return base;\n  }")
    cmp = "==" if "eqeqeq" in problems else "==="
    if "curly" in problems:
        lines.append(f"  if ({b} {cmp} {rng.randrange(10)}) return {rng.randrange(100)};")
    else:
        lines.append(f"  if ({b} {cmp} {rng.randrange(10)}) {{\n    return {rng.randrange(100)};\n  }}")
    if "no-else-return" in problems:
        lines.append(
            f"  if (base > {rng.randrange(500)}) {{\n    return base;\n  }} else {{\n    return 0;\n  }}"
        )
    lines.append("  return base;")
    if "no-unreachable" in problems:
        lines.append(f"  base = {rng.randrange(9)};")
    lines.append("}")
    return lines


def _switch(rng: random.Random, name: str, problems: set[str]) -> list[str]:
    cases = rng.sample(STATUS, rng.randrange(2, 5))
    lines = [f"export function {name}(status) {{", "  switch (status) {"]
    for i, s in enumerate(cases):
        lines += [f'    case "{s}":', f"      return {i + 1};"]
    if "default-case" not in problems:
        lines += ["    default:", "      return 0;"]
    lines += ["  }", "}"]
    return lines


def _table(rng: random.Random, problems: set[str]) -> list[str]:
    keys = rng.sample(NOUNS, 3)
    if "no-dupe-keys" in problems:
        keys.append(keys[0])
    body = ", ".join(f"{k}: {rng.randrange(1, 500)}" for k in keys)
    return [f"export const {rng.choice(KINDS)}Defaults = {{ {body} }};"]


RULES = (
    "no-unused-vars", "no-undef", "no-var", "prefer-const", "eqeqeq", "curly", "no-empty", "no-console",
    "no-dupe-keys", "no-unreachable", "no-self-compare", "default-case", "no-else-return", "max-params",
)  # fmt: skip


def _module(rng: random.Random, clean: bool) -> str:
    lines = [f"// {rng.choice(KINDS)} helpers, by {rng.choice(FIRST)}", ""]
    for j in range(rng.randrange(1, 5)):
        problems = set() if clean else set(rng.sample(RULES, rng.randrange(0, 4)))
        kind = rng.random()
        name = f"{rng.choice(('get', 'compute', 'check', 'format', 'apply'))}{rng.choice(KINDS).title()}{j}"
        if kind < 0.6:
            lines += _function(rng, name, problems)
        elif kind < 0.85:
            lines += _switch(rng, name, problems)
        else:
            lines += _table(rng, problems)
        lines.append("")
    return "\n".join(lines)


def _test(rng: random.Random, module: str) -> str:
    lines = [f'import * as m from "../src/{module}";', "", f'describe("{module}", () => {{']
    for _ in range(rng.randrange(1, 4)):
        cmp = rng.choice(("===", "=="))
        lines += [f"  it(\"works for {rng.randrange(100)}\", () => {{",
                  f"    const got = {rng.randrange(50)};",
                  f"    expect(got {cmp} {rng.randrange(50)}).toBe(true);",
                  "    console.log(m);", "  });"]  # fmt: skip
    lines.append("});")
    return "\n".join(lines) + "\n"


def javascript_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    root = work / "shop-app"
    for folder in ("src", "src/lib", "test", "vendor"):
        (root / folder).mkdir(parents=True)
    (root / "eslint.config.mjs").write_text(CONFIG)
    (root / "package.json").write_text('{"name": "shop-app", "private": true, "type": "module"}\n')
    files: list[str] = []
    modules = []
    for i in range(40):
        kind = KINDS[i % len(KINDS)]
        name = f"{kind}{'s' if i < len(KINDS) else f'-{i // len(KINDS)}'}.js"
        folder = "src" if i < 24 else "src/lib"
        (root / folder / name).write_text(_module(rng, clean=rng.random() < 0.2))
        files.append(str(root / folder / name))
        modules.append(f"{'' if folder == 'src' else 'lib/'}{name}")
    for module in rng.sample(modules, 10):
        path = root / "test" / module.replace("lib/", "").replace(".js", ".test.js")
        path.write_text(_test(rng, module))
        files.append(str(path))
    broken = root / "src" / "draft.js"  # half-written: a syntax error, reported as one fatal message
    broken.write_text(f"export function draft({rng.choice(NOUNS)} {{\n  return 1;\n")
    vendored = root / "vendor" / "legacy.js"  # ignored by the config: a warning saying so
    vendored.write_text("var legacy = 1\nif (legacy == 1) legacy = 2\n")
    return Fixture(["sh", "-c", IN_PROJECT, str(root), *binary],
                   {"files": files, "broken": str(broken), "vendored": str(vendored)})  # fmt: skip


def javascript_call(rng: random.Random, fx: Fixture) -> Call:
    files: list[str] = fx.facts["files"]
    r = rng.random()
    if r < 0.35:
        paths = [rng.choice(files)]
    elif r < 0.7:
        paths = rng.sample(files, 2)
    elif r < 0.93:
        paths = rng.sample(files, rng.randrange(3, 6))
    else:  # now and then the half-written file or the vendored one among others
        paths = rng.sample(files, rng.randrange(1, 3))
        paths.insert(rng.randrange(len(paths) + 1), fx.facts[rng.choice(("broken", "vendored"))])
    args: dict[str, Any] = {"filePaths": paths}
    return "lint-files", args
