"""High Card's service, as ``bot/<game>.py`` is for the repository's games."""
