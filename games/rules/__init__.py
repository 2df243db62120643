"""Pure rules engines: standard library only (an import-linter contract keeps Django,
DRF and Celery out). Each game is a package exposing the decider contract described in
``docs/engines.md``."""
