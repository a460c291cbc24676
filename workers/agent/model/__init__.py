"""The `openai` brain's connection to a model: an OpenAI-compatible endpoint answering in JSON."""

from .client import ModelClient, PhaseUsage
from .errors import BudgetExhausted, ModelError, ModelReplyError, ModelRequestRejected, ModelUnavailable

__all__ = [
    "BudgetExhausted",
    "ModelClient",
    "ModelError",
    "ModelReplyError",
    "ModelRequestRejected",
    "ModelUnavailable",
    "PhaseUsage",
]
