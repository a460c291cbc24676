"""a regeneration's triage of each job, the lookup of a scenario version's verified script, deleted scenarios

- job.triage: passed, flake, drift, app_changed, broken_environment or generated (None outside regenerations);
- job.triage_detail: what the triage found (old and new locators, the failed step's expected and actual, replays);
- ix_job_scenario_state: a scenario version's latest passed job, whose run record is its verified script;
- scenario.deleted_at: set on the latest version of a deleted scenario.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24 18:00:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision: str = '0004'
down_revision: str | Sequence[str] | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('job') as job:
        job.add_column(sa.Column('triage', sa.String(length=24), nullable=True))
        job.add_column(sa.Column('triage_detail', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'),
                                 nullable=True))
        job.create_index('ix_job_scenario_state', ['scenario_id', 'state'], unique=False)
    with op.batch_alter_table('scenario') as scenario:
        scenario.add_column(sa.Column('deleted_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('scenario') as scenario:
        scenario.drop_column('deleted_at')
    with op.batch_alter_table('job') as job:
        job.drop_index('ix_job_scenario_state')
        job.drop_column('triage_detail')
        job.drop_column('triage')
