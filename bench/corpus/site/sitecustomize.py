"""On PYTHONPATH only for bench/corpus/run.py's strata-cli calls: the agent's workers import a
corpus kernel's file, and flag_gems' files ask for the device at import (see target_device.py)."""
import os

if os.environ.get("STRATA_CORPUS_PRETEND_DEVICE") == "1":
    from target_device import pretend_target_device

    pretend_target_device()
