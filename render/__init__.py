"""Board pictures drawn with Pillow from the engine's view."""
