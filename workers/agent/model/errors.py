"""Errors raised by the model client. No raw SDK exception ever leaves the client."""

from __future__ import annotations


class ModelError(Exception):
    """Base of every error the model client raises."""


class ModelUnavailable(ModelError):
    """The endpoint could not give an answer: retries exhausted, or a request it refuses outright."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class ModelRequestRejected(ModelUnavailable):
    """A 4xx other than 429 (bad key, unknown model, malformed request): never retried."""


class ModelReplyError(ModelError):
    """The model answered, but not with a JSON object matching the schema (even after one re-ask)."""

    def __init__(self, message: str, *, reply: str | None = None) -> None:
        super().__init__(message)
        self.reply = reply


class BudgetExhausted(ModelError):
    """A call budget or cost budget would be exceeded; raised before anything is sent."""

    def __init__(self, message: str, *, budget: str, limit: float, spent: float) -> None:
        super().__init__(message)
        self.budget = budget
        self.limit = limit
        self.spent = spent
