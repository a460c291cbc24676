"""The service API's routes, one module per resource; each registers on api.routes.common.v1 (health on
its own router)."""
