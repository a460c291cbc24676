"""dashboard sign-ins (api/ui/): ui_session, one row per signed-in browser; a scenario's jobs by project

- ui_session: the token's hash, the projects signed in, the CSRF token, when it expires;
- ix_job_project_scenario: job (project_id, external_id), for a scenario's jobs across the project's batches.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03 06:20:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision: str = '0009'
down_revision: str | Sequence[str] | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        'ui_session',
        sa.Column('id', sa.String(length=64), nullable=False),
        sa.Column('project_ids', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'),
                  nullable=False),
        sa.Column('csrf_token', sa.String(length=64), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_ui_session')),
    )
    op.create_index(op.f('ix_ui_session_expires_at'), 'ui_session', ['expires_at'], unique=False)
    op.create_index('ix_job_project_scenario', 'job', ['project_id', 'external_id'], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_index('ix_job_project_scenario', table_name='job')
    op.drop_index(op.f('ix_ui_session_expires_at'), table_name='ui_session')
    op.drop_table('ui_session')
