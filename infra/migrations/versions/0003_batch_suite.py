"""the batch's one suite, built and replayed by a worker once the batch has finished

- batch.suite_state: "building" (sent to a worker), "ready" (suite.zip stored), "empty" (no scenario passed);
  batches finished before this revision are "building", so the sweep builds their suite once.
- batch.suite_failed: the scenarios red in the combined replay, id -> reason.
- batch.suite_sent_at: when the build was last handed to the broker.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24 14:00:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision: str = '0003'
down_revision: str | Sequence[str] | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('batch') as batch:
        batch.add_column(sa.Column('suite_state', sa.String(length=16), nullable=True))
        batch.add_column(sa.Column('suite_failed', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'),
                                   nullable=True))
        batch.add_column(sa.Column('suite_sent_at', sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE batch SET suite_state = 'building' WHERE state = 'finished'")


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('batch') as batch:
        batch.drop_column('suite_sent_at')
        batch.drop_column('suite_failed')
        batch.drop_column('suite_state')
