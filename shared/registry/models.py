"""The registry's tables (SQLModel). Created on start with metadata.create_all; migrations come later."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Column, DateTime, ForeignKey, Index, Integer, String, Text, UniqueConstraint, func
from sqlalchemy.dialects.postgresql import JSONB
from sqlmodel import Field, SQLModel


class Step(SQLModel, table=True):
    """One version of one step of one origin. UNIQUE(origin, signature): many callers, one row."""

    __tablename__ = "step"
    __table_args__ = (
        UniqueConstraint("origin", "signature", name="uq_step_origin_signature"),
        # The versions of a step: same origin, keyword and pattern (pattern_hash hashes keyword + pattern).
        Index("ix_step_origin_pattern_hash", "origin", "pattern_hash", "version"),
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True, autoincrement=True))
    origin: str = Field(sa_column=Column(String(2048), nullable=False))
    signature: str = Field(sa_column=Column(String(64), nullable=False))
    version: int = Field(default=1, sa_column=Column(Integer, nullable=False, server_default="1"))
    supersedes: int | None = Field(default=None, sa_column=Column(Integer, ForeignKey("step.id"), nullable=True))
    keyword: str = Field(sa_column=Column(String(8), nullable=False))
    pattern: str = Field(sa_column=Column(Text, nullable=False))
    pattern_hash: str = Field(sa_column=Column(String(32), nullable=False))
    definition: dict = Field(sa_column=Column(JSON().with_variant(JSONB(), "postgresql"), nullable=False))
    code: str = Field(sa_column=Column(Text, nullable=False))
    created_by: str = Field(sa_column=Column(String(100), nullable=False))
    created_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=False, server_default=func.now())
    )


class StepUsage(SQLModel, table=True):
    """How many times a project registered (used) a step."""

    __tablename__ = "step_usage"
    __table_args__ = (Index("ix_step_usage_project", "project"),)

    step_id: int = Field(sa_column=Column(Integer, ForeignKey("step.id"), primary_key=True))
    project: str = Field(sa_column=Column(String(100), primary_key=True))
    uses: int = Field(default=1, sa_column=Column(Integer, nullable=False, server_default="1"))


step_table = Step.__table__
usage_table = StepUsage.__table__
metadata = SQLModel.metadata
