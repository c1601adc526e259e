"""Discord layer: one cog per feature."""
