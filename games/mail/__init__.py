"""Play by email: the outbox sender, periodic sweeps, reply-to-move and preferences."""
