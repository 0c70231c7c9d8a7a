"""calculate: evaluate an arithmetic expression, rounded to 2 decimals, as text; read.

Only ``0-9 + - * / ( ) .`` and spaces are accepted. The expression is evaluated with Python's
own number semantics (so results and error texts match upstream's ``eval``), walking the syntax
tree instead of calling ``eval``; one deliberate difference: an integer power with an exponent
above 10,000 is refused instead of hanging the process.
"""

from __future__ import annotations

import ast
import operator
import warnings
from typing import Any

from environments.taubench.tools._base import Tool, obj, string

ALLOWED = set("0123456789+-*/(). ")
MAX_INT_EXPONENT = 10_000

_BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg}


def _eval(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_eval(node.operand))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _eval(node.left), _eval(node.right)
        if (
            isinstance(node.op, ast.Pow)
            and isinstance(left, int)
            and isinstance(right, int)
            and abs(left) > 1
            and right > MAX_INT_EXPONENT
        ):
            raise OverflowError(
                f"exponent {right} is too large (calculate allows at most {MAX_INT_EXPONENT})"
            )
        return _BINARY[type(node.op)](left, right)
    # anything else the character set allows (e.g. a call like "(2)(3)") fails as Python would
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        code = compile(ast.Expression(node), "<string>", "eval")
    return eval(code, {"__builtins__": {}}, {})  # noqa: S307


class Calculate(Tool):
    name = "calculate"
    category = "read"
    returns = "text"
    description = (
        "Calculate the result of a mathematical expression with numbers, + - * /, parentheses and "
        "spaces. Returns the result rounded to 2 decimals."
    )
    parameters = obj(expression=string("The expression, e.g. '2 + 2' or '(100 - 12.5) * 0.9'."))

    @staticmethod
    def invoke(db: Any, expression: Any) -> str:
        if not all(ch in ALLOWED for ch in expression):
            return "Error: invalid characters in expression"
        try:
            tree = ast.parse(expression.lstrip(" \t"), "<string>", "eval")
            return str(round(float(_eval(tree.body)), 2))
        except Exception as exc:
            return f"Error: {exc}"
