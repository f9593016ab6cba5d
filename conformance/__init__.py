"""phasecert: a property-based conformance suite for the phasing rules of
Magic: The Gathering (CR 702.26)."""

__version__ = "0.1.0"
