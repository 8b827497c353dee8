"""Makes row_sum_inlined.{ptx,sass}: real ptxas/nvdisasm output that carries inlined-call frames.

Triton 3.6 emits line-tables-only debug info, so its PTX names inlined call sites only in `.loc`
comments and ptxas never sees them: `nvdisasm -gi` then prints no "inlined at" frames. To test the
readers on that form, this script rewrites the row_sum fixture's PTX into the `.loc F L C,
function_name $L__info_stringN, inlined_at F L C` form the PTX ISA defines, assembles it with
Triton's bundled ptxas (as Triton does: -lineinfo, sm_90a) and disassembles it with the bundled
nvdisasm (-c -g -gi).

Run from anywhere: python3 tests/ir/native/data/make_inlined_data.py
"""
import os
import re
import subprocess

import triton

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "..", "..", "fixtures", "row_sum", "default", "row_sum_kernel.ptx")
BIN = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin")
LOC = re.compile(r"^(\s*)\.loc\s+(\d+) (\d+) (\d+)\s*//\s*(.*)$")


def file_table(ptx):
    """base name -> .file index"""
    table = {}
    for index, path in re.findall(r'^\s*\.file\s+(\d+)\s+"([^"]+)"', ptx, re.M):
        table[os.path.basename(path)] = int(index)
    return table


def frames_of(comment, files):
    """`standard.py:263:15 @[ row_sum.py:17:19 ]` -> [(2, 263, 15), (1, 17, 19)]"""
    frames = []
    for part in comment.split("@["):
        name, line, col = part.strip().rstrip("] ").rsplit(":", 2)
        frames.append((files[name], int(line), int(col)))
    return frames


def rewrite(ptx):
    files = file_table(ptx)
    seen, names, out = set(), {}, []
    for text in ptx.split("\n"):
        match = LOC.match(text)
        if not match or "@[" not in match.group(5):
            if match:
                seen.add(tuple(int(g) for g in match.group(2, 3, 4)))
            out.append(text)
            continue
        indent, chain = match.group(1), frames_of(match.group(5), files)
        # ptxas wants every call site to appear in an earlier .loc: emit outer frames first.
        for depth in range(len(chain) - 1, -1, -1):
            frame = chain[depth]
            if depth > 0 and frame in seen:
                continue
            directive = f"{indent}.loc\t{frame[0]} {frame[1]} {frame[2]}"
            if depth + 1 < len(chain):
                label = names.setdefault(frame, f"$L__info_string{len(names)}")
                caller = chain[depth + 1]
                directive += f", function_name {label}, inlined_at {caller[0]} {caller[1]} {caller[2]}"
            out.append(directive)
            seen.add(frame)
    text = "\n".join(out)
    strings = "".join(f"{label}:\n" + "".join(f".b8 {b}\n" for b in f"inlined_{i}".encode()) + ".b8 0\n"
                      for i, label in enumerate(names.values()))
    return text + "\t.section\t.debug_str\n\t{\n" + strings + "\t}\n"


def main():
    ptx_path = os.path.join(HERE, "row_sum_inlined.ptx")
    cubin_path = os.path.join(HERE, "row_sum_inlined.cubin")
    with open(FIXTURE) as f:
        ptx = rewrite(f.read())
    with open(ptx_path, "w") as f:
        f.write(ptx)
    subprocess.run([os.path.join(BIN, "ptxas"), "-lineinfo", "--gpu-name=sm_90a", ptx_path, "-o", cubin_path],
                   check=True)
    sass = subprocess.run([os.path.join(BIN, "nvdisasm"), "-c", "-g", "-gi", cubin_path],
                          check=True, capture_output=True, text=True).stdout
    with open(os.path.join(HERE, "row_sum_inlined.sass"), "w") as f:
        f.write(sass)
    os.remove(cubin_path)


if __name__ == "__main__":
    main()
