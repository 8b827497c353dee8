"""The Ascend backend (triton-ascend): compile with stage files and pass dumps (compile.py, run in
the agent; worker.py, run by the Python that has triton-ascend), a crashed compiler reported as
an error (compiler_crash.py), and the hardware-side readers that never ran on an NPU here:
`msprof op` CSVs (msprof.py) and torch.npu event timing (npu_timing.py). See agent/README.md,
"Ascend backend"."""
