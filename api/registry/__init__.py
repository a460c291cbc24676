"""The step registry service: steps keyed by (origin, signature), shared by the projects of an origin.

- service.py: the one place with the SQL (RegistryService), used by
- app.py: the FastAPI application (create_app), deployed with `stepforge-registry` (__main__.py), and
- local.py: LocalStepRegistry, the in-process registry of embedded mode.
"""
