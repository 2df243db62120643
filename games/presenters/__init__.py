"""The pages' presenters: what a page shows, built from the selectors for the person looking.
Part of the page door; they read and never write (import-linter checks they import no
service)."""
