"""Small helpers any layer may use: they import nothing of the project, of Discord, of Pillow or of a database."""
