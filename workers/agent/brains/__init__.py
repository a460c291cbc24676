"""Brains decide what to do for a scenario step: `Brain` is the interface, `BuiltinBrain` the
deterministic, offline implementation."""

from .base import Brain
from .builtin import BuiltinBrain

__all__ = ["Brain", "BuiltinBrain"]
