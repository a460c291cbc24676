"""Apply the service's migrations: `python -m shared.migrate [upgrade|current|downgrade REV] [--url URL]`.

The URL defaults to STEPFORGE_DATABASE_URL. Migrations live in infra/migrations/ (Alembic); `alembic upgrade head`
from the repository root does the same.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from alembic import command
from alembic.config import Config

from shared.db import normalize_url
from shared.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
MIGRATIONS = ROOT / "infra" / "migrations"


def alembic_config(url: str | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    # "%" is ConfigParser's interpolation character; a password may hold one.
    config.set_main_option("sqlalchemy.url", normalize_url(url or Settings().database_url).replace("%", "%%"))
    return config


def upgrade(url: str | None = None, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m shared.migrate", description=__doc__.splitlines()[0])
    parser.add_argument("action", nargs="?", default="upgrade", choices=("upgrade", "current", "downgrade"))
    parser.add_argument("revision", nargs="?", help="target revision (upgrade: head; downgrade: required)")
    parser.add_argument("--url", help="database URL (default: STEPFORGE_DATABASE_URL)")
    args = parser.parse_args(argv)
    config = alembic_config(args.url)
    try:
        if args.action == "upgrade":
            command.upgrade(config, args.revision or "head")
        elif args.action == "current":
            command.current(config, verbose=True)
        else:
            if not args.revision:
                parser.error("downgrade needs a revision (e.g. base, or -1)")
            command.downgrade(config, args.revision)
    except Exception as error:  # noqa: BLE001 - one line, then exit
        lines = str(error).strip().splitlines()
        print(f"stepforge migrate: {args.action} failed: {lines[0] if lines else type(error).__name__}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
