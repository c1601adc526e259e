"""Kōhaku's tests: rules read as rule statements quoting the Polish rulebook, properties, AI, words, pictures."""
