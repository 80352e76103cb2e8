"""Accounts and how they prove who they are: API keys, passwords, sign-up and log-in rules.
Nothing here knows HTTP: the API and the dashboard turn its refusals into answers."""
