"""Properties of attachments: Auras, Equipment and Fortifications follow
their host (702.26g–j, 704.5m, 704.5n, R2017-auras, R2017-attached)."""
