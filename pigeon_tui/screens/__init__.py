"""The screens of the client: start, table, help, game over, and the size guard."""
