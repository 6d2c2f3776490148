"""Pydantic models of every file format the workspace holds, and their vocabularies."""
