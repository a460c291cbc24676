"""The domain and what both the API and the workers need."""
