"""How a scenario's sentences are read, below both who reads them (the brains) and what they ask for (the action
kinds, whose rules read their own phrasing): masked quotes, operations, targets and places (phrases.py), counts
and numbers in words (counts.py). It imports neither."""
