"""`phasecert bench`: how an engine's untap step scales with its board.

Any engine the suite can load (`reference`, `phase-rs`, `module:Factory`,
`stdio:CMD`, ...) passes turns on boards of 10 to 10,000 permanents through
its adapter, under pytest-benchmark; the run gives each size's time, the
growth exponent fitted on the log–log points with its spread, a plot, a
Markdown report, and a gate against a stored run.

| module | what |
| --- | --- |
| `boards` | the legal boards and the check of the board after its untap step |
| `suite` | the pytest tests (`pytest --pyargs conformance.bench.suite --engine X`) |
| `plugin` | their options (`--bench-sizes`, `--bench-max-size`, ...) and the report at the end |
| `measuring` | one session: the sizes measured under the cap and the time budget, the rounds |
| `runs` | a run's results, as stored JSON (`bench.json`) |
| `growth` | the growth exponent and its spread |
| `report`, `plot` | the Markdown report and its SVG plot |
| `gate` | comparing a run with a stored one |
"""
