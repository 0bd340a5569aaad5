"""One-change mutants of an assignment's reference solution.

Each mutant is the whole reference module with exactly one change inside one
graded stub (a top-level function or class named like a question): an
arithmetic or matrix operator, a comparison, a boolean operator, a unary
sign or `not`, a number or a truth value (defaults included), a `dim=`/`axis=`
argument, `keepdims=`, the order of a call's first two arguments, a dropped
keyword argument (not of calls whose first two arguments commute, such as
`transpose`), a statement replaced by `pass`, a negated `if`, the order
of returned values, or a returned expression reduced to its left operand.

What must stay true: the same source gives the same mutants in the same order
with the same ids (an id is the stub, the operator and a hash of the mutated
stub's code, so it survives edits elsewhere in the file and changes when the
stub does); no mutant equals the original; every mutant's source compiles.
"""
from __future__ import annotations

import ast
import copy
import difflib
import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

BINARY = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
          ast.FloorDiv: ast.Div, ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult,
          ast.MatMult: ast.Mult}
COMPARE = {ast.Lt: (ast.LtE, ast.Gt), ast.LtE: (ast.Lt,), ast.Gt: (ast.GtE, ast.Lt),
           ast.GtE: (ast.Gt,), ast.Eq: (ast.NotEq,), ast.NotEq: (ast.Eq,),
           ast.In: (ast.NotIn,), ast.NotIn: (ast.In,), ast.Is: (ast.IsNot,),
           ast.IsNot: (ast.Is,)}
AXIS_NAMES = ("dim", "axis")
SYMMETRIC = {"transpose", "swapaxes", "swapdims", "maximum", "minimum", "add", "mul",
             "isclose", "allclose", "equal"}
"""Calls whose first two arguments commute: swapping them changes nothing."""


@dataclass(frozen=True)
class Mutant:
    id: str
    """"<stub>:<operator>:<hash of the mutated stub>", stable across unrelated edits."""
    question: str
    operator: str
    line: int
    """Line of the change in the reference's own file."""
    description: str
    """What changed, for a reader: "`a + b` -> `a - b`"."""
    source: str
    """The whole reference module with the change."""
    diff: str
    """The change as a unified diff of the stub's code."""


Change = Callable[[ast.AST], "list[tuple[str, ast.AST]]"]
"""A site's alternatives: (operator name, replacement node) pairs."""


def mutants(source: str, questions: list[str]) -> list[Mutant]:
    """Every one-change mutant of the stubs named in `questions`, in source order."""
    module = ast.parse(source)
    found, seen = [], set()
    for index, node in enumerate(module.body):
        if not isinstance(node, (ast.FunctionDef, ast.ClassDef)) or node.name not in questions:
            continue
        original = ast.unparse(node)
        for path, operator, replacement in _sites(node):
            mutated = copy.deepcopy(module)
            _replace(mutated.body[index], path, replacement)
            stub = ast.unparse(mutated.body[index])
            if stub == original or stub in seen:
                continue
            seen.add(stub)
            text = ast.unparse(mutated)
            compile(text, "<mutant>", "exec")
            target = _at(node, path)
            found.append(Mutant(
                id=f"{node.name}:{operator}:{hashlib.sha1(stub.encode()).hexdigest()[:8]}",
                question=node.name, operator=operator, line=getattr(target, "lineno", node.lineno),
                description=f"`{_short(target)}` -> `{_short(replacement)}`",
                source=text, diff=_diff(original, stub)))
    return found


def _sites(stub: ast.AST) -> Iterator[tuple[tuple, str, ast.AST]]:
    """(path to a node, operator, its replacement) for every change in `stub`."""
    for path, node in _walk(stub, ()):
        for change in CHANGES:
            for operator, replacement in change(node):
                yield path, operator, replacement


def _walk(node: ast.AST, path: tuple) -> Iterator[tuple[tuple, ast.AST]]:
    """Every node below `node` with its path ((field, index) steps), depth first,
    docstrings and type annotations left out."""
    for field, value in ast.iter_fields(node):
        if field in ("annotation", "returns", "type_comment"):
            continue
        items = value if isinstance(value, list) else [value]
        for i, child in enumerate(items):
            if not isinstance(child, ast.AST) or _is_docstring(node, field, i):
                continue
            step = path + ((field, i if isinstance(value, list) else None),)
            yield step, child
            yield from _walk(child, step)


