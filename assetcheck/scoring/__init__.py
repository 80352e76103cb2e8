"""Scoring: engine profiles and their budgets, each model file's use of them, and the health
score and grade."""
