"""where a project's batch results are reported: a TestRail- or Xray-shaped API

- project.report_to: the target (kind, url, run_id, user), without its secret;
- project.report_secret: the target's credential, encrypted (Fernet, STEPFORGE_SECRETS_KEY);
- project.report_disabled_at / report_disabled_reason: set after repeated 4xx answers.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 20:50:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision: str = '0008'
down_revision: str | Sequence[str] | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('project') as project:
        project.add_column(sa.Column('report_to', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()),
                                                                         'postgresql'), nullable=True))
        project.add_column(sa.Column('report_secret', sa.Text(), nullable=True))
        project.add_column(sa.Column('report_disabled_at', sa.DateTime(timezone=True), nullable=True))
        project.add_column(sa.Column('report_disabled_reason', sa.Text(), nullable=True))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('project') as project:
        project.drop_column('report_disabled_reason')
        project.drop_column('report_disabled_at')
        project.drop_column('report_secret')
        project.drop_column('report_to')
