"""The conformance suite, run against the engine named by --engine."""

from conformance.suite import test_agrees_with_reference, test_property

__all__ = ["test_agrees_with_reference", "test_property"]
