"""Helpers shared by the tests, and the test data (support/data/)."""
