"""Tests, one file per layer and feature; rule tests read as rule statements."""