def _is_docstring(parent: ast.AST, field: str, index: int) -> bool:
    return (field == "body" and index == 0 and isinstance(parent, (ast.FunctionDef, ast.ClassDef))
            and isinstance(parent.body[0], ast.Expr)
            and isinstance(parent.body[0].value, ast.Constant)
            and isinstance(parent.body[0].value.value, str))


def _at(node: ast.AST, path: tuple) -> ast.AST:
    for field, index in path:
        node = getattr(node, field) if index is None else getattr(node, field)[index]
    return node


def _replace(root: ast.AST, path: tuple, replacement: ast.AST) -> None:
    parent = _at(root, path[:-1])
    field, index = path[-1]
    if index is None:
        setattr(parent, field, replacement)
    else:
        getattr(parent, field)[index] = replacement


def _binary(node):
    if isinstance(node, ast.BinOp) and type(node.op) in BINARY:
        yield "operator", ast.BinOp(node.left, BINARY[type(node.op)](), node.right)
    if isinstance(node, ast.AugAssign) and type(node.op) in BINARY:
        yield "operator", ast.AugAssign(node.target, BINARY[type(node.op)](), node.value)


def _compare(node):
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        for other in COMPARE.get(type(node.ops[0]), ()):
            yield "comparison", ast.Compare(node.left, [other()], node.comparators)
    if isinstance(node, ast.BoolOp):
        yield "boolean", ast.BoolOp(ast.Or() if isinstance(node.op, ast.And) else ast.And(),
                                    node.values)


def _unary(node):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Not)):
        yield "unary", node.operand


def _constant(node):
    if not isinstance(node, ast.Constant):
        return
    value = node.value
    if isinstance(value, bool):
        yield "constant", ast.Constant(not value)
    elif isinstance(value, int):
        yield "constant", ast.Constant(value + 1)
        yield "constant", ast.Constant(value - 1)
    elif isinstance(value, float):
        yield "constant", ast.Constant(value * 2 if value else 1.0)


def _call(node):
    if not isinstance(node, ast.Call):
        return
    name = getattr(node.func, "attr", getattr(node.func, "id", ""))
    if len(node.args) >= 2 and name not in SYMMETRIC \
            and not any(isinstance(a, ast.Starred) for a in node.args[:2]):
        yield "argument order", ast.Call(node.func, [node.args[1], node.args[0], *node.args[2:]],
                                         node.keywords)
    for i, keyword in enumerate(node.keywords):
        rest = node.keywords[:i] + node.keywords[i + 1:]
        if keyword.arg is not None:
            yield "dropped argument", ast.Call(node.func, node.args, rest)
        if keyword.arg in AXIS_NAMES:
            value = ast.Constant(-2) if _is(keyword.value, -1) else ast.Constant(-1)
            yield "dim", ast.Call(node.func, node.args, rest[:i] + [ast.keyword(
                keyword.arg, value)] + rest[i:])
        if keyword.arg == "keepdims" and isinstance(keyword.value, ast.Constant):
            yield "keepdims", ast.Call(node.func, node.args, rest[:i] + [ast.keyword(
                "keepdims", ast.Constant(not keyword.value.value))] + rest[i:])


def _statement(node):
    if isinstance(node, ast.If):
        yield "negated if", ast.If(ast.UnaryOp(ast.Not(), node.test), node.body, node.orelse)
    if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) \
            and len(node.value.elts) >= 2:
        elts = node.value.elts
        yield "returned values", ast.Return(ast.Tuple([elts[1], elts[0], *elts[2:]], ast.Load()))
    if isinstance(node, ast.Return) and isinstance(node.value, ast.BinOp):
        yield "returned values", ast.Return(node.value.left)
    if isinstance(node, (ast.Assign, ast.AugAssign, ast.Expr, ast.If, ast.For, ast.Raise)) \
            and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
        yield "dropped statement", ast.Pass()


def _is(node: ast.AST, value) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _is(node.operand, -value)
    return isinstance(node, ast.Constant) and node.value == value


CHANGES: tuple[Change, ...] = (_binary, _compare, _unary, _constant, _call, _statement)


def _short(node: ast.AST) -> str:
    text = ast.unparse(node).splitlines()[0] if not isinstance(node, ast.Pass) else "pass"
    return text if len(text) <= 80 else text[:77] + "..."


def _diff(before: str, after: str) -> str:
    return "\n".join(difflib.unified_diff(before.splitlines(), after.splitlines(), "reference",
                                          "mutant", n=1, lineterm=""))
