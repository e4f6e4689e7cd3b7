PY ?= python3

.PHONY: check test lint fix bench screenshots snapshots

check: lint test

lint:
	ruff format --check .
	ruff check .
	mypy
	lint-imports

test:
	$(PY) -m pytest -n 2

fix:
	ruff format .
	ruff check --fix .

bench:
	$(PY) bench/engine.py
