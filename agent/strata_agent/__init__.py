"""Strata host agent: compiles Triton kernels and reports every IR stage (see ../PROTOCOL.md)."""

PROTOCOL_VERSION = 1
AGENT_VERSION = "0.1.0"
SUPPORTED_TARGETS = ("sm_80", "sm_90", "sm_100")
