"""The step registry's HTTP service: steps keyed by (origin, signature), shared by the projects of an origin.

- app.py: the FastAPI application (create_app), deployed with `stepforge-registry` (__main__.py), over
- shared/registry/: the storage (service.py, the one place with the SQL), the input checks, and LocalStepRegistry,
  the in-process registry of embedded mode.
"""
