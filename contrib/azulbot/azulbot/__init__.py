"""azulbot: connect a ``choose(position, legal_moves) -> move`` function to an azulsite's bot
API (the site's docs/bot-api.md). Standard library only.

    from azulbot import Bot

    def choose(position, legal_moves):
        return legal_moves[0]

    Bot("https://azul.example.org", "azs_...", choose).run()
"""

from azulbot.client import ApiError, Bot, Client

__all__ = ["ApiError", "Bot", "Client"]
