"""when messages were sent, artifacts per attempt, webhooks disabled by 410 Gone

- job.sent_at, outbox.sent_at: when the message was last handed to the broker; beat's sweep re-sends only what
  was not sent for longer than STEPFORGE_REQUEUE_AFTER_S (rows that exist already count as sent when created).
- job.result_prefix: the attempt folder (<artifact_prefix>attempts/<n>/) of the claim that finished the job;
  jobs finished before this revision kept their artifacts directly under artifact_prefix, so that is theirs.
- project.webhook_disabled_at / webhook_disabled_reason: set when the receiver answers 410 Gone.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 09:00:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0002'
down_revision: str | Sequence[str] | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('job') as batch:
        batch.add_column(sa.Column('result_prefix', sa.String(length=500), nullable=True))
        batch.add_column(sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('outbox') as batch:
        batch.add_column(sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('project') as batch:
        batch.add_column(sa.Column('webhook_disabled_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('webhook_disabled_reason', sa.Text(), nullable=True))
    op.execute("UPDATE job SET sent_at = created_at")
    op.execute("UPDATE outbox SET sent_at = created_at")
    op.execute("UPDATE job SET result_prefix = artifact_prefix WHERE state IN ('passed', 'failed', 'cancelled')")


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('project') as batch:
        batch.drop_column('webhook_disabled_reason')
        batch.drop_column('webhook_disabled_at')
    with op.batch_alter_table('outbox') as batch:
        batch.drop_column('sent_at')
    with op.batch_alter_table('job') as batch:
        batch.drop_column('sent_at')
        batch.drop_column('result_prefix')
