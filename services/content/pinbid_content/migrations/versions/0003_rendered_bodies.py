"""articles keep their body rendered: sanitised HTML parts and the demos between them

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24 16:20:00
"""

import json

import sqlalchemy as sa
from alembic import op
from pinbid_content.domain.articles import render_body
from sqlalchemy.dialects import postgresql

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("articles", sa.Column("body", postgresql.JSONB(), nullable=True))
    # every stored article rendered from the source it keeps, so that no read ever finds a row without its body
    connection = op.get_bind()
    for slug, kind, content in connection.execute(sa.text("SELECT slug, type, content FROM articles")):
        connection.execute(sa.text("UPDATE articles SET body = CAST(:body AS jsonb) WHERE slug = :slug"),
                           {"body": json.dumps(render_body(kind, content)), "slug": slug})
    op.alter_column("articles", "body", nullable=False)


def downgrade() -> None:
    op.drop_column("articles", "body")
