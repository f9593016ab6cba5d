"""Properties of a phased-out permanent's non-existence (702.26b, c, e;
506.4; R2017-nonexistent, R2017-targets)."""
