"""Splits the worker's stderr stream into pass dumps, diagnostics and everything else.

The stream interleaves, in the order they happened:
  - stage markers written by the worker:   // -----// STRATA STAGE ttgir //----- //
  - MLIR_ENABLE_DUMP headers + IR:         // -----// IR Dump Before Pass (arg) ('op' operation[: @sym]) //----- //
  - the pipeliner's internal dumps:        // -----// SoftwarePipeliner internal IR Dump After: LowerLoops
  - MLIR diagnostics (MLIR_ENABLE_DIAGNOSTICS), each a header line optionally followed by a
    blank line, the source line and a caret line:  /p/k.py:35:20: remark: Warning: ...
  - LLVM debug traces (TRITON_LLVM_DEBUG_ONLY), one line each: [axis-info]: ..., [tritongpu-coalesce]: ...,
    [triton-loop-pipeline]: ... (why a load was or was not pipelined, the pointer facts behind each
    access's vector width), kept apart as the compile's debug trace.
  - anything else (Python warnings, tracebacks, crash reproducers), kept as the compile log.
A dump ends at the next header, marker or diagnostic, or at the first line after the dumped op's
closing brace (column 0) that is neither a `#` alias/location definition nor blank.

A big matmul prints ~170 MB of dumps, so the stream is read line by line and each dump goes
straight to its file in passes/.
"""
from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Iterable, Iterator

_STAGE_MARKER = re.compile(r"^// -----// STRATA STAGE (?P<stage>\w+) //----- //$")
_DUMP_BEFORE = re.compile(
    r"^// -----// IR Dump Before (?P<pass>\S+)(?: \((?P<argument>[^()]*)\))? "
    r"\('(?P<anchor>[^']+)' operation(?:: (?P<symbol>.*))?\) //----- //$")
_PIPELINER_AFTER = re.compile(r"^// -----// SoftwarePipeliner internal IR Dump After: (?P<step>\w+)\s*$")
_DIAGNOSTIC = re.compile(
    r"^(?:(?P<file>[^\s#].*?):(?P<line>\d+):(?P<column>\d+): )?"
    r"(?P<severity>remark|warning|error|note): (?P<message>.*)$")
_CARET = re.compile(r"^\s*\^[~\s]*$")
# The LLVM_DEBUG channels the worker turns on (backends/nvidia/compile.DEBUG_TRACE_CHANNELS).
_DEBUG_TRACE = re.compile(r"^\[(?:axis-info|tritongpu-coalesce|triton-loop-pipeline)\]: ")


@dataclass
class PassDump:
    index: int
    pass_name: str
    argument: str
    anchor: str
    anchor_symbol: str | None
    stage: str | None
    kind: str                     # "before" (MLIR_ENABLE_DUMP) or "internal_after" (pipeliner)
    path: Path | None = None

    def to_json(self) -> dict:
        return {"index": self.index, "pass": self.pass_name, "argument": self.argument,
                "anchor": self.anchor, "anchor_symbol": self.anchor_symbol, "kind": self.kind,
                "stage": self.stage}


@dataclass
class Diagnostic:
    file: str | None
    line: int | None
    column: int | None
    severity: str
    message: str
    stage: str | None
    pass_index: int | None        # the dump (pass) that was running when it was emitted

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "column": self.column,
                "severity": self.severity, "message": self.message, "stage": self.stage,
                "pass_index": self.pass_index}


@dataclass
class SplitStream:
    dumps: list[PassDump] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    log_lines: list[str] = field(default_factory=list)
    trace_lines: list[str] = field(default_factory=list)
    stages_started: list[str] = field(default_factory=list)


def _kebab(step: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "-", step).lower()


def dump_file_name(dump: PassDump) -> str:
    safe_argument = re.sub(r"[^A-Za-z0-9._-]+", "_", dump.argument) or "pass"
    return f"{dump.index:03d}-{safe_argument}.mlir"


class _DumpFile:
    """One open dump file; blank lines are held back so a dump never ends in blank lines."""

    def __init__(self, path: Path):
        self.handle: IO[str] = open(path, "w", encoding="utf-8")
        self.pending_blank_lines = 0

    def write(self, line: str) -> None:
        if not line:
            self.pending_blank_lines += 1
            return
        self.handle.write("\n" * self.pending_blank_lines + line + "\n")
        self.pending_blank_lines = 0

    def close(self) -> None:
        self.handle.close()


