"""Ascend targets: Strata's name for each, the SoC name triton-ascend and bishengir-compile take,
and the backend options a compile for it starts from (ASCEND-NOTES.md sections 1, 2 and 9).

The 950 is the 910_95 family (`compile_on_910_95`, SoC `Ascend910_9599`). A triton-ascend build
for the 950 defaults multi-buffering and sub-block binding off and select analysis on
(`NPUOptions` takes its defaults from `is_compile_on_910_95`); the PyPI 3.2.0 wheel is an A2/A3
build, so those options are set here instead. Its frontend (triton_patch/language) still behaves
as on A2/A3 (fp8 and fp64 are refused), so an `ascend910_95` compile with this wheel is the 950
backend pipeline, not a bit-identical 950 build.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class AscendTarget:
    name: str                  # Strata's target name
    soc: str                   # GPUTarget("npu", soc, 0).arch and bishengir-compile --target
    description: str
    options: dict = field(default_factory=dict)   # backend options a spec's own options override


ASCEND_950_OPTIONS = {"compile_on_910_95": True, "multibuffer": False,
                      "enable_auto_bind_sub_block": False, "enable_select_analysis": True}

ASCEND_TARGETS = {
    "ascend910_95": AscendTarget("ascend910_95", "Ascend910_9599",
                                 "Ascend 950 (910_95 family, dav-c310)", ASCEND_950_OPTIONS),
    "ascend910b3": AscendTarget("ascend910b3", "Ascend910B3",
                                "Atlas A2 910B3 (20 AI cube / 40 AI vector cores)", {}),
}
DEFAULT_ASCEND_TARGET = "ascend910_95"
