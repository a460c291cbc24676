"""stepforge benchmarks: `python -m bench` (see bench/__main__.py); the step registry: `python -m bench.registry`."""
