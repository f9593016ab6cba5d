"""Benchmarks of the untap step, the hot path of phasing (502.1, 702.26a).

Not part of the default test run (`testpaths` is `tests`); run them with
`pytest benchmarks`. This file makes `benchmarks` a package so that pytest
puts the repository root, not this folder, on `sys.path`.
"""
