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
    source = Path(source_path).read_text(encoding="utf-8")
    return {"source_path": source_path, "kernel": kernel, "triton_functions": triton_functions,
            "decorators": decorator_names(function), "ast": node_to_json(function),
            "launch_sites": launch_sites(tree, kernel, source)}


# --- Launch sites: where a kernel is launched (`kernel[grid](...)`) and what decides its launch
# parameters, so that rewrites can change a block size together with the grid that depends on it.

def _span(node: ast.AST) -> dict[str, int]:
    return {attribute: getattr(node, attribute) for attribute in _SPAN_FIELDS}


def _int_literals(node: ast.AST) -> list[dict[str, Any]]:
    """Every int constant inside `node` (bools excluded), with its span."""
    return [{"value": child.value, **_span(child)} for child in ast.walk(node)
            if isinstance(child, ast.Constant) and type(child.value) is int]


def _names(node: ast.AST) -> list[dict[str, Any]]:
    """Every Name read inside `node`, with its span, in source order."""
    found = [child for child in ast.walk(node)
             if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load)]
    found.sort(key=lambda child: (child.lineno, child.col_offset))
    return [{"id": child.id, **_span(child)} for child in found]


def _expression(node: ast.AST, source: str) -> dict[str, Any]:
    return {"text": ast.get_source_segment(source, node), **_span(node),
            "names": _names(node), "int_literals": _int_literals(node)}


def _literal_sources(node: ast.AST, index: int | None) -> list[ast.Constant] | None:
    """The int constants that can become the value of `node` (element `index` when it is
    unpacked), through conditional expressions and tuples; None when another value can."""
    if isinstance(node, ast.IfExp):
        body = _literal_sources(node.body, index)
        orelse = _literal_sources(node.orelse, index)
        return None if body is None or orelse is None else body + orelse
    if index is not None:
        if isinstance(node, (ast.Tuple, ast.List)) and index < len(node.elts) \
                and not any(isinstance(element, ast.Starred) for element in node.elts):
            return _literal_sources(node.elts[index], None)
        return None
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return [node]
    return None


def _assignments(function: ast.FunctionDef, before_line: int, source: str) -> dict[str, Any]:
    """The last plain assignment of each local name before `before_line`: its statement, value
    and the int constants its value comes from (`literal_sources`, null when not only those)."""
    bindings: dict[str, Any] = {}
    statements = sorted((node for node in ast.walk(function) if isinstance(node, ast.Assign)),
                        key=lambda node: node.lineno)
    for statement in statements:
        if statement.lineno >= before_line or len(statement.targets) != 1:
            continue
        target = statement.targets[0]
        targets = [(target, None)] if isinstance(target, ast.Name) else \
            [(element, position) for position, element in enumerate(target.elts)] \
            if isinstance(target, ast.Tuple) else []
        for name, position in targets:
            if not isinstance(name, ast.Name):
                continue
            sources = _literal_sources(statement.value, position)
            bindings[name.id] = {
                "statement": _span(statement), "value": _expression(statement.value, source),
                "literal_sources": None if sources is None else
                [{"value": constant.value, **_span(constant)} for constant in sources]}
    return bindings


def _qualified_functions(tree: ast.Module) -> list[tuple[str, ast.FunctionDef]]:
    """Module functions and class methods, named `f` or `Class.method`."""
    found: list[tuple[str, ast.FunctionDef]] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found.append((node.name, node))
        elif isinstance(node, ast.ClassDef):
            found.extend((f"{node.name}.{item.name}", item) for item in node.body
                         if isinstance(item, ast.FunctionDef))
    return found


def _launch_site(call: ast.Call, function_name: str, function: ast.FunctionDef,
                 source: str) -> dict[str, Any]:
    subscript = call.func
    bindings = _assignments(function, call.lineno, source)
    grid = _expression(subscript.slice, source)
    if isinstance(subscript.slice, ast.Name) and subscript.slice.id in bindings:
        grid["definition"] = bindings[subscript.slice.id]
    used = {name["id"] for name in grid["names"]}
    for definition in [grid.get("definition")]:
        if definition:
            used |= {name["id"] for name in definition["value"]["names"]}
    keywords = []
    for keyword in call.keywords:
        if keyword.arg is None:
            continue
        entry = {"name": keyword.arg, **_span(keyword), "value": _expression(keyword.value, source)}
        if isinstance(keyword.value, ast.Name) and keyword.value.id in bindings:
            entry["binding"] = bindings[keyword.value.id]
        keywords.append(entry)
        used |= {name["id"] for name in entry["value"]["names"]}
    return {"function": function_name, "function_span": _span(function), **_span(call),
            "kernel_span": _span(subscript.value), "grid": grid,
            "args": [_expression(argument, source) for argument in call.args],
            "keywords": keywords,
            "bindings": {name: bindings[name] for name in sorted(used) if name in bindings}}


def launch_sites(tree: ast.Module, kernel: str, source: str) -> list[dict[str, Any]]:
    """Every `kernel[grid](...)` call in a module function or method, in source order."""
    sites = []
    for function_name, function in _qualified_functions(tree):
        for node in ast.walk(function):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Subscript) \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == kernel:
                sites.append(_launch_site(node, function_name, function, source))
    sites.sort(key=lambda site: (site["lineno"], site["col_offset"]))
    return sites
