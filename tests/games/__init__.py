"""Tests of the contract every game passes, over the built-in games and a tiny game of their own."""
