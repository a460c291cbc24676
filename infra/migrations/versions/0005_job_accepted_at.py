"""a person's acceptance of an app_changed job's regenerated script

- job.accepted_at: set by POST /v1/batches/{b}/jobs/{j}/accept; the job's candidate script is then the scenario
  version's verified script.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24 21:00:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0005'
down_revision: str | Sequence[str] | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('job') as job:
        job.add_column(sa.Column('accepted_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('job') as job:
        job.drop_column('accepted_at')
