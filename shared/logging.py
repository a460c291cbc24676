"""structlog set-up: JSON lines in services, readable lines on a laptop; secrets never printed."""

from __future__ import annotations

import logging
import re
import sys

import structlog

from shared.settings import Settings

_SECRET_KEYS = re.compile(r"(key|secret|token|password|authorization)", re.I)


def _redact(_: object, __: str, event: dict) -> dict:
    for name in list(event):
        if _SECRET_KEYS.search(name):
            event[name] = "***"
    return event


def _stderr_logger(*_args: object) -> structlog.PrintLogger:
    """A logger on the sys.stderr of the moment (loggers are not cached): one bound to the stream of the time of
    configure_logging would go on writing to it once it was replaced and closed (a test's captured output, which
    failed later tests of its process with "I/O operation on closed file")."""
    return structlog.PrintLogger(file=sys.stderr)


def configure_logging(settings: Settings) -> None:
    renderer = structlog.processors.JSONRenderer() if settings.log_json else structlog.dev.ConsoleRenderer(colors=False)
    # JSON lines carry the traceback of log.exception(...) as "exception" (the console renderer prints it itself).
    tracebacks = [structlog.processors.format_exc_info] if settings.log_json else []
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            _redact,
            *tracebacks,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.INFO if settings.log_json else logging.WARNING),
        logger_factory=_stderr_logger,
        cache_logger_on_first_use=False,
    )


log = structlog.get_logger()
