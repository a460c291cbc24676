"""a batch's suite choices, and a project's defaults for them

- batch.feature, batch.suite_format, batch.step_writer: the feature of scenarios without one, the project suite.zip
  holds (cucumber-js or playwright-bdd), who words the steps (builtin or model); batches made before keep what they
  had (Scenarios, cucumber-js, builtin);
- project.default_feature, project.default_format, project.default_step_writer: what a batch naming none gets.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28 17:00:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0006'
down_revision: str | Sequence[str] | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('batch') as batch:
        batch.add_column(sa.Column('feature', sa.String(200), nullable=False, server_default='Scenarios'))
        batch.add_column(sa.Column('suite_format', sa.String(16), nullable=False, server_default='cucumber-js'))
        batch.add_column(sa.Column('step_writer', sa.String(16), nullable=False, server_default='builtin'))
    with op.batch_alter_table('project') as project:
        project.add_column(sa.Column('default_feature', sa.String(200), nullable=True))
        project.add_column(sa.Column('default_format', sa.String(16), nullable=False, server_default='cucumber-js'))
        project.add_column(sa.Column('default_step_writer', sa.String(16), nullable=True))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('project') as project:
        project.drop_column('default_step_writer')
        project.drop_column('default_format')
        project.drop_column('default_feature')
    with op.batch_alter_table('batch') as batch:
        batch.drop_column('step_writer')
        batch.drop_column('suite_format')
        batch.drop_column('feature')
