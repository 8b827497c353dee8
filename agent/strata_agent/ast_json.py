"""Python AST as JSON: node type, fields and source spans (method `ast`)."""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from .errors import bad_input

_SPAN_FIELDS = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def node_to_json(node: Any) -> Any:
    """Converts an AST node (or field value) to JSON: {"_type": "Name", "id": "x", "lineno": ..}."""
    if isinstance(node, ast.AST):
        result: dict[str, Any] = {"_type": type(node).__name__}
        for field in node._fields:
            result[field] = node_to_json(getattr(node, field, None))
        for attribute in _SPAN_FIELDS:
            if hasattr(node, attribute):
                result[attribute] = getattr(node, attribute)
        return result
    if isinstance(node, list):
        return [node_to_json(item) for item in node]
    if isinstance(node, (str, int, float, bool)) or node is None:
        return node
    if isinstance(node, complex):
        return {"_type": "complex", "real": node.real, "imag": node.imag}
    if isinstance(node, bytes):
        return {"_type": "bytes", "hex": node.hex()}
    if node is Ellipsis:
        return {"_type": "Ellipsis"}
    return repr(node)


def parse_source_file(source_path: str, kernel: str | None = None) -> ast.Module:
    """Reads and parses a Python file; missing files and syntax errors become bad_input."""
    path = Path(source_path)
    if not path.is_file():
        raise bad_input("missing_file", f"no such file: {source_path}", file=source_path,
                        kernel=kernel)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise bad_input("unreadable_file", f"cannot read {source_path}: {error}",
                        file=source_path, kernel=kernel) from error
    try:
        return ast.parse(text, filename=source_path)
    except SyntaxError as error:
        raise bad_input("syntax_error", f"syntax error: {error.msg}", file=source_path,
                        line=error.lineno, kernel=kernel, column=error.offset) from error


def find_function(tree: ast.Module, name: str) -> ast.FunctionDef | None:
    """The module-level function `name`, the last definition winning as in Python."""
    found = None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            found = node
    return found


def decorator_names(function: ast.FunctionDef) -> list[str]:
    """Dotted names of a function's decorators: ['triton.jit'], ['triton.autotune', 'triton.jit']."""
    names = []
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        names.append(ast.unparse(target))
    return names


def is_triton_decorated(function: ast.FunctionDef) -> bool:
    return any(name.split(".")[-1] in {"jit", "autotune", "heuristics"}
               for name in decorator_names(function))


def ast_result(source_path: str, kernel: str | None) -> dict[str, Any]:
    """Result of the `ast` method: the kernel's FunctionDef (or the whole module) as JSON."""
    tree = parse_source_file(source_path, kernel)
    triton_functions = [node.name for node in tree.body
                        if isinstance(node, ast.FunctionDef) and is_triton_decorated(node)]
    if kernel is None:
        return {"source_path": source_path, "kernel": None, "triton_functions": triton_functions,
                "ast": node_to_json(tree)}
    function = find_function(tree, kernel)
    if function is None:
        raise bad_input("unknown_kernel", f"no function '{kernel}' in {source_path}; "
                        f"@triton functions there: {', '.join(triton_functions) or 'none'}",
                        file=source_path, kernel=kernel, available=triton_functions)
    return {"source_path": source_path, "kernel": kernel, "triton_functions": triton_functions,
            "decorators": decorator_names(function), "ast": node_to_json(function)}
