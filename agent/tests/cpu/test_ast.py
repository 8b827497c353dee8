"""The `ast` method: the kernel's Python AST with spans and decorators."""
from __future__ import annotations

from conftest import KERNELS, SAMPLES


def walk(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for item in node:
            yield from walk(item)


def test_kernel_ast_has_spans_and_decorator(agent):
    reply, _ = agent.request("ast", {"source_path": str(SAMPLES / "vector_add.py"),
                                     "kernel": "add_kernel"})
    result = reply["result"]
    function = result["ast"]
    assert function["_type"] == "FunctionDef" and function["name"] == "add_kernel"
    assert (function["lineno"], function["end_lineno"]) == (13, 21)
    assert result["decorators"] == ["triton.jit"]
    decorator = function["decorator_list"][0]
    assert decorator["_type"] == "Attribute" and decorator["attr"] == "jit"
    assert decorator["lineno"] == 12
    loads = [node for node in walk(function) if node.get("_type") == "Call"
             and node["func"].get("attr") == "load"]
    assert [(node["lineno"], node["col_offset"]) for node in loads] == [(18, 8), (19, 8)]
    assert all("end_col_offset" in node for node in loads)


def test_whole_module_ast_lists_triton_functions(agent):
    reply, _ = agent.request("ast", {"source_path": str(SAMPLES / "matmul.py")})
    result = reply["result"]
    assert result["ast"]["_type"] == "Module"
    assert result["triton_functions"] == ["matmul_kernel"]


def test_autotune_decorator_is_visible(agent, tmp_path):
    source = tmp_path / "tuned.py"
    source.write_text(
        "import triton\nimport triton.language as tl\n\n\n"
        "@triton.autotune(configs=[triton.Config({'BLOCK': 128}, num_warps=4)], key=['n'])\n"
        "@triton.jit\n"
        "def tuned_kernel(x_ptr, n, BLOCK: tl.constexpr):\n"
        "    tl.store(x_ptr + tl.arange(0, BLOCK), 0.0)\n")
    reply, _ = agent.request("ast", {"source_path": str(source), "kernel": "tuned_kernel"})
    result = reply["result"]
    assert result["decorators"] == ["triton.autotune", "triton.jit"]
    autotune = result["ast"]["decorator_list"][0]
    assert autotune["_type"] == "Call" and autotune["lineno"] == 5
    keywords = [keyword["arg"] for keyword in autotune["keywords"]]
    assert keywords == ["configs", "key"]


def test_ast_errors(agent):
    reply, _ = agent.request("ast", {"source_path": str(KERNELS / "syntax_error.py")})
    assert reply["error"]["code"] == -32003
    assert reply["error"]["data"]["kind"] == "syntax_error"
    assert reply["error"]["data"]["line"] == 7
    reply, _ = agent.request("ast", {"source_path": str(SAMPLES / "matmul.py"),
                                     "kernel": "nope"})
    assert reply["error"]["data"]["kind"] == "unknown_kernel"
    assert reply["error"]["data"]["available"] == ["matmul_kernel"]
    reply, _ = agent.request("ast", {})
    assert reply["error"]["code"] == -32602
