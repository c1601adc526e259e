"""End-to-end tests of the sandbox page in Chromium."""
