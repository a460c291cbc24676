"""The step registry's storage and rules: its tables, the service that looks steps up and registers them, the
input checks, and the in-process registry the CLI uses. api/registry/ serves the same over HTTP."""
