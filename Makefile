PY ?= python3
SNAPSHOT_PYTHON := 3.11.7

.PHONY: check lint test fix lock bench bench-tui bench-web screenshots screenshots-web snapshots

# The README's test command: everything CI runs.
check: lint test

lint:
	ruff format --check .
	ruff check .
	mypy
	lint-imports

# asyncio's debug mode: un-awaited coroutines, slow callbacks and leaked transports get reported.
# loadgroup: the tests of a module that share a played game (xdist_group) run on one worker.
test:
	PYTHONASYNCIODEBUG=1 $(PY) -m pytest -n 2 --dist loadgroup --durations=15

# Pinned versions (constraints.txt) for CI and snapshots: the newest releases that install
# together, frozen from a fresh virtual environment.
lock:
	rm -rf .lock-venv && $(PY) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet --upgrade pip
	.lock-venv/bin/pip install --quiet -e '.[dev]'
	{ sed -n '1,2p' constraints.txt; .lock-venv/bin/pip freeze --exclude-editable; } > constraints.new
	mv constraints.new constraints.txt && rm -rf .lock-venv

fix:
	ruff format .
	ruff check --fix .

# Speed figures (medians); nothing in the tests depends on a machine's speed.
bench:
	$(PY) bench/engine.py
	$(PY) bench/bots.py
	$(PY) bench/net.py

bench-tui:
	$(PY) bench/tui.py

bench-web:
	$(PY) bench/web.py

screenshots:
	$(PY) -m pigeon_tui.screenshots screenshots

# The game in a browser (headless Chromium, /usr/bin/chromium), as PNG.
screenshots-web:
	$(PY) -m tests.web.screenshot screenshots

# Snapshots are compared byte for byte: refresh them only on the pinned Python.
snapshots:
	@$(PY) -c 'import platform, sys; v = platform.python_version(); sys.exit(0 if v == "$(SNAPSHOT_PYTHON)" else f"snapshots are made on Python $(SNAPSHOT_PYTHON), not {v}")'
	$(PY) -m pytest tests/tui/test_snapshots.py --snapshot-update
