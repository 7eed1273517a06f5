"""High Card's Discord package, as ``cogs/<game>/`` is for the repository's games."""
