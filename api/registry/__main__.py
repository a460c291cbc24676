"""Run the step registry service: `stepforge-registry` or `python -m api.registry`.

Settings come from STEPFORGE_REGISTRY_HOST, _PORT, _DATABASE_URL, _TOKEN (required), _MAX_BODY_BYTES, ...
"""

from __future__ import annotations

import sys

from pydantic import ValidationError


def main(argv: list[str] | None = None) -> int:
    import uvicorn

    from api.registry.app import create_app
    from api.registry.settings import RegistrySettings

    try:
        settings = RegistrySettings()
    except ValidationError as error:
        problems = "; ".join(
            f"STEPFORGE_REGISTRY_{'_'.join(str(p) for p in e['loc']).upper()}: {e['msg']}" for e in error.errors()
        )
        print(f"stepforge-registry: invalid settings: {problems}", file=sys.stderr)
        return 2
    try:
        app = create_app(settings)
    except Exception as error:  # noqa: BLE001 - one line, then exit
        lines = str(error).strip().splitlines()
        print(f"stepforge-registry: cannot start: {lines[0] if lines else type(error).__name__}", file=sys.stderr)
        return 2
    uvicorn.run(app, host=settings.host, port=settings.port, log_level=settings.log_level)
    return 0


if __name__ == "__main__":
    sys.exit(main())