class _Splitter:
    def __init__(self, passes_dir: Path):
        self.passes_dir = passes_dir
        self.result = SplitStream()
        self.stage: str | None = None
        self.current: _DumpFile | None = None
        self.closed_top_level = False   # the dumped op's closing brace was seen

    def run(self, lines: Iterator[str]) -> SplitStream:
        lookahead = _Lookahead(lines)
        try:
            for line in lookahead:
                self.take(line, lookahead)
        finally:
            self.end_dump()
        return self.result

    def start_dump(self, header: str, **fields) -> None:
        self.end_dump()
        dump = PassDump(index=len(self.result.dumps), stage=self.stage, **fields)
        dump.path = self.passes_dir / dump_file_name(dump)
        self.result.dumps.append(dump)
        self.current = _DumpFile(dump.path)
        self.current.write(header)
        self.closed_top_level = False

    def end_dump(self) -> None:
        if self.current is not None:
            self.current.close()
            self.current = None

    def take(self, line: str, lookahead: "_Lookahead") -> None:
        if marker := _STAGE_MARKER.match(line):
            self.end_dump()
            self.stage = marker.group("stage")
            self.result.stages_started.append(self.stage)
        elif header := _DUMP_BEFORE.match(line):
            self.start_dump(line, pass_name=header.group("pass"),
                            argument=header.group("argument") or _kebab(header.group("pass")),
                            anchor=header.group("anchor"), anchor_symbol=header.group("symbol"),
                            kind="before")
        elif header := _PIPELINER_AFTER.match(line):
            step = header.group("step")
            self.start_dump(line, pass_name=f"SoftwarePipeliner:{step}",
                            argument=f"tritongpu-pipeline.{_kebab(step)}",
                            anchor="builtin.module", anchor_symbol=None, kind="internal_after")
        elif _DEBUG_TRACE.match(line):
            self.end_dump()  # a pass prints its trace while it runs, after its "before" dump
            self.result.trace_lines.append(line)
        elif diagnostic := _DIAGNOSTIC.match(line):
            self.take_diagnostic(diagnostic, line, lookahead)
        elif self.current is not None and self.belongs_to_dump(line):
            self.current.write(line)
        else:
            self.end_dump()
            self.result.log_lines.append(line)

    def belongs_to_dump(self, line: str) -> bool:
        if not self.closed_top_level:
            if line == "}":
                self.closed_top_level = True
            return True
        return line == "" or line.startswith("#")

    def take_diagnostic(self, match: re.Match, line: str, lookahead: "_Lookahead") -> None:
        pass_index = self.result.dumps[-1].index if self.result.dumps else None
        line_number, column = match.group("line"), match.group("column")
        self.result.diagnostics.append(Diagnostic(
            file=match.group("file"), line=int(line_number) if line_number else None,
            column=int(column) if column else None, severity=match.group("severity"),
            message=match.group("message"), stage=self.stage, pass_index=pass_index))
        self.result.log_lines.append(line)
        self.result.log_lines.extend(lookahead.take(_source_excerpt_length(lookahead.peek(3))))


class _Lookahead:
    """An iterator over lines (without their newline) that can peek a few lines ahead."""

    def __init__(self, lines: Iterator[str]):
        self.source = lines
        self.buffer: deque[str] = deque()

    def __iter__(self) -> "_Lookahead":
        return self

    def __next__(self) -> str:
        if self.buffer:
            return self.buffer.popleft()
        return next(self.source).rstrip("\n")

    def peek(self, count: int) -> list[str]:
        while len(self.buffer) < count:
            try:
                self.buffer.append(next(self.source).rstrip("\n"))
            except StopIteration:
                break
        return list(self.buffer)[:count]

    def take(self, count: int) -> list[str]:
        return [self.buffer.popleft() for _ in range(count)]


def _source_excerpt_length(following: list[str]) -> int:
    """MLIR prints [blank], source line, caret line after a diagnostic when it can read the
    file. `following` are the next (up to) three lines."""
    if len(following) >= 3 and not following[0].strip() and _CARET.match(following[2]):
        return 3
    if len(following) >= 2 and _CARET.match(following[1]):
        return 2
    return 0


def split_stream(lines: Iterable[str], passes_dir: Path) -> SplitStream:
    """Splits the stream, writing each dump to passes_dir/NNN-<argument>.mlir."""
    passes_dir.mkdir(parents=True, exist_ok=True)
    return _Splitter(passes_dir).run(iter(lines))


def split_stream_file(stderr_path: Path, passes_dir: Path) -> SplitStream:
    if not stderr_path.is_file():
        passes_dir.mkdir(parents=True, exist_ok=True)
        return SplitStream()
    with open(stderr_path, encoding="utf-8", errors="replace") as stream:
        return split_stream(stream, passes_dir)


def iter_errors(diagnostics: list[Diagnostic]) -> Iterator[Diagnostic]:
    return (diagnostic for diagnostic in diagnostics if diagnostic.severity == "error")
