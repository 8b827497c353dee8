"""Entry point: python3 -m strata_agent --stdio"""
from __future__ import annotations

import argparse
import logging
import sys

from . import PROTOCOL_VERSION
from .server import Server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="strata_agent",
                                     description="Strata host agent (JSON-RPC 2.0 over stdio).")
    parser.add_argument("--stdio", action="store_true",
                        help="serve JSON-RPC requests, one per line, on stdin/stdout")
    parser.add_argument("--log-level", default="WARNING", help="stderr log level")
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=args.log_level.upper(),
                        format="strata-agent %(levelname)s: %(message)s")
    if not args.stdio:
        parser.error("only --stdio is supported (protocol %d)" % PROTOCOL_VERSION)
    # Anything that prints must not corrupt the protocol stream: keep the real stdout for
    # protocol lines and point sys.stdout at stderr.
    protocol_out = sys.stdout
    sys.stdout = sys.stderr
    return Server(sys.stdin, protocol_out).serve()


if __name__ == "__main__":
    sys.exit(main())
