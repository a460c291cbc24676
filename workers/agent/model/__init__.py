"""The `openai` brain's connection to a model: an OpenAI-compatible endpoint answering in JSON. A cassette
(`workers.agent.model.cassette`, imported where it is used: it brings httpx) records or replays its exchanges."""

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
