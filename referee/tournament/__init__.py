"""Tournaments: files, schedules, workers and the runner."""
