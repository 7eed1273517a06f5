"""High Card's rules, as ``engine/<game>/`` is for the repository's games."""
