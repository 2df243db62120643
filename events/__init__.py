"""The generic append-only event store: one table of events ordered per stream."""
