"""Widgets of the table: one per Zone, the hand, the prompt, the log, the status and scores."""
