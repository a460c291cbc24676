"""a project's reset before each scenario

- project.reset_url: the worker POSTs there before each scenario (checked like base_url);
- project.reset_command: the name of a reset command the deployment configures (STEPFORGE_RESET_COMMANDS).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28 17:20:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0007'
down_revision: str | Sequence[str] | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('project') as project:
        project.add_column(sa.Column('reset_url', sa.String(2048), nullable=True))
        project.add_column(sa.Column('reset_command', sa.String(100), nullable=True))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('project') as project:
        project.drop_column('reset_command')
        project.drop_column('reset_url')
